"""`evaluate`: the search's estimate of the returns (1.2) — exact at the end, a distribution over the seats
on the way, blind to nothing but changing nothing, better than a constant guess."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from tests.games.med_sirocco.helpers import build, game, play

from warcards.bots.calibration import calibrate
from warcards.games.med_sirocco import CONFORMANCE_CONFIGS
from warcards.games.med_sirocco.evaluate import evaluate
from warcards.games.med_sirocco.state import MedSiroccoState
from warcards.testing import sample_states


def _random_positions(options: dict[str, Any], seed: int, every: int = 9) -> list[MedSiroccoState]:
    """Every `every`-th position of a seeded uniformly random game, the terminal one last."""
    out = list(sample_states(game(**options), seed, every=every))
    assert all(isinstance(state, MedSiroccoState) for state in out)
    return out


def _snapshot(state: MedSiroccoState) -> dict[str, Any]:
    """Every field of the state but the game: the contract's history and cache, then its `__slots__`."""
    names = ("_history", "_legal_cache", *MedSiroccoState.__slots__)
    return {name: copy.deepcopy(getattr(state, name)) for name in names}


@pytest.mark.parametrize("options", CONFORMANCE_CONFIGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_evaluate_is_a_share_of_the_win_per_seat_and_exact_at_the_end(options: dict[str, Any]) -> None:
    positions = _random_positions(options, seed=7, every=4)
    n = options["players"]
    for state in positions[:-1]:
        values = evaluate(state)
        assert len(values) == n
        assert all(0.0 <= v <= 1.0 and math.isfinite(v) for v in values)
        assert math.isclose(sum(values), 1.0, abs_tol=1e-9)
    final = positions[-1]
    assert final.is_terminal()
    assert evaluate(final) == final.returns()


def test_evaluate_changes_nothing_in_the_state() -> None:
    for options in ({"players": 2}, {"players": 4, "advanced": True, "change_sides": True},
                    {"players": 6, "series": True, "operations": 10}):
        for state in _random_positions(options, seed=3, every=23):
            legal = state.legal_actions()
            before = _snapshot(state)
            evaluate(state)
            assert _snapshot(state) == before
            assert state.legal_actions() == legal


def test_evaluate_exact_on_a_shared_win() -> None:
    """1.2: a full tie on VP and Operations won shares the win; evaluate returns exactly that."""
    state = build({0: [], 1: [], 2: [], 3: []}, operation="O05", operations_done=21,
                  zones={"won:0": ["O02"], "won:1": ["O07"]})
    play(state, "type surface", "pass", "pass", "pass", "pass")
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == [0.5, 0.5, 0.0, 0.0]
    assert evaluate(state) == [0.5, 0.5, 0.0, 0.0]


def test_evaluate_ranks_the_vp_leader_first_near_the_end() -> None:
    state = build({0: ["A12"], 1: ["X13"], 2: [], 3: []}, operation="O05", operations_done=20,
                  zones={"won:0": ["O10", "O15", "O18"], "won:1": ["O02"], "won:2": ["O01"]})
    values = evaluate(state)
    assert values[0] > 0.8
    assert values[0] > values[1] > values[3]  # O02 (3 VP) beats nothing
    early = build({0: ["A12"], 1: ["X13"], 2: [], 3: []}, operation="O05", operations_done=2,
                  zones={"won:0": ["O10", "O15", "O18"], "won:1": ["O02"], "won:2": ["O01"]})
    assert 1 / 4 < evaluate(early)[0] < values[0]  # the same lead says less with 19 Operations to come


def test_evaluate_counts_the_trick_under_way() -> None:
    """3.4: on the last Operation, with VP level, the seat whose card is taking the trick is favoured."""
    state = build({0: ["A01", "A31"], 1: ["X13"], 2: ["A20"], 3: ["X26"]}, operation="O05", operations_done=21,
                  zones={"won:0": ["O02"], "won:1": ["O07"], "won:2": ["O12"], "won:3": ["O17"]})
    play(state, "type surface")
    before = evaluate(state)
    play(state, "play A01", "done", "discard all", "discard all", "discard all")
    after = evaluate(state)
    assert after[0] > before[0] and after[0] > 0.9
    assert max(after[1:]) < 0.05


def test_evaluate_skill_beats_the_constant_guess() -> None:
    for players in (2, 4):
        result = calibrate(game(players), evaluate, games=30, seed=11)
        assert result.skill > 0.2
        assert result.stage_mse[3] < 0.6 * result.stage_baseline_mse[3]
