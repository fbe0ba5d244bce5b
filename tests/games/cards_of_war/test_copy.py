"""`_copy` (through `clone`): every field set by name, equal to the original's, no list shared but the game's
read-only tables — the copy a native (compiled) state class needs, with no `__dict__` and no `__new__` shell."""

from __future__ import annotations

import random
from typing import Any

import pytest

from warcards.engine.api import sample_chance
from warcards.games.cards_of_war.game import CardsOfWarGame
from warcards.games.cards_of_war.state import CardsOfWarState
from warcards.testing import check_clone_names_every_field

from .helpers import game


def _check_clone(state: CardsOfWarState) -> None:
    """`check_clone_names_every_field`, and the chance description shared as `_copy` always did."""
    check_clone_names_every_field(state)
    assert state.clone().pile_chance is state.pile_chance  # a cache, shared (`rules.chance`)


def test_a_blank_state_sets_no_field_of_its_own() -> None:
    g = game()
    assert isinstance(g, CardsOfWarGame)
    blank = CardsOfWarState(g, blank=True)
    assert not [name for name in CardsOfWarState.__slots__ if hasattr(blank, name)]
    assert blank._history == [] and blank._legal_cache is None


@pytest.mark.parametrize("options", [
    {"length": "short"},
    {"decks": 2, "alternative_reinforce": True},
    {"theatres_of_war": True, "tactical_advantage": True},
    {"length": "long", "strategic_exhaustion": True, "joint_deployment": True},
], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_copy_sets_every_field_and_shares_no_list(options: dict[str, Any]) -> None:
    for seed in range(2):
        state = game(**options).new_initial_state()
        assert isinstance(state, CardsOfWarState)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            if steps % 3 == 0:
                _check_clone(state)
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        _check_clone(state)
