"""Hypothesis property test of the contract on every registered game (and the toy game): any sequence of
choices, interleaved with arbitrary (mostly illegal) action numbers, keeps the state valid, and every refused
action leaves the state exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import warcards
from tests.bots.toygame import ToyGame
from warcards.engine.api import Game
from warcards.engine.registry import conformance_configs


def _games() -> list[Any]:
    cases: list[Any] = [pytest.param(lambda: ToyGame(players=3), id="toy-tricks")]
    for game_id in warcards.games():
        for options in conformance_configs(game_id)[:3]:
            label = "-".join(f"{k}={v}" for k, v in options.items()) or "default"
            cases.append(
                pytest.param(lambda g=game_id, o=options: warcards.load_game(g, **o), id=f"{game_id}-{label}")
            )
    return cases


@pytest.mark.parametrize("make_game", _games())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=400),
    probes=st.lists(st.integers(min_value=-3, max_value=5_000), min_size=1, max_size=50),
)
def test_random_choices_and_bad_probes_keep_the_state_sound(
    make_game: Any, choices: list[int], probes: list[int]
) -> None:
    game: Game = make_game()
    state = game.new_initial_state()
    for step, choice in enumerate(choices):
        if state.is_terminal():
            assert state.legal_actions() == []
            assert len(state.returns()) == game.num_players
            break
        legal = state.legal_actions()
        assert legal
        probe = probes[step % len(probes)]
        if probe not in legal:
            before = state.fingerprint()
            with pytest.raises((warcards.IllegalActionError, warcards.InvalidActionError)):
                state.apply_action(probe)
            assert state.fingerprint() == before
            assert state.legal_actions() == legal
        action = legal[choice % len(legal)]
        copy = state.clone()
        state.apply_action(action)
        assert state.history()[-1] == action
        assert copy.history() == state.history()[:-1]
