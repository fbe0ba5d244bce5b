"""Crash loop: `kill -9` a real server mid-game, again and again, across several games; every restart
rebuilds the tables from their logs, the bots come back as clients, and every game goes on to an end whose
record replays exactly, with no accepted action lost or applied twice."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import httpx

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
