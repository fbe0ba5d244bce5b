"""Race to Messina (Sicily 1943): Invasion, Race and Sicily variants (rule text: sicily-1943.txt).

Exports the registry's names: `OPTIONS`, `make_game`, `CONFORMANCE_CONFIGS`, `heuristic_agent`, `render`,
and `evaluate` (the search's estimate of the returns).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warcards.games.race_to_messina.encoding import (
    OBSERVATION_BOUNDS,
    OBSERVATION_VERSION,
    encode_observation,
    observation_shape,
)
from warcards.games.race_to_messina.evaluate import evaluate
from warcards.games.race_to_messina.heuristic import heuristic_agent
from warcards.games.race_to_messina.params import OPTIONS
from warcards.games.race_to_messina.render import render
from warcards.games.race_to_messina.state import RaceToMessinaGame, RaceToMessinaState

CONFORMANCE_CONFIGS: list[dict[str, Any]] = [{"variant": "invasion"}, {"variant": "race"}, {"variant": "sicily"}]


def make_game(options: Mapping[str, Any]) -> RaceToMessinaGame:
    """The game for resolved options (`variant`, `players`)."""
    return RaceToMessinaGame(options)


__all__ = [
    "CONFORMANCE_CONFIGS",
    "OBSERVATION_BOUNDS",
    "OBSERVATION_VERSION",
    "OPTIONS",
    "RaceToMessinaGame",
    "RaceToMessinaState",
    "encode_observation",
    "evaluate",
    "heuristic_agent",
    "make_game",
    "observation_shape",
    "render",
]
