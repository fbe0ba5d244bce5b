"""The Minimal Game (game id `minimal-game`): the template game of warcards, a small trick-taking game with
hidden hands, face-down discards and a shuffled pile (rules in README.md, rulings in RULES.md).

Exports `SPEC`, the game's `GameSpec` (see `warcards.engine.spec`); `pyproject.toml` registers it under
the `warcards.games` entry point.
"""

from __future__ import annotations

from minimal_game.game import MinimalGame
from minimal_game.params import HAND_SIZES, OPTIONS, PLAYER_COUNTS
from warcards.engine.spec import PAIRED_SEARCH, EncoderSpec, GameSpec, Ref

_PACKAGE = __name__

CONFORMANCE_CONFIGS = [{"players": players, "hand": hand} for players in PLAYER_COUNTS for hand in HAND_SIZES]
"""Every option set the rules allow (the deck file aside): each player count with each hand size."""

SPEC = GameSpec(
    id=MinimalGame.game_id,
    title=MinimalGame.title,
    options=OPTIONS,
    factory=MinimalGame,
    conformance_configs=CONFORMANCE_CONFIGS,
    variant_options=("players", "hand"),
    heuristic=Ref(f"{_PACKAGE}.heuristic:MinimalHeuristic"),
    evaluate=Ref(f"{_PACKAGE}.evaluate:evaluate"),
    render=Ref(f"{_PACKAGE}.render:render"),
    encoder=EncoderSpec.from_module(f"{_PACKAGE}.encoding"),
    search_levels={"hard": {**PAIRED_SEARCH, "iterations": 60, "horizon": 8}},
)

__all__ = ["CONFORMANCE_CONFIGS", "SPEC"]
