"""Ratings in the browser (static/ratings.js): the end screen of a rated game shows each account's change
("+N → 1,5xx"), a name links to its profile (#/players/NAME) with its rating and its games, and the game's
leaderboard (#/leaderboard/GAME) ranks the players; none has a serious accessibility violation."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import ServerProcess
from tests.server.test_ratings import add_account, rated_table
from warcards.server.db import Store

from .conftest import screenshot
from .test_axe import assert_no_serious_violation

pytestmark = pytest.mark.xdist_group("browser")


@pytest.fixture
def rated_game(tmp_path: Path) -> Iterator[tuple[ServerProcess, str, str]]:
    """A real server whose rated Cards of War table of Ann and Bob ended (Bob resigned); its id and Ann's token."""
    database = f"sqlite:///{tmp_path / 'rated.sqlite3'}"
    store = Store(database)
    store.migrate()
    table, tokens = rated_table(store, "cards-of-war", {}, [add_account(store, "Ann"), add_account(store, "Bob")])
    store.close()
    server = ServerProcess(database, tmp_path)
    server.start()  # the full table starts with the server
    try:
        for _ in range(600):
            if server.get_json(f"/tables/{table}")["status"] == "playing":
                break
        answer = httpx.post(f"{server.http}/tables/{table}/leave", headers={"Authorization": f"Bearer {tokens[1]}"}, timeout=30)
        assert answer.status_code == 200, answer.text
        yield server, table, tokens[0]
    finally:
        server.stop()


def test_the_end_screen_profile_and_leaderboard_show_the_rated_game(page: Any, rated_game: tuple[ServerProcess, str, str]) -> None:
    server, table, token = rated_game
    ann = server.get_json(f"/tables/{table}")["result"]["ratings"][0]
    page.goto(f"{server.http}/#/lobby")
    seat = {table: {"seat": 0, "token": token, "name": "Ann"}}
    page.evaluate(f"localStorage.setItem('warcards.seats', {json.dumps(json.dumps(seat))})")
    page.goto(f"{server.http}/#/table/{table}")
    changes = page.locator("#rating-changes")
    changes.wait_for()
    assert f"Ann: +{ann['change']} → {ann['after']:,} (provisional)" in changes.inner_text()
    assert_no_serious_violation(page, "the end screen of a rated game")
    for width, height in ((1280, 800), (375, 667)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#rating-changes").scroll_into_view_if_needed()
        screenshot(page, f"ratings-end-{width}")
    changes.get_by_role("link", name="Ann").click()
    page.locator("#player-ratings").wait_for()
    assert "1 finished game, 1 won (100%)" in page.locator("#player-summary").inner_text()
    assert f"{ann['after']:,}?" in page.locator("#player-ratings").inner_text()
    assert page.locator("#player-games a", has_text="replay").get_attribute("href") == f"#/replay/{table}/0"
    assert_no_serious_violation(page, "a profile")
    for width, height in ((1280, 800), (375, 667)):
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"ratings-profile-{width}")
    page.locator("#player-ratings a", has_text="cards-of-war").click()
    page.locator("#leaderboard tbody tr").first.wait_for()
    rows = page.locator("#leaderboard tbody tr").all_inner_texts()
    assert [row.split("\t")[:2] for row in rows] == [["1", "Ann"], ["2", "Bob"]]
    assert_no_serious_violation(page, "a leaderboard")
    for width, height in ((1280, 800), (375, 667)):
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"ratings-leaderboard-{width}")
