"""`evaluate`: an estimate of the final returns on their scale, exact at the end, pure and fast, better than a
constant guess, and ranking won positions above lost ones (WINNING A BATTLE / A ROUND / THE GAME)."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from warcards.bots.calibration import calibrate
from warcards.games.cards_of_war import CONFORMANCE_CONFIGS
from warcards.games.cards_of_war.evaluate import evaluate, round_outcome
from warcards.games.cards_of_war.state import CardsOfWarState
from warcards.testing import sample_states

from .helpers import game, setup

SHARED = ("game", "table", "kind_info", "deploy_table", "layout", "_legal_cache", "pile_chance")


def random_game(options: dict[str, Any], seed: int, every: int) -> tuple[list[CardsOfWarState], CardsOfWarState]:
    """Positions of one seeded random game (one per `every` actions) and its terminal state."""
    *seen, state = sample_states(game(**options), seed, every=every)
    assert all(isinstance(position, CardsOfWarState) for position in [*seen, state])
    return seen, state


def snapshot(state: CardsOfWarState) -> dict[str, Any]:
    """Every field of the state (its `__slots__` and the base class's attributes) but the shared tables and the
    caches."""
    names = ("game", "_history", "_legal_cache", *CardsOfWarState.__slots__)
    return {k: copy.deepcopy(getattr(state, k)) for k in names if k not in SHARED}


@pytest.mark.parametrize("length", ["short", "normal", "long"])
def test_terminal_states_give_exactly_the_returns(length: str) -> None:
    for seed in range(8):
        _, end = random_game({"length": length, "strategic_exhaustion": length == "long" and seed % 2 == 1}, seed, 50)
        assert evaluate(end) == end.returns()
        assert evaluate(end) in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_shape_and_range_for_every_option_set_and_the_state_is_unchanged() -> None:
    for index, options in enumerate(CONFORMANCE_CONFIGS):
        positions, _ = random_game(options, index, 23)
        for state in positions:
            before = snapshot(state)
            fingerprint = state.fingerprint()
            values = evaluate(state)
            assert isinstance(values, list) and len(values) == 2
            assert all(isinstance(v, float) and math.isfinite(v) and -1.0 <= v <= 1.0 for v in values)
            assert values[0] == -values[1]  # a two-player zero-sum estimate, as returns() are
            assert state.fingerprint() == fingerprint and snapshot(state) == before


def test_it_beats_the_constant_guess_and_is_sharpest_late() -> None:
    result = calibrate(game(length="short"), evaluate, games=120, seed=11)
    assert result.skill > 0.1
    assert all(mse < base for mse, base in zip(result.stage_mse, result.stage_baseline_mse, strict=True))
    assert result.stage_mse[3] < 0.6 * result.stage_baseline_mse[3]
    normal = calibrate(game(), evaluate, games=60, seed=12)
    assert normal.skill > 0.08
    assert normal.stage_mse[3] < 0.6 * normal.stage_baseline_mse[3]


HAND_A = ["G02", "G03", "G05", "G07", "A01", "S05", "I05", "I06"]
HAND_B = ["G09", "G10", "G11", "A02", "A11", "S06", "I07", "I08"]


def leading(seat: int) -> CardsOfWarState:
    """Round 2 of a normal game: `seat` won round 1, has won the left battle and leads the centre 13 to 3."""
    other = 1 - seat
    return setup(
        {
            f"won:{seat}:left": ["G06", "S09", "S01"],
            f"battle:{seat}:centre": ["G13", "A06", "G04"],
            f"battle:{other}:centre": ["S03"],
            f"hand:{seat}": HAND_A,
            f"hand:{other}": HAND_B,
        },
        {"round": 2, "rounds_won": [1, 0] if seat == 0 else [0, 1], "player": seat, "first_player": seat},
    )


def test_a_clearly_winning_position_ranks_above_a_clearly_losing_one() -> None:
    winning, losing = leading(0), leading(1)
    assert evaluate(winning)[0] > 0.8 > -0.8 > evaluate(losing)[0]
    assert evaluate(winning)[0] == pytest.approx(-evaluate(losing)[0])  # the estimate is fair to both seats
    # The same battles are worth less when the opponent, not seat 0, won the first round.
    even = setup(
        {"won:0:left": ["G06", "S09", "S01"], "battle:0:centre": ["G13", "A06", "G04"], "battle:1:centre": ["S03"],
         "hand:0": HAND_A, "hand:1": HAND_B},
        {"round": 2, "rounds_won": [0, 1]},
    )
    assert evaluate(losing)[0] < evaluate(even)[0] < evaluate(winning)[0]


def test_a_round_decided_by_two_battles_is_certain() -> None:
    state = setup(
        {"won:0:left": ["G06", "S09", "S01"], "won:0:centre": ["G13", "A06", "G04", "A07"], "hand:0": HAND_A,
         "hand:1": HAND_B},
        {"player": 1},
        length="short",
    )
    q0, q1, sweep0, _ = round_outcome(state)
    assert (q0, q1) == (1.0, 0.0) and 0.0 < sweep0 < 1.0
    assert evaluate(state) == [1.0, -1.0]
