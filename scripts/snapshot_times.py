"""Times of the position format against `clone`, per game: `PYTHONPATH=src python3 scripts/snapshot_times.py`.

For determinized samples (what the server sends a search bot) at seeded random mid-game positions of each
game: microseconds per `clone()`, per `snapshot()`, per `json.dumps` of it, and per
`json.loads`, per reading the fields alone (`Codec.build`: types and sizes checked) and per whole
`state_from_snapshot` (the fields, then the cards and the contract's reads checked), and the snapshot's
size in bytes. Figures for docs/contributing/snapshot.md; no test asserts a time.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from warcards.engine.api import State, sample_chance
from warcards.engine.registry import load_game
from warcards.engine.snapshot import codec_of

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("cards-of-war", {}),
    ("race-to-messina", {}),
    ("med-sirocco", {"players": 4}),
    ("naval-war", {"players": 4}),
    ("naval-war", {"players": 9}),
]


def _samples(game_id: str, options: dict[str, Any], count: int = 20) -> list[State]:
    """Determinized samples of the seat to move at `count` seeded random mid-game positions."""
    game = load_game(game_id, **options)
    samples: list[State] = []
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_initial_state()
        for _ in range(rng.randrange(20, 200)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        while state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        if not state.is_terminal():
            samples.append(state.determinize(state.current_player(), random.Random(seed)))
    return samples


def _micros(call: Callable[[Any], object], items: list[Any], repeat: int = 20) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for item in items:
            call(item)
    return (time.perf_counter() - start) / (repeat * len(items)) * 1e6


def main() -> None:
    print(f"{'game':<28} {'clone':>7} {'snapshot':>9} {'dumps':>7} {'loads':>7} {'fields':>7} {'rebuild':>8} {'bytes':>6}")
    for game_id, options in CONFIGS:
        samples = _samples(game_id, options)
        game = samples[0].game
        snapshots = [state.snapshot() for state in samples]
        texts = [json.dumps(data) for data in snapshots]
        clone = _micros(lambda s: s.clone(), samples)
        snapshot = _micros(lambda s: s.snapshot(), samples)
        dumps = _micros(json.dumps, snapshots)
        loads = _micros(json.loads, texts)
        fields = _micros(codec_of(game).build, snapshots)
        rebuild = _micros(game.state_from_snapshot, snapshots)
        size = sum(map(len, texts)) // len(texts)
        name = f"{game_id} {options}" if options else game_id
        print(f"{name:<28} {clone:7.1f} {snapshot:9.1f} {dumps:7.1f} {loads:7.1f} {fields:7.1f} {rebuild:8.1f} {size:6}")


if __name__ == "__main__":
    main()
