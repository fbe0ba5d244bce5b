"""Seeded batch simulation: many games of fixed bots, on a process pool, with win rates and intervals.

Per-game seeds are derived from the master seed and the game's index, so the results are identical
whatever the number of worker processes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from warcards.engine.registry import load_game
from warcards.match import MatchRecord, derive_seed, play_match


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


def _play_one(job: tuple[str, dict[str, Any], list[str], int, int]) -> MatchRecord:
    game_id, options, bots, seed, index = job
    game = load_game(game_id, **options)
    return play_match(game, bots, derive_seed(seed, "game", index))


def run_games(
    game_id: str,
    options: dict[str, Any],
    bots: list[str],
    games: int,
    seed: int,
    jobs: int = 1,
    on_record: Callable[[MatchRecord], None] | None = None,
) -> list[MatchRecord]:
    """Play `games` games; `on_record` is called in game order as results arrive."""
    work = [(game_id, options, bots, seed, index) for index in range(games)]
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
        for record in pool.map(_play_one, work, chunksize=max(1, min(64, games // (jobs * 8) or 1))):
            records.append(record)
            if on_record:
                on_record(record)
    return records


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
