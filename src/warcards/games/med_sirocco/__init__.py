"""Med Sirocco (Hexasim 2017): 2–6 players, Convoys and Battles in the Mediterranean, 1940–43.

Rule text: shared/rules/med-sirocco-rulebook.md; the deck is a stand-in (cards.toml). Exports the registry's
names: `OPTIONS`, `make_game`, `CONFORMANCE_CONFIGS`, `heuristic_agent`, `render`, and `evaluate` (the search's
estimate of the returns).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warcards.games.med_sirocco.encoding import (
    OBSERVATION_BOUNDS,
    OBSERVATION_VERSION,
    encode_observation,
    observation_shape,
)
from warcards.games.med_sirocco.evaluate import evaluate
from warcards.games.med_sirocco.heuristic import heuristic_agent
from warcards.games.med_sirocco.params import OPTIONS
from warcards.games.med_sirocco.render import render
from warcards.games.med_sirocco.state import MedSiroccoGame, MedSiroccoState

CONFORMANCE_CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 4, "advanced": True, "change_sides": True},
    {"players": 3, "faster": True, "operations": 10},
    {"players": 5, "historicity": True, "advanced": True, "operations": 15},
    {"players": 2, "historicity": True, "change_sides": True, "operations": 15},
    {"players": 2, "advanced": True, "faster": True, "operations": 10},
    {"players": 6, "series": True, "operations": 10},
]


def make_game(options: Mapping[str, Any]) -> MedSiroccoGame:
    """The game for resolved options."""
    return MedSiroccoGame(options)


__all__ = ["CONFORMANCE_CONFIGS", "OBSERVATION_BOUNDS", "OBSERVATION_VERSION", "OPTIONS", "MedSiroccoGame",
           "MedSiroccoState", "encode_observation", "evaluate", "heuristic_agent", "make_game", "observation_shape",
           "render"]
