"""The replay's address keeps the table, the seat and the step (#/replay/ID/SEAT/STEP): a moment can be
linked, survives a reload, and switching "As" keeps the same moment; the all-seats view labels each panel
by its seat, and no panel claims to be the reader's ("(you)")."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .test_replay import finished_bot_game, shown_step

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium


def test_the_replay_address_round_trip_keeps_the_moment_through_a_reload_and_a_change_of_seat(
    page: Any, sqlite_server: ServerProcess
) -> None:
    table = finished_bot_game(sqlite_server)
    page.goto(f"{sqlite_server.http}/#/replay/{table}/1/3")
    shown_step(page, 3)
    assert page.locator("#replay-seat").input_value() == "1"
    lines = page.locator("#replay-lines li").all_inner_texts()
    page.reload()
    shown_step(page, 3)
    assert page.locator("#replay-lines li").all_inner_texts() == lines
    page.locator("#replay-forward").click()
    shown_step(page, 4)
    assert page.url.endswith(f"#/replay/{table}/1/4")
    page.select_option("#replay-seat", "all")  # another reader, the same moment
    page.wait_for_function("document.querySelectorAll('#replay-view .seat-view').length === 2")
    shown_step(page, 4)
    page.wait_for_url(f"**/#/replay/{table}/all/4")
    headings = page.locator("#replay-view .seat-view > h3").all_inner_texts()
    assert headings == ["Bot · random (player 0) sees", "Bot · random (player 1) sees"]
    assert "(you)" not in page.locator("#replay-view").inner_text()
    page.reload()
    shown_step(page, 4)
    assert page.locator("#replay-seat").input_value() == "all"
    page.goto(f"{sqlite_server.http}/#/replay/{table}/0/99999")  # past the end: the last step
    page.wait_for_function("document.body.dataset.replayStep && document.body.dataset.replayStep !== '0'")
    last = int(page.evaluate("document.body.dataset.replayStep"))
    assert page.url.endswith(f"#/replay/{table}/0/{last}")
    assert page.locator("#replay-forward").is_disabled()
