"""A benchmark of `warcards serve`: K concurrent bot-against-bot tables over real WebSockets on loopback.

    python -m warcards.server.bench --tables 100 --game cards-of-war [--database postgresql://…]

It starts `warcards serve` on a free loopback port (SQLite in a temporary folder unless `--database` is
given), creates K tables whose seats are all `random` bots (played by the server's bot process), waits for
every game to end, and prints: accepted actions per second (every event row, each committed before it is
acknowledged or broadcast), the latency of the bots' acts from receipt to the last broadcast queued (p50,
p99, from `GET /stats`), and the server's resident memory per open table (K started person tables, made
first on the fresh server).
Figures, not a test: the machine's other load shows in them.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from warcards.engine.registry import load_game
from warcards.server.db import Store


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_kib(pid: int) -> int:
    """Resident memory of a process, KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--game", default="cards-of-war")
    parser.add_argument("--database", default=None)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="warcards-bench-"))
    database = args.database or f"sqlite:///{folder / 'bench.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "warcards", "serve", "--port", str(port), "--database", database],
        stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy(),
    )
    try:
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        game = load_game(args.game)
        people = [{"kind": "person"}] * game.num_players
        before = rss_kib(process.pid)
        for _ in range(args.tables):
            table = httpx.post(f"{base}/tables", json={"game": args.game, "seats": people, "public": False}).json()["id"]
            for seat in range(game.num_players):
                httpx.post(f"{base}/tables/{table}/seats/{seat}", json={"name": f"p{seat}"})
        after = rss_kib(process.pid)
        seats = [{"kind": "bot", "level": "random"}] * game.num_players
        started = time.perf_counter()
        tables = [
            httpx.post(f"{base}/tables", json={"game": args.game, "seats": seats, "public": False}, timeout=60).json()["id"]
            for _ in range(args.tables)
        ]
        store = Store(database)
        while time.perf_counter() - started < args.timeout:
            if all(info.status == "finished" for info in (store.table(table) for table in tables) if info):
                break
            time.sleep(0.2)
        elapsed = time.perf_counter() - started
        events = sum(len(store.events(table)) for table in tables)
        stats = httpx.get(f"{base}/stats", timeout=30).json()
        store.close()
        print(f"database: {database.split(':', 1)[0]}; game: {args.game}; tables: {args.tables}")
        print(f"accepted events: {events} in {elapsed:.1f} s = {events / elapsed:.0f} per second")
        print(f"bot acts timed: {stats['acts']}; latency p50 {stats['p50_ms']} ms, p99 {stats['p99_ms']} ms")
        print(f"memory per open table: {(after - before) / args.tables:.0f} KiB (server RSS {after / 1024:.0f} MiB)")
    finally:
        process.terminate()
        process.wait(30)


if __name__ == "__main__":
    main()
