"""What the rules' fast paths rely on: sorted hands and decks (a draw leaves its deck by a search in halves),
refused when a snapshot breaks it, and the Deployment legal list a seat keeps (`deploy_cache`) staying the
list a fresh computation gives, in every copy too."""

from __future__ import annotations

import random
from typing import Any

import pytest

import warcards
from warcards.engine.api import CHANCE
from warcards.engine.errors import SnapshotError
from warcards.games.race_to_messina import rules
from warcards.games.race_to_messina.codes import Phase


def _snapshot_mid_game() -> tuple[Any, dict[str, Any]]:
    game = warcards.load_game("race-to-messina", variant="race")
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    return game, state.snapshot()


@pytest.mark.parametrize("field", ["decks", "hands"])
def test_an_unsorted_deck_or_hand_in_a_snapshot_is_refused_not_drawn_from(field: str) -> None:
    game, data = _snapshot_mid_game()
    pile = data["state"][field][0]
    pile[0], pile[1] = pile[1], pile[0]
    with pytest.raises(SnapshotError, match=rf"{field}\[0\] is not sorted"):
        game.state_from_snapshot(data)


@pytest.mark.parametrize("variant", ["invasion", "race", "sicily"])
def test_the_kept_deployment_list_is_the_fresh_one_after_every_deployment(variant: str) -> None:
    game = warcards.load_game("race-to-messina", variant=variant)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_chance(rng.random())
                continue
            legal = state.legal_actions()
            if state.phase == Phase.DEPLOYMENT:
                kept, state.deploy_cache = state.deploy_cache, None
                assert legal == rules.legal_actions(state)
                state.deploy_cache = kept
                assert state.clone().legal_actions() == legal
                checked += 1
            state.apply_action(rng.choice(legal))
    assert checked > 100
