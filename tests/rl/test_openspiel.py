"""The OpenSpiel adapter: `pyspiel.random_sim_test` on every game and option set, ISMCTS plays through it."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import warcards
from tests.rl.rl_cases import COVERING_CASES as CASES
from tests.rl.rl_cases import FIRST_CASES, TOY, TOY_ENCODED, Case
from warcards.engine import Agent, RandomAgent, SeatView
from warcards.match import play_match, step_chance
from warcards.rl import openspiel
from warcards.rl.ismcts import OpenSpielISMCTSAgent


def _spiel_game(case: Case) -> pyspiel.Game:
    name = openspiel.register_source(case.source)
    return pyspiel.load_game(name, dict(case.config))


@pytest.mark.parametrize("case", CASES, ids=[case.label for case in CASES])
def test_random_sim_test(case: Case) -> None:
    game = _spiel_game(case)
    assert game.num_players() == case.game().num_players
    # One whole game per option set for the real games (long, up to nine seats, every view checked at
    # every state); three for the toys.
    pyspiel.random_sim_test(game, num_sims=1 if case.registered else 3, serialize=True, verbose=False)


def _ismcts(game: pyspiel.Game, seed: int, simulations: int) -> ismcts.ISMCTSBot:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=np.random.RandomState(seed)
    )


@pytest.mark.parametrize("case", FIRST_CASES, ids=[case.label for case in FIRST_CASES])
def test_openspiel_ismcts_plays_every_seat(case: Case) -> None:
    """ISMCTS chooses the first decisions of every seat (a full search each), random play finishes."""
    game = _spiel_game(case)
    bot = _ismcts(game, seed=1, simulations=8)
    rng = random.Random(2)
    state = game.new_initial_state()
    searched = [0] * game.num_players()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
            continue
        player = state.current_player()
        if searched[player] < 3:
            action = bot.step(state)
            searched[player] += 1
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert min(searched) >= 1
    assert len(state.returns()) == game.num_players()


def test_game_type_is_declared_honestly() -> None:
    plain = _spiel_game(Case(TOY, {}))
    own = _spiel_game(Case(TOY_ENCODED, {"players": 3}))
    for game in (plain, own):
        kind = game.get_type()
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert (kind.min_num_players, kind.max_num_players) == (2, 3)
    assert plain.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert plain.max_utility() == float("inf")
    assert own.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (own.min_utility(), own.max_utility()) == pytest.approx((-1 / 3, 2 / 3))
    assert own.utility_sum() == 0.0


def test_resampled_state_keeps_the_information_state() -> None:
    game = _spiel_game(Case(TOY, {"players": 3}))
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node() or len(state.history()) < 8:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    key = state.information_state_string(player)
    hidden = {str(state.resample_from_infostate(player, sampler)) for _ in range(20)}
    assert len(hidden) > 1  # the others' cards really are resampled
    for _ in range(5):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == key
        assert sample.legal_actions() == state.legal_actions()


def test_information_state_has_perfect_recall_and_observation_does_not() -> None:
    game = _spiel_game(Case(TOY, {}))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    assert state.information_state_string(player).endswith("own:[]")
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(player).endswith(f"own:[{state.history()[-1]}]")
    assert "own:" not in state.observation_string(player)
    assert len(state.observation_tensor(player)) == 2048


def test_register_covers_the_registry_and_is_idempotent() -> None:
    names = openspiel.register()
    assert names == [openspiel.short_name(game_id) for game_id in warcards.games()]
    assert openspiel.register() == names
    registered = set(pyspiel.registered_names())
    assert set(names) <= registered


def test_from_game_wraps_a_built_game_for_search() -> None:
    game = openspiel.from_game(TOY.load(players=3))
    assert game.num_players() == 3
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("case", FIRST_CASES, ids=[case.label for case in FIRST_CASES])
def test_openspiel_ismcts_agent_chooses_legal_moves_from_a_seat_view(case: Case) -> None:
    game = case.game()
    agents = [OpenSpielISMCTSAgent(game, seat, seat, simulations=6) for seat in range(game.num_players)]
    state = game.new_initial_state()
    rng = random.Random(3)
    chosen = 0
    while not state.is_terminal() and chosen < 2 * game.num_players:
        player = state.current_player()
        if player == warcards.CHANCE:
            step_chance(state, rng)
            continue
        action = agents[player].step(SeatView(state, player))
        assert action in state.legal_actions()
        state.apply_action(action)
        chosen += 1
    assert chosen == 2 * game.num_players


def test_openspiel_ismcts_agent_beats_random_on_the_toy() -> None:
    """Same 20 seeded deals in each seat: ISMCTS scores more than the random bot does in its place."""
    game = TOY.load(hand_size=3)
    for seat in (0, 1):
        searched = random_play = 0.0
        for seed in range(20):
            agents: list[Agent] = [RandomAgent(other, seed) for other in range(2)]
            agents[seat] = OpenSpielISMCTSAgent(game, seat, seed, simulations=100)
            searched += play_match(game, agents, seed).returns[seat]
            random_play += play_match(game, [RandomAgent(other, seed) for other in range(2)], seed).returns[
                seat
            ]
        assert searched > random_play
