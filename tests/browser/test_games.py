"""Every game in the browser: a person takes a seat through the invite link and clicks a whole game to its
end against random bots (Race to Messina in each variant; the other games with their shortest options)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from warcards.engine.registry import load_game

from .conftest import screenshot
from .test_play import play_one_move

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

GAMES = [
    ("race-to-messina", {"variant": "invasion"}),
    ("race-to-messina", {"variant": "race"}),
    ("race-to-messina", {"variant": "sicily"}),
    ("med-sirocco", {"players": 2, "operations": 10}),
    ("naval-war", {"players": 2, "target": 20}),
]


GAME_IDS = [f"{game_id}-{'-'.join(map(str, options.values()))}" for game_id, options in GAMES]


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=GAME_IDS)
def test_a_person_joins_by_invite_and_plays_a_whole_game_against_bots(
    page: Any, sqlite_server: ServerProcess, game_id: str, options: dict[str, Any]
) -> None:
    seats = load_game(game_id, **options).num_players
    created = sqlite_server.post(
        "/tables",
        {"game": game_id, "options": options, "seats": [{"kind": "person"}] + [{"kind": "bot", "level": "random"}] * (seats - 1)},
    )
    page.goto(f"{sqlite_server.http}{created['invite'].replace('/tables/', '/#/table/')}")
    page.get_by_label("Display name").fill("Cleo")
    page.get_by_role("button", name=f"Take {created['seats'][0]['seat_name']}").click()
    moves = 0
    while play_one_move(page, keyboard=False):
        moves += 1
        if moves == 2:
            screenshot(page, f"{game_id}-{'-'.join(map(str, options.values()))}")
    info = sqlite_server.get_json(f"/tables/{created['id']}")
    assert info["status"] == "finished"
    assert page.locator("#reason").inner_text() == f"Reason: {info['result']['reason']}"
