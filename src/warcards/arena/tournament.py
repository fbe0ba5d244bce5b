"""Tournaments: every agent in every seat, seeded per game, on a process pool or Ray, resumable.

The schedule is a pure function of the spec: game `i` uses lineup `i % L` (L seat rotations) and the
chance seed of deal `i // L`, so each deal is replayed once per rotation (duplicate format: luck evens
out) and a game's result does not depend on which worker played it. Results stream to a JSONL file
(one `TournamentRecord` per line); a rerun with the same spec and file plays only the games missing.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from pydantic import StrictInt

from warcards.arena.sprt import SPRTConfig, SPRTResult, ab_scores, sprt
from warcards.bots import make_agent
from warcards.engine.agents import Agent
from warcards.engine.api import Game
from warcards.engine.options import PATH_QUOTE
from warcards.engine.registry import load_game, option_specs
from warcards.engine.text import quote
from warcards.match import MatchRecord, RecordError, derive_seed, json_value, parse_record, play_match

AgentBuilder = Callable[[Game, int, int], Agent]
GameFactory = Callable[[], Game]


class TournamentRecord(MatchRecord):
    """One game of a tournament: a `MatchRecord` (agents by seat) plus its index in the schedule."""

    index: StrictInt


@dataclass(frozen=True)
class GameTask:
    """One scheduled game: its index, chance seed and the agent names by seat."""

    index: int
    seed: int
    agents: tuple[str, ...]


@dataclass(frozen=True)
class TournamentSpec:
    """What to play. `factory` and `builders` serve games and bots outside the registries (tests)."""

    game: str
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    factory: GameFactory | None = None
    builders: Mapping[str, AgentBuilder] | None = None

    def __post_init__(self) -> None:
        if not self.agents:
            raise ValueError("a tournament needs at least one agent")
        if self.games < 1:
            raise ValueError(f"a tournament needs at least one game, got --games {self.games}")

    def load(self) -> Game:
        return self.factory() if self.factory is not None else _load(self.game, _frozen(self.options))


def _frozen(options: Mapping[str, Any]) -> str:
    """Options as a cache key: JSON with sorted keys (a record's options are JSON; `params` is a mapping)."""
    return json.dumps(options, sort_keys=True)


@cache
def _load(game_id: str, options: str) -> Game:
    return load_recorded(game_id, json.loads(options))


def load_recorded(game_id: str, options: Mapping[str, Any]) -> Game:
    """The game of a record's resolved options; options at their default are left to the game, so a
    default that is not itself an allowed value (e.g. `None` for "no file") loads too."""
    defaults = {spec.name: spec.default for spec in option_specs(game_id)}
    given = {k: v for k, v in options.items() if k not in defaults or defaults[k] != v}
    return load_game(game_id, **given)


def lineups(agents: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """Seat rotations: with at least as many agents as seats, every ordered choice of distinct agents;
    with fewer, the agents repeated round the table and rotated, so each agent sits in every seat."""
    if len(agents) >= seats:
        return list(itertools.permutations(agents, seats))
    return [tuple(agents[(shift + s) % len(agents)] for s in range(seats)) for shift in range(len(agents))]


def task_at(spec: TournamentSpec, rotations: Sequence[tuple[str, ...]], index: int) -> GameTask:
    """Game `index` of the schedule (defined for any index, so a longer rerun extends a shorter one)."""
    return GameTask(
        index, derive_seed(spec.seed, "deal", index // len(rotations)), rotations[index % len(rotations)]
    )


def schedule(spec: TournamentSpec, seats: int) -> list[GameTask]:
    """Every game of the tournament, in index order."""
    rotations = lineups(spec.agents, seats)
    return [task_at(spec, rotations, i) for i in range(spec.games)]


def play_task(spec: TournamentSpec, task: GameTask) -> TournamentRecord:
    """Play one scheduled game; agent seeds derive from the game seed and seat, as in `play_match`."""
    game = spec.load()
    builders = spec.builders or {}
    seated: list[Agent] = []
    for seat, name in enumerate(task.agents):
        seed = derive_seed(task.seed, "agent", seat)
        builder = builders.get(name)
        seated.append(
            builder(game, seat, seed) if builder is not None else make_agent(name, game, seat, seed)
        )
    try:
        record = play_match(game, seated, task.seed)
    except Exception as error:
        raise RuntimeError(
            f"{game.game_id} game {task.index} (seed {task.seed}, agents {list(task.agents)}) failed: "
            f"{type(error).__name__}: {error}"
        ) from error
    return TournamentRecord(**{**record.model_dump(), "agents": list(task.agents), "index": task.index})


def play_chunk(spec: TournamentSpec, tasks: Sequence[GameTask]) -> tuple[list[TournamentRecord], float]:
    """Play several tasks in one worker call (fewer round trips); the records and the seconds they took."""
    start = time.perf_counter()
    records = [play_task(spec, task) for task in tasks]
    return records, time.perf_counter() - start


class ChunkQueue:
    """The games still to hand to workers, in chunks of about `target` seconds of play each, sized from the
    time the games so far have taken: one game at a time until a game has been timed, then as many as fit
    the target, at most `largest`. A chunk is written to the results file (and counted by the progress
    bar) when it finishes, and a run interrupted mid-chunk plays it again: a search bot's game takes
    minutes, so its chunks stay one game long, while a random bot's games travel sixteen at a time."""

    def __init__(self, tasks: Iterable[GameTask], target: float = 2.0, largest: int = 16) -> None:
        self._tasks = deque(tasks)
        self.target = target
        self.largest = largest
        self._games = 0
        self._seconds = 0.0

    def __bool__(self) -> bool:
        return bool(self._tasks)

    def size(self) -> int:
        """How many games the next chunk holds."""
        if self._games == 0:
            return 1
        per_game = self._seconds / self._games
        if per_game <= 0:
            return self.largest
        return max(1, min(self.largest, int(self.target / per_game)))

    def take(self) -> list[GameTask]:
        """The next chunk, in schedule order."""
        return [self._tasks.popleft() for _ in range(min(self.size(), len(self._tasks)))]

    def timed(self, games: int, seconds: float) -> None:
        """A chunk of `games` games finished after `seconds` of play."""
        self._games += games
        self._seconds += seconds


def read_records(path: Path) -> list[TournamentRecord]:
    """Every record of a JSONL results file (a truncated last line, from an interrupted run, is ignored)."""
    records: list[TournamentRecord] = []
    if not path.exists():
        return records
    name = quote(str(path), PATH_QUOTE)
    try:
        lines = path.read_bytes().decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        raise RecordError(f"{name} is not a tournament results file: not UTF-8 (byte {error.start})") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            records.append(parse_record(json_value(line), where, TournamentRecord))
        except ValueError as error:
            if number == len(lines):
                break
            if isinstance(error, RecordError):
                raise RecordError(f"{error} (not a tournament record)") from None
            raise RecordError(f"{where} is not a tournament record: {quote(str(error), 80)}") from None
    return records


def _check_resumable(
    path: Path, records: Iterable[TournamentRecord], spec: TournamentSpec, game: Game
) -> None:
    rotations = lineups(spec.agents, game.num_players)
    for record in records:
        task = task_at(spec, rotations, record.index) if record.index >= 0 else None
        if (
            task is None
            or record.game != game.game_id
            or record.options != game.options
            or record.seed != task.seed
            or tuple(record.agents) != task.agents
        ):
            raise RecordError(
                f"{quote(str(path), PATH_QUOTE)} holds a different tournament (record {record.index}: {quote(record.game)} "
                f"{quote(record.options, 120)} seed {record.seed} agents {quote(record.agents, 80)}); use "
                f"another --out file or delete it to start afresh"
            )


class Backend(Protocol):
    """Plays tasks on `jobs` workers and yields the records of each finished chunk (any order)."""

    jobs: int

    def run(self, spec: TournamentSpec, tasks: Sequence[GameTask]) -> Iterator[list[TournamentRecord]]: ...


class InlineBackend:
    """Plays in this process (`--jobs 1`), one game at a time."""

    jobs = 1

    def run(self, spec: TournamentSpec, tasks: Sequence[GameTask]) -> Iterator[list[TournamentRecord]]:
        for task in tasks:
            yield [play_task(spec, task)]


IN_FLIGHT_PER_JOB = 2
"""Chunks queued per worker: enough to keep every worker busy, few enough that chunk sizes adapt."""


class ProcessBackend:
    """A local process pool of `jobs` workers, fed chunks from a `ChunkQueue`."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def run(self, spec: TournamentSpec, tasks: Sequence[GameTask]) -> Iterator[list[TournamentRecord]]:
        queue = ChunkQueue(tasks)
        with ProcessPoolExecutor(max_workers=self.jobs) as pool:
            pending: set[Future[tuple[list[TournamentRecord], float]]] = set()
            try:
                while queue or pending:
                    while queue and len(pending) < IN_FLIGHT_PER_JOB * self.jobs:
                        pending.add(pool.submit(play_chunk, spec, queue.take()))
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        records, seconds = future.result()
                        queue.timed(len(records), seconds)
                        yield records
            finally:
                for future in pending:
                    future.cancel()


def make_backend(backend: str, jobs: int, address: str | None = None) -> Backend:
    """`process` (a pool, or inline for one job) or `ray` (local, or the cluster at `address`)."""
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, got {jobs}")
    if backend == "process":
        if address is not None:
            raise ValueError("--address is for --backend ray")
        return InlineBackend() if jobs == 1 else ProcessBackend(jobs)
    if backend == "ray":
        from warcards.arena.ray_backend import RayBackend

        return RayBackend(jobs, address)
    raise ValueError(f"unknown backend {quote(backend)}; backends are: process, ray")


ProgressCallback = Callable[[int, int], None]


@dataclass
class TournamentResult:
    """The records in index order, and the SPRT verdict when the run used `until_significant`."""

    records: list[TournamentRecord]
    sprt: SPRTResult | None = None


def run_tournament(
    spec: TournamentSpec,
    backend: Backend | None = None,
    out: Path | None = None,
    progress: ProgressCallback | None = None,
    until_significant: SPRTConfig | None = None,
    batch: int = 50,
) -> TournamentResult:
    """Play (or resume) the tournament. With `until_significant` (two agents), play in fixed batches of
    `batch` games and stop after the first batch at which the SPRT on all games so far decides."""
    game = spec.load()
    backend = backend or InlineBackend()
    tasks = schedule(spec, game.num_players)
    done: dict[int, TournamentRecord] = {}
    if out is not None:
        existing = read_records(out)
        _check_resumable(out, existing, spec, game)
        done = {record.index: record for record in existing}
        _rewrite_clean(out, list(done.values()))
    if until_significant is not None and len(spec.agents) != 2:
        raise ValueError(
            f"--until-significant is an A/B test: give exactly two agents, not {len(spec.agents)}"
        )
    step = batch if until_significant is not None else len(tasks)
    if step < 1:
        raise ValueError(f"the SPRT batch must be at least one game, got {batch}")
    verdict: SPRTResult | None = None
    limit = len(tasks)
    handle = out.open("a") if out is not None else None
    try:
        for start in range(0, len(tasks), step):
            block = [task for task in tasks[start : start + step] if task.index not in done]
            if progress is not None:
                progress(len(done), len(tasks))
            for records in backend.run(spec, block) if block else iter(()):
                for record in records:
                    done[record.index] = record
                    if handle is not None:
                        handle.write(record.model_dump_json() + "\n")
                if handle is not None:
                    handle.flush()
                if progress is not None:
                    progress(len(done), len(tasks))
            if until_significant is not None:
                played = [done[t.index] for t in tasks[: start + step] if t.index in done]
                verdict = sprt(ab_scores(played, spec.agents[0]), until_significant)
                if verdict.decision is not None:
                    limit = start + step
                    break
    finally:
        if handle is not None:
            handle.close()
    return TournamentResult([done[t.index] for t in tasks[:limit] if t.index in done], verdict)


def _rewrite_clean(path: Path, records: list[TournamentRecord]) -> None:
    """Drop a truncated last line left by an interrupted run, so appends start on a fresh line."""
    text = path.read_text() if path.exists() else ""
    if text and not text.endswith("\n"):
        path.write_text("".join(r.model_dump_json() + "\n" for r in sorted(records, key=lambda r: r.index)))
