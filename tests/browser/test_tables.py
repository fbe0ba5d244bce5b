"""Each game's table page as a player sees it: the hand's cards with their names and values (the facts of
`GET /tables/{id}/cards`), a refused move shown with the rule it cites, every visible text of the page (and
of the lobby and a spectator's page) at WCAG AA contrast, measured by the WCAG formula on the computed
colours, and nothing scrolling sideways at 375 px."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.server.conftest import ServerProcess
from warcards.engine.registry import load_game

from .conftest import screenshot
from .test_games import GAME_IDS, GAMES
from .test_play import READY

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

TABLES = [*GAMES, ("cards-of-war", {})]
TABLE_IDS = [*GAME_IDS, "cards-of-war"]

ILLEGAL = {"race-to-messina": "discard {card}", "med-sirocco": "play {card}", "naval-war": "discard {card}",
           "cards-of-war": "deploy {card} left"}
"""A move the engine refuses when the card is not in the mover's hand, whatever the phase (each game's
refusal then names the rule section that forbids it)."""

CITATION = re.compile(r"^(?:\d\.\d+(?: [A-Z])?|[A-Z][A-Za-z ]+): ")
"""A refusal's rule citation, first in the message: a rule number ("1.4 C: ", "3.1: ") or the rule text's
section ("Strategy: ", "PLAYING A ROUND: ", "Air strikes: ")."""

CONTRAST = """() => {
  const channels = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const over = (top, bottom) => {  // a colour with alpha over an opaque one
    const a = top.length > 3 ? top[3] : 1;
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a));
  };
  const background = (element) => {  // the opaque colour behind an element: its ancestors' layers composed
    const layers = [];
    for (let node = element; node; node = node.parentElement) {
      const colour = channels(getComputedStyle(node).backgroundColor);
      if (colour.length > 3 && colour[3] === 0) continue;
      layers.push(colour);
      if (colour.length === 3 || colour[3] === 1) break;
    }
    let result = [255, 255, 255];
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  };
  const failures = [];
  let checked = 0;
  for (const element of document.body.querySelectorAll("*")) {
    const own = [...element.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!own || !element.getClientRects().length || element.closest("[disabled], [hidden]")) continue;
    const style = getComputedStyle(element);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const back = background(element);
    const fore = over(channels(style.color), back);
    const [light, dark] = [luminance(fore), luminance(back)].sort((a, b) => b - a);
    const ratio = (light + 0.05) / (dark + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    checked += 1;
    if (ratio < (large ? 3 : 4.5)) {
      failures.push(`${element.tagName.toLowerCase()}.${element.className} "${element.textContent.trim().slice(0, 40)}": ${ratio.toFixed(2)}`);
    }
  }
  return { checked, failures };
}"""
"""Every element that holds visible text of its own: its computed colour against the background it sits on
(the backgrounds of it and its ancestors composed), by the WCAG 2 contrast ratio; at least 4.5, or 3 for
large text (24 px, or 18.66 px bold). Disabled controls are exempt (WCAG 1.4.3)."""


def assert_contrast(page: Any, where: str) -> None:
    measured = page.evaluate(CONTRAST)
    assert measured["checked"] > 10, where
    assert not measured["failures"], f"{where}: text below WCAG AA contrast: {measured['failures']}"


def absent_card(game_id: str, facts: dict[str, Any], hand: list[str]) -> str:
    """A card the hand does not hold, as the notation names it: a Force card in Med Sirocco, a salvo's kind
    in Naval War (which plays a card by its kind)."""
    if game_id == "naval-war":
        held = {card.rsplit("-", 1)[0] for card in hand}
        return next(code for card in facts if facts[card]["kind"] == "salvo"
                    and (code := card.rsplit("-", 1)[0]) not in held)
    wanted = "force" if game_id == "med-sirocco" else None
    return next(card for card in facts if card not in hand and facts[card].get("kind") == wanted)


def seat_a_person(page: Any, server: ServerProcess, game_id: str, options: dict[str, Any]) -> tuple[str, str]:
    """A table of `game_id` with a person at seat 0 (this page, its token in localStorage) against random
    bots; returns the table id and the seat's token."""
    count = load_game(game_id, **options).num_players
    seats = [{"kind": "person"}] + [{"kind": "bot", "level": "random"}] * (count - 1)
    table = server.post("/tables", {"game": game_id, "options": options, "seats": seats})["id"]
    token = server.post(f"/tables/{table}/seats/0", {"name": "Gil"})["token"]
    page.goto(f"{server.http}/#/lobby")
    page.evaluate("([table, token]) => localStorage.setItem('warcards.seats', JSON.stringify({[table]: {seat: 0, token, name: 'Gil'}}))",
                  [table, token])
    page.goto(f"{server.http}/#/table/{table}")
    return table, token


@pytest.mark.parametrize(("game_id", "options"), TABLES, ids=TABLE_IDS)
def test_a_games_table_shows_the_hands_names_and_values_done_moves_a_refusal_with_its_rule_aa_contrast_at_375px(
    page: Any, sqlite_server: ServerProcess, game_id: str, options: dict[str, Any]
) -> None:
    table, token = seat_a_person(page, sqlite_server, game_id, options)
    page.wait_for_selector(READY)
    assert not page.locator("#result").is_visible()
    mine = httpx.get(f"{sqlite_server.http}/tables/{table}/record", headers={"Authorization": f"Bearer {token}"},
                     timeout=30).json()["view"]  # the seat waits to move: its view holds still
    facts = sqlite_server.get_json(f"/tables/{table}/cards")
    page.wait_for_function(f"document.body.dataset.eventNo === '{mine['event_no']}'")
    page.wait_for_selector("#hand .card-text")  # the facts arrived
    hand = mine["view"]["hand"]
    assert hand
    shown = page.locator("#hand").inner_text()
    for card in hand:
        assert facts[card]["name"] in shown and facts[card]["text"] in shown, (card, facts[card], shown)
        assert card in shown  # the id the notation reads
    assert page.locator("#hand .card").count() == len(hand)
    if game_id == "cards-of-war":  # the other games' tables are kept by test_games.py
        screenshot(page, "cards-of-war-table")
    finishing = [choice for choice in mine["legal"] if choice["notation"].split(" ")[0] in ("done", "pass")]
    assert page.locator("#moves button.move.done").count() == len(finishing)  # "done" and "pass" stand out

    move = ILLEGAL[game_id].format(card=absent_card(game_id, facts, hand))
    page.fill("#typed", move)
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('refusal').textContent.includes('(illegal_action)')")
    message = page.locator("#refusal").inner_text().split("(illegal_action): ", 1)[1]
    assert CITATION.match(message), f"{move!r} was refused without a rule citation: {message}"
    assert_contrast(page, f"the {game_id} table")
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing scrolls sideways on a phone


def test_the_lobby_and_a_spectators_table_are_in_aa_contrast(page: Any, sqlite_server: ServerProcess) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    sqlite_server.post("/tables", {"game": "cards-of-war", "options": {}, "seats": seats})  # a public table: listed
    page.goto(f"{sqlite_server.http}/#/lobby")
    page.get_by_role("button", name="Join cards-of-war as player 0").first.wait_for()
    page.wait_for_selector("select[name=seat1]")
    assert_contrast(page, "the lobby")
    started = sqlite_server.post("/tables", {"game": "cards-of-war", "options": {}, "seats": [{"kind": "person"}] * 2})["id"]
    for seat in (0, 1):
        sqlite_server.post(f"/tables/{started}/seats/{seat}", {"name": f"p{seat}"})
    page.goto(f"{sqlite_server.http}/#/table/{started}")
    page.wait_for_selector("#view .battles")
    assert page.locator("#hand").count() == 0
    assert_contrast(page, "a spectator's table")


def test_a_playable_card_clicked_shows_the_moves_that_name_it_and_one_of_them_plays(
    page: Any, sqlite_server: ServerProcess
) -> None:
    table, _ = seat_a_person(page, sqlite_server, "cards-of-war", {})
    page.wait_for_selector("#hand .card.playable .card-button")
    before = page.evaluate("document.body.dataset.eventNo")
    playable = page.locator("#hand .card.playable .card-button").first
    card = playable.locator(".card-id").inner_text()
    playable.click()  # a card deployed to one of three battles: the moves naming it, to choose from
    page.wait_for_selector("#moves .selected-note")
    offered = page.locator("#moves button.move").all_inner_texts()
    assert len(offered) == 3 and all(f" {card} " in f" {text} " for text in offered)
    page.locator("#moves button.move").first.click()
    page.wait_for_function(f"document.body.dataset.eventNo !== '{before}'")
    assert sqlite_server.get_json(f"/tables/{table}")["status"] in ("playing", "finished")
