"""Cards of War (game id `cards-of-war`): the two-player game of the rule text `supreme-leaders-52.txt`, with
every optional rule and the 2-deck version, played with a stand-in deck (see cards.toml and RULES.md)."""

from __future__ import annotations

from itertools import product
from typing import Any

from warcards.games.cards_of_war.encoding import (
    OBSERVATION_BOUNDS,
    OBSERVATION_VERSION,
    encode_observation,
    observation_shape,
)
from warcards.games.cards_of_war.evaluate import evaluate
from warcards.games.cards_of_war.game import CowGame
from warcards.games.cards_of_war.heuristic import heuristic_agent
from warcards.games.cards_of_war.params import LENGTHS, OPTIONS
from warcards.games.cards_of_war.render import render
from warcards.games.cards_of_war.state import CowState


def make_game(options: dict[str, Any]) -> CowGame:
    """Build the game from resolved options (cross-option checks raise `OptionError`)."""
    return CowGame(options)


def _configs() -> list[dict[str, Any]]:
    """Every option combination the rules allow: strategic exhaustion only in the long game and never with
    tactical advantage."""
    configs: list[dict[str, Any]] = []
    for length, alt, tow, joint, decks in product(LENGTHS, (False, True), (False, True), (False, True), (1, 2)):
        hand_rules = [(False, False), (True, False)] + ([(False, True)] if length == "long" else [])
        for tactical, exhaustion in hand_rules:
            configs.append({
                "length": length,
                "alternative_reinforce": alt,
                "theatres_of_war": tow,
                "tactical_advantage": tactical,
                "strategic_exhaustion": exhaustion,
                "joint_deployment": joint,
                "decks": decks,
            })
    return configs


CONFORMANCE_CONFIGS: list[dict[str, Any]] = _configs()

# The game lengths are the variants the conformance battery plays in full; the optional rules are options.
VARIANT_OPTIONS = ("players", "length")

__all__ = [
    "CONFORMANCE_CONFIGS",
    "OBSERVATION_BOUNDS",
    "OBSERVATION_VERSION",
    "OPTIONS",
    "VARIANT_OPTIONS",
    "CowGame",
    "CowState",
    "encode_observation",
    "evaluate",
    "heuristic_agent",
    "make_game",
    "observation_shape",
    "render",
]
