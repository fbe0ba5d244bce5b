"""The pages audited with axe-core (axe-playwright-python ships axe.min.js: nothing is fetched at run time):
no serious or critical violation on the lobby, every game's table at a seat's turn, the result screen and
the replay viewer."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .test_play import READY, start_short_game
from .test_tables import TABLE_IDS, TABLES, seat_a_person

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium


def assert_no_serious_violation(page: Any, where: str) -> None:
    """axe-core's violations of impact serious or critical on the page as it is now, by rule and element."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="the test extra's axe-playwright-python is not installed")
    violations = axe.Axe().run(page).response["violations"]
    serious = [f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']][:3]}"
               for v in violations if v["impact"] in ("serious", "critical")]
    assert not serious, f"{where}: {serious}"


def test_the_lobby_has_no_serious_accessibility_violation(page: Any, sqlite_server: ServerProcess) -> None:
    page.goto(f"{sqlite_server.http}/#/lobby")
    page.wait_for_selector("select[name=seat1]")
    assert_no_serious_violation(page, "the lobby")


@pytest.mark.parametrize(("game_id", "options"), TABLES, ids=TABLE_IDS)
def test_a_games_table_at_your_turn_has_no_serious_accessibility_violation(
    page: Any, sqlite_server: ServerProcess, game_id: str, options: dict[str, Any]
) -> None:
    seat_a_person(page, sqlite_server, game_id, options)
    page.wait_for_selector(READY)
    page.wait_for_selector("#hand .card-text")
    assert_no_serious_violation(page, f"the {game_id} table")
    page.set_viewport_size({"width": 375, "height": 667})
    assert_no_serious_violation(page, f"the {game_id} table on a phone")


def test_the_result_and_the_replay_have_no_serious_accessibility_violation(page: Any, sqlite_server: ServerProcess) -> None:
    start_short_game(page, sqlite_server, "Ida")
    page.wait_for_selector("#moves button.move")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign").click()
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#outcome").inner_text() == "You lost"
    assert_no_serious_violation(page, "the result")
    page.locator("#replay-link").click()
    page.wait_for_selector("#replay-position")
    assert_no_serious_violation(page, "the replay")
