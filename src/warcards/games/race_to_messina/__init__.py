"""Race to Messina (Sicily 1943): Invasion, Race and Sicily variants (rule text: sicily-1943.txt).

Exports `SPEC`, the game's `GameSpec` (see `warcards.engine.spec`), registered as `race-to-messina`.
"""

from __future__ import annotations

from typing import Any

from warcards.engine.spec import PAIRED_SEARCH, EncoderSpec, GameSpec, Ref
from warcards.games.race_to_messina.game import RaceToMessinaGame
from warcards.games.race_to_messina.params import OPTIONS, parameters

CONFORMANCE_CONFIGS: list[dict[str, Any]] = [{"variant": "invasion"}, {"variant": "race"}, {"variant": "sicily"}]

_PACKAGE = __name__

SPEC = GameSpec(
    id=RaceToMessinaGame.game_id,
    title=RaceToMessinaGame.title,
    options=OPTIONS,
    factory=RaceToMessinaGame,
    parameters=parameters,
    conformance_configs=CONFORMANCE_CONFIGS,
    heuristic=Ref(f"{_PACKAGE}.heuristic:heuristic_agent"),
    evaluate=Ref(f"{_PACKAGE}.evaluate:evaluate"),
    render=Ref(f"{_PACKAGE}.render:render"),
    status=Ref(f"{_PACKAGE}.render:status"),
    facts=Ref(f"{_PACKAGE}.log:deck_facts"),
    encoder=EncoderSpec.from_module(f"{_PACKAGE}.encoding"),
    search_levels={"hard": {**PAIRED_SEARCH, "halving": True, "iterations": 240, "horizon": 16}},
)

__all__ = ["CONFORMANCE_CONFIGS", "SPEC"]
