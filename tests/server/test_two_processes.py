"""Two server processes sharing one PostgreSQL: a game whose seats are connected to different processes is
played to the end; each process forwards the other's events (NOTIFY) to its own connections."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from warcards.match import replay

from .conftest import ServerProcess, fresh_postgres_database


def test_a_game_with_its_seats_on_two_processes_is_played_to_the_end(postgres_url: str, tmp_path: Path) -> None:
    database = fresh_postgres_database(postgres_url, "two_processes")
    first, second = ServerProcess(database, tmp_path / "a"), ServerProcess(database, tmp_path / "b")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first.start()
    second.start()
    rng = random.Random(2)
    try:
        table = first.post("/tables", {"game": "cards-of-war", "seats": [{"kind": "person"}] * 2})["id"]
        tokens = [first.post(f"/tables/{table}/seats/0", {"name": "a"})["token"],
                  second.post(f"/tables/{table}/seats/1", {"name": "b"})["token"]]
        sockets = [connect(f"{server.ws}/tables/{table}/ws", max_size=None, legacy=True) for server in (first, second)]
        latest: list[dict[str, Any]] = [{}, {}]
        ended = [False, False]
        for seat, socket in enumerate(sockets):
            socket.send(json.dumps({"protocol": 1, "type": "hello", "token": tokens[seat]}))

        def pump(seat: int) -> None:
            try:
                message = json.loads(sockets[seat].recv(timeout=0.05))
            except TimeoutError:
                return
            if message["type"] == "end":
                ended[seat] = True
            elif message["type"] in ("view", "event"):
                latest[seat] = message

        def number(message: dict[str, Any]) -> int:
            return int(message["event"]["event_no"] if message["type"] == "event" else message["event_no"])

        acts = 0
        deadline = time.monotonic() + 120
        while not all(ended) and time.monotonic() < deadline:
            for seat in (0, 1):
                if not ended[seat]:
                    pump(seat)
            for seat in (0, 1):
                view = latest[seat]
                other = latest[1 - seat]
                # act once both processes have shown the same latest event (so the act is not stale)
                if view.get("legal") and other and number(view) == number(other) and not ended[seat]:
                    acts += 1
                    sockets[seat].send(json.dumps({"protocol": 1, "type": "act", "id": f"a{acts}",
                                                   "answers": number(view), "action": rng.choice(view["legal"])["action"]}))
                    latest[seat] = {}
        record = httpx.get(f"{second.http}/tables/{table}/record", timeout=30).json()
        assert replay(record).is_terminal()
        assert acts > 10
        for socket in sockets:
            socket.close()
    finally:
        first.stop()
        second.stop()
