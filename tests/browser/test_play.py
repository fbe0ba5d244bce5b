"""A person plays in the browser against the server's bots, by clicking (and a few moves by keyboard), with
a reload and a dropped connection in the middle; a refused move shows the server's message."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .conftest import NO_PACING, WAIT_MS, screenshot

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

READY = "#moves button.move:not([disabled]), #result:not([hidden])"


def play_one_move(page: Any, keyboard: bool) -> bool:
    """Wait for this seat's turn or the end; play the first legal move. False at the end."""
    page.wait_for_selector(READY)
    if page.locator("#result").is_visible():
        return False
    button = page.locator("#moves button.move:not([disabled])").first
    if keyboard:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    return True


def start_short_game(page: Any, server: ServerProcess, name: str = "Ann", second_seat: str = "random") -> str:
    """From the lobby: a short Cards of War game (the create form, option from the game's metadata), seat 0
    a person, seat 1 `second_seat` (a bot level, or "person"); returns the table id."""
    page.goto(f"{server.http}/")
    page.fill("#name", name)
    page.select_option("#game", "cards-of-war")
    page.select_option("select[name=length]", label="short")
    page.wait_for_selector("select[name=seat1]")
    page.select_option("select[name=seat1]", second_seat)
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/#/table/*")
    return str(page.url.rsplit("/", 1)[1])


def test_a_person_plays_a_short_cards_of_war_game_to_its_end_against_a_bot(
    page: Any, sqlite_server: ServerProcess
) -> None:
    table = start_short_game(page, sqlite_server)
    moves = 0
    while play_one_move(page, keyboard=moves < 2):
        moves += 1
        if moves == 3:
            page.reload()  # the seat token is in localStorage: the page resumes the game
        if moves == 5:
            page.goto(f"{sqlite_server.http}/")  # a returning player is sent back to the table
            page.wait_for_url(f"**/#/table/{table}")
        if moves == 7:
            page.evaluate("window.warcards.drop()")  # the socket drops: reconnect and resync
            page.wait_for_function("document.getElementById('connection').textContent === 'connected'")
    assert moves >= 4
    info = sqlite_server.get_json(f"/tables/{table}")
    assert info["status"] == "finished"
    assert page.locator("#reason").inner_text().startswith("Reason: ")
    assert page.locator("#log li").count() > moves
    screenshot(page, "cards-of-war-end", full_page=True)


def test_a_refused_move_shows_the_servers_message(page: Any, sqlite_server: ServerProcess) -> None:
    refusals: list[dict[str, Any]] = []

    def listen(socket: Any) -> None:
        def received(payload: Any) -> None:
            message = json.loads(payload)
            if message["type"] == "refused":
                refusals.append(message)

        socket.on("framereceived", received)

    page.on("websocket", listen)
    page.goto(f"{sqlite_server.http}/")
    page.fill("#name", "Bea")
    page.select_option("#quick-game", "cards-of-war")
    page.get_by_role("button", name="Play against bots now").click()  # one click: a private table against bots
    page.wait_for_url("**/#/table/*")
    table = page.url.rsplit("/", 1)[1]
    assert table not in {listed["id"] for listed in sqlite_server.get_json("/tables")}
    page.wait_for_selector("#moves button.move")
    assert page.locator("#moves button.move").first.get_attribute("aria-label", timeout=WAIT_MS).startswith("Move: ")
    for text, code in (("zzz", "invalid_action"), ("deploy discard left", "illegal_action")):
        page.fill("#typed", text)
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.getElementById('refusal').textContent.includes('({code})')")
        page.evaluate("new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))")  # the answer's redraw
        assert page.evaluate("document.activeElement.id") == "typed"  # the keyboard stays in the field to type again
        assert refusals[-1]["code"] == code
        assert page.locator("#refusal").inner_text() == f"Refused ({code}): {refusals[-1]['message']}"
    assert page.locator("#refusal").get_attribute("role") == "alert"
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    screenshot(page, "cards-of-war-375px")


def test_two_people_find_each_other_in_the_lobby_and_play_a_game_to_its_end(
    browser: Any, page: Any, sqlite_server: ServerProcess
) -> None:
    table = start_short_game(page, sqlite_server, "Dora", second_seat="person")
    page.wait_for_selector("#waiting:not([hidden])")
    other = browser.new_context(viewport={"width": 375, "height": 800})
    other.set_default_timeout(WAIT_MS)
    other.add_init_script(NO_PACING)
    try:
        second = other.new_page()
        second.goto(f"{sqlite_server.http}/#/lobby")
        second.fill("#name", "Emil")
        second.get_by_role("button", name="Join cards-of-war as player 1").first.wait_for()
        assert second.evaluate("document.documentElement.scrollWidth") <= 375
        screenshot(second, "lobby-375px")
        second.locator(f"tr:has(a[href='#/table/{table}'])").get_by_role("button").click()
        second.wait_for_url(f"**/#/table/{table}")
        people = (page, second)
        while not any(person.locator("#result").is_visible() for person in people):
            for person in people:
                button = person.locator("#moves button.move:not([disabled])")
                if button.count():
                    button.first.click()
            page.wait_for_timeout(20)  # both pages are polled: let the server answer between rounds
        for person in people:
            person.wait_for_selector("#result:not([hidden])")
        winners = {person.locator("#winners").inner_text() for person in people}
        assert len(winners) == 1
        assert sqlite_server.get_json(f"/tables/{table}")["status"] == "finished"
    finally:
        other.close()


def test_playable_cards_are_highlighted_and_resigning_ends_the_game_with_the_servers_reason(page: Any, sqlite_server: ServerProcess) -> None:
    table = start_short_game(page, sqlite_server, "Finn")
    page.wait_for_selector("#moves button.move")
    assert page.locator("#hand li.playable").count() > 0  # the cards a legal move names are highlighted
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign").click()
    page.wait_for_selector("#result:not([hidden])")
    info = sqlite_server.get_json(f"/tables/{table}")
    assert info["status"] == "finished"
    assert info["result"]["reason"].startswith("player 0 ")  # the server's seat name; the page says who that is
    assert page.locator("#reason").inner_text() == f"Reason: Finn {info['result']['reason'].removeprefix('player 0 ')}"
    assert page.locator("#outcome").inner_text() == "You lost"
    assert page.locator("#resign").count() == 0
