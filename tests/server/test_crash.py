"""Crash loop: `kill -9` a real server mid-game, again and again; every restart rebuilds the table from its
log, the bots come back as clients, and the game goes on to an end whose record replays exactly, with no
accepted action lost or applied twice."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

from warcards.match import replay
from warcards.server.db import Store

from .conftest import ServerProcess

KILLS = int(os.environ.get("WARCARDS_CRASH_KILLS", "3"))
"""Kills in one run (the suite keeps it short; `WARCARDS_CRASH_KILLS=30` for the long run of issue 24)."""
WAIT_SECONDS = 60 + 10 * KILLS


def test_kill_9_again_and_again_loses_nothing_and_the_game_ends(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    server = ServerProcess(database, tmp_path)
    server.start()
    store = Store(database)
    rng = random.Random(24)
    try:
        table = server.post(
            "/tables",
            {"game": "naval-war", "options": {"players": 2},
             "seats": [{"kind": "bot", "level": "heuristic"}, {"kind": "bot", "level": "random"}]},
        )["id"]
        kills = 0
        seen = 0
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            info = store.table(table)
            assert info is not None
            if info.status == "finished":
                break
            count = len(store.events(table))
            if kills < KILLS and count >= seen + rng.randint(3, 12):
                server.kill()
                kills += 1
                seen = len(store.events(table))
                server.start()
            time.sleep(0.05)
        events = store.events(table)
        info = store.table(table)
        assert info is not None and info.status == "finished", server.log()[-2000:]
        assert kills == KILLS
        assert [item.event_no for item in events] == list(range(1, len(events) + 1))
        record = httpx_record(server, table)
        assert record["actions"] == [item.action for item in events]
        assert replay(record).is_terminal()
    finally:
        store.close()
        server.stop()


def httpx_record(server: ServerProcess, table: str) -> dict[str, object]:
    import httpx

    return dict(httpx.get(f"{server.http}/tables/{table}/record", timeout=30).json())
