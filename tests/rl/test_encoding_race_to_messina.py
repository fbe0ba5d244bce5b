"""Race to Messina's own observation encoder: shape, bounds, hidden information and the documented layout."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import warcards
from warcards.engine import Game, State
from warcards.engine.registry import conformance_configs
from warcards.games.race_to_messina.cards import card_table
from warcards.games.race_to_messina.encoding import OBSERVATION_VERSION, encode_observation, observation_shape
from warcards.rl.encoding import encoder_for

N = 94
CONFIGS = conformance_configs("race-to-messina")
LOCATION_BLOCKS = {"invasion": 7, "race": 7, "sicily": 11}


def _number(card: str) -> int:
    """A card's number: its position in the card list (X01 = 0 … A47 = 93)."""
    return card_table().ids.index(card)


def _load(config: dict[str, Any]) -> Game:
    return warcards.load_game("race-to-messina", **config)


def _states(game: Game, seed: int, count: int) -> list[State]:
    """`count` states along one seeded random game (chance resolved at random too)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states: list[State] = []
    while not state.is_terminal():
        if rng.random() < 0.05:
            states.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    states.append(state)
    return states[:: max(1, len(states) // count)]


def _encode(state: State, seat: int) -> np.ndarray:
    return encode_observation(state.observe(seat), state.game)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda config: config["variant"])
def test_vectors_have_the_declared_shape_dtype_and_bounds(config: dict[str, Any]) -> None:
    game = _load(config)
    encoder = encoder_for(game)
    assert (encoder.name, encoder.version, encoder.shape) == ("race-to-messina", OBSERVATION_VERSION,
                                                              observation_shape(game))
    assert (encoder.low, encoder.high) == (0.0, 1.0)
    blocks = LOCATION_BLOCKS[config["variant"]]
    for seed in range(3):
        for state in _states(game, seed, 8):
            for seat in range(game.num_players):
                view = state.observe(seat)
                vector = encoder.encode(view)
                assert vector.shape == observation_shape(game)
                assert vector.dtype == np.float32
                assert vector.min() >= 0.0 and vector.max() <= 1.0
                # every card is in exactly one place as this seat sees it
                places = vector[: blocks * N].reshape(blocks, N)
                assert np.array_equal(places.sum(axis=0), np.ones(N, dtype=np.float32))
                # the seat's hand, and a Supply card drawn by it, are where the layout says
                hand = [_number(card) for card in view["hand"]]
                assert set(np.flatnonzero(places[0])) == set(hand)
                supply = view["supply"]
                flags = vector[(blocks + 1) * N: (blocks + 2) * N]
                assert np.count_nonzero(flags) == int(supply is not None and supply["card"] is not None)


def test_shapes_follow_the_variant() -> None:
    assert [observation_shape(_load(config)) for config in CONFIGS] == [(881,), (881,), (1272,)]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda config: config["variant"])
def test_what_the_seat_cannot_see_does_not_change_the_vector(config: dict[str, Any]) -> None:
    game = _load(config)
    rng = random.Random(11)
    hidden_changed = 0
    for seed in range(3):
        for state in _states(game, seed, 10):
            for seat in range(game.num_players):
                other = state.determinize(seat, rng)
                assert np.array_equal(_encode(other, seat), _encode(state, seat))
                hidden_changed += other.zones() != state.zones()
    assert hidden_changed > 0  # the determinized states did differ in hidden cards


def _invasion_action() -> State:
    game = _load({"variant": "invasion"})
    return game.state_from_setup({
        "zones": {"hand:allies": ["A01", "A02"], "hand:axis": ["X01", "X02"], "table:allies": ["A05"],
                  "table:axis": ["X05"], "discard:axis": ["X10"]},
        "position": {"phase": "action", "turn": 2, "pt": [3, 4], "known": {"axis": ["A02"]},
                     "activated": ["X05"]},
    })


def test_documented_offsets_of_an_invasion_action_position() -> None:
    vector = _encode(_invasion_action(), 1)  # the Axis seat: its own table is relative group 0
    expected = {
        0 * N + 0: 1.0, 0 * N + 1: 1.0,            # hand: X01, X02
        2 * N + 4: 1.0,                            # own table (table:axis): X05
        3 * N + 51: 1.0,                           # opponent's table (table:allies): A05
        4 * N + 9: 1.0,                            # discard: X10
        5 * N + 48: 1.0,                           # known by Recon in the Allies hand: A02
        7 * N + 4: 1.0,                            # activated: X05
        847: 1.0,                                  # seat one-hot: axis (seat 1)
        851: 1.0,                                  # phase: action
        854: 1.0,                                  # to act: offset 0 (the Axis slot)
        858: 2 / 20,                               # turn / 20
        859: 4 / 20, 860: 3 / 10,                  # PT / goal: axis, allies
        861: 2 / 10, 862: 2 / 10,                  # hand sizes / 10
        863: 44 / 47, 864: 43 / 47,                # decks: allies, axis
        865: 0.0, 866: 1 / 47,                     # discard piles: allies, axis
        867: 7 / 100, 868: 7 / 100,                # totals: own table, opponent's table
        869: 1.0,                                  # slot to act: own table
    }
    unseen = [6 * N + card for card in range(N) if card not in (0, 1, 4, 51, 9, 48)]
    got = {int(i): float(vector[i]) for i in np.flatnonzero(vector) if i not in unseen}
    assert got == pytest.approx({i: v for i, v in expected.items() if v})
    assert np.all(vector[unseen] == 1.0)


def test_sicily_tables_are_ordered_relative_to_the_seat() -> None:
    game = _load({"variant": "sicily"})
    state = game.state_from_setup({"zones": {"table:axis:british": ["X01"], "table:british": ["A05"]},
                                   "position": {"phase": "action"}})
    british, axis = _encode(state, 0), _encode(state, 2)
    # blocks: hand 0, deploying 1-2, tables 3-6 (relative groups 0-3)
    assert british[3 * N + 51] == 1.0 and british[6 * N + 0] == 1.0  # own table; axis Set facing it last
    assert axis[4 * N + 0] == 1.0 and axis[5 * N + 51] == 1.0  # its second Set; then the British table


def test_after_the_deal_the_hand_is_set_and_nowhere_else() -> None:
    game = _load({"variant": "invasion"})
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    seat = state.current_player()
    view = state.observe(seat)
    vector = _encode(state, seat)
    hand = [_number(card) for card in view["hand"]]
    assert len(hand) == 10
    assert set(np.flatnonzero(vector[:N])) == set(hand)
    places = vector[: 7 * N].reshape(7, N)
    assert places[1:, hand].sum() == 0.0
    opponent = [_number(card) for card in state.zones()[f"hand:{game.seat_names()[1 - seat]}"]]
    assert np.all(places[6, opponent] == 1.0)  # the other hand is unseen


def test_own_hidden_deployment_is_seen_and_the_opponents_is_not() -> None:
    game = _load({"variant": "invasion"})
    state = game.state_from_setup({"zones": {"hand:allies": ["A01", "A02"], "hand:axis": ["X01", "X02"],
                                             "deploying:axis": ["X03"]},
                                   "position": {"phase": "deployment", "seat": "allies"}})
    axis, allies = _encode(state, 1), _encode(state, 0)
    assert axis[1 * N + 2] == 1.0 and axis[2] == 0.0  # own deployment block
    assert allies[6 * N + 2] == 1.0 and allies[1 * N + 2] == 0.0  # unseen by the Allies
    assert allies[861 + 1] == pytest.approx(3 / 10)  # the Axis hand counts its hidden deployment
