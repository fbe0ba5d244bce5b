"""Crash loop: `kill -9` a real server mid-game, again and again, across several games; every restart
rebuilds the tables from their logs, the bots come back as clients, and every game goes on to an end whose
record replays exactly, with no accepted action lost or applied twice. And what a timer left behind comes
back too: a stand-in holding a timed-out seat plays on after a restart, and a chess clock resumes."""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from warcards.match import replay
from warcards.server.db import Store

from .conftest import ServerProcess

KILLS = int(os.environ.get("WARCARDS_CRASH_KILLS", "2"))
"""Kills in one run (the suite keeps it short; `WARCARDS_CRASH_KILLS=30` for the long run of issue 24)."""
WAIT_SECONDS = 60 + 10 * KILLS
BOTS = [{"kind": "bot", "level": "heuristic"}, {"kind": "bot", "level": "random"}]


def test_kill_9_again_and_again_loses_nothing_and_every_game_ends(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    server = ServerProcess(database, tmp_path)
    server.start()
    store = Store(database)
    rng = random.Random(24)
    tables: list[str] = []
    try:
        kills = 0
        seen = 0
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            if kills < KILLS and all(_status(store, table) == "finished" for table in tables):
                tables.append(server.post("/tables", {"game": "naval-war", "options": {"players": 2}, "seats": BOTS})["id"])
                seen = 0
            if all(_status(store, table) == "finished" for table in tables):
                break
            count = len(store.events(tables[-1]))
            if kills < KILLS and count >= seen + rng.randint(3, 12):
                server.kill()
                kills += 1
                seen = len(store.events(tables[-1]))
                server.start()
            time.sleep(0.05)
        assert kills == KILLS
        for table in tables:
            assert _status(store, table) == "finished", server.log()[-2000:]
            events = store.events(table)
            assert [item.event_no for item in events] == list(range(1, len(events) + 1))
            record = httpx.get(f"{server.http}/tables/{table}/record", timeout=30).json()
            assert record["actions"] == [item.action for item in events]
            assert replay(record).is_terminal()
    finally:
        store.close()
        server.stop()


def _status(store: Store, table: str) -> str:
    info = store.table(table)
    assert info is not None
    return info.status


def _wait_for(what: Callable[[], bool], server: ServerProcess, seconds: float = 120) -> None:
    """Wait (polling the database the test shares with the server) until `what()` holds."""
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, server.log()[-2000:]
        time.sleep(0.05)


def _actions_of(store: Store, table: str, seat: int) -> int:
    return sum(1 for item in store.events(table) if item.kind == "action" and item.seat == seat)


class Person:
    """A seat's player over the protocol: reads frames and acts when its seat is to move."""

    def __init__(self, server: ServerProcess, table: str, token: str, seat: int, name: str) -> None:
        self.socket: ClientConnection = connect(f"{server.ws}/tables/{table}/ws", max_size=None, legacy=True)
        self.socket.send(json.dumps({"protocol": 1, "type": "hello", "token": token}))
        self.seat = seat
        self.name = name
        """The prefix of this connection's message ids (a repeated id is answered, never applied again)."""
        self.sent = 0

    def receive(self) -> dict[str, Any]:
        return dict(json.loads(self.socket.recv(timeout=60)))

    def send(self, **message: Any) -> None:
        self.socket.send(json.dumps({"protocol": 1, **message}))

    def my_turn(self) -> dict[str, Any]:
        """Read until a frame says this seat is to move (an `end` first fails the test)."""
        while True:
            message = self.receive()
            assert message["type"] != "end", "the game ended first"
            view = message.get("view") if message["type"] == "catchup" else message
            if message["type"] in ("event", "view", "catchup") and view["to_move"] == self.seat and view["legal"]:
                return dict(view)

    def act(self, view: dict[str, Any]) -> None:
        number = view["event"]["event_no"] if "event" in view else view["event_no"]
        self.sent += 1
        self.send(type="act", id=f"{self.name}{self.sent}", answers=number, action=view["legal"][0]["action"])


@contextlib.contextmanager
def person_against_a_bot(tmp_path: Path, timer: dict[str, Any]) -> Iterator[tuple[ServerProcess, Store, str, str]]:
    """A real server on its own SQLite file, and a Cards of War table with `timer`: seat 0 a person (its
    token given), seat 1 a random bot. Yields the server, a store on the same file, the table and token."""
    database = f"sqlite:///{tmp_path / 'timed.sqlite3'}"
    server = ServerProcess(database, tmp_path)
    server.start()
    store = Store(database)
    try:
        table = server.post("/tables", {
            "game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}], "timer": timer,
        })["id"]
        yield server, store, table, server.post(f"/tables/{table}/seats/0", {"name": "p0"})["token"]
    finally:
        store.close()
        server.stop()


def test_a_stand_in_plays_on_after_a_kill_9_and_its_player_then_reclaims_the_seat(tmp_path: Path) -> None:
    # A `hard` stand-in thinks for a while each move, so the game is still on when its player comes back.
    timer = {"kind": "move", "seconds": 10, "on_timeout": "bot", "level": "hard"}
    with person_against_a_bot(tmp_path, timer) as (server, store, table, token):
        # Seat 0's player is away: its move time runs out and a stand-in takes the seat (in its seat row).
        _wait_for(lambda: _actions_of(store, table, 0) >= 1, server)
        assert set(store.stand_ins(table)) == {0}
        server.kill()
        before = _actions_of(store, table, 0)
        server.start()
        _wait_for(lambda: _actions_of(store, table, 0) >= before + 2, server)  # the stand-in plays on
        assert _status(store, table) == "playing"
        person = Person(server, table, token, 0, "back")
        person.send(type="reclaim", id="back")
        while (message := person.receive())["type"] != "ack":
            assert message["type"] != "end"
        assert store.stand_ins(table) == {}
        person.send(type="sync", last_seen=None)  # the frame that made it this seat's turn may precede the ack
        while True:  # the player plays its seat to the end of the game
            message = person.receive()
            if message["type"] == "end":
                break
            view = message.get("view") if message["type"] == "catchup" else message
            if message["type"] in ("event", "view", "catchup") and view["to_move"] == 0 and view["legal"]:
                person.act(view)
        person.socket.close()
        events = store.events(table)
        assert all(item.kind != "timeout" for item in events)
        record = httpx.get(f"{server.http}/tables/{table}/record", timeout=30).json()
        assert replay(record).is_terminal()


def test_a_chess_clock_resumes_after_a_kill_9_without_charging_the_downtime(tmp_path: Path) -> None:
    with person_against_a_bot(tmp_path, {"kind": "total", "seconds": 600, "increment": 1}) as (
        server, store, table, token
    ):
        person = Person(server, table, token, 0, "before")
        for _ in range(3):
            person.act(person.my_turn())
        view = person.my_turn()
        banks = store.events(table)[-1].clock
        assert banks is not None and view["clock"]["running"] == 0
        person.socket.close()
        server.kill()
        time.sleep(2)  # a downtime the clock must not charge
        restarted = time.time()
        server.start()
        person = Person(server, table, token, 0, "after")
        view = person.my_turn()
        charged = banks[0] - view["clock"]["seconds_left"][0]
        assert view["clock"]["kind"] == "total" and view["clock"]["running"] == 0
        # At most the time since the restart, not the downtime (0.001: the frame rounds to milliseconds).
        assert -0.001 <= charged <= time.time() - restarted
        assert view["clock"]["seconds_left"][1] == round(banks[1], 3)
        person.act(view)
        while (message := person.receive())["type"] != "event" or message["event"]["actor"] != 0:
            pass
        after = message["clock"]["seconds_left"][0]
        assert banks[0] - (time.time() - restarted) + 1 <= after <= banks[0] + 1.001  # the increment added
        person.send(type="resign", id="bye")
        _wait_for(lambda: _status(store, table) == "finished", server)
        person.socket.close()
