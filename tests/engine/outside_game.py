"""A game from "another package": the bots' Toy Tricks with a `GameSpec`, registered in the tests through a
hand-made `warcards.games` entry point (tests/engine/test_spec.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.bots.toygame import ToyGame
from warcards.engine.options import OptionSpec
from warcards.engine.spec import GameSpec, Ref

OPTIONS = [
    OptionSpec("players", 2, "number of players", allowed=[2, 3]),
    OptionSpec("deck", 12, "cards in the deck", allowed=[9, 12]),
    OptionSpec("hand", 3, "cards dealt to each seat", allowed=[2, 3]),
]


def make_game(options: Mapping[str, Any]) -> ToyGame:
    """Toy Tricks from resolved options."""
    return ToyGame(options["players"], options["deck"], options["hand"])


SPEC = GameSpec(
    id=ToyGame.game_id,
    title=ToyGame.title,
    options=OPTIONS,
    factory=make_game,
    conformance_configs=[{"players": 2}, {"players": 3, "deck": 9}],
    heuristic=Ref("tests.bots.toygame:toy_heuristic"),
    search_levels={"hard": {"iterations": 20}},
)

NOT_A_SPEC = "a string where a GameSpec belongs"
