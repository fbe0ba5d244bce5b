"""`State.parse_legal` (issue 32, finding 9): the server's one check of an act — a legal action from its text
or number, or the engine's reason — without applying it to a clone, python-chess `parse_uci`'s shape."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import warcards
from warcards.engine.api import CHANCE, State, sample_chance
from warcards.engine.errors import IllegalActionError, InvalidActionError


def _configs() -> list[Any]:
    cases = []
    for game_id in warcards.games():
        for options in warcards.engine.registry.conformance_configs(game_id)[:3]:
            label = "-".join(f"{k}={v}" for k, v in options.items()) or "default"
            cases.append(pytest.param(game_id, options, id=f"{game_id}-{label}"))
    return cases


def _decision(game_id: str, options: dict[str, Any], seed: int = 7, skip: int = 5) -> State:
    """A decision node a few seeded random moves into a game, with an illegal action in the space."""
    state = warcards.load_game(game_id, **options).new_initial_state()
    rng = random.Random(seed)
    decisions = 0
    while True:
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            continue
        assert not state.is_terminal()
        if decisions >= skip and len(state.legal_actions()) < state.game.num_distinct_actions:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1


@pytest.mark.parametrize(("game_id", "options"), _configs())
def test_parse_legal_takes_a_legal_move_by_number_and_by_notation(game_id: str, options: dict[str, Any]) -> None:
    state = _decision(game_id, options)
    before = state.snapshot()
    for action in state.legal_actions():
        assert state.parse_legal(action) == action
        assert state.parse_legal(state.action_to_string(action)) == action
        assert state.parse_legal(str(action)) == action
    assert state.snapshot() == before


@pytest.mark.parametrize(("game_id", "options"), _configs())
def test_parse_legal_refuses_an_illegal_move_with_the_message_apply_action_gives(
    game_id: str, options: dict[str, Any]
) -> None:
    state = _decision(game_id, options)
    legal = set(state.legal_actions())
    illegal = next(a for a in range(state.game.num_distinct_actions) if a not in legal)
    before = state.snapshot()
    with pytest.raises(IllegalActionError) as applied:
        state.clone().apply_action(illegal)
    with pytest.raises(IllegalActionError) as parsed:
        state.parse_legal(illegal)
    assert str(parsed.value) == str(applied.value)
    assert state.snapshot() == before


@pytest.mark.parametrize(("game_id", "options"), _configs())
@pytest.mark.parametrize(
    "garbage", [True, False, 1.0, Fraction(1), None, [1], b"1", -1, 10**40, "", "   ", "x" * 10_000, "no such move"]
)
def test_parse_legal_refuses_what_is_not_an_action_as_invalid(
    game_id: str, options: dict[str, Any], garbage: Any
) -> None:
    state = _decision(game_id, options)
    before = state.snapshot()
    with pytest.raises(InvalidActionError):
        state.parse_legal(garbage)
    assert state.snapshot() == before


@pytest.mark.parametrize(("game_id", "options"), _configs())
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=300),
    probes=st.lists(st.one_of(st.integers(min_value=-3, max_value=5_000), st.text(max_size=12)), min_size=1, max_size=30),
)
def test_parse_legal_never_changes_the_state_and_agrees_with_legal_actions(
    game_id: str, options: dict[str, Any], choices: list[int], probes: list[int | str]
) -> None:
    state = warcards.load_game(game_id, **options).new_initial_state()
    rng = random.Random(choices[0])
    for step, choice in enumerate(choices):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            continue
        legal = state.legal_actions()
        probe = probes[step % len(probes)]
        fingerprint = state.fingerprint()
        try:
            parsed = state.parse_legal(probe)
        except (IllegalActionError, InvalidActionError):
            assert not isinstance(probe, int) or probe not in legal
        else:
            assert parsed in legal
            assert isinstance(probe, str) or parsed == probe
        assert state.fingerprint() == fingerprint
        assert state.legal_actions() == legal
        state.apply_action(legal[choice % len(legal)])
