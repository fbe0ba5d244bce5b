"""Where does `hard` leave the heuristic's move, and is it right to? Re-measures each override.

Plays seeded games with the heuristic in every seat; at every `--every`-th real choice it asks a `hard` bot
for its move, and where that differs from the heuristic's it compares the two moves again on `--samples`
fresh determinizations of the seat's view (paired: both moves from the same hidden cards, the rollout by
the heuristic for each `--horizons` value, then the game's `evaluate`). Each line shows the phase, the two
moves and, per horizon, the mean gain in the seat's return with its t statistic; the totals count the
overrides that are better (t > 2), worse (t < -2) and not distinguishable.

    python3 scripts/strength/overrides.py naval-war --option players=4 --decisions 80 --samples 200

`--search NAME=VALUE` changes a field of the asked bot's `SearchConfig` (the judge keeps the level's), so
two budgets can be compared decision by decision: `--search iterations=400`.

An override that does not hold up on fresh samples was picked by the noise of the samples that rated it
(see `SearchConfig.confirm` in docs/bots.md); one that holds up at the search's horizon but not at a longer
one points at a bias of the evaluation.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import Counter

import warcards
from warcards.bots import make_agent
from warcards.bots.ismcts import ISMCTSAgent, build
from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE, State, sample_chance


def paired_gain(agent: ISMCTSAgent, state: State, seat: int, move: int, other: int, samples: int) -> tuple[float, float]:
    """Mean return of `move` minus `other` for `seat` over fresh determinizations, and its t statistic."""
    diffs = agent.paired_differences(SeatView(state, seat), move, other, samples)
    mean = sum(diffs) / samples
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (samples - 1))
    return mean, mean / (spread / math.sqrt(samples)) if spread > 0 else 0.0


def option(text: str) -> tuple[str, object]:
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--option", action="append", default=[], help="a game option, NAME=VALUE")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--search", action="append", default=[],
                        help="a SearchConfig field of the asked bot, NAME=VALUE (e.g. iterations=400)")
    parser.add_argument("--decisions", type=int, default=80, help="decisions to ask the search about")
    parser.add_argument("--every", type=int, default=5, help="ask at every N-th real choice")
    parser.add_argument("--samples", type=int, default=200, help="fresh determinizations per override")
    parser.add_argument("--horizons", default="10,40", help="rollout horizons to re-measure at, comma-separated")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    game = warcards.load_game(args.game, **dict(option(o) for o in args.option))
    horizons = [int(h) for h in args.horizons.split(",")]
    search = dict(option(o) for o in args.search)
    asked = 0
    overrides = 0
    verdicts: Counter[tuple[int, str]] = Counter()
    total = dict.fromkeys(horizons, 0.0)
    deal = 0
    while asked < args.decisions:
        rng = random.Random(args.seed + deal)
        heuristics = [make_agent("heuristic", game, seat, seat + deal) for seat in range(game.num_players)]
        state = game.new_initial_state()
        choices = 0
        while not state.is_terminal() and asked < args.decisions:
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                continue
            hint = heuristics[seat].step(SeatView(state, seat))
            if len(state.legal_actions()) > 1:
                choices += 1
                if choices % args.every == 0:
                    asked += 1
                    asker = build(args.level, game, seat, choices + 1000 * deal, **search)
                    move = asker.step(SeatView(state, seat))
                    if move != hint:
                        overrides += 1
                        shown = []
                        for horizon in horizons:
                            judge = build(args.level, game, seat, choices + 7, horizon=horizon)
                            mean, t = paired_gain(judge, state, seat, move, hint, args.samples)
                            total[horizon] += mean
                            verdicts[horizon, "better" if t > 2 else "worse" if t < -2 else "level"] += 1
                            shown.append(f"h{horizon} {mean:+.4f} (t {t:+.1f})")
                        phase = SeatView(state, seat).observation().get("phase", "?")
                        print(phase, state.action_to_string(hint), "->", state.action_to_string(move), *shown)
            state.apply_action(hint)
        deal += 1
    print(f"{overrides} overrides in {asked} decisions")
    for horizon in horizons:
        counts = ", ".join(f"{verdicts[horizon, v]} {v}" for v in ("better", "worse", "level"))
        print(f"horizon {horizon}: {counts}; net gain {total[horizon]:+.3f}")


if __name__ == "__main__":
    main()
