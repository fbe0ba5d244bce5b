"""The memory of a `warcards serve` process over many finished games (docs/server.md, "Memory").

    PYTHONPATH=src python3 scripts/server_memory.py [--games 200] [--batch 20] [--game cards-of-war]

Starts `warcards serve` on a SQLite file in a temporary folder and a free loopback port, plays `--games`
random-bot tables to their end, `--batch` at a time, and prints the server's resident memory (VmRSS) at
start, after the games, and once the server holds no table (GET /health `tables` 0): finished tables leave
memory and are served from the database on demand. Figures, not a test: the machine's load shows in them.
"""

from __future__ import annotations

import argparse
import functools
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from warcards.engine.registry import load_game
from warcards.server.bench import rss_kib
from warcards.server.pgcluster import free_port

SWEEP_WAIT = 35.0
"""Seconds to wait once no table is held: the server gives the memory back at its next sweep (every 30 s)."""


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise RuntimeError(f"timed out waiting for {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--game", default="cards-of-war")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="warcards-memory-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "warcards", "serve", "--port", str(port),
               "--database", f"sqlite:///{folder / 'server.sqlite3'}",
               "--allow-bot-tables", "--max-tables-per-address", "0"]  # bot games, all from 127.0.0.1
    with (folder / "server.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy())
    try:
        with httpx.Client(base_url=base, timeout=60) as client:

            def answers() -> bool:
                try:
                    return client.get("/health").status_code == 200
                except httpx.HTTPError:
                    return False

            wait_for(answers, 120, "the server to start")
            start = rss_kib(process.pid)
            bots = [{"kind": "bot", "level": "random"}] * load_game(args.game).num_players

            def finished(table: str) -> bool:
                return bool(client.get(f"/tables/{table}").json()["status"] == "finished")

            def play(games: int) -> int:
                """Play `games` tables to their end, `--batch` at a time; the peak RSS seen."""
                peak = 0
                for first in range(0, games, args.batch):
                    batch = [
                        client.post("/tables", json={"game": args.game, "seats": bots, "public": False}).json()["id"]
                        for _ in range(min(args.batch, games - first))
                    ]
                    for table in batch:
                        wait_for(functools.partial(finished, table), 300, f"table {table} to finish")
                    peak = max(peak, rss_kib(process.pid))
                return peak

            def let_go() -> int:
                wait_for(lambda: client.get("/health").json()["tables"] == 0, 300, "every table to leave memory")
                time.sleep(SWEEP_WAIT)
                return int(rss_kib(process.pid))

            play(args.batch)
            warm = let_go()
            peak = play(args.games)
            after_games = rss_kib(process.pid)
            evicted = let_go()
            held = client.get("/health").json()["tables"]
    finally:
        process.terminate()
        process.wait(30)
    print(f"games: {args.games} x {args.game}, random bots, {args.batch} at a time; log {folder / 'server.log'}")
    print(f"server RSS at start: {start / 1024:.1f} MiB")
    print(f"after a warm-up batch of {args.batch} games, once let go: {warm / 1024:.1f} MiB")
    print(f"after {args.games} more finished games: {after_games / 1024:.1f} MiB (peak {peak / 1024:.1f} MiB)")
    print(f"once no table is held ({held} held): {evicted / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
