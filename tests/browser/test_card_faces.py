"""Cards drawn as cards (issue 34, "Cards as cards", "What just happened", "Results a player understands"):
every game's hand is faces with the side written on them, a type icon with a name and the values in the
corners; the whole text in a popover reached by keyboard focus and by a long press; face-down cards drawn
as backs with their count; the hand fits a 375×667 phone without sideways scroll; the cards a bot moved
since the person's move are marked (with words for a screen reader) until the person's next move; the
end screen breaks each seat's score down."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .conftest import screenshot
from .test_play import READY, play_one_move, start_short_game
from .test_tables import TABLE_IDS, TABLES, seat_a_person

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

FACES = """() => [...document.querySelectorAll('#hand .card')].map((card) => ({
  face: card.classList.contains('face'),
  side: card.querySelector('.side-name')?.textContent || '',
  icon: card.querySelector('.card-icon')?.getAttribute('aria-label') || '',
  corners: [...card.querySelectorAll('.corner')].map((c) => c.textContent),
  focusable: card.tabIndex >= 0 || Boolean(card.querySelector('button.card-button')),
}))"""
"""Each card of the hand as the page draws it: a face or not, the side written on it, its icon's name, the
text of its corners, and whether the keyboard reaches it."""

HAND_FITS = """() => {
  const hand = document.getElementById('hand');
  const cards = [...hand.querySelectorAll(':scope > .card')];
  return { sideways: document.documentElement.scrollWidth - innerWidth,
           handScroll: hand.scrollWidth - hand.clientWidth,
           outside: cards.filter((c) => { const r = c.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth; }).length,
           cornersSeen: cards.filter((c) => { const r = c.querySelector('.card-band').getBoundingClientRect();
             const top = document.elementFromPoint(r.left + 6, r.top + r.height / 2); return top && c.contains(top); }).length,
           count: cards.length };
}"""
"""At a phone's width: how far the page and the hand scroll sideways, how many hand cards stick out of the
screen, on how many the top-left corner is in view (not under the next card)."""


def tip_text(page: Any) -> str:
    page.wait_for_selector("#card-tip:not([hidden])")
    return str(page.locator("#card-tip").inner_text())


@pytest.mark.parametrize(("game_id", "options"), TABLES, ids=TABLE_IDS)
def test_every_games_hand_is_card_faces_with_corner_values_backs_counted_and_the_text_on_focus_and_long_press(
    page: Any, sqlite_server: ServerProcess, game_id: str, options: dict[str, Any]
) -> None:
    table, _ = seat_a_person(page, sqlite_server, game_id, options)
    page.wait_for_selector(READY)
    page.wait_for_selector("#hand .card.face")  # the facts arrived
    facts = sqlite_server.get_json(f"/tables/{table}/cards")
    faces = page.evaluate(FACES)
    assert faces and all(f["face"] and f["side"] and f["icon"] and f["focusable"] for f in faces), faces
    assert any(f["corners"] for f in faces), faces  # the values a player decides on, in the corners
    assert all(re.fullmatch(r"[-+×\w″/.–?* ]+", c) for f in faces for c in f["corners"]), faces

    counts = page.locator(".backs").evaluate_all("(nodes) => nodes.map((n) => n.getAttribute('aria-label'))")
    assert counts and all(re.search(r": \d+ cards?", label) for label in counts), counts
    assert any("hand" in label for label in counts), counts  # the others' hands, seen from behind and counted
    assert re.search(r"\d+ cards?", page.locator(".backs .backs-count").first.inner_text())

    card = page.locator("#hand .card").first
    card_id = card.get_attribute("data-card")
    (card.locator(".card-button") if card.locator(".card-button").count() else card).focus()
    assert facts[card_id]["text"] in tip_text(page)  # the whole text, by keyboard focus
    if page.locator("#hand .card").count() > 1:  # the Tab key goes on to the next card, and its text
        page.keyboard.press("Tab")
        second = page.locator("#hand .card").nth(1).get_attribute("data-card")
        page.wait_for_function("(id) => document.activeElement.closest('.card')?.dataset.card === id", arg=second)
        assert facts[second]["text"] in tip_text(page)
    page.keyboard.press("Escape")
    page.wait_for_selector("#card-tip", state="hidden")

    table_card = page.locator("#view .card.face[data-card]").first
    if table_card.count():  # a card on the table is reached by the keyboard too
        assert table_card.get_attribute("tabindex") == "0"

    page.set_viewport_size({"width": 375, "height": 667})
    page.evaluate("window.scrollTo(0, 0); document.activeElement.blur()")
    fits = page.evaluate(HAND_FITS)
    assert fits["sideways"] <= 0 and fits["handScroll"] <= 0 and fits["outside"] == 0, fits
    assert fits["cornersSeen"] == fits["count"], fits  # a fan: every card's corner in view
    last = page.locator("#hand .card").last
    last_id = last.get_attribute("data-card")
    box = last.evaluate("(n) => { const r = n.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width }; }")  # one read: a redraw may replace the node
    target = "#hand .card:last-child"
    point = {"clientX": box["x"] + box["width"] / 2, "clientY": box["y"] + 12}
    page.dispatch_event(target, "pointerdown", {"pointerType": "touch", "isPrimary": True, **point})
    page.wait_for_timeout(700)  # a long press: held past the 450 ms that make it one
    page.dispatch_event(target, "pointerup", {"pointerType": "touch", "isPrimary": True, **point})
    assert facts[last_id]["text"] in tip_text(page)
    screenshot(page, "-".join([game_id, *map(str, options.values()), "cards-phone"]))  # the popover a long press opened


def test_the_cards_a_bot_moved_since_your_move_are_marked_until_your_next_move(page: Any, sqlite_server: ServerProcess) -> None:
    seat_a_person(page, sqlite_server, "cards-of-war", {})
    page.wait_for_selector("#hand .card.playable .card-button")
    assert page.locator(".card.fresh").count() == 0  # nothing is marked before a move of yours
    page.locator("#moves button.move:not([disabled])").first.click()
    page.wait_for_selector("#moves button.move:not([disabled]), #result:not([hidden])")
    marked = page.locator("#view .card.fresh")
    marked.first.wait_for()  # the bot's deployment, on the table
    assert "moved since your last move" in marked.first.inner_text()
    assert "moved since your last move" in (marked.first.get_attribute("aria-label") or "")
    own = page.locator("#view .card[data-card]").evaluate_all(
        "(nodes) => nodes.filter((n) => !n.classList.contains('fresh')).map((n) => n.dataset.card)")
    assert own, "the card you deployed is on the table, not marked as news"
    news = marked.evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")
    before = page.evaluate("document.body.dataset.eventNo")
    page.locator("#moves button.move:not([disabled])").first.click()
    page.wait_for_function(f"document.body.dataset.eventNo !== '{before}'")
    page.wait_for_selector(READY)
    still = page.locator("#view .card.fresh").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")
    assert not set(news) & set(still), (news, still)  # your next move cleared them: only what moved since is marked


def test_the_end_screen_breaks_each_seats_score_down_into_rounds_and_battles(page: Any, sqlite_server: ServerProcess) -> None:
    start_short_game(page, sqlite_server, "Hal")
    while play_one_move(page, keyboard=False):
        pass
    rows = page.locator("#breakdown tbody tr")
    rows.first.wait_for()
    assert rows.count() == 2
    headings = page.locator("#breakdown thead th").all_inner_texts()
    assert headings[:3] == ["Player", "rounds won", "round 1"], headings
    assert any(h.startswith("battles, round") for h in headings), headings
    mine = rows.first.inner_text()
    assert mine.startswith("Hal (you)") and re.search(r"\b(won|lost|drawn)\b", mine), mine
    assert "15 points" in page.locator(".breakdown-note").inner_text()
    page.set_viewport_size({"width": 375, "height": 667})
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0  # the end screen fits a phone


REDRAWN = "() => window.__before && !window.__before.isConnected"
"""The card node the test marked is gone from the page: the table was drawn again."""


def test_a_redraw_keeps_the_keyboard_and_the_popover_on_the_same_card(
    browser: Any, page: Any, sqlite_server: ServerProcess
) -> None:
    """A frame that changes nothing a person touches (here: someone starts watching, so the table is drawn
    again) leaves the keyboard focus and an open popover on the card they were on — a redraw used to drop
    the focus to the page and close the text someone was reading."""
    table, _ = seat_a_person(page, sqlite_server, "med-sirocco", {"players": 2})
    page.wait_for_selector(READY)
    page.wait_for_selector("#hand .card.face")
    watchers = browser.new_context()
    try:
        for step, reach in enumerate(("keyboard", "mouse")):
            card = page.locator("#hand .card").nth(step)
            card_id = card.get_attribute("data-card")
            if reach == "keyboard":
                (card.locator(".card-button") if card.locator(".card-button").count() else card).focus()
            else:
                page.locator("body").focus()
                card.hover()
            tip_text(page)
            page.evaluate("(id) => { window.__before = document.querySelector(`#hand .card[data-card='${id}']`); }", card_id)
            watchers.new_page().goto(f"{sqlite_server.http}/#/table/{table}")  # one more watcher: a "players" frame
            page.wait_for_function(REDRAWN)
            if reach == "keyboard":
                assert page.evaluate("document.activeElement.closest('.card')?.dataset.card") == card_id
            assert sqlite_server.get_json(f"/tables/{table}/cards")[card_id]["text"] in tip_text(page)
    finally:
        watchers.close()
