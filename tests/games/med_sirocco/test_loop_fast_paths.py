"""Med Sirocco's own `chance_outcomes` (the OpenSpiel-shaped loop's fast path) gives exactly what the engine's
`State` method gives: the same pairs and floats, the same legal list."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from warcards.engine.api import CHANCE, State
from warcards.games.med_sirocco.codes import ChanceKind
from warcards.games.med_sirocco.state import MedSiroccoState

from .helpers import game


def states(players: int, seeds: range, **options: object) -> Iterator[MedSiroccoState]:
    """Every state of seeded random games, driven the way the OpenSpiel-shaped loop drives them."""
    loaded = game(players, **options)
    for seed in seeds:
        state = loaded.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("players", [2, 4, 6])
def test_chance_outcomes_are_the_engines_pairs_bit_for_bit(players: int) -> None:
    draws = 0
    for state in states(players, range(3), advanced=players == 4):
        engine = state.clone()
        expected = State.chance_outcomes(engine)
        got = state.chance_outcomes()
        assert got == expected
        assert [p.hex() for _, p in got] == [p.hex() for _, p in expected]
        assert state._legal_cache == engine._legal_cache
        if got:
            draws += state.chance_kind == ChanceKind.DRAW
            got.clear()  # a fresh list: the caller may keep or change it
            assert state.chance_outcomes() == expected
            assert state.legal_actions() == [outcome for outcome, _ in expected]
    assert draws > 100
