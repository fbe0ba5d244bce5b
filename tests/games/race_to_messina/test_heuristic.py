"""The heuristic bot beats random clearly in every variant and seat (seeded simulations)."""

from __future__ import annotations

import math

import pytest

import warcards
from warcards.engine.agents import SeatView
from warcards.games.race_to_messina.heuristic import heuristic_agent
from warcards.match import play_match

GAMES = 100
SICILY_GAMES = 150


def wilson_lower(wins: int, games: int, z: float = 1.96) -> float:
    p = wins / games
    centre = p + z * z / (2 * games)
    margin = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre - margin) / (1 + z * z / games)


@pytest.mark.parametrize(("variant", "seat"), [("invasion", 0), ("invasion", 1), ("race", 0), ("race", 1)])
def test_heuristic_beats_random_in_two_player_variants(variant: str, seat: int) -> None:
    game = warcards.load_game("race-to-messina", variant=variant)
    wins = 0
    for index in range(GAMES):
        agents = ["random", "random"]
        agents[seat] = "heuristic"
        wins += play_match(game, agents, seed=1000 + index).returns[seat] > 0
    assert wilson_lower(wins, GAMES) > 0.5, f"{variant} seat {seat}: {wins}/{GAMES}"


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_heuristic_beats_two_random_bots_in_sicily(seat: int) -> None:
    game = warcards.load_game("race-to-messina", variant="sicily")
    wins = 0
    for index in range(SICILY_GAMES):
        agents = ["random", "random", "random"]
        agents[seat] = "heuristic"
        wins += play_match(game, agents, seed=2000 + index).returns[seat] > 0
    assert wilson_lower(wins, SICILY_GAMES) > 0.5, f"sicily seat {seat}: {wins}/{SICILY_GAMES}"


def test_heuristic_sees_only_its_seat_view() -> None:
    game = warcards.load_game("race-to-messina", variant="invasion")
    state = game.new_initial_state()
    while state.current_player() == warcards.CHANCE:
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    agent = heuristic_agent(game, seat, 7)
    view = SeatView(state, seat)
    assert not hasattr(view, "state")
    action = agent.step(view)
    assert action in state.legal_actions()


def run_deployment(state: warcards.State, seat: int) -> list[str]:
    agent = heuristic_agent(state.game, seat, 1)
    while state.current_player() == seat:
        state.apply_action(agent.step(SeatView(state, seat)))
    return state.zones()[f"table:{state.game.seat_names()[seat]}"]  # the last seat: all revealed


def test_heuristic_deploys_every_card_when_it_can_win() -> None:
    from .helpers import build

    hand = ["A15", "A04", "A38", "A03", "A13"]
    state = build("invasion", {"hand:allies": hand, "hand:axis": ["X01", "X02"]}, phase="deployment",
                  seat="allies")
    assert sorted(run_deployment(state, 0)) == sorted(hand)


def test_heuristic_holds_its_two_best_cards_when_the_hand_cannot_win() -> None:
    from .helpers import build

    axis = [f"X{i:02d}" for i in range(1, 11)]
    state = build("invasion", {"hand:allies": ["A11", "A10", "A35"], "hand:axis": axis}, phase="deployment",
                  seat="allies")
    assert run_deployment(state, 0) == ["A11"]
    assert state.zones()["hand:allies"] == ["A10", "A35"]


def test_heuristic_discards_a_card_it_may_not_use_first() -> None:
    from .helpers import build

    state = build("race", {"hand:british": ["A38", "A11", "A15"]}, phase="strategy", seat="british")
    agent = heuristic_agent(state.game, 0, 3)
    assert state.action_to_string(agent.step(SeatView(state, 0))) == "discard A38 General Patton"
