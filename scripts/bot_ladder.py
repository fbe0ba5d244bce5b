"""Measure the bot ladder (`warcards.bots.LADDER`) in every game and print docs/bots.md's Ladder table.

    python3 scripts/bot_ladder.py                      # every game, the shipped game counts, into results/ladder/
    python3 scripts/bot_ladder.py --game naval-war --cheap-games 240 --hard-games 8

For each game, at its default options, two tournaments through `warcards.arena` (the records are those of
`warcards tournament GAME --agents ... --games N --seed S --jobs 1 --out FILE`, and a rerun resumes them):

1. a round-robin of the rungs below `hard` (`random,beginner,easy,medium`): cheap bots, so many games;
2. `hard` against `medium`, the rung below it: about 0.1-0.25 s a decision, so few games.

The openskill (Plackett–Luce) ratings are computed over both files together (the round-robin first), so
`hard` is rated through its games with `medium`. Each rung is compared with the one below it on the games
both played: head-to-head (how often its best seat out-returned the other's, ties half) and the same-seat
difference of win shares on duplicate deals, with its 95% interval. Seconds per decision are CPU seconds of
this process (what one free core takes), mean and worst, at positions of seeded random games.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from warcards.arena import (
    TournamentSpec,
    duplicate_comparisons,
    head_to_head,
    make_backend,
    rate,
    run_tournament,
)
from warcards.arena.tournament import TournamentRecord
from warcards.bots import LADDER, make_agent
from warcards.bots.ismcts import benchmark, search_positions
from warcards.engine.agents import SeatView
from warcards.engine.api import Game
from warcards.engine.registry import games, load_game

CHEAP_GAMES = {"race-to-messina": 1200, "med-sirocco": 960, "naval-war": 960, "cards-of-war": 1200}
"""Round-robin games per game: 100 deals of the 12 two-seat lineups, 40 deals of the 24 four-seat ones."""
HARD_GAMES = {"race-to-messina": 20, "med-sirocco": 16, "naval-war": 8, "cards-of-war": 60}
"""`hard` against `medium`, games per game (a 4-seat game seats each twice: HMHM and MHMH)."""
SEARCHED = "hard"


def _play(game_id: str, agents: Sequence[str], count: int, seed: int, jobs: int, out: Path) -> list[TournamentRecord]:
    spec = TournamentSpec(game_id, tuple(agents), count, seed, load_game(game_id).options)
    return run_tournament(spec, make_backend("process", jobs), out).records


def _seconds(game: Game, name: str, decisions: int, seed: int) -> tuple[float, float]:
    """Mean and worst CPU seconds of one decision of bot `name`."""
    if name == SEARCHED:
        bench = benchmark(game, name, decisions, seed)
        return bench.seconds_per_decision, bench.worst_seconds
    spent = []
    for index, position in enumerate(search_positions(game, decisions, seed)):
        seat = position.current_player()
        agent = make_agent(name, game, seat, seed + index)
        start = time.process_time()
        agent.step(SeatView(position, seat))
        spent.append(time.process_time() - start)
    return sum(spent) / len(spent), max(spent)


def _pair(records: list[TournamentRecord], upper: str, lower: str) -> str:
    """`upper` against `lower`: head-to-head score and the same-seat difference with its interval."""
    order, matrix = head_to_head(records)
    score = matrix[order.index(upper)][order.index(lower)]
    comparison = next(
        c for c in duplicate_comparisons(records) if {c.agent, c.other} == {upper, lower}
    )
    sign = 1 if comparison.agent == upper else -1
    low, high = sorted((sign * comparison.low, sign * comparison.high))
    return (
        f"{score:.0%} | {sign * comparison.mean:+.3f} [{low:+.3f}, {high:+.3f}] ({comparison.deals} deals)"
    )


def measure(game_id: str, seed: int, cheap: int, hard: int, jobs: int, out: Path, decisions: int) -> list[str]:
    """The game's rows of the Ladder table (markdown)."""
    names = [rung.name for rung in LADDER]
    below = [name for name in names if name != SEARCHED]
    robin = _play(game_id, below, cheap, seed, jobs, out / f"{game_id}-ladder.jsonl")
    duel = _play(game_id, (SEARCHED, below[-1]), hard, seed, jobs, out / f"{game_id}-hard.jsonl")
    ratings = {r.agent: r for r in rate([*robin, *duel])}
    game = load_game(game_id)
    rows = []
    for index, name in enumerate(names):
        r = ratings[name]
        versus = "— | —"
        if index:
            versus = _pair(duel if name == SEARCHED else robin, name, names[index - 1])
        mean, worst = _seconds(game, name, decisions if name != SEARCHED else max(4, decisions // 12), seed)
        rows.append(
            f"| {game_id} | {name} | {r.mu:.1f} | {r.sigma:.1f} | {r.ordinal:.1f} | {r.games} | {versus} | "
            f"{mean * 1000:.1f} / {worst * 1000:.1f} |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game id (default: every game); repeatable")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--cheap-games", type=int, help="round-robin games (default: CHEAP_GAMES per game)")
    parser.add_argument("--hard-games", type=int, help="hard-vs-medium games (default: HARD_GAMES per game)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--decisions", type=int, default=200, help="decisions timed per bot (hard: 1/12)")
    parser.add_argument("--out", type=Path, default=Path("results/ladder"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print(
        "| game | bot | mu | sigma | ordinal | games | beats the rung below (head-to-head) "
        "| same seat vs the rung below [95%] | ms per decision (mean / worst) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for game_id in args.game or games():
        cheap = args.cheap_games or CHEAP_GAMES.get(game_id, 480)
        hard = args.hard_games or HARD_GAMES.get(game_id, 20)
        for row in measure(game_id, args.seed, cheap, hard, args.jobs, args.out, args.decisions):
            print(row, flush=True)


if __name__ == "__main__":
    main()
