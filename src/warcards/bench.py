"""Speed benchmarks: random playouts through the contract's driver loop, clone and determinize rates.

The same driver loop (current_player / legal_actions / a chance draw / apply_action, random choices) runs
on OpenSpiel's C++ `hearts` with `--compare`, alternating with ours, so the ratio is measured on the same
machine under the same load. A chance draw is the engine's `apply_chance(u)` on our states (the outcome
`sample_chance(chance_outcomes(), u)` gives, by the game's fast path, applied) and `sample_chance` over the
pairs on OpenSpiel's, which offer nothing else.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import asdict, dataclass
from typing import Any

from warcards.bots.ismcts import benchmark
from warcards.engine.api import CHANCE, sample_chance
from warcards.engine.registry import conformance_configs, games, is_variant_config, load_game


@dataclass
class BenchRow:
    game: str
    options: dict[str, Any]
    games_per_s: float
    actions_per_s: float
    clones_per_s: float
    determinize_per_s: float
    mean_length: float
    hearts_ratio: float | None = None
    search_level: str | None = None
    search_simulations_per_s: float | None = None
    search_seconds_per_decision: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def random_playouts(game: Any, seconds: float, seed: int, openspiel: bool = False) -> tuple[int, int, float]:
    """Play random games for about `seconds`; returns (games, actions, elapsed)."""
    rng = random.Random(seed)
    games_done = actions = 0
    start = time.perf_counter()
    chance = -1 if openspiel else CHANCE
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == chance:
                if openspiel:  # OpenSpiel's states offer the pairs only
                    state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                else:
                    state.apply_chance(rng.random())
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        games_done += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games_done, actions, elapsed


def _sample_states(game: Any, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() != CHANCE and rng.random() < 0.05:
                states.append(state.clone())
            if state.current_player() == CHANCE:
                state.apply_chance(rng.random())
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    return states[:count]


def rate(function: Any, items: list[Any], seconds: float) -> float:
    """Calls per second of `function` over `items`, cycling for about `seconds`."""
    calls = 0
    start = time.perf_counter()
    while True:
        for item in items:
            function(item)
        calls += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed


def hearts_game() -> Any:
    """OpenSpiel's C++ hearts, or an ImportError saying how to install it."""
    try:
        import pyspiel
    except ImportError as error:
        raise ImportError('--compare needs OpenSpiel: pip install -e ".[bench]" in the warcards checkout') from error
    return pyspiel.load_game("hearts")


def bench_config(
    game_id: str,
    options: dict[str, Any],
    seconds: float,
    seed: int,
    compare: Any = None,
    search_level: str | None = None,
    search_decisions: int = 5,
) -> BenchRow:
    """One row: playout, clone and determinize rates, the ratio to hearts when `compare` is given, and the
    search bot's simulations/s and seconds per decision when `search_level` is given. `seconds` must be a
    finite number above 0 (`ValueError` otherwise)."""
    if not (math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"bench: seconds must be a number above 0, got {seconds!r}")
    game = load_game(game_id, **options)
    ratio = None
    if compare is not None:
        # Alternate ours and theirs in short slices so both see the same machine load.
        ours_actions = ours_time = theirs_actions = theirs_time = 0.0
        ours_games = 0
        for slice_index in range(4):
            g, a, t = random_playouts(game, seconds / 4, seed + slice_index)
            ours_games += g
            ours_actions += a
            ours_time += t
            _, a2, t2 = random_playouts(compare, seconds / 4, seed + slice_index, openspiel=True)
            theirs_actions += a2
            theirs_time += t2
        games_done, actions, elapsed = ours_games, ours_actions, ours_time
        ratio = (ours_actions / ours_time) / (theirs_actions / theirs_time)
    else:
        games_done, actions, elapsed = random_playouts(game, seconds, seed)
    rng = random.Random(seed)
    states = _sample_states(game, 50, seed)
    seats = game.num_players
    clones = rate(lambda s: s.clone(), states, seconds / 4)
    determinizations = rate(lambda s: s.determinize(rng.randrange(seats), rng), states, seconds / 4)
    search = None
    if search_level is not None:
        search = benchmark(game, search_level, search_decisions, seed)
    return BenchRow(
        search_level=search_level,
        search_simulations_per_s=search.simulations_per_s if search else None,
        search_seconds_per_decision=search.seconds_per_decision if search else None,
        game=game_id,
        options=game.options,
        games_per_s=games_done / elapsed,
        actions_per_s=actions / elapsed,
        clones_per_s=clones,
        determinize_per_s=determinizations,
        mean_length=actions / max(1, games_done),
        hearts_ratio=ratio,
    )


def bench_configs(only: list[str] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Each registered game's variants and player counts (its conformance option sets that set nothing
    else), or those of the games in `only`."""
    chosen = only or games()
    rows = []
    for game_id in chosen:
        configs = conformance_configs(game_id)
        plain = [c for c in configs if is_variant_config(game_id, c)] or configs[:1]
        rows += [(game_id, options) for options in plain]
    return rows
