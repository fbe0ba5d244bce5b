"""Med Sirocco's own observation encoder: shape, bounds, hidden information, and hand-built layouts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from warcards import load_game
from warcards.engine.api import State
from warcards.engine.registry import conformance_configs
from warcards.games.med_sirocco import codes, encoding
from warcards.games.med_sirocco.cards import TYPE_NAMES
from warcards.games.med_sirocco.encoding import (
    CAPTURED,
    DISCARD,
    HAND,
    N_CARDS,
    OPS_OUT,
    PLAY,
    S_NUMBERS,
    S_PHASE,
    S_PLAYERS,
    SIZE,
    UNSEEN,
    WON,
    encode_observation,
    observation_shape,
)
from warcards.games.med_sirocco.game import MedSiroccoGame
from warcards.rl.encoding import encoder_for

CONFIGS = conformance_configs("med-sirocco")
HIDDEN_DOWN = S_NUMBERS + 2 * 6  # x6 face-down cards the seat cannot see / 10


def _block(vector: np.ndarray, block: int) -> np.ndarray:
    return vector[block * N_CARDS:(block + 1) * N_CARDS]


def _cards(game: MedSiroccoGame, vector: np.ndarray, block: int) -> set[str]:
    return {game.table.ids[i] for i in np.flatnonzero(_block(vector, block))}


def _states(game: MedSiroccoGame, seed: int, every: int = 41, limit: int = 1500) -> Iterator[State]:
    """Seeded random play (chance by its probabilities), yielding every `every`-th state and the last."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    for step in range(1, limit + 1):
        if state.is_terminal():
            break
        outcomes = state.chance_outcomes()
        if outcomes:
            actions, weights = zip(*outcomes, strict=True)
            action = rng.choices(actions, weights)[0]
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply_action(action)
        if step % every == 0:
            yield state
    yield state


def _game(config: dict[str, Any]) -> MedSiroccoGame:
    game = load_game("med-sirocco", **config)
    assert isinstance(game, MedSiroccoGame)
    return game


@pytest.mark.parametrize("config", CONFIGS, ids=[str(config) for config in CONFIGS])
def test_vectors_have_the_declared_shape_dtype_and_bounds(config: dict[str, Any]) -> None:
    game = _game(config)
    shape = observation_shape(game)
    assert shape == (SIZE,) == encoder_for(game).shape
    for seed in range(2):
        for state in _states(game, seed):
            for seat in range(game.num_players):
                view = state.observe(seat)
                vector = encode_observation(view, game)
                assert vector.shape == shape and vector.dtype == np.float32
                assert vector.min() >= 0.0 and vector.max() <= 1.0
                located = vector[:UNSEEN * N_CARDS].reshape(UNSEEN, N_CARDS).max(axis=0)
                np.testing.assert_array_equal(_block(vector, UNSEEN), 1.0 - located)
                assert _cards(game, vector, HAND) == set(view["hand"])
                assert vector[S_PHASE:S_PHASE + 14].sum() == 1.0
                assert vector[S_PLAYERS + game.num_players - 2] == 1.0


def test_the_adapters_use_this_encoder() -> None:
    encoder = encoder_for(_game({"players": 3}))
    assert (encoder.name, encoder.version, encoder.shape) == ("med-sirocco", 1, (SIZE,))
    assert (encoder.low, encoder.high) == (0.0, 1.0)


@pytest.mark.parametrize("config", [CONFIGS[0], CONFIGS[5], CONFIGS[7]], ids=["2p", "4p-advanced", "5p-history"])
def test_what_the_seat_cannot_see_does_not_change_its_vector(config: dict[str, Any]) -> None:
    game = _game(config)
    rng = random.Random(3)
    resampled = 0
    for state in _states(game, seed=5, every=23):
        for seat in range(game.num_players):
            other = state.determinize(seat, rng)
            if other.zones() != state.zones():
                resampled += 1
            np.testing.assert_array_equal(
                encode_observation(other.observe(seat), game), encode_observation(state.observe(seat), game)
            )
    assert resampled > 10


def test_hidden_face_down_cards_are_counted_not_located() -> None:
    game = _game({"players": 3})
    checked = 0
    for seed in range(4):
        for state in _states(game, seed, every=3):
            for seat in range(game.num_players):
                view = state.observe(seat)
                hidden = [play for play in view["plays"] if play["card"] is None]
                if not hidden:
                    continue
                vector = encode_observation(view, game)
                for play in hidden:
                    relative = (play["seat"] - seat) % game.num_players
                    count = sum(1 for other in hidden if other["seat"] == play["seat"])
                    assert vector[HIDDEN_DOWN + relative] == pytest.approx(count / 10)
                shown = {play["card"] for play in view["plays"]}
                zones = state.zones()
                unseen = _cards(game, vector, UNSEEN)
                for other in {play["seat"] for play in hidden}:
                    face_down = set(zones[f"play:{other}"]) - shown
                    assert face_down and face_down <= unseen
                checked += 1
    assert checked > 0


def test_after_the_deal_the_own_hand_is_set_and_nowhere_else() -> None:
    game = _game({"players": 4})
    state = game.new_initial_state()
    rng = random.Random(0)
    while len(state.observe(2)["hand"]) < 6:
        actions, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, weights)[0])
    view = state.observe(2)
    vector = encode_observation(view, game)
    hand = set(view["hand"])
    assert len(hand) == 6 and _cards(game, vector, HAND) == hand
    for block in range(1, UNSEEN):
        assert not _cards(game, vector, block) & hand
    assert not _cards(game, vector, UNSEEN) & hand
    assert _cards(game, vector, UNSEEN) == set(game.table.ids) - hand
    assert vector[S_NUMBERS] == pytest.approx(0.6)  # own hand size 6 / 10


def test_a_hand_built_position_lands_in_the_documented_entries() -> None:
    game = _game({"players": 3})
    state = game.state_from_setup({
        "zones": {
            "hand:0": ["A01", "A02", "X10", "X11", "S01", "A46"],
            "hand:1": ["A03", "A04", "X12", "X13", "S02", "A47"],
            "hand:2": ["A05", "A06", "X14", "X15", "S03", "A48"],
            "discard": ["A20", "X20"],
            "won:1": ["O05"],
            "captured:1": ["X30"],
            "captured:0": ["A30"],
            "operations:out": ["O06"],
        },
        "position": {"first_player": 1, "dealer": 0, "operations_done": 2},
    })
    index = {card: i for i, card in enumerate(game.table.ids)}
    view = state.observe(0)
    vector = encode_observation(view, game)
    assert _cards(game, vector, HAND) == {"A01", "A02", "X10", "X11", "S01", "A46"}
    assert _cards(game, vector, DISCARD) == {"A20", "X20"}
    assert _cards(game, vector, WON + 1) == {"O05"} and not _cards(game, vector, WON)
    assert _cards(game, vector, CAPTURED) == {"A30"}  # only the seat's own captures are shown
    assert "O06" in _cards(game, vector, OPS_OUT)
    assert {"X30", "A03", "A05"} <= _cards(game, vector, UNSEEN)
    # Seen from seat 1, the same Operation is its own (relative seat 0) and seat 0's is hidden.
    seen_by_1 = encode_observation(state.observe(1), game)
    assert _cards(game, seen_by_1, WON) == {"O05"} and _cards(game, seen_by_1, CAPTURED) == {"X30"}
    assert vector[encoding.S_FIRST + 1] == 1.0 and seen_by_1[encoding.S_FIRST] == 1.0
    assert vector[encoding.S_DEALER] == 1.0 and seen_by_1[encoding.S_DEALER + 2] == 1.0
    numbers = vector[S_NUMBERS:encoding.S_KIND]
    assert numbers[0:3].tolist() == pytest.approx([0.6, 0.6, 0.6])  # hand sizes / 10
    assert numbers[18:21].tolist() == pytest.approx([1 / 30, 1 / 30, 0.0])  # captured counts / 30
    assert numbers[24:27].tolist() == pytest.approx([0.0, 1 / 22, 0.0])  # Operations won / 22
    assert numbers[61] == pytest.approx(view["pile_size"] / 121)
    assert numbers[63] == pytest.approx(2 / 22)
    assert vector[S_PHASE + encoding.PHASES.index(view["phase"])] == 1.0
    assert vector[index["A01"]] == 1.0 and vector[PLAY * N_CARDS + index["A01"]] == 0.0


def test_the_one_hot_vocabularies_follow_the_rules() -> None:
    assert encoding.PHASES == codes.PHASE_NAMES
    assert tuple(TYPE_NAMES[mask] for mask in range(1, 8)) == encoding.ENGAGEMENT_TYPES
