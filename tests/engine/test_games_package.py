"""`warcards.games()` lists the games even after a game package is imported: importing
`warcards.games.<game>` binds the attribute `warcards.games` to the package `warcards.games`, so the package
is callable (`_CallablePackage` in src/warcards/games/__init__.py). The review of issue 36 took that class for
dead code; this pins why it is not."""

from __future__ import annotations

import importlib

import warcards
from warcards.engine.registry import games


def test_warcards_games_is_still_callable_after_a_game_package_is_imported() -> None:
    importlib.import_module("warcards.games.cards_of_war")
    assert warcards.games() == games()
