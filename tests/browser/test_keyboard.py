"""A whole game played by keyboard alone (Tab, arrow keys, Enter and typing a name; no mouse): from the
lobby's create form to a short Cards of War game's end, the moves reached by the skip link or kept in focus
after each move."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .test_play import READY

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

TAB_LIMIT = 400
"""The most Tab presses to reach a control (the page has fewer focusable things than this)."""


def tab_to(page: Any, test: str) -> None:
    """Press Tab until the focused element passes the JavaScript `test` of `el`."""
    for _ in range(TAB_LIMIT):
        if page.evaluate(f"(el => Boolean(el && ({test})))(document.activeElement)"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached an element with {test}")


def choose(page: Any, select_id: str, value: str) -> None:
    """Tab to the select `select_id` and move through its options with the arrow keys to `value`."""
    tab_to(page, f"el.id === '{select_id}' || el.name === '{select_id}'")
    for key in ("ArrowDown", "ArrowUp"):
        for _ in range(12):
            if page.evaluate("document.activeElement.selectedOptions[0].value") == value:
                return
            page.keyboard.press(key)
    raise AssertionError(f"{select_id} has no option {value}")


def test_a_game_played_by_keyboard_alone_from_the_lobby_to_its_end(page: Any, sqlite_server: ServerProcess) -> None:
    page.goto(f"{sqlite_server.http}/#/lobby")
    page.wait_for_selector("select[name=seat1]")
    tab_to(page, "el.id === 'name'")
    page.keyboard.type("Kim")
    choose(page, "game", "cards-of-war")
    page.wait_for_selector("select[name=length]")
    choose(page, "length", "0")  # the options' values are their indexes: 0 is "short"
    assert page.locator("select[name=length] option:checked").inner_text() == "short"
    tab_to(page, "el.type === 'submit' && el.textContent === 'Create the table'")
    page.keyboard.press("Enter")
    page.wait_for_url("**/#/table/*")
    moves = skips = 0
    while True:
        page.wait_for_selector(READY)
        if page.locator("#result").is_visible():
            break
        if not page.evaluate("document.activeElement.matches('#moves button.move:not([disabled])')"):
            skips += 1
            tab_to(page, "el.classList.contains('skip')")
            page.keyboard.press("Enter")  # the skip link: the focus goes to the first move
            page.wait_for_function("document.activeElement.matches('#moves button.move')")
        before = page.evaluate("document.body.dataset.eventNo")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.body.dataset.eventNo !== '{before}'")
        moves += 1
    assert moves >= 4
    assert skips == 1, f"the focus left the moves {skips - 1} times after a move"  # only to reach the first move
    assert page.locator("#outcome").inner_text() in {"You won", "You lost", "A draw"}
