"""The OpenSpiel-shaped loop's time per action for a fixed, seeded workload, for A/B comparisons on the clock.

    python3 scripts/speed/osloop_clock.py GAME '{"players": 4}' GAMES REPS

Plays GAMES seeded games (seeds 0..GAMES-1) through `../shared/bench/speed_ratio.py`'s own `playout` (the loop
researchers use: `chance_outcomes()` sampled in Python, `legal_actions()` + `random.choice`, `apply_action`),
REPS times, and prints the actions and the best repetition's CPU time (`time.process_time`) per action in
nanoseconds. Run it alternately against another checkout (`PYTHONPATH=OTHER/src`) and compare medians: on a
shared machine the absolute figure drifts, a ratio from alternating runs holds (docs/contributing/speed.md).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "shared" / "bench"))

from speed_ratio import playout

import warcards


def main() -> None:
    game = warcards.load_game(sys.argv[1], **json.loads(sys.argv[2]))
    games, reps = int(sys.argv[3]), int(sys.argv[4])
    best, actions = float("inf"), 0
    for _ in range(reps):
        start, actions = time.process_time(), 0
        for seed in range(games):
            actions += playout(game.new_initial_state(), random.Random(seed), warcards.CHANCE)
        best = min(best, time.process_time() - start)
    print(f"{actions} actions, {best / actions * 1e9:.0f} ns/action (CPU, best of {reps})")


if __name__ == "__main__":
    main()
