"""The heuristic bot beats random clearly at 3, 5 and 9 players (issue: Views and bots)."""

from __future__ import annotations

import math

import pytest
from tests.games.naval_war.helpers import game

from warcards.match import play_match


def wilson_lower(wins: float, games: int, z: float = 1.96) -> float:
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games)


@pytest.mark.parametrize(("players", "games"), [(3, 40), (5, 40), (9, 40)])
def test_heuristic_beats_random_above_the_even_share(players: int, games: int) -> None:
    g = game(players, target=50)
    wins = 0.0
    for index in range(games):
        seat = index % players
        agents = ["random"] * players
        agents[seat] = "heuristic"
        record = play_match(g, agents, seed=7000 + index)
        wins += record.returns[seat]
    assert wilson_lower(wins, games) > 1 / players, f"{wins}/{games} wins at {players} players"
