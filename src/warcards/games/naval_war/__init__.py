"""Naval War (Battleline 1979 / Avalon Hill 1983): the game package (see its GUIDE.md).

Exports `SPEC`, the game's `GameSpec` (see `warcards.engine.spec`), registered as `naval-war`.
"""

from __future__ import annotations

from typing import Any

from warcards.engine.spec import PAIRED_SEARCH, EncoderSpec, GameSpec, Ref
from warcards.games.naval_war.game import NavalWarGame
from warcards.games.naval_war.params import OPTIONS, parameters

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

_PACKAGE = __name__

SPEC = GameSpec(
    id=NavalWarGame.game_id,
    title=NavalWarGame.title,
    options=OPTIONS,
    factory=NavalWarGame,
    parameters=parameters,
    conformance_configs=CONFORMANCE_CONFIGS,
    # The plain games at each player count (any target score) are the variants the battery plays in full.
    variant_options=("players", "target"),
    heuristic=Ref(f"{_PACKAGE}.heuristic:heuristic_agent"),
    evaluate=Ref(f"{_PACKAGE}.evaluate:evaluate"),
    render=Ref(f"{_PACKAGE}.render:render"),
    status=Ref(f"{_PACKAGE}.render:status"),
    facts=Ref(f"{_PACKAGE}.log:deck_facts"),
    encoder=EncoderSpec.from_module(f"{_PACKAGE}.encoding"),
    search_levels={"hard": {**PAIRED_SEARCH, "iterations": 100, "horizon": 10}},
    # A 3-player decision at 100 rollouts takes a quarter of a 9-player one (0.08 s against 0.35 s);
    # 400 brings it to the 9-player time, and the override check (scripts/strength/overrides.py, 240
    # decisions) then gains +0.51 win share by the evaluation's measure against +0.34 (docs/bots.md).
    # 2 players: 100 rollouts left `hard` level with `medium` (0.512 over 80 games); a decision at 400
    # takes 0.36 s (docs/bots.md, "Every adjacent pair").
    player_count_levels={("hard", 2): {"iterations": 400}, ("hard", 3): {"iterations": 400}},
)

__all__ = ["CONFORMANCE_CONFIGS", "SPEC"]
