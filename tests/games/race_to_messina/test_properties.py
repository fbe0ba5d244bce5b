"""Hypothesis properties of Race to Messina playouts: conservation, monotone PT, phase invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import warcards
from warcards.engine.api import CHANCE
from warcards.engine.api import sample_chance as pick
from warcards.games.race_to_messina import CONFORMANCE_CONFIGS
from warcards.testing import check_clone_names_every_field


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(["invasion", "race", "sicily"]), seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_the_rules_invariants(variant: str, seed: int) -> None:
    game = warcards.load_game("race-to-messina", variant=variant)
    state = game.new_initial_state()
    rng = random.Random(seed)
    every_card = sorted(card for cards in state.zones().values() for card in cards)
    last_pt = [0] * game.num_players
    hand_size = {"invasion": [10, 10], "race": [12, 12], "sicily": [7, 7, 14]}[variant]
    steps = 0
    while not state.is_terminal():
        position = state.position()
        zones = state.zones()
        assert sorted(card for cards in zones.values() for card in cards) == every_card
        assert all(now >= before for now, before in zip(position["pt"], last_pt, strict=True))
        last_pt = position["pt"]
        if position["phase"] != "action":
            assert not any(cards for name, cards in zones.items() if name.startswith("table:"))
        if position["phase"] == "deployment":
            for seat, name in enumerate(game.seat_names()):
                held = len(zones[f"hand:{name}"]) + sum(
                    len(cards) for zone, cards in zones.items() if zone.startswith(f"deploying:{name}"))
                assert held <= hand_size[seat]
        if state.current_player() == CHANCE:
            state.apply_action(pick(state.chance_outcomes(), rng.random()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
        assert steps <= game.max_game_length
    returns = state.returns()
    assert sorted(returns) in ([-1.0, 1.0], [-1.0, -1.0, 1.0], [0.0, 0.0])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 400))
def test_clone_is_independent_and_replays_the_same_game(seed: int, cut: int) -> None:
    game = warcards.load_game("race-to-messina", variant="sicily")
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(cut):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    copy = state.clone()
    assert copy == state
    if not copy.is_terminal():
        copy.apply_action(copy.legal_actions()[0])
        assert copy != state
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert again == state


@pytest.mark.parametrize("options", CONFORMANCE_CONFIGS, ids=lambda options: options["variant"])
def test_copy_sets_every_field_and_shares_no_list(options: dict[str, str]) -> None:
    """`_copy` names each field (a native state has no `__new__` without `__init__`): all along seeded games, a
    clone has every `__slots__` field, equal to the original's but for the Deployment list a copy resets, and
    shares no list, nor a row of one, but the game's read-only tables."""
    game = warcards.load_game("race-to-messina", **options)
    for seed in range(3):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            check_clone_names_every_field(state, reset={"deploy_cache": None})
            if state.current_player() == CHANCE:
                state.apply_action(pick(state.chance_outcomes(), rng.random()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
