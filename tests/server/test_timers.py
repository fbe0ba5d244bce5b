"""Turn timers through a real server: a seat that runs out of time is taken by a bot of the table's level
(a client of the bot process), and its player comes back and reclaims it — with a per-move limit and with a
chess clock. The clock every frame carries names the seats a stand-in holds."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from .conftest import ServerProcess


def away_then_back(server: ServerProcess, timer: dict[str, Any], stand_in_moves: int) -> None:
    """Seat 0's player stays away until a stand-in has made `stand_in_moves` moves for it, then reclaims
    the seat and makes a move of its own."""
    table = server.post(
        "/tables",
        {"game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}], "timer": timer},
    )["id"]
    token = server.post(f"/tables/{table}/seats/0", {"name": "away"})["token"]
    with connect(f"{server.ws}/tables/{table}/ws", max_size=None) as socket:
        socket.send(json.dumps({"protocol": 1, "type": "hello", "token": token}))

        def receive() -> dict[str, Any]:
            message = dict(json.loads(socket.recv(timeout=60)))
            assert message["type"] != "end", "the game ended before its player was back and acted"
            return message

        moves = 0
        while moves < stand_in_moves:
            message = receive()
            if message["type"] == "event" and message["event"]["actor"] == 0 and message["event"]["kind"] == "action":
                moves += 1
                # (the bot seat's own stand-in may hold it too, had its bot been slower than its clock)
                assert message["clock"]["kind"] == timer["kind"] and 0 in message["clock"]["stand_ins"]
        socket.send(json.dumps({"protocol": 1, "type": "reclaim", "id": "back"}))
        while (message := receive())["type"] != "ack":
            pass
        # The frame that made it seat 0's turn may have come before the ack: ask for the position now rather
        # than wait for the next frame, which would only come when the bank ran out again and a stand-in moved.
        socket.send(json.dumps({"protocol": 1, "type": "sync", "last_seen": None}))
        # Back in the seat: its player's own act is accepted (a slow act may lose a race to a new
        # timeout's stand-in and be refused as stale; it then acts on the next position).
        while True:
            message = receive()
            if message["type"] in ("event", "view") and message.get("to_move") == 0 and message.get("legal"):
                number = message["event"]["event_no"] if message["type"] == "event" else message["event_no"]
                socket.send(json.dumps({"protocol": 1, "type": "act", "id": f"m{number}", "answers": number,
                                        "action": message["legal"][0]["action"]}))
            if message["type"] == "ack" and message["id"].startswith("m"):
                break


def test_a_timed_out_seat_is_played_by_a_bot_until_its_player_reclaims_it(sqlite_server: ServerProcess) -> None:
    # 3 s, not 1: the time runs out for the away player, never for a bot slowed by a busy machine (a bot's
    # clock starts when it is connected; from then on its move is its own time).
    away_then_back(sqlite_server, {"kind": "move", "seconds": 3, "on_timeout": "bot", "level": "random"}, 3)


def test_a_seat_whose_chess_clock_runs_out_is_played_by_a_bot_then_reclaimed(sqlite_server: ServerProcess) -> None:
    # The bank runs out: the stand-in plays untimed, each of its moves earning the increment the player then
    # has to move with.
    timer = {"kind": "total", "seconds": 3, "increment": 5, "on_timeout": "bot", "level": "random"}
    away_then_back(sqlite_server, timer, 2)
