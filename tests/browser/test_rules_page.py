"""How to play in the browser (#/rules/GAME): each game's guide and rulings, linked from the lobby and the
table page; a rule citation leads to its ruling on the same page (and survives a reload); a keyword is
explained on hover, on keyboard focus and on a tap; the page fits a phone; axe finds nothing serious."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from warcards.engine.registry import games

from .test_axe import assert_no_serious_violation
from .test_tables import seat_a_person

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

TIP = "getComputedStyle(document.querySelector('{selector}'), '::after').content"


def test_each_games_rules_page_is_linked_from_the_lobby_and_fits_a_phone_without_horizontal_scroll(
    page: Any, sqlite_server: ServerProcess
) -> None:
    for game_id in games():
        page.goto(f"{sqlite_server.http}/#/lobby")
        entry = page.locator(f".game-entry[data-game='{game_id}']")
        entry.get_by_role("link", name="How to play").click()
        page.wait_for_function(f"document.body.dataset.rules === '{game_id}'")
        assert page.locator("h1").inner_text().startswith("How to play ")
        assert page.locator(".rulings h3[id=R1]").count() == 1
        assert page.locator(".glossary dt").count() >= 5
        page.set_viewport_size({"width": 375, "height": 667})
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, game_id
        page.set_viewport_size({"width": 1000, "height": 900})


def test_a_rule_citation_leads_to_its_ruling_on_the_same_page_and_the_address_keeps_it(
    page: Any, sqlite_server: ServerProcess
) -> None:
    page.goto(f"{sqlite_server.http}/#/rules/race-to-messina")
    page.wait_for_function("document.body.dataset.rules === 'race-to-messina'")
    citation = page.locator(".guide a.cite", has_text="R31").first
    citation.click()
    page.wait_for_function("document.activeElement && document.activeElement.id === 'R31'")
    assert page.url.endswith("#/rules/race-to-messina/R31")
    ruling = page.locator("h3#R31")
    assert ruling.inner_text().startswith("R31. Deployment is simultaneous")
    assert ruling.evaluate("(node) => node.getBoundingClientRect().top") < 200  # scrolled to it
    page.reload()  # the address opens the page at the ruling
    page.wait_for_function("document.activeElement && document.activeElement.id === 'R31'")
    page.go_back()  # back to the top of the page, not to another page
    page.wait_for_function("document.body.dataset.rules === 'race-to-messina'")
    page.goto(f"{sqlite_server.http}/#/rules/med-sirocco")  # a printed rule's section leads to the ruling on it
    page.wait_for_function("document.body.dataset.rules === 'med-sirocco'")
    assert page.locator(".rulings a.cite", has_text="2.44").first.get_attribute("href") == "#/rules/med-sirocco/R3"


def test_a_keyword_is_explained_on_hover_on_keyboard_focus_and_on_a_tap(page: Any, sqlite_server: ServerProcess) -> None:
    page.goto(f"{sqlite_server.http}/#/rules/cards-of-war")
    page.wait_for_function("document.body.dataset.rules === 'cards-of-war'")
    kill = page.locator(".guide .term", has_text="KILL").first
    meaning = "Deployed into a battle whose opposing top card has the named type letter, it kills that card."
    assert kill.get_attribute("data-tip") == meaning
    assert page.locator(f"#{kill.get_attribute('aria-describedby')}").inner_text() == meaning  # the glossary entry
    assert page.evaluate(TIP.format(selector=".guide .term")) == "none"
    kill.hover()
    page.wait_for_function(f"{TIP.format(selector='.guide .term')} !== 'none'")
    page.mouse.move(0, 0)
    page.locator(".guide .term[tabindex='0']").first.focus()  # the first use in a section takes the focus
    assert page.evaluate("document.activeElement.classList.contains('term')")
    assert page.evaluate("getComputedStyle(document.activeElement, '::after').content").strip('"') == \
        page.evaluate("document.activeElement.dataset.tip")
    page.keyboard.press("Escape")
    later = page.locator(".guide .term:not([tabindex])").first  # a later use: a tap opens it
    later.dispatch_event("click")
    assert "open" in str(later.get_attribute("class"))
    page.locator("h1").click()
    assert "open" not in str(later.get_attribute("class"))


def test_the_table_page_links_to_its_games_rules(page: Any, sqlite_server: ServerProcess) -> None:
    seat_a_person(page, sqlite_server, "naval-war", {"players": 3})
    link = page.locator("#table-rules")
    link.wait_for()
    # The link names its game once the welcome has arrived (until then it is the bare "How to play").
    page.wait_for_function("document.querySelector('#table-rules').textContent === 'How to play Naval War'")
    assert link.inner_text() == "How to play Naval War"
    link.click()
    page.wait_for_function("document.body.dataset.rules === 'naval-war'")


def test_the_rules_page_has_no_serious_accessibility_violation(page: Any, sqlite_server: ServerProcess) -> None:
    page.goto(f"{sqlite_server.http}/#/rules/med-sirocco")
    page.wait_for_function("document.body.dataset.rules === 'med-sirocco'")
    assert_no_serious_violation(page, "the med-sirocco rules page")
    page.set_viewport_size({"width": 375, "height": 667})
    assert_no_serious_violation(page, "the med-sirocco rules page on a phone")
