"""A bot's turn at a readable pace: the moves other seats make are shown one at a time (the next waits its
moment), "Skip" or the player's next click shows the rest at once, and a browser asking for reduced motion
gets no pacing. Every other browser test runs at pace 0 (conftest's NO_PACING)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .test_play import READY
from .test_tables import seat_a_person

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

SEEN_PACING = """() => { window.pacedSeen = 0; new MutationObserver(() => {
  if (!document.getElementById('pace')?.hidden) window.pacedSeen += 1; }).observe(document.body, {subtree: true, attributes: true, childList: true}); }"""


def open_paced(page: Any, server: ServerProcess, pace_ms: int) -> str:
    """A Naval War table (a person and two random bots) opened at `?pace=pace_ms`; returns its id."""
    table, _ = seat_a_person(page, server, "naval-war", {"players": 3})
    page.goto(f"{server.http}/?pace={pace_ms}#/table/{table}")
    page.wait_for_selector(READY)
    page.evaluate(SEEN_PACING)
    return str(table)


def test_the_bots_moves_are_shown_one_at_a_time_and_skip_shows_the_rest(page: Any, sqlite_server: ServerProcess) -> None:
    open_paced(page, sqlite_server, 5000)  # long enough that the bots' later moves must wait, however busy
    for _ in range(30):  # a move of this seat, then the bots' turns arrive: the second and later are held
        page.locator("#moves button.move:not([disabled])").first.click()
        page.wait_for_function("window.pacedSeen > 0 || document.querySelector('#moves button.move:not([disabled])')")
        if page.evaluate("window.pacedSeen") > 0:
            break
        page.wait_for_selector(READY)
    else:
        pytest.fail("no bot move was ever held for its moment")
    assert page.locator("#pace-line").inner_text()  # the move being shown, in words
    assert int(page.evaluate("document.body.dataset.paced")) > 0
    page.get_by_role("button", name="Skip to the latest move").click()
    page.wait_for_selector("#pace", state="hidden")
    assert page.evaluate("document.body.dataset.paced") == "0"
    for _ in range(30):  # the player's own next click skips too
        page.wait_for_selector(READY)
        if page.locator("#result").is_visible():
            return
        page.locator("#moves button.move:not([disabled])").first.click()
        page.wait_for_function("document.body.dataset.paced > '0' || document.querySelector('#moves button.move:not([disabled])')")
        if page.evaluate("document.body.dataset.paced") > "0":
            page.locator("#log-h").click()
            page.wait_for_selector("#pace", state="hidden")
            return
    pytest.fail("no bot move was held a second time")


def test_reduced_motion_shows_every_move_at_once(page: Any, sqlite_server: ServerProcess) -> None:
    page.emulate_media(reduced_motion="reduce")
    open_paced(page, sqlite_server, 5000)
    for _ in range(6):
        page.wait_for_selector(READY)
        if page.locator("#result").is_visible():
            break
        before = page.evaluate("document.body.dataset.eventNo")
        page.locator("#moves button.move:not([disabled])").first.click()
        page.wait_for_function(f"document.body.dataset.eventNo !== '{before}'")  # the move was played
    page.wait_for_selector(READY)
    assert page.evaluate("window.pacedSeen") == 0
