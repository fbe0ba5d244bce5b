"""Cards of War's own observation encoder: shape, bounds, hidden information and the documented layout."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from warcards.engine import State
from warcards.engine.registry import conformance_configs, load_game
from warcards.games.cards_of_war.encoding import encode_observation, observation_shape
from warcards.games.cards_of_war.game import CardsOfWarGame
from warcards.rl.encoding import encoder_for

CONFIGS = conformance_configs("cards-of-war")
LOCATION_PLANES = 12  # planes 0-11: exactly one per card
N = 52  # cards in the stand-in deck
S = 16 * N  # the scalars' offset with one deck


def _game(**options: Any) -> CardsOfWarGame:
    game = load_game("cards-of-war", **options)
    assert isinstance(game, CardsOfWarGame)
    return game


def _step(state: State, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    else:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def _random_states(game: CardsOfWarGame, seed: int, count: int = 3, depth: int = 400) -> list[State]:
    """`count` states of one seeded random game, taken at random depths up to `depth` (or its end)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    taken: list[State] = []
    done = 0
    for stop in sorted(rng.sample(range(depth), count)):
        while done < stop and not state.is_terminal():
            _step(state, rng)
            done += 1
        taken.append(state.clone())
    return taken


def _kind(game: CardsOfWarGame, ident: str) -> int:
    return game.table.ids.index(ident.split("/")[0])


def _check_vector(vector: np.ndarray, game: CardsOfWarGame) -> None:
    cards = len(game.card_ids)
    assert vector.dtype == np.float32
    assert vector.shape == observation_shape(game)
    assert vector.min() >= 0.0 and vector.max() <= 1.0
    locations = vector[: LOCATION_PLANES * cards].reshape(LOCATION_PLANES, cards)
    assert np.array_equal(locations.sum(axis=0), np.ones(cards, dtype=np.float32)), "one location per card"


@pytest.mark.parametrize("config", CONFIGS, ids=[str(i) for i in range(len(CONFIGS))])
def test_every_config_gives_the_declared_shape_in_bounds(config: dict[str, Any]) -> None:
    game = _game(**config)
    encoder = encoder_for(game)
    assert encoder.name == "cards-of-war" and encoder.version == 1
    assert encoder.shape == observation_shape(game) == (16 * len(game.card_ids) + 86,)
    assert (encoder.low, encoder.high) == (0.0, 1.0)
    for seed in range(3):
        for state in _random_states(game, seed):
            for seat in (0, 1):
                view = state.observe(seat)
                vector = encode_observation(view, game)
                _check_vector(vector, game)
                hand = vector[: len(game.card_ids)]
                assert hand.sum() == len(view["hand"])


def test_whole_games_stay_in_bounds_to_the_end() -> None:
    for config in ({"length": "short"}, {"length": "normal", "decks": 2, "theatres_of_war": True}):
        game = _game(**config)
        rng = random.Random(5)
        state = game.new_initial_state()
        phases = set()
        while not state.is_terminal():
            _step(state, rng)
            for seat in (0, 1):
                view = state.observe(seat)
                phases.add(view["phase"])
                _check_vector(encode_observation(view, game), game)
        assert "over" in phases
        winner = state.observe(0)["winner"]
        if winner is not None:
            end = encode_observation(state.observe(0), game)
            state = 16 * len(game.card_ids)
            assert end[state + 75 + (0 if winner == 0 else 1)] == 1.0
            assert end[state + 7] == 1.0  # phase over


@pytest.mark.parametrize(
    "config",
    [
        {},
        {"decks": 2, "joint_deployment": True, "alternative_reinforce": True},
        {"length": "long", "theatres_of_war": True, "strategic_exhaustion": True, "joint_deployment": True},
    ],
)
def test_states_the_seat_cannot_tell_apart_encode_the_same(config: dict[str, Any]) -> None:
    game = _game(**config)
    rng = random.Random(11)
    resampled = 0
    for seed in range(2):
        state = game.new_initial_state()
        play = random.Random(seed)
        for step in range(600):
            if state.is_terminal():
                break
            _step(state, play)
            if step % 3:
                continue
            for seat in (0, 1):
                other = state.determinize(seat, rng)
                hidden = f"hand:{1 - seat}"
                resampled += other.zones()[hidden] != state.zones()[hidden]
                assert np.array_equal(
                    encode_observation(other.observe(seat), game), encode_observation(state.observe(seat), game)
                )
    assert resampled > 20, "the determinizations should change the opponent's hand"


HAND_0 = ["A01", "S01", "G01", "I01", "A02", "S02", "G02", "I02"]
HAND_1 = ["A03", "A04", "A08", "S03", "G03", "G04", "I03", "I05"]


def test_after_dealing_the_own_cards_are_in_the_hand_block_and_nowhere_else() -> None:
    game = _game()
    rng = random.Random(3)
    state = game.new_initial_state()
    while state.observe(0)["phase"] != "deploy":
        _step(state, rng)
    view = state.observe(0)
    vector = encode_observation(view, game)
    planes = vector[: 16 * N].reshape(16, N)
    own = [_kind(game, card) for card in view["hand"]]
    assert len(own) == 8
    expected = np.zeros((16, N), dtype=np.float32)
    expected[11] = 1.0  # nothing else is visible: every other card is unseen
    expected[0, own] = 1.0
    expected[11, own] = 0.0
    assert np.array_equal(planes, expected)
    assert vector[S + 2] == 1.0  # phase deploy
    assert vector[S + 21] == vector[S + 22] == pytest.approx(0.8)  # 8 cards each


def test_a_hand_built_position_encodes_as_documented() -> None:
    game = _game()
    state = game.state_from_setup({
        "zones": {
            "hand:0": HAND_0,
            "hand:1": HAND_1,
            "battle:1:left": ["G06"],
            "battle:0:right": ["G09", "A05"],
            "discard": ["S05", "S06"],
        },
        "position": {"player": 0},
    })

    def card(plane: int, ident: str) -> int:
        return plane * N + _kind(game, ident)

    expected = np.zeros(S + 86, dtype=np.float32)
    expected[11 * N: 12 * N] = 1.0
    for plane, idents in {0: HAND_0, 3: ["G09", "A05"], 4: ["G06"], 7: ["S05", "S06"]}.items():
        for ident in idents:
            expected[card(plane, ident)] = 1.0
            expected[card(11, ident)] = 0.0
    for ident in ("A05", "G06"):
        expected[card(12, ident)] = 1.0  # battle tops
    expected[card(13, "S06")] = 1.0  # the top discard
    expected[S + 2] = 1.0  # deploy
    expected[S + 8] = 1.0  # seat 0 to move
    expected[S + 12] = expected[S + 13] = 1.0  # its turn, and it went first
    expected[S + 14] = 1 / 3  # round 1 of at most 3
    expected[S + 17] = 0.5  # no round lead
    expected[S + 21] = expected[S + 22] = 0.8  # hands
    expected[S + 23] = expected[S + 24] = 8 / 9  # hand limits
    expected[S + 25] = expected[S + 26] = 31 / 52  # the common draw pile
    expected[S + 27] = expected[S + 28] = 2 / 52  # the common discard pile
    for b in range(3):
        expected[S + 29 + 11 * b] = 1.0  # open
        expected[S + 29 + 11 * b + 4] = 1.0  # no theatre
    expected[S + 29 + 10] = 5 / 15  # the opponent's Heavy Tank on the left
    expected[S + 29 + 22 + 9] = (2 + 4) / 15  # own Artillery and Long Range Bomber on the right
    expected[S + 84] = 1.0  # options: only length normal
    assert np.array_equal(encode_observation(state.observe(0), game), expected)

    # Seat 1 sees the same table from the other side: its hand, G06 on its own left, A05 on the opponent's right.
    seat_1 = encode_observation(state.observe(1), game)
    assert all(seat_1[card(0, ident)] == 1.0 for ident in HAND_1)
    assert all(seat_1[card(11, ident)] == 1.0 for ident in HAND_0)
    assert seat_1[card(1, "G06")] == seat_1[card(6, "A05")] == seat_1[card(6, "G09")] == 1.0
    assert seat_1[S + 9] == 1.0 and seat_1[S + 12] == 0.0


def test_a_recon_answer_is_encoded_for_both_seats() -> None:
    game = _game()
    state = game.state_from_setup({"zones": {"hand:0": HAND_0, "hand:1": HAND_1}, "position": {"player": 0}})
    state.apply_action(state.parse_action("deploy I01 left"))  # Radar: RECON
    counts = [3 / 10, 1 / 10, 2 / 10, 2 / 10]  # HAND_1 by theatre: air, sea, ground, intel
    by_0 = encode_observation(state.observe(0), game)
    assert list(by_0[S + 62: S + 68]) == pytest.approx([1.0, 1.0, *counts])
    assert not by_0[S + 68: S + 74].any()
    of_1 = encode_observation(state.observe(1), game)
    assert list(of_1[S + 68: S + 74]) == pytest.approx([1.0, 1.0, *counts])
    assert not of_1[S + 62: S + 68].any()
    radar = _kind(game, "I01")
    assert by_0[1 * N + radar] == 1.0 and of_1[4 * N + radar] == 1.0  # on the left: own pile, opponent's pile


def _two_deck_setup(seat: int) -> dict[str, Any]:
    """A 2-deck position, written for `seat` as the player who holds HAND_0."""
    other = 1 - seat
    return {
        "zones": {
            f"hand:{seat}": [f"{c}/{seat}" for c in HAND_0],
            f"hand:{other}": [f"{c}/{other}" for c in HAND_1],
            f"battle:{other}:left": [f"G06/{other}"],
            f"battle:{seat}:centre": [f"A05/{seat}"],
            f"discard:{seat}": [f"S05/{seat}"],
        },
        "position": {"player": seat, "round": 2, "rounds_won": [1, 0] if seat == 0 else [0, 1]},
    }


def test_the_two_deck_layout_is_the_same_from_either_seat() -> None:
    game = _game(decks=2)
    cards = 2 * N
    assert observation_shape(game) == (16 * cards + 86,)
    as_0 = encode_observation(game.state_from_setup(_two_deck_setup(0)).observe(0), game)
    as_1 = encode_observation(game.state_from_setup(_two_deck_setup(1)).observe(1), game)
    assert np.array_equal(as_0, as_1)
    # Own deck first: the own A01 is card 0 of the hand block, the opponent's G06 is in the second half.
    assert as_0[_kind(game, "A01")] == 1.0
    assert as_0[4 * cards + N + _kind(game, "G06")] == 1.0
    assert as_0[7 * cards + _kind(game, "S05")] == 1.0
    assert as_0[16 * cards + 15] == pytest.approx(1 / 3)  # rounds won, own
    assert as_0[16 * cards + 82] == 1.0  # the 2-deck option
    other_view = encode_observation(game.state_from_setup(_two_deck_setup(0)).observe(1), game)
    assert not np.array_equal(as_0, other_view)
