"""The lobby as a newcomer reads it: every game by name with its one-line description, player counts,
typical length and rules link; the quick game says which bot level it plays; a refusal reads as a sentence
(never as JSON); a table waiting for its players shows its invite link with a copy button."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from warcards.engine.registry import games

from .test_play import start_short_game

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium


def test_the_lobby_describes_every_game_by_name_with_players_length_and_a_rules_link(
    page: Any, sqlite_server: ServerProcess
) -> None:
    page.goto(f"{sqlite_server.http}/#/lobby")
    page.wait_for_selector(".game-entry")
    catalogue = {game["id"]: game for game in sqlite_server.get_json("/games")["games"]}
    for game_id in games():
        entry = page.locator(f".game-entry[data-game='{game_id}']")
        game = catalogue[game_id]
        assert entry.locator("h3").inner_text() == game["title"] != game_id
        assert entry.locator(".description").inner_text() == game["description"]
        facts = entry.locator(".facts").inner_text()
        assert game["players"] in facts and "moves of yours" in facts
        assert entry.locator("a.rules-link").get_attribute("href") == f"#/rules/{game_id}"
    assert page.locator("#quick-game option").all_inner_texts() == [catalogue[g]["title"] for g in games()]
    assert 'bots at level "heuristic"' in page.locator("#quick-level").inner_text()


def test_a_refusal_reads_as_a_sentence_never_as_json(page: Any, sqlite_server: ServerProcess) -> None:
    page.goto(f"{sqlite_server.http}/#/lobby")
    page.wait_for_selector("select[name=seat1]")
    page.select_option("#game", "cards-of-war")
    page.select_option("select[name=strategic_exhaustion]", label="yes")  # only with a long game: refused
    refusal = page.locator("p.refusal[role=alert]")
    refusal.wait_for()
    assert "strategic" in refusal.inner_text() and "{" not in refusal.inner_text()
    assert page.get_by_role("button", name="Create the table").is_disabled()  # nothing the engine refuses is sent
    page.select_option("select[name=length]", label="long")  # the combination the engine accepts
    page.wait_for_selector("p.refusal[role=alert]", state="hidden")
    assert page.get_by_role("button", name="Create the table").is_enabled()
    said = page.evaluate("""async () => (await import('/lobby.js')).detailText(
        [{type: 'string_too_long', loc: ['body', 'name'], msg: 'String should have at most 40 characters'}], 422)""")
    assert said == "name: String should have at most 40 characters"


def test_a_waiting_table_shows_its_invite_link_and_copies_it(browser: Any, page: Any, sqlite_server: ServerProcess) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=sqlite_server.http)
    table = start_short_game(page, sqlite_server, "Ines", second_seat="person")
    page.wait_for_selector("#waiting:not([hidden])")
    link = page.locator("#invite-link").input_value()
    assert link == f"{sqlite_server.http}/#/table/{table}"
    page.get_by_role("button", name="Copy the link").click()
    page.wait_for_function("document.getElementById('invite-copied').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == link
    other = browser.new_context()  # the link opens the table with its open seat
    try:
        friend = other.new_page()
        friend.goto(link)
        friend.get_by_role("button", name="Take player 1").wait_for(timeout=60_000)
    finally:
        other.close()


def test_a_table_with_house_rules_is_made_from_the_form_and_marked_in_the_lobby(
    page: Any, sqlite_server: ServerProcess
) -> None:
    page.goto(f"{sqlite_server.http}/#/lobby")
    page.wait_for_selector("select[name=seat1]")
    page.select_option("#game", "cards-of-war")
    page.wait_for_selector("input[name=battle_target]", state="attached")
    page.locator("details.house-rules summary").click()
    target = page.locator("input[name=battle_target]")
    assert target.input_value() == "15" and target.get_attribute("max") == "40"
    target.fill("9")
    target.dispatch_event("change")
    page.select_option("select[name=seat1]", "person")  # the table waits for its second player: listed as open
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/#/table/*")
    table = page.url.rsplit("/", 1)[1]
    assert sqlite_server.get_json(f"/tables/{table}")["options"]["params"] == {"battle_target": 9}
    page.goto(f"{sqlite_server.http}/#/lobby")
    row = page.locator(f"tr:has(a[href='#/table/{table}'])")
    row.wait_for()
    assert "house rules" in row.inner_text() and "battle_target=9" in row.inner_text()
