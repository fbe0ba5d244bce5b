"""Naval War (Battleline 1979 / Avalon Hill 1983): the game package (see docs/games/naval-war.md)."""

from __future__ import annotations

from typing import Any

from warcards.engine.api import Game
from warcards.games.naval_war.encoding import (
    OBSERVATION_BOUNDS,
    OBSERVATION_VERSION,
    encode_observation,
    observation_shape,
)
from warcards.games.naval_war.evaluate import evaluate
from warcards.games.naval_war.game import NavalWarGame
from warcards.games.naval_war.heuristic import heuristic_agent
from warcards.games.naval_war.params import OPTIONS
from warcards.games.naval_war.render import render


def make_game(options: dict[str, Any]) -> Game:
    """Build Naval War from resolved options (fleet shapes are checked against the player count)."""
    return NavalWarGame(options)


CONFORMANCE_CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "target": 20, "kamikaze": True, "draw_past_specials": True, "extra_cards": 1},
    {"players": 3, "target": 20},
    {"players": 3, "target": 50, "additional_ship": False, "draw_past_specials": True},
    {"players": 4},
    {"players": 4, "target": 20, "gunnery": True},
    {"players": 4, "target": 20, "fleets": "2x2", "mines_two": True},
    {"players": 5, "target": 20, "extra_cards": 2, "kamikaze": True},
    {"players": 5, "target": 20, "night": True, "kamikaze": True},
    {"players": 3, "target": 20, "night": True, "mines_two": True},
    {"players": 6, "target": 20, "fleets": "2x3"},
    {"players": 6, "target": 20, "fleets": "3x2", "kamikaze": True},
    {"players": 7, "target": 20, "mines_two": True},
    {"players": 8, "target": 20, "fleets": "2x4"},
    {"players": 8, "target": 20, "fleets": "4x2", "draw_past_specials": True, "night": True},
    {"players": 9, "target": 20},
    {"players": 9, "target": 20, "fleets": "3x3", "kamikaze": True, "mines_two": True},
    *({"players": n, "target": 20} for n in (2, 5, 6, 7, 8)),
]
"""Every player count 2–9 and every option (each at least once, fleet shapes all covered)."""

VARIANT_OPTIONS = ("players", "target")
"""The plain games at each player count (any target score) are the variants the battery plays in full."""

__all__ = [
    "CONFORMANCE_CONFIGS",
    "OBSERVATION_BOUNDS",
    "OBSERVATION_VERSION",
    "OPTIONS",
    "VARIANT_OPTIONS",
    "encode_observation",
    "evaluate",
    "heuristic_agent",
    "make_game",
    "observation_shape",
    "render",
]
