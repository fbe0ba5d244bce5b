"""Every game in the browser: a person takes a seat through the invite link and clicks a whole game to its
end against random bots (Race to Messina in each variant; the other games with their shortest options). At
each of the person's turns the page is one screen at 1280×800 and on a 375×667 phone: the turn banner and a
move button in view without scrolling, nothing scrolling sideways (the end screen included)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from warcards.engine.registry import load_game

from .conftest import screenshot
from .test_play import READY

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

GAMES = [
    ("race-to-messina", {"variant": "invasion"}),
    ("race-to-messina", {"variant": "race"}),
    ("race-to-messina", {"variant": "sicily"}),
    ("med-sirocco", {"players": 2, "operations": 10}),
    ("naval-war", {"players": 2, "target": 20}),
]
GAME_IDS = [f"{game_id}-{'-'.join(map(str, options.values()))}" for game_id, options in GAMES]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 667}}

IN_VIEW = """() => {
  const seen = (element) => {  // in the viewport and the topmost element at its centre (not under the bar's scroll)
    const r = element.getBoundingClientRect();
    if (r.width === 0 || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return Boolean(top && (top === element || element.contains(top)));
  };
  const banner = document.getElementById("turn-banner");
  return { banner: Boolean(banner && seen(banner) && banner.textContent.startsWith("Your turn")),
           move: [...document.querySelectorAll("#moves button.move")].some(seen),
           sideways: document.documentElement.scrollWidth - innerWidth };
}"""
"""Whether the turn banner says "Your turn" and a move button is visible without scrolling, and how far the
page scrolls sideways."""


def assert_one_screen(page: Any, where: str) -> None:
    """At both sizes, scrolled to the top: the banner and a move button in view, no sideways scroll."""
    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_function("document.querySelector('#moves button.move') !== null")
        seen = page.evaluate(IN_VIEW)
        assert seen == {"banner": True, "move": True, "sideways": 0}, f"{where} at {size_name}: {seen}"


def assert_no_sideways_scroll(page: Any, where: str) -> None:
    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0, f"{where} at {size_name}"


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=GAME_IDS)
def test_a_person_joins_by_invite_and_plays_a_whole_game_on_one_screen_at_each_turn(
    page: Any, sqlite_server: ServerProcess, game_id: str, options: dict[str, Any]
) -> None:
    seats = load_game(game_id, **options).num_players
    created = sqlite_server.post(
        "/tables",
        {"game": game_id, "options": options, "seats": [{"kind": "person"}] + [{"kind": "bot", "level": "random"}] * (seats - 1)},
    )
    name = f"{game_id}-{'-'.join(map(str, options.values()))}"
    page.goto(f"{sqlite_server.http}{created['invite'].replace('/tables/', '/#/table/')}")
    page.get_by_label("Display name").fill("Cleo")
    page.get_by_role("button", name=f"Take {created['seats'][0]['seat_name']}").click()
    moves = 0
    while True:
        page.wait_for_selector(READY)
        if page.locator("#result").is_visible():
            break
        assert_one_screen(page, f"{name}, move {moves + 1}")
        if moves == 2:
            for size_name, size in SIZES.items():
                page.set_viewport_size(size)
                screenshot(page, name if size_name == "desktop" else f"{name}-phone")
        page.locator("#moves button.move:not([disabled])").first.click()
        moves += 1
    info = sqlite_server.get_json(f"/tables/{created['id']}")
    assert info["status"] == "finished"
    assert page.locator("#reason").inner_text().startswith("Reason: ")
    assert page.locator("#outcome").inner_text() in ("You won", "You won (shared)", "You lost", "A draw")
    assert page.locator("#breakdown tbody tr").count() == seats  # each seat's score and what made it
    assert_no_sideways_scroll(page, f"{name}'s end screen")
