"""Cards of War (game id `cards-of-war`): the two-player game of the rule text `supreme-leaders-52.txt`, with
every optional rule and the 2-deck version, played with a stand-in deck (see cards.toml and RULES.md).

Exports `SPEC`, the game's `GameSpec` (see `warcards.engine.spec`).
"""

from __future__ import annotations

from itertools import product
from typing import Any

from warcards.engine.spec import EncoderSpec, GameSpec, Ref
from warcards.games.cards_of_war.game import CardsOfWarGame
from warcards.games.cards_of_war.params import LENGTHS, OPTIONS, parameters


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

_PACKAGE = __name__

SPEC = GameSpec(
    id=CardsOfWarGame.game_id,
    title=CardsOfWarGame.title,
    options=OPTIONS,
    factory=CardsOfWarGame,
    parameters=parameters,
    conformance_configs=CONFORMANCE_CONFIGS,
    # The game lengths are the variants the conformance battery plays in full; the optional rules are options.
    variant_options=("players", "length"),
    heuristic=Ref(f"{_PACKAGE}.heuristic:heuristic_agent"),
    evaluate=Ref(f"{_PACKAGE}.evaluate:evaluate"),
    render=Ref(f"{_PACKAGE}.render:render"),
    status=Ref(f"{_PACKAGE}.render:status"),
    facts=Ref(f"{_PACKAGE}.log:deck_facts"),
    encoder=EncoderSpec.from_module(f"{_PACKAGE}.encoding"),
)

__all__ = ["CONFORMANCE_CONFIGS", "SPEC"]
