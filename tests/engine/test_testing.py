"""warcards.testing: the seeded random policy's helpers give the games the tests' copied loops gave, and the
battery runs on a game built outside the registry."""

from __future__ import annotations

import random

import pytest

from tests.bots.toygame import ToyGame
from warcards.engine.api import CHANCE, State, Uniform, sample_chance
from warcards.engine.registry import load_game
from warcards.testing import random_playout, random_step, run_battery, sample_states
from warcards.testing.battery import check_apply_chance, check_apply_chance_refused, check_chance_description


def _copied_loop(state: State, rng: random.Random) -> list[str]:
    """The loop the tests used to copy, with the fingerprint of every state it passes."""
    seen = [state.fingerprint()]
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        seen.append(state.fingerprint())
    return seen


@pytest.mark.parametrize("game_id", ["race-to-messina", "cards-of-war"])
def test_sample_states_draws_like_the_copied_loop(game_id: str) -> None:
    game = load_game(game_id)
    expected = _copied_loop(game.new_initial_state(), random.Random(11))
    assert [s.fingerprint() for s in sample_states(game, 11)] == expected
    every_third = [s.fingerprint() for s in sample_states(game, 11, every=3)]
    end = len(expected) - 1
    assert every_third == [*(expected[step] for step in range(0, end, 3)), expected[end]]
    assert random_playout(game, random.Random(11)).fingerprint() == expected[-1]


def test_sample_states_stops_after_count_and_chains_games_on_one_rng() -> None:
    game = load_game("race-to-messina", variant="invasion")
    assert len(list(sample_states(game, 3, count=5))) == 5
    two = list(sample_states(game, 3, games=2))
    ends = [index for index, state in enumerate(two) if state.is_terminal()]
    assert len(ends) == 2 and ends[-1] == len(two) - 1
    rng = random.Random(3)
    random_playout(game, rng)
    assert two[-1].fingerprint() == random_playout(game, rng).fingerprint()


def test_random_playout_stops_after_max_steps_and_plays_in_place() -> None:
    game = load_game("naval-war", players=3)
    state = game.new_initial_state()
    assert random_playout(state, 4, max_steps=30) is state and len(state.history()) == 30
    again = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(30):
        random_step(again, rng)
    assert again == state


def test_the_battery_runs_on_a_built_game_and_refuses_options_with_it() -> None:
    tally = run_battery(ToyGame(3), games=10, seed=1)
    assert tally.games == 10 and tally.states > 0
    with pytest.raises(ValueError, match=r"options .* given with a built game"):
        run_battery(ToyGame(3), {"players": 2}, games=1)


def test_the_battery_catches_an_apply_chance_that_leaves_another_state_than_apply_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = ToyGame(3).new_initial_state()
    assert state.current_player() == CHANCE
    check_apply_chance(state, "fine")

    def deals_the_last_card(self: State, u: float) -> int:
        """Says it drew the outcome at `u` but deals the pile's last card."""
        outcome = self._sample_outcome(u)
        self._apply(self.legal_actions()[-1])
        return outcome

    monkeypatch.setattr(type(state), "_apply_chance", deals_the_last_card)
    before = state.fingerprint()
    with pytest.raises(AssertionError, match=r"skewed: apply_chance\(0.0\) leaves another state"):
        check_apply_chance(state, "skewed")
    assert state.fingerprint() == before


def test_the_battery_catches_an_apply_chance_hook_that_draws_at_a_decision_node(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = ToyGame(3).new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_chance(0.5)
    check_apply_chance_refused(state, "fine")

    def draws_anywhere(self: State, u: float) -> int:
        """Draws without asking whether this is a chance node."""
        return 0

    monkeypatch.setattr(type(state), "_apply_chance", draws_anywhere)
    with pytest.raises(AssertionError, match="careless: apply_chance away from a chance node was accepted"):
        check_apply_chance_refused(state, "careless")


def test_the_battery_catches_a_chance_description_out_of_order(monkeypatch: pytest.MonkeyPatch) -> None:
    state = ToyGame(3).new_initial_state()
    assert state.current_player() == CHANCE
    legal = state.legal_actions()
    check_chance_description(state, legal, "fine")
    monkeypatch.setattr(type(state), "_chance", lambda self: Uniform(sorted(legal, reverse=True)))
    with pytest.raises(AssertionError, match="backwards: the Uniform description is not in ascending order"):
        check_chance_description(state, legal, "backwards")
