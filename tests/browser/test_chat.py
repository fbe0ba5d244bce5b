"""Table chat and "Play again" in the browser: two players and a spectator in three browser contexts chat
(the text shown as text, never as HTML), the spectator does not read the players, a mute hides a player, and
"Play again" is a rematch both players accept that seats each in the same seat of a new table."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .conftest import SCREENSHOTS, WAIT_MS, screenshot
from .test_axe import assert_no_serious_violation

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

TRAP = '<img src=x onerror="window.hacked=1"><b>bold</b> hi'
"""A message that would run a script and draw an image if the page put it in as HTML."""


@contextmanager
def seat_page(browser: Any, server: ServerProcess, table: str, seat: int | None, token: str | None, name: str) -> Iterator[Any]:
    """A browser context of its own (its own localStorage) on the table's page: seated with `token`, or
    watching (None); a page error fails the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.http}/#/lobby")
    if token is not None:
        page.evaluate(
            "([table, seat, token, name]) => localStorage.setItem('warcards.seats', JSON.stringify({[table]: {seat, token, name}}))",
            [table, seat, token, name],
        )
    page.goto(f"{server.http}/#/table/{table}")
    page.wait_for_selector("#chat-input")
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def say(page: Any, text: str) -> None:
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")
    page.wait_for_function("document.getElementById('chat-input').value === ''")  # acknowledged


def wait_for_line(page: Any, text: str) -> None:
    page.locator("#chat-log li", has_text=text).first.wait_for()


def lines(page: Any) -> list[str]:
    return [str(line) for line in page.locator("#chat-log li").all_inner_texts()]


def chat_above_the_moves(page: Any, name: str) -> None:
    """Scrolled to the end of the table, the chat's field is in view and not under the action bar (the moves)."""
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(100)
    field = page.locator("#chat-input").bounding_box()
    bar = page.locator("#action-bar").bounding_box()
    assert field is not None and bar is not None
    assert field["y"] >= 0 and field["y"] + field["height"] <= bar["y"] + 1, (field, bar)
    if os.environ.get("WARCARDS_SCREENSHOTS"):
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@contextmanager
def ann_ben_and_a_spectator(browser: Any, server: ServerProcess) -> Iterator[tuple[str, Any, Any, Any]]:
    """A private Cards of War table of Ann and Ben, each in a browser of their own, and a spectator's: the
    table id and the three pages."""
    table = server.post("/tables", {"game": "cards-of-war", "seats": [{"kind": "person"}] * 2, "public": False})["id"]
    tokens = [server.post(f"/tables/{table}/seats/{seat}", {"name": name})["token"] for seat, name in enumerate(("Ann", "Ben"))]
    with seat_page(browser, server, table, 0, tokens[0], "Ann") as ann, \
            seat_page(browser, server, table, 1, tokens[1], "Ben") as ben, \
            seat_page(browser, server, table, None, None, "") as watcher:
        yield table, ann, ben, watcher


def test_two_players_and_a_spectator_chat_as_text_the_spectator_reads_only_its_channel_and_a_mute_hides_a_player(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    with ann_ben_and_a_spectator(browser, sqlite_server) as (_table, ann, ben, watcher):
        say(ann, TRAP)
        wait_for_line(ben, "hi")
        assert lines(ben) == [f"Ann: {TRAP}"] and lines(ann) == [f"You: {TRAP}"]
        assert ben.locator("#chat-log img, #chat-log b:has-text('bold')").count() == 0
        assert ben.evaluate("window.hacked") is None
        say(watcher, "go Ben")
        wait_for_line(ben, "go Ben")
        wait_for_line(ann, "go Ben")
        assert lines(watcher) == ["You: go Ben"]  # the players' channel is not a spectator's
        assert "players' chat is hidden" in watcher.locator("#chat-note").inner_text()
        chat_above_the_moves(ben, "chat-table-1280")
        ben.get_by_role("button", name="Mute Ann").click()
        ben.get_by_role("button", name="Unmute Ann").wait_for()
        assert lines(ben) == ["Spectator 1 (watching): go Ben"]
        say(ann, "you cannot read this")
        say(watcher, "barrier")  # sent after Ann's: Ben's page has had everything before it
        wait_for_line(ben, "barrier")
        assert all("cannot read" not in line for line in lines(ben))
        ben.set_viewport_size({"width": 375, "height": 667})
        ben.reload()
        ben.wait_for_selector("#chat-input", state="attached")
        assert ben.locator("#chat").get_attribute("open") is None  # folded on a phone, out of the moves' way
        ben.locator("#chat summary").click()
        wait_for_line(ben, "barrier")
        assert all("cannot read" not in line for line in lines(ben))  # the mute is kept across a reload
        chat_above_the_moves(ben, "chat-table-375")
        assert_no_serious_violation(ben, "the table with its chat on a phone")


def test_play_again_is_a_rematch_both_players_accept_each_seated_in_the_same_seat(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    with ann_ben_and_a_spectator(browser, sqlite_server) as (table, ann, ben, watcher):
        ann.once("dialog", lambda dialog: dialog.accept())
        ann.locator("#resign").click()
        for page in (ann, ben, watcher):
            page.wait_for_selector("#result:not([hidden])")
        ann.get_by_role("button", name="Play again (same seats)").click()
        ben.get_by_role("button", name="Accept the rematch").wait_for()
        assert "Ann accepted" in ben.locator("#rematch-status").inner_text()
        assert "waiting for Ben" in ann.locator("#rematch-status").inner_text()
        assert "waiting for Ben" in watcher.locator("#rematch-status").inner_text()
        screenshot(ben, "rematch-proposed-1280", full_page=True)
        assert_no_serious_violation(ben, "the result with a rematch proposed")
        ben.get_by_role("button", name="Accept the rematch").click()
        for page in (ann, ben):
            page.wait_for_function(f"location.hash.startsWith('#/table/') && !location.hash.endsWith('{table}')")
        new_table = ann.evaluate("location.hash.split('/')[2]")
        assert ben.evaluate("location.hash.split('/')[2]") == new_table
        seats = [page.evaluate(f"JSON.parse(localStorage.getItem('warcards.seats'))['{new_table}'].seat") for page in (ann, ben)]
        assert seats == [0, 1]
        watcher.get_by_role("link", name="Watch the rematch").wait_for()
        info = sqlite_server.get_json(f"/tables/{new_table}")
        assert info["status"] == "playing" and [s["player"] for s in info["seats"]] == ["Ann", "Ben"]
        assert info["public"] is False
        for page in (ann, ben):
            page.wait_for_selector("#turn-banner")
            page.wait_for_function("document.getElementById('turn-banner').textContent.length > 0 && !/Connecting/.test(document.getElementById('turn-banner').textContent)")
