"""Complete bot-against-bot games of every game id through a real `warcards serve` over WebSockets: the
bots are clients in the server's bot process, a spectator records every frame, and the final record
replays exactly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from warcards.engine.registry import games, load_game
from warcards.match import replay

from .conftest import ServerProcess

WATCH_SECONDS = 120


def watch(server: ServerProcess, table: str, last_seen: int | None = None) -> list[dict[str, Any]]:
    """Every frame a spectator receives until the end of the game."""
    received = []
    with connect(f"{server.ws}/tables/{table}/ws", max_size=None, open_timeout=30) as socket:
        socket.send(json.dumps({"protocol": 1, "type": "hello", "last_seen": last_seen}))
        while True:
            message = json.loads(socket.recv(timeout=WATCH_SECONDS))
            received.append(message)
            if message["type"] == "end":
                return received


def bot_table(server: ServerProcess, game_id: str, level: str = "random", **options: Any) -> str:
    seats = load_game(game_id, **options).num_players
    created = server.post(
        "/tables",
        {"game": game_id, "options": options, "seats": [{"kind": "bot", "level": level}] * seats},
    )
    return str(created["id"])


@pytest.mark.parametrize("game_id", games())
def test_a_bot_game_of_every_game_plays_to_its_end_and_its_record_replays(
    sqlite_server: ServerProcess, game_id: str
) -> None:
    table = bot_table(sqlite_server, game_id, "heuristic")
    received = watch(sqlite_server, table, last_seen=0)
    end = received[-1]
    numbers = [body["event_no"] for message in received if message["type"] == "catchup" for body in message["events"]]
    numbers += [message["event"]["event_no"] for message in received if message["type"] == "event"]
    assert numbers == list(range(1, end["event_no"] + 1))
    final = replay(end["record"])
    assert final.is_terminal()
    assert list(final.result().winners) == end["result"]["winners"]


def test_a_search_bot_plays_from_a_sample_of_its_view(sqlite_server: ServerProcess) -> None:
    """`easy` and `beginner` (the lobby's newest level) both decide from a sample."""
    table = sqlite_server.post(
        "/tables",
        {"game": "cards-of-war", "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "beginner"}]},
    )["id"]
    end = watch(sqlite_server, table)[-1]
    assert replay(end["record"]).is_terminal()


def test_the_example_client_plays_a_seat_against_a_server_bot(sqlite_server: ServerProcess) -> None:
    table = sqlite_server.post(
        "/tables",
        {"game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "heuristic"}]},
    )["id"]
    token = sqlite_server.post(f"/tables/{table}/seats/0", {"name": "my script"})["token"]
    example = Path(__file__).resolve().parents[2] / "examples" / "bot_client.py"
    done = subprocess.run(
        [sys.executable, str(example), sqlite_server.ws, table, token], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert token not in sqlite_server.log()
