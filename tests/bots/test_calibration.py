"""The evaluator calibration tool: it scores a game's `evaluate` against the returns games end with."""

from __future__ import annotations

import pytest

import warcards
from warcards.bots.calibration import STAGES, calibrate
from warcards.engine.api import State


def test_a_constant_guess_has_no_skill_and_the_game_evaluator_has_some() -> None:
    game = warcards.load_game("cards-of-war", length="short")
    flat = calibrate(game, lambda state: [0.0, 0.0], games=12, seed=1)
    assert flat.positions == sum(flat.stage_positions) > 0
    assert len(flat.stage_mse) == STAGES
    assert flat.skill <= 0.0
    fitted = calibrate(game, games=12, seed=1)
    assert fitted.positions == flat.positions
    assert fitted.skill > 0.05
    assert "skill" in fitted.table() and f"stage {STAGES}/{STAGES}" in fitted.table()


def test_an_evaluator_that_changes_the_state_is_caught() -> None:
    game = warcards.load_game("cards-of-war", length="short")

    def meddling(state: State) -> list[float]:
        if not state.is_terminal() and not state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        return [0.0, 0.0]

    with pytest.raises(AssertionError, match="evaluate changed the state"):
        calibrate(game, meddling, games=2, seed=0)
