"""The engine core on its own: options, registry errors, action checks, the runner and replays.

The games are exercised by the conformance battery; these tests pin the shared machinery, using the small
Toy Tricks game from tests/bots/toygame.py (built directly, never registered).
"""

from __future__ import annotations

import json

import pytest

import warcards
from tests.bots.toygame import ToyGame
from warcards.engine import CHANCE, OptionSpec, RandomAgent, SeatView, resolve_options
from warcards.engine.errors import IllegalActionError, InvalidActionError, OptionError
from warcards.match import MatchRecord, derive_seed, play_match
from warcards.scenario import ScenarioFileError, load_scenario
from warcards.simulate import wilson_interval, win_shares

SPECS = [
    OptionSpec("players", 4, "number of players", allowed=(2, 3, 4, 5, 6)),
    OptionSpec("fast", False, "faster game", allowed=(False, True)),
    OptionSpec("cards", None, "card file", kind=str),
]


def test_options_fill_defaults_and_accept_command_line_text() -> None:
    assert resolve_options("g", SPECS, {}) == {"players": 4, "fast": False, "cards": None}
    assert resolve_options("g", SPECS, {"players": "3", "fast": "true"})["players"] == 3
    assert resolve_options("g", SPECS, {"fast": "yes"})["fast"] is True
    # A resolved option set (as a match record keeps it) loads again, optional None defaults included.
    assert resolve_options("g", SPECS, resolve_options("g", SPECS, {}))["cards"] is None


def test_bad_option_names_the_option_and_the_allowed_values() -> None:
    with pytest.raises(OptionError, match=r"players=9 .*allowed values: 2, 3, 4, 5, 6"):
        resolve_options("g", SPECS, {"players": 9})
    with pytest.raises(OptionError, match=r"unknown option 'colour'.*players"):
        resolve_options("g", SPECS, {"colour": "red"})
    with pytest.raises(OptionError, match="cards"):
        resolve_options("g", SPECS, {"cards": 3})


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        warcards.load_game("chess")


def test_errors_are_value_errors() -> None:
    assert issubclass(warcards.InvalidActionError, ValueError)
    assert issubclass(warcards.IllegalActionError, ValueError)


def _dealt_state() -> warcards.State:
    state = ToyGame(players=2).new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_action(state.legal_actions()[0])
    return state


def test_out_of_space_action_is_invalid_and_changes_nothing() -> None:
    state = _dealt_state()
    before = state.fingerprint()
    with pytest.raises(InvalidActionError, match=r"actions are 0\.\.11"):
        state.apply_action(99)
    with pytest.raises(InvalidActionError, match="an action is an integer"):
        state.apply_action("3")  # type: ignore[arg-type]
    assert state.fingerprint() == before


def test_unlisted_action_is_illegal_with_a_reason_and_changes_nothing() -> None:
    state = _dealt_state()
    before = state.fingerprint()
    unlisted = next(a for a in range(12) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply_action(unlisted)
    assert state.fingerprint() == before


def test_clone_is_equal_and_independent() -> None:
    state = _dealt_state()
    copy = state.clone()
    assert copy == state
    copy.apply_action(copy.legal_actions()[0])
    assert copy != state
    assert len(state.history()) + 1 == len(copy.history())


def test_play_match_is_deterministic_for_a_seed_and_records_everything() -> None:
    game = ToyGame(players=3)
    agents = [RandomAgent(seat, derive_seed(5, seat)) for seat in range(3)]
    first = play_match(game, agents, seed=5)
    agents = [RandomAgent(seat, derive_seed(5, seat)) for seat in range(3)]
    second = play_match(game, agents, seed=5)
    assert first.actions == second.actions and first.returns == second.returns
    assert first.game == "toy-tricks" and first.seed == 5 and first.engine_version == warcards.__version__
    again = MatchRecord.model_validate_json(first.model_dump_json())
    assert again == first


def test_play_match_needs_one_agent_per_seat() -> None:
    with pytest.raises(ValueError, match="needs 2 agents"):
        play_match(ToyGame(players=2), [RandomAgent()], seed=1)


def test_seat_view_exposes_only_the_seat() -> None:
    state = _dealt_state()
    view = SeatView(state, state.current_player())
    assert view.observation() == state.observe(view.seat)
    assert view.legal_actions() == state.legal_actions()
    assert not hasattr(view, "state") and not hasattr(view, "_state")


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(1, "game", 0) == derive_seed(1, "game", 0)
    assert len({derive_seed(1, "game", i) for i in range(1000)}) == 1000


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_win_shares_split_ties() -> None:
    assert win_shares([1.0, -1.0]) == [1.0, 0.0]
    assert win_shares([3.0, 3.0, 1.0]) == [0.5, 0.5, 0.0]


def test_scenario_file_errors_are_clear(tmp_path) -> None:  # type: ignore[no-untyped-def]
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ScenarioFileError, match="not valid JSON"):
        load_scenario(broken)
    with pytest.raises(ScenarioFileError, match="game: required key missing"):
        load_scenario({"actions": []})
    with pytest.raises(ScenarioFileError, match=r"expect\.score: unknown key"):
        load_scenario({"game": "naval-war", "expect": {"score": 1}})
    (tmp_path / "ok.json").write_text(
        json.dumps({"game": "naval-war", "actions": ["a", {"action": "b", "error": "illegal", "message": "c"}]})
    )
    assert load_scenario(tmp_path / "ok.json").actions[1].message == "c"  # type: ignore[union-attr]
