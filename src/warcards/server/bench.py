"""A benchmark of `warcards serve`: K concurrent bot-against-bot tables over real WebSockets on loopback.

    warcards bench --server --tables 100 [--game cards-of-war] [--database sqlite|postgres|URL]
    python -m warcards.server.bench --tables 100 [--game cards-of-war] [--database …]   (the same)

It starts `warcards serve` on a free loopback port (SQLite in a temporary folder; `postgres`: a throwaway
PostgreSQL server with fsync on, `pgcluster.throwaway_postgres`; or any database URL), creates K tables whose
seats are all `random` bots (played by the server's bot process), waits for every game to end, and reports:
accepted events per second (every event row, each committed before it is acknowledged or broadcast), the
latency of the bots' acts from receipt to the last broadcast queued (p50, p99, from `GET /stats`), and the
server's resident memory per open table (K person tables made first on the fresh server, not started).
Figures, not a test: the machine's other load shows in them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from warcards.engine.registry import load_game
from warcards.server.db import Store
from warcards.server.pgcluster import free_port, throwaway_postgres


@dataclass(frozen=True)
class ServerBenchResult:
    """One benchmark run's figures."""

    database: str
    game: str
    tables: int
    events: int
    seconds: float
    acts_timed: int
    p50_ms: float
    p99_ms: float
    kib_per_table: float
    server_mib: float
    finished: int

    @property
    def events_per_s(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0

    def lines(self) -> list[str]:
        unfinished = self.tables - self.finished
        return [
            f"database: {self.database}; game: {self.game}; tables: {self.tables}"
            + (f" ({unfinished} did not finish in time)" if unfinished else ""),
            f"accepted events: {self.events} in {self.seconds:.1f} s = {self.events_per_s:.0f} per second",
            f"bot acts timed: {self.acts_timed}; latency p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms",
            f"memory per open table: {self.kib_per_table:.0f} KiB (server RSS {self.server_mib:.0f} MiB)",
        ]


def rss_kib(pid: int) -> int:
    """Resident memory of a process, KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@contextmanager
def database_for(choice: str, folder: Path) -> Iterator[str]:
    """The database URL for `choice`: "sqlite" (a file in `folder`), "postgres" (a throwaway server), or a URL."""
    if choice == "sqlite":
        yield f"sqlite:///{folder / 'bench.sqlite3'}"
    elif choice in ("postgres", "postgresql"):
        with throwaway_postgres(fsync=True) as url:
            yield url
    else:
        yield choice


def run(tables: int, game: str, database: str, timeout: float = 600.0) -> ServerBenchResult:
    """Serve on a free loopback port with `database`, play `tables` random-bot tables to their end."""
    spec = load_game(game)
    folder = Path(tempfile.mkdtemp(prefix="warcards-bench-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with (folder / "server.log").open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "warcards", "serve", "--port", str(port), "--database", database,
                "--allow-bot-tables", "--max-tables-per-address", "0", "--max-open-tables", "0",
            ],
            stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy(),
        )
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"warcards serve did not start; its log: {folder / 'server.log'}")
                time.sleep(0.1)
            people = [{"kind": "person"}] * spec.num_players
            before = rss_kib(process.pid)
            with httpx.Client(base_url=base, timeout=60) as client:
                for _ in range(tables):
                    table = client.post("/tables", json={"game": game, "seats": people, "public": False}).json()["id"]
                    for seat in range(spec.num_players):
                        client.post(f"/tables/{table}/seats/{seat}", json={"name": f"p{seat}"})
                after = rss_kib(process.pid)
                bots = [{"kind": "bot", "level": "random"}] * spec.num_players
                started = time.perf_counter()
                ids = [
                    client.post("/tables", json={"game": game, "seats": bots, "public": False}).json()["id"]
                    for _ in range(tables)
                ]
                store = Store(database)
                try:
                    finished = 0
                    while time.perf_counter() - started < timeout:
                        finished = sum(
                            1 for info in (store.table(table) for table in ids) if info and info.status == "finished"
                        )
                        if finished == len(ids):
                            break
                        time.sleep(0.2)
                    elapsed = time.perf_counter() - started
                    events = sum(len(store.events(table)) for table in ids)
                finally:
                    store.close()
                stats = client.get("/stats").json()
        finally:
            process.terminate()
            process.wait(30)
    kind = database.split(":", 1)[0].split("+", 1)[0]
    return ServerBenchResult(
        database=kind, game=game, tables=tables, events=events, seconds=elapsed,
        acts_timed=int(stats["acts"]), p50_ms=float(stats["p50_ms"] or 0), p99_ms=float(stats["p99_ms"] or 0),
        kib_per_table=(after - before) / max(tables, 1), server_mib=after / 1024, finished=finished,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--game", default="cards-of-war")
    parser.add_argument("--database", default="sqlite", help="sqlite, postgres (a throwaway server) or a URL")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="warcards-bench-db-") as folder, database_for(
        args.database, Path(folder)
    ) as url:
        for line in run(args.tables, args.game, url, args.timeout).lines():
            print(line)


if __name__ == "__main__":
    main()
