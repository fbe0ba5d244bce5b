"""Med Sirocco (Hexasim 2017): 2–6 players, Convoys and Battles in the Mediterranean, 1940–43.

Rule text: shared/rules/med-sirocco-rulebook.md; the deck is a stand-in (cards.toml). Exports `SPEC`, the
game's `GameSpec` (see `warcards.engine.spec`), registered as `med-sirocco`.
"""

from __future__ import annotations

from typing import Any

from warcards.engine.spec import PAIRED_SEARCH, EncoderSpec, GameSpec, Ref
from warcards.games.med_sirocco.game import MedSiroccoGame
from warcards.games.med_sirocco.params import OPTIONS, parameters

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

_PACKAGE = __name__

SPEC = GameSpec(
    id=MedSiroccoGame.game_id,
    title=MedSiroccoGame.title,
    options=OPTIONS,
    factory=MedSiroccoGame,
    parameters=parameters,
    conformance_configs=CONFORMANCE_CONFIGS,
    # The player counts are the variants the battery plays in full; every other option is an option.
    variant_options=("players",),
    heuristic=Ref(f"{_PACKAGE}.heuristic:heuristic_agent"),
    evaluate=Ref(f"{_PACKAGE}.evaluate:evaluate"),
    render=Ref(f"{_PACKAGE}.render:render"),
    status=Ref(f"{_PACKAGE}.render:status"),
    facts=Ref(f"{_PACKAGE}.log:deck_facts"),
    encoder=EncoderSpec.from_module(f"{_PACKAGE}.encoding"),
    search_levels={"hard": {**PAIRED_SEARCH, "iterations": 200, "horizon": 20}},
)

__all__ = ["CONFORMANCE_CONFIGS", "SPEC"]
