"""Measure each adjacent pair of the bot ladder (`warcards.bots.LADDER`) in every game and variant, and
print docs/bots.md's pair table and the published ratings they give (`warcards.bots.ratings`).

    python3 scripts/ladder_pairs.py                                   # everything, the shipped sizes
    python3 scripts/ladder_pairs.py --config naval-war/4p --pair hard,medium --games 40

Each pair is one tournament through `warcards.arena` (duplicate deals, every seat rotation: AB and BA with
2 seats, ABA and BAB in Sicily, ABAB and BABA with 4), recorded as
`warcards tournament GAME --agents UPPER,LOWER --games N --seed 33 --jobs 1 --out FILE` would record it, in
results/ladder-pairs/, and a rerun resumes it (a larger --games extends it, the first games unchanged).

The score of a game is the upper bot's: 1 when its best seat out-returned the lower bot's best seat, 1/2
on a tie, 0 otherwise (`warcards.arena.head_to_head`); a deal's score is the mean over its rotations, and
the interval is the Student-t 95% interval over the complete deals (cut to [0, 1]) (the rotations of one deal are paired, the
deals independent); where every deal scored alike (a sweep), the Wilson interval over the deals instead.
A pair is shown separated when the interval's lower end is above 1/2.

The rating step of a pair is the logistic (Elo) difference `400 log10(s / (1 - s))` of its score `s`,
taken as (points + 1) / (games + 2) so a clean sweep gives a finite step; the ratings chain the steps from
`medium` = 1500, none below `warcards.bots.ratings.FLOOR`, none below the level under it; `hard`'s step pools this run's games with the
earlier ones of docs/bots.md's Strength table (`EARLIER_HARD`).
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scipy.stats import t as student_t

from warcards.arena import TournamentSpec, lineups, make_backend, read_records, run_tournament, wilson
from warcards.arena.tournament import TournamentRecord
from warcards.bots import LADDER
from warcards.bots.ratings import ANCHOR_LEVEL, ANCHOR_RATING, FLOOR, elo_step

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "race-to-messina/invasion": ("race-to-messina", {"variant": "invasion"}),
    "race-to-messina/race": ("race-to-messina", {"variant": "race"}),
    "race-to-messina/sicily": ("race-to-messina", {"variant": "sicily"}),
    "med-sirocco/2p": ("med-sirocco", {"players": 2}),
    "med-sirocco/4p": ("med-sirocco", {"players": 4}),
    "naval-war/2p": ("naval-war", {"players": 2}),
    "naval-war/4p": ("naval-war", {"players": 4}),
    "cards-of-war/2p": ("cards-of-war", {}),
}
"""Every game and variant measured: its label (game/group, the group of `warcards.bots.ratings`), the game
and its options."""

CHEAP_GAMES = 400
"""Games of each pair below `hard` (200 deals of the two rotations): the cheap rungs cost a few ms a game."""

HARD_GAMES: dict[str, int] = {
    "race-to-messina/invasion": 40,
    "race-to-messina/race": 80,
    "race-to-messina/sicily": 40,
    "med-sirocco/2p": 20,
    "med-sirocco/4p": 24,
    "naval-war/2p": 80,
    "naval-war/4p": 80,
    "cards-of-war/2p": 80,
}
"""`hard` against `medium`, the most games per configuration (fixed before the run). docs/bots.md's run
played them in rounds over the configurations and stopped at a time fixed in advance, not on a result."""

SEED = 33

EARLIER_HARD: dict[str, tuple[float, int, str]] = {
    "race-to-messina/invasion": (18.0, 20, "seed 7: 90.0% of 20 games"),
    "race-to-messina/race": (39.5, 60, "seed 7: 65.8% of 60 games"),
    "race-to-messina/sicily": (127.0, 240, "seed 7: 35.3% of its 360 seat-games in 240 games"),
    "med-sirocco/2p": (20.0, 20, "seed 9: 100.0% of 20 games"),
    "med-sirocco/4p": (17.5, 20, "seed 9: 43.8% of its 40 seat-games in 20 games"),
    "naval-war/4p": (97.0, 160, "seed 31: 30.3% of its 320 seat-games in 160 games"),
    "cards-of-war/2p": (38.0, 60, "seed 5: 63.3% of 60 games"),
}
"""`hard` against the heuristic (`medium`) in docs/bots.md's Strength table (the same bot, earlier seeds):
(points, games, the row and its seed: `warcards tournament GAME --agents hard,heuristic --games N --seed S`) —
points are its win shares, every game having one winner (a 3- or 4-seat game's
points are its seats' wins). The published ratings pool them with this run's games."""


@dataclass(frozen=True)
class PairScore:
    """The upper bot's score against the lower one: games, deals, mean score and its 95% interval."""

    config: str
    upper: str
    lower: str
    games: int
    deals: int
    score: float
    low: float
    high: float

    @property
    def points(self) -> float:
        return self.score * self.games

    @property
    def verdict(self) -> str:
        if self.low > 0.5:
            return "above"
        if self.high < 0.5:
            return "below"
        return "not shown"


def game_score(record: TournamentRecord, upper: str) -> float:
    """1 when `upper`'s best seat out-returned every other agent's best seat, 1/2 on a tie, else 0."""
    best: dict[str, float] = {}
    for seat, agent in enumerate(record.agents):
        best[agent] = max(best.get(agent, -math.inf), record.returns[seat])
    mine = best[upper]
    other = max(value for agent, value in best.items() if agent != upper)
    return 1.0 if mine > other else 0.5 if mine == other else 0.0


def pair_score(config: str, records: Sequence[TournamentRecord], upper: str, lower: str) -> PairScore:
    """The paired score of `upper` against `lower`: the mean of each deal's mean game score, with a
    Student-t 95% interval over the deals."""
    deals: dict[int, list[float]] = defaultdict(list)
    for record in records:
        deals[record.seed].append(game_score(record, upper))
    rotations = len(lineups((upper, lower), len(records[0].agents)))
    complete = [scores for scores in deals.values() if len(scores) == rotations]  # a run stopped mid-deal
    means = [sum(scores) / len(scores) for scores in complete]
    n = len(means)
    if n == 0:
        return PairScore(config, upper, lower, 0, 0, 0.5, 0.0, 1.0)
    mean = sum(means) / n
    variance = sum((m - mean) ** 2 for m in means) / (n - 1) if n > 1 else 0.0
    if variance > 0:
        half = float(student_t.ppf(0.975, n - 1)) * math.sqrt(variance / n)
        return PairScore(config, upper, lower, n * rotations, n, mean, max(0.0, mean - half), min(1.0, mean + half))
    low, high = wilson(sum(means), n)  # every deal alike (a sweep): no spread to estimate, so Wilson's
    return PairScore(config, upper, lower, n * rotations, n, mean, low, high)


def play(config: str, upper: str, lower: str, games: int | None, jobs: int, out: Path) -> list[TournamentRecord]:
    """Play (or resume) the pair's tournament and return its records; with `games` None, only read the
    records played so far."""
    game_id, options = CONFIGS[config]
    path = out / f"{config.replace('/', '-')}-{upper}-{lower}.jsonl"
    records: list[TournamentRecord]
    if games is None:
        records = read_records(path)
    else:
        spec = TournamentSpec(game_id, (upper, lower), games, SEED, options)
        records = run_tournament(spec, make_backend("process", jobs), path).records
    return records


def ratings_of(config: str, scores: Mapping[tuple[str, str], PairScore]) -> dict[str, int]:
    """Each level's rating: the steps of the adjacent pairs chained from the anchor (`hard`'s step over this
    run's games and `EARLIER_HARD`'s together), none below `FLOOR`; a level that scored under 1/2 against the
    one below it gets that level's rating (not shown to be stronger, and never published as weaker)."""
    names = [rung.name for rung in LADDER]
    anchor = names.index(ANCHOR_LEVEL)
    values = {ANCHOR_LEVEL: float(ANCHOR_RATING)}
    for index in range(anchor + 1, len(names)):
        upper, lower = names[index], names[index - 1]
        s = scores.get((upper, lower)) or PairScore(config, upper, lower, 0, 0, 0.5, 0.0, 1.0)  # earlier runs only
        earlier_points, earlier_games, _ = EARLIER_HARD.get(config, (0.0, 0, "")) if s.upper == "hard" else (0, 0, "")
        step = elo_step(s.points + earlier_points, s.games + earlier_games)
        values[names[index]] = values[names[index - 1]] + max(0.0, step)
    for index in range(anchor - 1, -1, -1):
        s = scores[names[index + 1], names[index]]
        values[names[index]] = values[names[index + 1]] - max(0.0, elo_step(s.points, s.games))
    return {name: max(FLOOR, round(values[name])) for name in names}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", action="append", choices=list(CONFIGS), help="default: every one")
    parser.add_argument("--pair", action="append", help="UPPER,LOWER (default: every adjacent pair)")
    parser.add_argument("--games", type=int, help="games per pair (default: CHEAP_GAMES, or HARD_GAMES for hard)")
    parser.add_argument("--read", action="store_true", help="play nothing: the table of the records in --out")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("results/ladder-pairs"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    names = [rung.name for rung in LADDER]
    adjacent = [(names[i], names[i - 1]) for i in range(1, len(names))]
    pairs = [tuple(p.split(",")) for p in args.pair] if args.pair else adjacent
    print("| game | variant | pair | games | deals | score | 95% interval | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    table: dict[str, dict[tuple[str, str], PairScore]] = {}
    for config in args.config or list(CONFIGS):
        for upper, lower in pairs:
            games = None if args.read else args.games or (HARD_GAMES[config] if upper == "hard" else CHEAP_GAMES)
            records = play(config, upper, lower, games, args.jobs, args.out)
            s = pair_score(config, records, upper, lower) if records else None
            if s is None or not s.deals:
                continue
            table.setdefault(config, {})[upper, lower] = s
            game, variant = config.split("/")
            print(
                f"| {game} | {variant} | {upper} vs {lower} | {s.games} | {s.deals} | {s.score:.3f} | "
                f"[{s.low:.3f}, {s.high:.3f}] | {s.verdict} |",
                flush=True,
            )
    published: dict[str, dict[str, dict[str, int]]] = {}
    for config, scores in table.items():
        if all(pair in scores or (pair[0] == "hard" and config in EARLIER_HARD) for pair in adjacent):
            game, group = config.split("/")
            published.setdefault(game, {})[group] = ratings_of(config, scores)
    if published:
        print(f"\nPUBLISHED = {published!r}  # warcards.bots.ratings")


if __name__ == "__main__":
    main()
