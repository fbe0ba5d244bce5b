"""Reconnect feedback beside the moves: when the server goes away the moves are disabled and a countdown
with "Retry now" shows; a retry that fails counts down again; back on the server, all of it is cleared and
the moves work."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess, sqlite_server_in

from .test_play import READY
from .test_tables import seat_a_person

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

MOVE = "#moves button.move"


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of this test's own (it is stopped and started again on the same port and database)."""
    with sqlite_server_in(tmp_path) as server:
        yield server


def test_a_lost_server_disables_the_moves_and_counts_down_with_retry_now_until_it_is_back(
    page: Any, own_server: ServerProcess
) -> None:
    seat_a_person(page, own_server, "cards-of-war", {"length": "short"})
    page.wait_for_selector(READY)
    assert page.locator("#reconnect").is_hidden()
    own_server.kill()
    page.wait_for_selector("#reconnect:not([hidden])")
    assert page.locator(f"{MOVE}:not([disabled])").count() == 0  # no move while not connected
    page.wait_for_function("/Reconnecting in \\d+ s|reconnecting…/.test(document.getElementById('reconnect-text').textContent)")
    with page.expect_websocket():  # a new try
        page.get_by_role("button", name="Retry now").click()  # the server is still down: another countdown
    page.wait_for_function("/Reconnecting in \\d+ s/.test(document.getElementById('reconnect-text').textContent)")
    assert page.locator("#reconnect").is_visible()
    own_server.start()  # the same port and database: the table is still there
    # "Retry now" if it is still there: on a busy machine the countdown may have reconnected on its own while
    # the server started, and the button is gone (a click that waited for it would time out).
    page.evaluate("[...document.querySelectorAll('#reconnect button')].find((b) => b.textContent === 'Retry now')?.click()")
    page.wait_for_selector("#reconnect", state="hidden")
    page.wait_for_function("document.getElementById('connection').textContent === 'connected'")
    page.wait_for_selector(f"{MOVE}:not([disabled])")
    page.locator(f"{MOVE}:not([disabled])").first.click()  # the moves work again
    page.wait_for_function("document.querySelectorAll('#log li.new').length > 0 || !document.getElementById('result').hidden")
