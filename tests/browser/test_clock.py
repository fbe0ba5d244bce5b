"""The table's timer on the table page (the `clock` of every view and event frame): the running seat's time
counts down for a move limit, every seat's bank for a chess clock made in the lobby's form; when a stand-in
bot holds the reader's own seat after a timeout, "Take my seat back" reclaims it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .conftest import screenshot

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium


def open_seat(page: Any, server: ServerProcess, timer: dict[str, Any]) -> str:
    """A Cards of War table (three rounds) with `timer`, seat 0 a person (this page, its token put in
    localStorage as the lobby keeps it), seat 1 a random bot; returns the table id."""
    table = server.post("/tables", {
        "game": "cards-of-war", "public": False, "timer": timer,
        "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
    })["id"]
    token = server.post(f"/tables/{table}/seats/0", {"name": "Ann"})["token"]
    page.goto(f"{server.http}/#/lobby")
    seats = {table: {"seat": 0, "token": token, "name": "Ann"}}
    page.evaluate(f"localStorage.setItem('warcards.seats', {json.dumps(json.dumps(seats))})")
    page.goto(f"{server.http}/#/table/{table}")
    return str(table)


def counts_down(page: Any, selector: str) -> None:
    """The text at `selector` shows a time and then changes (the countdown ticks each second)."""
    page.wait_for_function(f"/\\d+:\\d\\d/.test(document.querySelector({json.dumps(selector)})?.textContent || '')")
    first = page.locator(selector).inner_text()
    page.wait_for_function(
        f"document.querySelector({json.dumps(selector)}).textContent !== {json.dumps(first)}"
    )


def test_a_move_limit_counts_down_and_take_my_seat_back_reclaims_it_from_a_stand_in(
    page: Any, sqlite_server: ServerProcess
) -> None:
    # The stand-in is a `hard` bot: it thinks, so the game is still on when its player comes back. It is
    # timed too (a fresh move time, docs/server.md): 10 s, not 4, so a busy machine does not make it forfeit.
    open_seat(page, sqlite_server, {"kind": "move", "seconds": 10, "on_timeout": "bot", "level": "hard"})
    page.wait_for_selector("#clock:not([hidden])")
    page.wait_for_function("/^You have \\d+:\\d\\d left for this move$/.test(document.getElementById('clock-running').textContent)")
    counts_down(page, "#clock-running")
    assert page.locator("#clock-banks").is_hidden()  # a move limit has no banks
    # This seat does not move: its time runs out and a stand-in bot takes the seat.
    page.wait_for_selector("#stand-in:not([hidden])")
    assert "a bot is playing your seat" in page.locator("#stand-in").inner_text()
    page.get_by_role("button", name="Take my seat back").click()
    page.wait_for_selector("#stand-in", state="hidden")
    # Back in the seat: its player's own move is accepted (the log shows it as "You ...").
    before = page.locator("#log li").count()
    page.wait_for_selector("#moves button.move:not([disabled])")
    page.locator("#moves button.move:not([disabled])").first.click()
    page.wait_for_function(
        f"[...document.querySelectorAll('#log li')].slice({before}).some((li) => li.textContent.startsWith('You '))"
    )


def test_a_chess_clock_made_in_the_lobby_shows_every_seats_bank_and_runs_the_movers(
    page: Any, sqlite_server: ServerProcess
) -> None:
    page.goto(f"{sqlite_server.http}/")
    page.fill("#name", "Ann")
    page.select_option("#game", "cards-of-war")
    page.wait_for_selector("select[name=seat1]")
    page.select_option("select[name=seat1]", "random")
    page.select_option("#timer", "total:300:5")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/#/table/*")
    table = page.url.rsplit("/", 1)[1]
    page.wait_for_function("document.querySelectorAll('#clock-banks li').length === 2")
    page.wait_for_selector("#clock-banks li.running")
    counts_down(page, "#clock-banks li.running")
    banks = page.locator("#clock-banks li").all_inner_texts()
    assert all(re.fullmatch(r"\S.*: [0-5]:\d\d( ▸ running)?", text) for text in banks), banks
    page.wait_for_function(  # each player's panel shows its bank too
        "[...document.querySelectorAll('#players .clock-fact')].filter((f) => /\\d+:\\d\\d/.test(f.textContent)).length === 2")
    counts_down(page, "#players li.mover .clock-fact")
    assert sqlite_server.get_json(f"/tables/{table}")["status"] == "playing"
    screenshot(page, "cards-of-war-chess-clock")
