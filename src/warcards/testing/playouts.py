"""Seeded random playouts: the uniformly random policy the tests, the battery and a new game's author share.

One move of the policy (`random_step`) draws once from the RNG: at a chance node `rng.random()`, turned into
an outcome by `state.apply_chance` (`sample_chance` over the outcomes' probabilities), otherwise `rng.randrange(n)` over the `n`
legal actions. The same seed therefore gives the same game as long as the rules do.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from warcards.engine.api import CHANCE, Game, State


def _rng(seed: int | random.Random) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def random_step(state: State, rng: random.Random) -> int:
    """Apply one move of the seeded random policy to a state that is not terminal; returns the action."""
    if state.current_player() == CHANCE:
        return state.apply_chance(rng.random())
    legal = state.legal_actions()
    action = legal[rng.randrange(len(legal))]
    state.apply_action(action)
    return action


def random_playout(start: Game | State, seed: int | random.Random, max_steps: int | None = None) -> State:
    """Play the seeded random policy from a game's initial state (or on `start` itself, in place) until the
    end, or after `max_steps` actions; returns the state. `seed` is an int or an RNG to draw from."""
    state = start.new_initial_state() if isinstance(start, Game) else start
    rng = _rng(seed)
    steps = 0
    while not state.is_terminal() and (max_steps is None or steps < max_steps):
        random_step(state, rng)
        steps += 1
    return state


def sample_states(
    game: Game, seed: int | random.Random, count: int | None = None, *, every: int = 1, games: int = 1
) -> Iterator[State]:
    """States of seeded random playouts: `games` games one after another, all drawing from one RNG, each
    yielding a copy of every `every`-th state before its end (its initial state first) and then its terminal
    state; at most `count` states in all (None: no limit)."""
    if every < 1:
        raise ValueError(f"every={every} must be at least 1")
    rng = _rng(seed)
    given = 0
    for _ in range(games):
        state = game.new_initial_state()
        step = 0
        while True:
            if count is not None and given >= count:
                return
            if state.is_terminal():
                given += 1
                yield state
                break
            if step % every == 0:
                given += 1
                yield state.clone()
            random_step(state, rng)
            step += 1


__all__ = ["random_playout", "random_step", "sample_states"]
