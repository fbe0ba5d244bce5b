"""Seeded batch simulation: many games of fixed bots, on a process pool, with win rates and intervals.

Per-game seeds are derived from the master seed and the game's index, so the results are identical
whatever the number of worker processes. Records stream to a JSONL file in game order; `resume` reads the
games an earlier run of the same simulation finished, so a rerun after a kill plays only the rest.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warcards.engine.options import PATH_QUOTE
from warcards.engine.registry import load_game
from warcards.engine.text import quote
from warcards.match import MatchRecord, RecordError, derive_seed, json_value, parse_record, play_match


def wilson_interval(successes: float, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a proportion (successes may be fractional, for shared wins)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_shares(returns: Sequence[float]) -> list[float]:
    """Each seat's share of the win: 1 for the sole best return, split evenly among tied best seats."""
    best = max(returns)
    winners = [i for i, r in enumerate(returns) if r == best]
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(returns))]


@dataclass
class SeatSummary:
    seat: int
    seat_name: str
    bot: str
    wins: float
    win_rate: float
    low: float
    high: float
    mean_return: float


@dataclass
class SimulationSummary:
    game: str
    options: dict[str, Any]
    games: int
    mean_length: float
    seats: list[SeatSummary]


def game_seed(seed: int, index: int) -> int:
    """The chance seed of game `index` of a simulation with master seed `seed`."""
    return derive_seed(seed, "game", index)


def _play_one(job: tuple[str, dict[str, Any], list[str], int, int]) -> MatchRecord:
    game_id, options, bots, seed, index = job
    game = load_game(game_id, **options)
    return play_match(game, bots, game_seed(seed, index))


def run_games(
    game_id: str,
    options: dict[str, Any],
    bots: list[str],
    games: int,
    seed: int,
    jobs: int = 1,
    on_record: Callable[[MatchRecord], None] | None = None,
    start: int = 0,
) -> list[MatchRecord]:
    """Play games `start` to `games - 1`; `on_record` is called in game order as results arrive."""
    work = [(game_id, options, bots, seed, index) for index in range(start, games)]
    records: list[MatchRecord] = []
    results: Iterator[MatchRecord]
    if jobs <= 1:
        results = map(_play_one, work)
        for record in results:
            records.append(record)
            if on_record:
                on_record(record)
        return records
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for record in pool.map(_play_one, work, chunksize=max(1, min(64, len(work) // (jobs * 8) or 1))):
            records.append(record)
            if on_record:
                on_record(record)
    return records


def resume(path: Path, game_id: str, options: dict[str, Any], bots: list[str], seed: int) -> list[MatchRecord]:
    """The games an earlier run of this simulation wrote to `path`, in order (none if there is no file).

    Game `i` of a run is the record on its `i`-th line, so every record must be that game: the same game,
    options and bots by seat, and the chance seed the master `seed` gives game `i`; otherwise the file is
    another run's and `RecordError` says so (nothing is written). A last line cut short by a kill is
    dropped and the file rewritten without it, so new games append on a fresh line."""
    if not path.exists():
        return []
    name = quote(str(path), PATH_QUOTE)
    try:
        lines = path.read_bytes().decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        raise RecordError(f"--out {name} is not a simulate results file: not UTF-8 (byte {error.start})") from None
    last = max((number for number, line in enumerate(lines, 1) if line.strip()), default=0)
    records: list[MatchRecord] = []
    truncated = False
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"--out {name} line {number}"
        try:
            record = parse_record(json_value(line), where, MatchRecord)
        except ValueError as error:
            if number == last and not _ends_with_newline(path):
                truncated = True
                break
            message = error if isinstance(error, RecordError) else f"{where} is not JSON: {quote(str(error), 80)}"
            raise RecordError(f"{message}; use another --out file or delete it to start afresh") from None
        difference = _difference(record, len(records), game_id, options, bots, seed)
        if difference:
            raise RecordError(
                f"--out {name} holds games of a different run: line {number} {difference}; use another "
                f"--out file or delete it to start afresh"
            )
        records.append(record)
    if truncated or (lines and not _ends_with_newline(path)):
        path.write_text("".join(record.model_dump_json() + "\n" for record in records), encoding="utf-8")
    return records


def _difference(
    record: MatchRecord, index: int, game_id: str, options: dict[str, Any], bots: list[str], seed: int
) -> str:
    """How `record` differs from game `index` of this run, or "" if it is that game."""
    if record.game != game_id:
        return f"is a game of {quote(record.game)}, this run plays {game_id}"
    for key in sorted(set(record.options) | set(options)):
        if record.options.get(key) != options.get(key):
            return (
                f"has option {quote(key)}={quote(record.options.get(key))}, this run "
                f"{quote(key)}={quote(options.get(key))}"
            )
    if record.agents != list(bots):
        return f"has bots {quote(','.join(record.agents))}, this run --bots {','.join(bots)}"
    if record.seed != game_seed(seed, index):
        return f"is not game {index} of --seed {seed} (its chance seed is {record.seed})"
    return ""


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(0, 2)
        if handle.tell() == 0:
            return True
        handle.seek(-1, 2)
        return handle.read(1) == b"\n"


def summarize(
    game_id: str, options: dict[str, Any], bots: list[str], records: list[MatchRecord]
) -> SimulationSummary:
    game = load_game(game_id, **options)
    names = game.seat_names()
    n = len(records)
    seats = []
    for seat in range(game.num_players):
        wins = sum(win_shares(r.returns)[seat] for r in records)
        low, high = wilson_interval(wins, n)
        mean_return = sum(r.returns[seat] for r in records) / n if n else 0.0
        seats.append(
            SeatSummary(seat, names[seat], bots[seat], wins, wins / n if n else 0.0, low, high, mean_return)
        )
    mean_length = sum(len(r.actions) for r in records) / n if n else 0.0
    return SimulationSummary(game_id, game.options, n, mean_length, seats)
