"""Turn timers through a real server: a seat that runs out of time is taken by a bot of the table's level
(a client of the bot process), and its player comes back and reclaims it."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from .conftest import ServerProcess


def test_a_timed_out_seat_is_played_by_a_bot_until_its_player_reclaims_it(sqlite_server: ServerProcess) -> None:
    table = sqlite_server.post(
        "/tables",
        {"game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
         "timer": {"kind": "move", "seconds": 1, "on_timeout": "bot", "level": "random"}},
    )["id"]
    token = sqlite_server.post(f"/tables/{table}/seats/0", {"name": "away"})["token"]
    with connect(f"{sqlite_server.ws}/tables/{table}/ws", max_size=None) as socket:
        socket.send(json.dumps({"protocol": 1, "type": "hello", "token": token}))

        def receive() -> dict[str, Any]:
            return dict(json.loads(socket.recv(timeout=60)))

        # Seat 0 never acts: a stand-in bot plays its moves.
        stand_in_moves = 0
        while stand_in_moves < 3:
            message = receive()
            if message["type"] == "event" and message["event"]["actor"] == 0 and message["event"]["kind"] == "action":
                stand_in_moves += 1
            assert message["type"] != "end" or stand_in_moves >= 3
        socket.send(json.dumps({"protocol": 1, "type": "reclaim", "id": "back"}))
        while (message := receive())["type"] != "ack":
            pass
        # Back in the seat: its player's own act is accepted (a slow act may lose a race to a new
        # timeout's stand-in and be refused as stale; it then acts on the next position).
        while True:
            message = receive()
            assert message["type"] != "end", "the game ended before its player acted again"
            if message["type"] in ("event", "view") and message.get("to_move") == 0 and message.get("legal"):
                number = message["event"]["event_no"] if message["type"] == "event" else message["event_no"]
                socket.send(json.dumps({"protocol": 1, "type": "act", "id": f"m{number}", "answers": number,
                                        "action": message["legal"][0]["action"]}))
            if message["type"] == "ack" and message["id"].startswith("m"):
                break


def test_a_seat_whose_chess_clock_runs_out_is_played_by_a_bot_then_reclaimed(sqlite_server: ServerProcess) -> None:
    table = sqlite_server.post(
        "/tables",
        {"game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
         "timer": {"kind": "total", "seconds": 1, "increment": 5, "on_timeout": "bot", "level": "random"}},
    )["id"]
    token = sqlite_server.post(f"/tables/{table}/seats/0", {"name": "away"})["token"]
    with connect(f"{sqlite_server.ws}/tables/{table}/ws", max_size=None) as socket:
        socket.send(json.dumps({"protocol": 1, "type": "hello", "token": token}))

        def receive() -> dict[str, Any]:
            return dict(json.loads(socket.recv(timeout=60)))

        # Seat 0's bank runs out: a stand-in plays it, untimed; each of its moves earns the increment.
        stand_in_moves = 0
        while stand_in_moves < 2:
            message = receive()
            assert message["type"] != "end", "the game ended before the stand-in played"
            if message["type"] == "event" and message["event"]["actor"] == 0 and message["event"]["kind"] == "action":
                stand_in_moves += 1
                assert message["clock"]["kind"] == "total" and message["clock"]["stand_ins"] == [0]
        socket.send(json.dumps({"protocol": 1, "type": "reclaim", "id": "back"}))
        while (message := receive())["type"] != "ack":
            pass
        while True:  # back on the clock with the increments the stand-in earned: its own act is accepted
            message = receive()
            assert message["type"] != "end", "the game ended before its player acted again"
            if message["type"] in ("event", "view") and message.get("to_move") == 0 and message.get("legal"):
                assert message["clock"]["stand_ins"] == []
                number = message["event"]["event_no"] if message["type"] == "event" else message["event_no"]
                socket.send(json.dumps({"protocol": 1, "type": "act", "id": f"m{number}", "answers": number,
                                        "action": message["legal"][0]["action"]}))
            if message["type"] == "ack" and message["id"].startswith("m"):
                break
