"""Where a game's random playouts spend their time, per phase: `PYTHONPATH=src python3
scripts/speed/phase_costs.py GAME [OPTIONS_JSON] [GAMES] [PHASE_FIELD]`.

Plays GAMES seeded random games (default 300) through the bench's driver loop and times every step: for each
phase (the state's PHASE_FIELD, default `phase`; chance steps by `chance_kind` when the state has one) the
share of actions and of time, and the nanoseconds of `legal_actions()` and of the apply. The timer adds
about 100 ns a step, so the shares are what to read, not the absolute figures. No test asserts a time.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from typing import Any

from warcards.engine.api import CHANCE
from warcards.engine.registry import load_game


def main() -> None:
    game_id = sys.argv[1]
    options = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    field = sys.argv[4] if len(sys.argv) > 4 else "phase"
    game = load_game(game_id, **options)
    clock = time.perf_counter_ns
    legal_ns: Counter[Any] = Counter()
    apply_ns: Counter[Any] = Counter()
    steps: Counter[Any] = Counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                key: Any = ("chance", getattr(state, "chance_kind", None))
                start = clock()
                state.apply_chance(rng.random())
                apply_ns[key] += clock() - start
            else:
                key = getattr(state, field)
                start = clock()
                legal = state.legal_actions()
                listed = clock()
                action = legal[rng.randrange(len(legal))]
                before_apply = clock()
                state.apply_action(action)
                apply_ns[key] += clock() - before_apply
                legal_ns[key] += listed - start
            steps[key] += 1
    total_ns = sum(legal_ns.values()) + sum(apply_ns.values())
    total_steps = sum(steps.values())
    print(f"{game_id} {json.dumps(options)}: {total_steps} actions, {total_ns / total_steps:.0f} ns/action")
    for key, count in steps.most_common():
        spent = legal_ns[key] + apply_ns[key]
        print(f"{key!s:20} actions {100 * count / total_steps:5.1f}%  time {100 * spent / total_ns:5.1f}%  "
              f"legal {legal_ns[key] / count:6.0f} ns  apply {apply_ns[key] / count:6.0f} ns")


if __name__ == "__main__":
    main()
