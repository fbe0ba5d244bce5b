"""The table page read as a player reads it (issue 34): the players around the table by the names people
typed and bots as bots, no protocol words, the tab telling whose turn it is, a card chosen before a move
commits it (Race to Messina's Strategy discard no longer goes on one click), what happened since your move
marked in the log, and a result that says who won, by name, with Play again (a rematch: static/social.js), Replay and Lobby."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .test_play import READY
from .test_tables import seat_a_person

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

PROTOCOL_WORDS = re.compile(r"\bevent\b|\btable [A-Za-z0-9_-]{6,}|\bseat \d\b|\bplayer \d\b")
"""What a player should not read: an event number, a table id, a seat number or "player 1" where a name exists."""


def event_no(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.eventNo"))


def test_the_players_are_shown_by_name_bots_as_bots_with_no_protocol_words_and_the_tab_says_your_turn(
    page: Any, sqlite_server: ServerProcess
) -> None:
    table, _ = seat_a_person(page, sqlite_server, "cards-of-war", {})
    page.wait_for_selector(READY)
    page.wait_for_selector("#players")
    panels = page.locator("#players li.player").all_inner_texts()
    assert panels[0].startswith("▶ Gil (you)") and "your turn" in panels[0], panels
    assert panels[1].startswith("Bot · random"), panels
    page.wait_for_function("document.title === '● Your turn — warcards'")
    assert "circle" in page.evaluate("decodeURIComponent(document.querySelector('link[rel=icon]').href)")
    assert page.locator("#turn-banner").get_attribute("role") == "status"  # announced by a screen reader
    assert page.locator("#turn-banner").inner_text().startswith("Your turn — ")
    body = page.locator("main").inner_text()
    assert table not in body
    found = PROTOCOL_WORDS.search(body)
    assert not found, body[max(0, found.start() - 80):found.end() + 40]


def test_a_card_clicked_in_the_race_strategy_phase_is_chosen_not_discarded_and_its_move_commits_it(
    page: Any, sqlite_server: ServerProcess
) -> None:
    seat_a_person(page, sqlite_server, "race-to-messina", {"variant": "invasion"})
    page.wait_for_selector("#hand .card.playable .card-button")
    before = event_no(page)
    chosen = page.locator("#hand .card.playable .card-button").first
    card = chosen.locator(".card-id").inner_text()
    chosen.click()  # one click: the card is chosen and its moves shown; nothing is sent
    page.wait_for_selector("#moves .selected-note")
    page.wait_for_timeout(500)  # a move sent would come back as an event by now on an idle machine
    assert event_no(page) == before
    assert page.locator("#hand .card.selected").count() == 1
    offered = [text for text in page.locator("#moves button.move:not(.done)").all_inner_texts()]
    assert offered and all(card in text for text in offered), offered
    assert page.locator("#moves button.move.done").count() == 1  # the compound turn keeps its "done"
    page.locator("#moves button.move:not(.done)").first.click()
    page.wait_for_function(f"document.body.dataset.eventNo !== '{before}'")
    page.wait_for_selector(READY)
    assert page.evaluate("document.activeElement.closest('#your-move') !== null")  # the focus stays on the moves
    assert card not in page.locator("#hand").inner_text()


def test_one_click_play_is_a_setting_remembered_in_this_browser(page: Any, sqlite_server: ServerProcess) -> None:
    seat_a_person(page, sqlite_server, "race-to-messina", {"variant": "invasion"})
    page.wait_for_selector("#hand .card.playable .card-button")
    page.locator("summary", has_text="Settings").click()
    page.get_by_label("One click on a card plays it when it takes part in one move").check()
    assert page.evaluate("localStorage.getItem('warcards.oneClick')") == "1"
    before = event_no(page)
    page.locator("#hand .card.playable .card-button").first.click()
    page.wait_for_function(f"document.body.dataset.eventNo !== '{before}'")


def test_the_log_keeps_the_whole_history_marks_what_is_new_since_your_move_and_the_result_names_the_winner(
    page: Any, sqlite_server: ServerProcess
) -> None:
    table, _ = seat_a_person(page, sqlite_server, "cards-of-war", {})
    for _ in range(3):
        page.wait_for_selector(READY)
        before = event_no(page)
        page.locator("#moves button.move:not([disabled])").first.click()
        page.wait_for_function(f"document.body.dataset.eventNo !== '{before}'")
    page.wait_for_selector(READY)
    lines = page.locator("#log li").count()
    assert page.locator("#log").evaluate("(log) => log.tagName === 'OL' && !log.hasAttribute('start')")  # numbered from 1, continuously
    assert page.locator("#log li.new").count() >= 1  # the bot's answer to the last move
    assert lines >= 3
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign").click()
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#outcome").inner_text() == "You lost"
    assert page.locator("#winners").inner_text() == "Winner: Bot · random"
    ranking = page.locator("#result .ranking li").all_inner_texts()
    assert ranking[0].startswith("Bot · random") and any(line.startswith("Gil (you)") for line in ranking), ranking
    assert page.locator("#reason").inner_text().startswith("Reason: Gil ")
    for name in ("Replay this game", "Lobby"):
        assert page.get_by_role("link", name=name, exact=True).count() == 1
    page.get_by_role("button", name="Play again (same seats)").click()  # a rematch: the bot accepts at once
    page.wait_for_function(f"location.hash.startsWith('#/table/') && !location.hash.endsWith('{table}')")
    rematch = page.evaluate("location.hash.split('/')[2]")
    assert [s["player"] for s in sqlite_server.get_json(f"/tables/{rematch}")["seats"]] == ["Gil", "Bot · random"]
    page.wait_for_selector(READY)
    assert sqlite_server.get_json(f"/tables/{table}")["status"] == "finished"


def test_a_redraw_leaves_the_focus_in_the_typed_move_field(page: Any, sqlite_server: ServerProcess) -> None:
    seat_a_person(page, sqlite_server, "cards-of-war", {})
    page.wait_for_selector(READY)
    page.locator("#typed").fill("deploy")
    page.evaluate("window.warcards.drop()")  # a reconnection: a catchup and a redraw while the field has the focus
    page.wait_for_function("document.getElementById('connection').textContent === 'connected'")
    page.wait_for_selector(READY)
    page.wait_for_timeout(300)  # the redraw runs on the next animation frame
    assert page.evaluate("document.activeElement.id") == "typed"
