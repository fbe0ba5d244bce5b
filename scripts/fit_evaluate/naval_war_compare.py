"""Would other constants make Naval War's `hard` better? Compares them with the shipped `CONSTANTS`.

Two measures, both seeded:

- **Calibration** (`--fit-seeds`, `--test-seeds`): the skill (1 - MSE / the constant guess's, overall and by
  quarter of the game) of each set on the games `naval_war.py` collects and caches, on the seeds the
  constants were fitted on and on held-out ones (collected here if not cached yet, about 80 s per 200 games
  with 9 players).
- **Decisions** (`--decisions`, `--seeds`): in heuristic games, at every 5th real choice, a `hard` bot with
  each set is asked for its move; each override of the heuristic's move is re-measured on 200 fresh
  determinizations at horizons 10 and 30 by a judge with each set (as `scripts/strength/overrides.py`
  does), so neither set is judged only by itself. The totals count the overrides that are better (t > 2),
  worse (t < -2) and not distinguishable, and the net gain in win share; and how many overrides the two
  sets share.

    python3 scripts/fit_evaluate/naval_war_compare.py --players 9 \\
        --constants 0.39,0.157,0.366,0.366,-10.512,14.886,3.466,6.385 --decisions 100 --seeds 5 500

The constants are given in `CONSTANTS` order (GAIN, SHIPS, TOUGHNESS, FIREPOWER, LEADER, SQUADRON,
ROUND_SPREAD, RACE_SPREAD), as `naval_war.py --players N` prints them.
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
from naval_war import arrays, load, predict, skills

import warcards
from warcards.bots import make_agent
from warcards.bots.ismcts import build
from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE, TERMINAL, State, sample_chance
from warcards.games.naval_war.evaluate import CONSTANTS, combine, features
from warcards.games.naval_war.state import NavalWarState

HORIZONS = (10, 30)
SAMPLES = 200


def evaluator(constants: tuple[float, ...]) -> Callable[[State], list[float]]:
    """`evaluate` with other constants."""

    def evaluate(state: State) -> list[float]:
        assert isinstance(state, NavalWarState)
        if state.to_act == TERMINAL:
            return state.returns()
        return combine(features(state), constants)

    return evaluate


def calibration(players: int, sets: dict[str, tuple[float, ...]], seeds: list[int], cache: Path) -> None:
    """Print each set's skill on the cached games of `seeds`."""
    samples = [s for seed in seeds for s in load(players, 200, seed, cache)]
    a = arrays(samples, 1)
    for name, constants in sets.items():
        shown = " ".join(f"{x:.4f}" for x in skills(a, predict(a, np.array(constants))))
        print(f"seeds {seeds} {name}: skill overall, by quarter: {shown}")


def decisions(players: int, sets: dict[str, tuple[float, ...]], seed: int, count: int) -> None:
    """Ask `hard` with each set at `count` decisions of heuristic games; judge the overrides by each set."""
    game = warcards.load_game("naval-war", players=players)
    evaluators = {name: evaluator(constants) for name, constants in sets.items()}
    asked = 0
    overrides: Counter[str] = Counter()
    shared = 0
    verdicts: Counter[tuple[str, str, int, str]] = Counter()
    total: Counter[tuple[str, str, int]] = Counter()
    deal = 0
    while asked < count:
        rng = random.Random(seed + deal)
        heuristics = [make_agent("heuristic", game, s, s + deal) for s in range(players)]
        state = game.new_initial_state()
        choices = 0
        while not state.is_terminal() and asked < count:
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                continue
            hint = heuristics[seat].step(SeatView(state, seat))
            if len(state.legal_actions()) > 1:
                choices += 1
                if choices % 5 == 0:
                    asked += 1
                    moves: dict[str, int] = {}
                    for name, evaluate in evaluators.items():
                        asker = build("hard", game, seat, choices + 1000 * deal)
                        asker.evaluator = evaluate
                        move = asker.step(SeatView(state, seat))
                        if move == hint:
                            continue
                        moves[name] = move
                        overrides[name] += 1
                        shown = []
                        for judge_name, judge_evaluate in evaluators.items():
                            for horizon in HORIZONS:
                                judge = build("hard", game, seat, choices + 7, horizon=horizon)
                                judge.evaluator = judge_evaluate
                                diffs = judge.paired_differences(SeatView(state, seat), move, hint, SAMPLES)
                                mean = sum(diffs) / SAMPLES
                                spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (SAMPLES - 1))
                                t = mean / (spread / math.sqrt(SAMPLES)) if spread > 0 else 0.0
                                total[name, judge_name, horizon] += mean
                                verdict = "better" if t > 2 else "worse" if t < -2 else "level"
                                verdicts[name, judge_name, horizon, verdict] += 1
                                shown.append(f"{judge_name}/h{horizon} {mean:+.4f} ({t:+.1f})")
                        print(name, state.action_to_string(hint), "->", state.action_to_string(move), *shown,
                              flush=True)
                    if len(moves) == len(evaluators) and len(set(moves.values())) == 1:
                        shared += 1
            state.apply_action(hint)
        deal += 1
    print(f"seed {seed}: {asked} decisions, {shared} overrides the same under every set")
    for name in evaluators:
        print(f"asker {name}: {overrides[name]} overrides")
        for judge_name in evaluators:
            for horizon in HORIZONS:
                better, worse, level = (verdicts[name, judge_name, horizon, v] for v in ("better", "worse", "level"))
                print(f"  judge {judge_name} h{horizon}: {better} better, {worse} worse, {level} level; "
                      f"net {total[name, judge_name, horizon]:+.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--constants", required=True, help="eight numbers in CONSTANTS order, comma-separated")
    parser.add_argument("--fit-seeds", type=int, nargs="*", default=[1000, 2000, 3000])
    parser.add_argument("--test-seeds", type=int, nargs="*", default=[4000])
    parser.add_argument("--decisions", type=int, default=100, help="decisions to ask per seed (0: skip)")
    parser.add_argument("--seeds", type=int, nargs="*", default=[5, 500], help="seeds of the heuristic games")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/naval_war_fit"))
    args = parser.parse_args()
    other = tuple(float(x) for x in args.constants.split(","))
    if len(other) != len(CONSTANTS):
        parser.error(f"--constants takes {len(CONSTANTS)} numbers (CONSTANTS order), got {len(other)}")
    sets = {"shipped": CONSTANTS, "other": other}
    for seeds in (args.fit_seeds, args.test_seeds):
        if seeds:
            calibration(args.players, sets, seeds, args.cache)
    if args.decisions > 0:
        for seed in args.seeds:
            decisions(args.players, sets, seed, args.decisions)


if __name__ == "__main__":
    main()
