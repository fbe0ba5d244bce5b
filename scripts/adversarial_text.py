"""Time refusing 1 MB adversarial action lines in every registered game (issue 21, section 3: Text).

For each game (and each variant or player count whose notation differs), at a chance node and at a player's
decision of a seeded random playout, every line below goes through `State.parse_action` (the public entry
point: the length cap refuses it before any game parser runs) and through the game's own notation parser
directly (`State._parse_action`, no cap: this shows that the parsers themselves are linear). The table gives
the median of 5 runs in milliseconds and the exception raised.

    PYTHONPATH=$PWD/src python3 scripts/adversarial_text.py [--size BYTES]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from warcards.engine.api import CHANCE, State, sample_chance
from warcards.engine.registry import load_game

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("race-to-messina", {"variant": "race"}),
    ("race-to-messina", {"variant": "invasion"}),
    ("race-to-messina", {"variant": "sicily"}),
    ("med-sirocco", {"players": 2}),
    ("med-sirocco", {"players": 6}),
    ("naval-war", {"players": 2, "kamikaze": True}),
    ("naval-war", {"players": 5, "target": 20, "night": True}),
    ("cards-of-war", {"decks": 1}),
    ("cards-of-war", {"decks": 2, "joint_deployment": True}),
]


def lines(size: int) -> dict[str, str]:
    """The adversarial lines, each `size` characters long."""
    return {
        "spaces": " " * size,
        "(": "(" * size,
        "digits": "9" * size,
        "'²'": "²" * size,
        "mixed": ("deploy X05 ( vs  target ->  1²٣ " * (size // 32 + 1))[:size],
        "word+spaces": "deploy X05" + " " * (size - 20) + "vs british",
    }


def nodes(game_id: str, options: dict[str, Any]) -> dict[str, State]:
    """A chance node and a player's decision of a seeded random playout."""
    game = load_game(game_id, **options)
    state = game.new_initial_state()
    rng = random.Random(21)
    found: dict[str, State] = {}
    for _ in range(10_000):
        kind = "chance" if state.current_player() == CHANCE else "decision"
        if kind not in found:
            found[kind] = state.clone()
        if len(found) == 2 or state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return found


def timed(call: Callable[[str], object], text: str, runs: int = 5) -> tuple[float, str]:
    """The median of `runs` calls in ms (robust to a busy machine), and what the call raised (or returned)."""
    times: list[float] = []
    outcome = ""
    for _ in range(runs):
        start = time.perf_counter()
        try:
            result = call(text)
            outcome = f"returned {result!r}"
        except Exception as error:
            outcome = type(error).__name__
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="characters per line (default 1 MB)")
    args = parser.parse_args()
    texts = lines(args.size)
    print(f"{'game':16} {'options':44} {'node':8} {'line':12} {'parse_action ms':>15} {'notation ms':>12}  raised")
    worst_public = worst_notation = 0.0
    for game_id, options in CONFIGS:
        for node, state in nodes(game_id, options).items():
            for name, text in texts.items():
                before = (state.history(), state.zones(), state.position())
                public_ms, public = timed(state.parse_action, text)
                notation_ms, notation = timed(state._parse_action, text.strip() or text)
                assert (state.history(), state.zones(), state.position()) == before, "state changed"
                worst_public = max(worst_public, public_ms)
                worst_notation = max(worst_notation, notation_ms)
                shown = ", ".join(f"{key}={value}" for key, value in options.items())
                raised = public if public == notation else f"{public} / {notation}"
                print(f"{game_id:16} {shown:44} {node:8} {name:12} {public_ms:15.3f} {notation_ms:12.1f}  {raised}")
    print(f"slowest refusal (median of 5) through parse_action: {worst_public:.3f} ms; through a game's notation parser "
          f"directly: {worst_notation:.1f} ms (lines of {args.size:,} characters)")


if __name__ == "__main__":
    main()
