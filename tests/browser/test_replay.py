"""The replay viewer (#/replay/ID): a finished game stepped forward and back by buttons and by the keyboard,
as a seat (what that seat read and saw) or as all; a seat's replay never shows a card of another seat's hand
before it was public; the table page's end links to it."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from warcards.engine.registry import load_game
from warcards.match import follow

from .conftest import WAIT_MS, screenshot
from .test_play import play_one_move, start_short_game

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

CARD = re.compile(r"\b[A-Z]\d\d\b")
"""A Cards of War card id (A07, S11)."""


def finished_bot_game(server: ServerProcess) -> str:
    """A short Cards of War game of two random bots, played to its end by the server's bot process."""
    table = server.post("/tables", {
        "game": "cards-of-war", "options": {"length": "short"}, "public": False,
        "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
    })["id"]
    for _ in range(600):  # polls for at most about two minutes (the machine may be loaded)
        if server.get_json(f"/tables/{table}")["status"] == "finished":
            return str(table)
        time.sleep(0.2)
    raise AssertionError(f"table {table} did not finish")


def named(text: str) -> str:
    """A log line as the page shows it in a game of two `random` bots: the seats' display names, told apart,
    for the protocol words "player N" (static/names.js)."""
    return re.sub(r"\b[Pp]layer (\d)\b", lambda seat: f"Bot · random #{int(seat.group(1)) + 1}", text)


def lines_match(shown: list[str], lines: list[str]) -> bool:
    """The page's lines are these log lines with names, each perhaps after its actor's name chip."""
    return len(shown) == len(lines) and all(text.endswith(named(line)) for text, line in zip(shown, lines, strict=True))


def shown_step(page: Any, step: int) -> None:
    page.wait_for_function(f"document.body.dataset.replayStep === '{step}'")


def lines_on_page(page: Any) -> list[str]:
    return [str(text) for text in page.locator("#replay-lines li").all_inner_texts()]


def test_a_finished_game_steps_forward_and_back_as_a_seat_and_as_all_by_buttons_and_keys(
    page: Any, sqlite_server: ServerProcess
) -> None:
    table = finished_bot_game(sqlite_server)
    as_seat = sqlite_server.get_json(f"/tables/{table}/replay?seat=0")
    as_all = sqlite_server.get_json(f"/tables/{table}/replay?seat=all")
    last = len(as_seat["steps"]) - 1
    page.goto(f"{sqlite_server.http}/#/replay/{table}/0")
    shown_step(page, 0)
    assert page.locator("#replay-position").inner_text() == f"Step 0 of {last}"
    page.get_by_role("button", name="Forward one step").click()
    shown_step(page, 1)
    expected = [line["text"] for line in as_seat["steps"][1]["lines"]] or ["nothing this seat could see"]
    assert lines_match(lines_on_page(page), expected)
    page.locator("#replay-forward").focus()
    page.keyboard.press("ArrowRight")
    shown_step(page, 2)
    page.keyboard.press("ArrowLeft")
    shown_step(page, 1)
    page.keyboard.press("End")
    shown_step(page, last)
    assert page.locator("#replay-result").is_visible()
    info = sqlite_server.get_json(f"/tables/{table}")
    assert page.locator("#replay-reason").inner_text() == f"Reason: {named(info['result']['reason'])}"
    assert page.locator("#replay-forward").is_disabled()
    screenshot(page, "replay-cards-of-war", full_page=True)
    page.get_by_role("button", name="Back one step").click()
    shown_step(page, last - 1)
    assert page.locator("#replay-result").is_hidden()
    page.select_option("#replay-seat", "all")  # the same step, as all: every move in full, both seats' views
    page.wait_for_function("document.querySelectorAll('#replay-view .seat-view').length === 2")
    page.wait_for_function(
        f"document.querySelector('#replay-lines li')?.textContent.endsWith({json.dumps(named(as_all['steps'][last - 1]['lines'][0]['text']))})"
    )
    page.locator("#replay-back").focus()
    page.keyboard.press("Home")
    shown_step(page, 0)
    assert page.locator("#replay-first").is_disabled()
    assert page.locator("#replay-moved").inner_text() == "The start: no move yet."


def test_a_seats_replay_never_shows_a_card_of_another_seats_hand_before_it_was_public(
    page: Any, sqlite_server: ServerProcess
) -> None:
    table = finished_bot_game(sqlite_server)
    record = sqlite_server.get_json(f"/tables/{table}/record")
    game = load_game(record["game"], **record["options"])
    last = len(sqlite_server.get_json(f"/tables/{table}/replay?seat=0")["steps"]) - 1
    page.goto(f"{sqlite_server.http}/#/replay/{table}/0")
    public: set[str] = set()  # every card id seat 0 could know: seen in public or in its own hand so far
    checked = 0
    for step in range(last + 1):
        if step:
            page.keyboard.press("ArrowRight")
        shown_step(page, step)
        state = follow(game, record["seed"], record["actions"][:step]).state
        public |= set(CARD.findall(json.dumps(state.public_view()))) | set(state.observe(0)["hand"])
        hidden = set(state.observe(1)["hand"]) - public
        html = page.content()
        shown = sorted(card for card in hidden if re.search(rf"\b{card}\b", html))
        assert not shown, f"step {step}: seat 0's replay shows {shown} of seat 1's hand"
        checked += len(hidden)
    assert checked > 0


def test_the_end_of_a_game_links_to_its_replay_as_the_players_seat(page: Any, sqlite_server: ServerProcess) -> None:
    table = start_short_game(page, sqlite_server)
    while play_one_move(page, keyboard=False):
        pass
    page.get_by_role("link", name="Replay this game").click()
    # The address itself, polled (a same-document navigation's wait_for_url missed it now and then under load). The
    # replay page then adds the step it shows (#/replay/ID/0/0): under load a poll can miss the address without it.
    page.wait_for_function("prefix => location.hash === prefix || location.hash.startsWith(prefix + '/')",
                           arg=f"#/replay/{table}/0", timeout=WAIT_MS)
    shown_step(page, 0)
    assert page.locator("#replay-seat").input_value() == "0"
