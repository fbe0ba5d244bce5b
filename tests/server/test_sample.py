"""A search bot's `sample` (docs/protocol.md, "Search bots"): the engine's position snapshot of the seat's
determinized state — plain JSON that the game (loaded from the welcome's game and options) rebuilds, whose
observation is the seat's view, and never a pickle."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import warcards.server
from warcards.engine.registry import load_game
from warcards.match import replay

from .client import hub, latest_view, lobby, peer, started_table
from .conftest import ServerProcess
from .test_bot_games import watch


@pytest.mark.parametrize(("game", "seats"), [("cards-of-war", 2), ("race-to-messina", 2), ("med-sirocco", 4), ("naval-war", 4)])
def test_a_sample_is_a_snapshot_that_rebuilds_to_the_seats_own_view(tmp_path: Path, game: str, seats: int) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client, game, seats)
        true_state = hub(client, table).state
        for seat, token in enumerate(tokens):
            with peer(client, table, token) as connection:
                welcome = connection.received[0]
                connection.send(type="sample", id=f"s{seat}")
                answer = connection.until("sample")
                view = latest_view(connection)
            assert answer["id"] == f"s{seat}" and answer["event_no"] == view["event_no"]
            assert "pickle" not in answer
            data = json.loads(json.dumps(answer["snapshot"]))
            assert data["game"] == game and data["history"] == []
            sample = load_game(welcome["game"], **welcome["options"]).state_from_snapshot(data)
            assert sample.observe(seat) == view["view"] == true_state.observe(seat)
            assert sample.current_player() == true_state.current_player()


@pytest.mark.parametrize(("game", "options"), [("race-to-messina", {"variant": "sicily"}), ("naval-war", {"players": 3})])
def test_a_search_bot_plays_a_whole_game_from_snapshots(
    sqlite_server: ServerProcess, game: str, options: dict[str, object]
) -> None:
    seats = load_game(game, **options).num_players
    levels = ["easy"] + ["random"] * (seats - 1)
    table = sqlite_server.post(
        "/tables", {"game": game, "options": options, "seats": [{"kind": "bot", "level": level} for level in levels]}
    )["id"]
    end = watch(sqlite_server, table)[-1]
    assert replay(end["record"]).is_terminal()


def test_the_server_package_never_imports_pickle() -> None:
    folder = Path(warcards.server.__file__).parent
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                assert all(alias.name != "pickle" for alias in node.names), path.name
            if isinstance(node, ast.ImportFrom):
                assert node.module != "pickle", path.name
