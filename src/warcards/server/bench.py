"""A load benchmark of `warcards serve` as its clients see it: K tables of person seats played over WebSockets.

    warcards bench --server --tables 100 [--game cards-of-war] [--database sqlite|postgres|URL]
                   [--client-processes 2] [--think 0|SECONDS|MIN..MAX] [--duration SECONDS]
                   [--serve-flag FLAG] [--seed N] [--json]
    python -m warcards.server.bench --tables 100 …   (the same options)

It starts `warcards serve` on a free loopback port (SQLite in a temporary folder; `postgres`: a throwaway
PostgreSQL server with fsync on, `pgcluster.throwaway_postgres`; or any database URL), creates K tables whose
seats are all person seats and takes every seat through the lobby (`POST /tables`, then `POST
/tables/{id}/seats/{seat}` for its token), and hands the seats to N load-client processes
(`warcards.server.loadclient`), separate from the server and its bot process, each an asyncio program with
one WebSocket connection per seat that acts as soon as it may (`--think 0`) or after a random think time.

It reports what a client sees: the act → ack latency (p50, p95, p99 over every acknowledged act), beside
the server's own figure from `GET /stats` (receipt → last broadcast queued, which leaves out the wait
before an act is read and the sending after), and the server's resident memory per playing table: (peak
RSS while the tables play − RSS of the idle server before any table was made) / K. Without `--duration`
every game is played to its end; with it the acts are timed over a window of that many seconds that opens
once every seat is connected (a paced 1,000-table run cannot wait for its games to end). Figures, not a
test: the machine's other load shows in them.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

import httpx

from warcards.engine.registry import load_game
from warcards.server.db import Store
from warcards.server.pgcluster import free_port, throwaway_postgres

SERVE_FLAGS: tuple[str, ...] = ()
"""Flags added to every `warcards serve` command line the benchmark starts (after `--port`, `--database`
and the raised limits of `LOOPBACK_LIMITS`): the place to raise another server limit that K tables from one
loopback address would meet."""

LOOPBACK_LIMITS = {
    "max_tables_per_address": "0",
    "max_open_tables": "0",
    "address_rate": "1000000",
    "address_burst": "1000000",
}
"""Server limits the benchmark lifts (each a field of `warcards.server.config.ServerConfig`, set by the flag of
the same name): every table and seat of a run comes from one loopback address, which a
limit per client address would stop long before K tables (0: no limit)."""

RSS_SAMPLE_SECONDS = 0.5
"""How often the server's resident memory is read while the tables play."""

SLICES = 6
"""The measured span is cut in this many equal parts, each with its own p99."""

READY_TIMEOUT = 600.0
"""Seconds the load clients may take to connect every seat."""


class BenchError(Exception):
    """The benchmark could not run: the server did not start or refused, a load client failed."""


class BenchTimeout(BenchError):
    """A load client did not answer in time."""


@dataclass(frozen=True)
class ServerBenchResult:
    """One benchmark run's figures (latencies in milliseconds, memory in KiB unless named MiB)."""

    database: str
    game: str
    tables: int
    client_processes: int
    think: tuple[float, float]
    duration: float | None
    seat_seconds: float
    connect_seconds: float
    seconds: float
    acts_acked: int
    p50_ms: float | None
    p95_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    p99_ms_by_slice: list[tuple[float, int, float | None]]
    refused: dict[str, int]
    failures: int
    failure_messages: list[str]
    finished: int
    events: int | None
    server_acts: int
    server_p50_ms: float | None
    server_p99_ms: float | None
    server_cpu_share: float
    client_cpu_share: float
    idle_mib: float
    peak_mib: float
    kib_per_playing_table: float
    kib_per_seated_table: float

    @property
    def acks_per_s(self) -> float:
        return self.acts_acked / self.seconds if self.seconds else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "acks_per_s": round(self.acks_per_s, 1)}

    def lines(self) -> list[str]:
        low, high = self.think
        pace = "as soon as they may (think 0)" if high <= 0 else f"after a think time of {low:g}-{high:g} s"
        unfinished = self.tables - self.finished
        span = (
            f"a {self.seconds:.1f} s window"
            if self.duration is not None
            else f"{self.seconds:.1f} s, every game to its end"
            + (f" ({unfinished} tables did not finish in time)" if unfinished else "")
        )
        lines = [
            f"database: {self.database}; game: {self.game}; tables: {self.tables}; "
            f"client processes: {self.client_processes}; clients act {pace}",
            f"tables made and seated through the lobby in {self.seat_seconds:.1f} s; load clients started and "
            f"every seat connected in {self.connect_seconds:.1f} s; then every table played at once, measured "
            f"over {span}",
            f"client-side act -> ack: {self.acts_acked} acts acknowledged ({self.acks_per_s:.0f} per second); "
            f"p50 {_ms(self.p50_ms)}, p95 {_ms(self.p95_ms)}, p99 {_ms(self.p99_ms)}, max {_ms(self.max_ms)}",
            "client-side p99 by sixth of the span (seconds from its start: p99 over so many acts): "
            + ", ".join(f"{start:g} s: {_ms(p99)} over {count}" for start, count, p99 in self.p99_ms_by_slice),
            f"server-side, receipt -> last broadcast queued (GET /stats, {self.server_acts} acts of the whole run): "
            f"p50 {_ms(self.server_p50_ms)}, p99 {_ms(self.server_p99_ms)}",
            f"server memory per playing table: {self.kib_per_playing_table:.0f} KiB "
            f"(RSS idle {self.idle_mib:.0f} MiB, peak while playing {self.peak_mib:.0f} MiB); "
            f"per seated table before any client connected: {self.kib_per_seated_table:.0f} KiB",
        ]
        lines.append(
            f"CPU over the measured span: server process {self.server_cpu_share:.0%} of a core, "
            f"each load client {self.client_cpu_share:.0%} on average (a client near 100% slows its own figure)"
        )
        if self.events is not None:
            lines.append(f"accepted events: {self.events} = {self.events / self.seconds:.0f} per second")
        if self.refused:
            lines.append("refused acts: " + ", ".join(f"{code} {n}" for code, n in sorted(self.refused.items())))
        if self.failures:
            lines.append(f"seats that failed: {self.failures}, e.g. {'; '.join(self.failure_messages[:3])}")
        return lines


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


def percentile(ordered: Sequence[float], fraction: float) -> float | None:
    """The value at `fraction` of a sorted list (the same nearest-rank rule as `GET /stats`), None if empty."""
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def by_slice(timed: Sequence[tuple[float, float]], start: float, stop: float,
             slices: int = SLICES) -> list[tuple[float, int, float | None]]:
    """(seconds from `start`, acts, p99 ms) of the acts sent in each of `slices` equal parts of [start, stop]
    (`timed`: send time, latency): a stall or a first burst shows as one slice's p99."""
    width = max(stop - start, 1e-9) / slices
    parts: list[list[float]] = [[] for _ in range(slices)]
    for sent, latency in timed:
        parts[min(slices - 1, max(0, int((sent - start) / width)))].append(latency)
    return [(round(index * width, 1), len(part), percentile(sorted(part), 0.99)) for index, part in enumerate(parts)]


def parse_think(text: str) -> tuple[float, float]:
    """`--think`: "0" (act at once), "S" (S seconds) or "MIN..MAX" (uniform in that range), seconds."""
    low_text, _, high_text = text.partition("..")
    try:
        low = float(low_text)
        high = float(high_text) if high_text else low
    except ValueError:
        raise ValueError(f"--think takes 0, SECONDS or MIN..MAX (e.g. 1..5), not {text!r}") from None
    if not (0 <= low <= high <= 600):
        raise ValueError(f"--think takes seconds from 0 to 600 with MIN <= MAX, got {text!r}")
    return low, high


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used so far, user and system, seconds (Linux /proc); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    """Resident memory of a process, KiB (Linux /proc); 0 once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class ServerSampler:
    """Samples a process every `RSS_SAMPLE_SECONDS` in a thread: the peak of its resident memory, and its
    CPU time at each sample (for its CPU share over a span that began before anyone could read it)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = rss_kib(pid)
        self.cpu: list[tuple[float, float]] = [(time.monotonic(), cpu_seconds(pid))]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(RSS_SAMPLE_SECONDS):
            self.peak = max(self.peak, rss_kib(self.pid))
            self.cpu.append((time.monotonic(), cpu_seconds(self.pid)))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_kib(self.pid))
        self.cpu.append((time.monotonic(), cpu_seconds(self.pid)))

    def cpu_share(self, start: float) -> float:
        """CPU seconds per second from the last sample at or before `start` to the last sample."""
        since, used = next(((at, cpu) for at, cpu in reversed(self.cpu) if at <= start), self.cpu[0])
        until, now = self.cpu[-1]
        return (now - used) / (until - since) if until > since else 0.0


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


def raised_limits() -> list[str]:
    """`--flag VALUE` for each limit of `LOOPBACK_LIMITS` (each a `ServerConfig` field)."""
    return [part for name, value in LOOPBACK_LIMITS.items() for part in (f"--{name.replace('_', '-')}", value)]


def serve_command(port: int, database: str, extra: Sequence[str] = ()) -> list[str]:
    """The `warcards serve` command line of a benchmark run: the raised limits, `SERVE_FLAGS`, then `extra`."""
    return [sys.executable, "-m", "warcards", "serve", "--port", str(port), "--database", database,
            *raised_limits(), *SERVE_FLAGS, *extra]


def _more_open_files() -> None:
    """Raise this process's open-file limit to its hard ceiling, for the processes it starts: a thousand
    tables are thousands of sockets in the server and the load clients."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class LoadClient:
    """One `warcards.server.loadclient` process: its seats go in on standard input, its lines come out."""

    def __init__(self, url: str, think: tuple[float, float], seed: int, until_stop: bool, log: IO[bytes]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "warcards.server.loadclient", url, "--think", str(think[0]), str(think[1]),
             "--seed", str(seed), *(["--until-stop"] if until_stop else [])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=os.environ.copy(),
        )
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write((json.dumps(message) + "\n").encode())
            self.process.stdin.flush()
        except BrokenPipeError:
            pass  # the process ended already (every game over): its result is in its lines

    def expect(self, key: str, deadline: float) -> dict[str, Any]:
        """The next line holding `key` (waiting until `deadline`, a `time.monotonic()` value)."""
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise BenchTimeout(f"a load client sent no {key!r} line in time") from None
            if line is None:
                raise BenchError(f"a load client ended without a {key!r} line (exit {self.process.wait()})")
            if key in line:
                return dict(line[key]) if isinstance(line[key], dict) else {key: line[key]}

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def _wait_healthy(process: subprocess.Popen[bytes], base: str, log_path: Path) -> None:
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise BenchError(f"warcards serve did not start; its log: {log_path}")
        time.sleep(0.1)


def seat_tables(base: str, game: str, tables: int, players: int) -> list[dict[str, Any]]:
    """K tables of person seats, every seat taken through the lobby: one order (table, seat, token) a seat."""
    people = [{"kind": "person"}] * players
    orders = []
    with httpx.Client(base_url=base, timeout=120) as client:
        for made_so_far in range(tables):
            made = _lobby_answer(client.post("/tables", json={"game": game, "seats": people, "public": False}),
                                 made_so_far)
            for seat in range(players):
                joined = _lobby_answer(client.post(f"/tables/{made['id']}/seats/{seat}", json={"name": f"p{seat}"}),
                                       made_so_far)
                orders.append({"table": made["id"], "seat": seat, "token": joined["token"]})
    return orders


def _lobby_answer(response: httpx.Response, made_so_far: int) -> dict[str, Any]:
    """The JSON of a lobby answer; a refusal (a server limit, say) stops the run saying what the server said."""
    if response.is_success:
        return dict(response.json())
    raise BenchError(
        f"the server refused {response.request.method} {response.request.url.path} after {made_so_far} tables "
        f"({response.status_code}: {response.text[:300]}); a server limit can be raised with --serve-flag "
        "(or bench.SERVE_FLAGS)"
    )


def run(
    tables: int,
    game: str,
    database: str,
    *,
    client_processes: int = 2,
    think: tuple[float, float] = (0.0, 0.0),
    duration: float | None = None,
    timeout: float = 600.0,
    seed: int = 0,
    serve_flags: Sequence[str] = (),
) -> ServerBenchResult:
    """Serve on a free loopback port with `database`; play `tables` person tables from `client_processes`
    load clients, to every game's end or (with `duration`) over a window of that many seconds."""
    players = load_game(game).num_players
    _more_open_files()  # inherited by the server and the load clients
    folder = Path(tempfile.mkdtemp(prefix="warcards-bench-"))
    try:
        figures = _play(folder, tables, game, players, database, client_processes, think, duration, timeout, seed,
                        serve_flags)
    except (BenchError, httpx.HTTPError) as error:
        raise BenchError(f"{error}; the server's and the load clients' logs are in {folder}") from error
    shutil.rmtree(folder, ignore_errors=True)
    return figures


def _play(folder: Path, tables: int, game: str, players: int, database: str, client_processes: int,
          think: tuple[float, float], duration: float | None, timeout: float, seed: int,
          serve_flags: Sequence[str]) -> ServerBenchResult:
    """`run` with its logs in `folder`."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with ExitStack() as stack:
        log = stack.enter_context((folder / "server.log").open("wb"))
        client_log = stack.enter_context((folder / "clients.log").open("wb"))
        process = subprocess.Popen(
            serve_command(port, database, serve_flags), stdout=log, stderr=subprocess.STDOUT,
            env=os.environ.copy(),
        )
        stack.callback(_stop, process)
        _wait_healthy(process, base, folder / "server.log")
        idle = rss_kib(process.pid)
        seating = time.monotonic()
        orders = seat_tables(base, game, tables, players)
        seat_seconds = time.monotonic() - seating
        seated = rss_kib(process.pid)
        sampler = ServerSampler(process.pid)
        clients = [
            LoadClient(f"ws://127.0.0.1:{port}", think, seed * 1000 + number, duration is not None, client_log)
            for number in range(max(1, client_processes))
        ]
        for client in clients:
            stack.callback(client.close)
        started = connecting = time.monotonic()
        for index, order in enumerate(orders):
            clients[index % len(clients)].send(order)
        for client in clients:
            client.send({"command": "go"})
        for client in clients:
            client.expect("ready", started + READY_TIMEOUT)
        connected = time.monotonic()
        for client in clients:
            client.send({"command": "play"})
        started = time.monotonic()
        if duration is not None:
            time.sleep(duration)
            for client in clients:
                client.send({"command": "stop"})
            stopped = time.monotonic()
            sampler.stop()
            deadline = stopped + 60
        else:
            deadline = started + timeout
        results = []
        for client in clients:
            try:
                results.append(client.expect("result", deadline))
            except BenchTimeout:
                client.send({"command": "stop"})
                results.append(client.expect("result", time.monotonic() + 60))
        if duration is None:
            stopped = time.monotonic()
            sampler.stop()
        stats = httpx.get(f"{base}/stats", timeout=60).json()
        events = None
        if duration is None:
            store = Store(database)
            try:
                events = sum(len(store.events(table)) for table in {order["table"] for order in orders})
            finally:
                store.close()
    latencies = sorted(latency for result in results for latency in result["latencies_ms"])
    timed = [
        (sent, latency) for result in results
        for sent, latency in zip(result["sent_at"], result["latencies_ms"], strict=True)
    ]
    ended = Counter(table for result in results for table in result["tables_ended"])
    refused: Counter[str] = Counter()
    for result in results:
        refused.update(result["refused"])
    kind = database.split(":", 1)[0].split("+", 1)[0]
    return ServerBenchResult(
        database=kind, game=game, tables=tables, client_processes=len(clients), think=think, duration=duration,
        seconds=stopped - started, seat_seconds=seat_seconds, connect_seconds=connected - connecting,
        acts_acked=len(latencies), p50_ms=percentile(latencies, 0.5),
        p95_ms=percentile(latencies, 0.95), p99_ms=percentile(latencies, 0.99),
        max_ms=latencies[-1] if latencies else None, p99_ms_by_slice=by_slice(timed, started, stopped),
        refused=dict(refused),
        failures=sum(int(result["failures"]) for result in results),
        failure_messages=[message for result in results for message in result["failure_messages"]],
        finished=sum(1 for count in ended.values() if count == players), events=events,
        server_acts=int(stats["acts"]), server_p50_ms=stats["p50_ms"], server_p99_ms=stats["p99_ms"],
        server_cpu_share=sampler.cpu_share(started),
        client_cpu_share=sum(float(result["cpu_s"]) / float(result["window_s"]) for result in results) / len(results),
        idle_mib=idle / 1024, peak_mib=sampler.peak / 1024,
        kib_per_playing_table=(sampler.peak - idle) / max(tables, 1),
        kib_per_seated_table=(seated - idle) / max(tables, 1),
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--game", default="cards-of-war")
    parser.add_argument("--database", default="sqlite", help="sqlite, postgres (a throwaway server) or a URL")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--think", type=parse_think, default=(0.0, 0.0), help="0, SECONDS or MIN..MAX")
    parser.add_argument("--duration", type=float, default=None, help="seconds of the measured window")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--serve-flag", action="append", default=[], help="one more `warcards serve` flag")
    parser.add_argument("--seed", type=int, default=0, help="the load clients' choices")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="warcards-bench-db-") as folder, database_for(
        args.database, Path(folder)
    ) as url:
        result = run(
            args.tables, args.game, url, client_processes=args.client_processes, think=args.think,
            duration=args.duration, timeout=args.timeout, serve_flags=args.serve_flag, seed=args.seed,
        )
    print(json.dumps(result.as_dict(), indent=2) if args.json else "\n".join(result.lines()))


if __name__ == "__main__":
    main()
