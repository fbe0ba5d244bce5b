"""One `Game` per (game id, options) in a server or bot process, shared by every table that plays it.

A game object is the immutable rules and card tables of a game with its options; building one costs from
microseconds (Race to Messina) to milliseconds (Naval War's tables), so a process builds it once, not once
per table, lobby listing and bot seat.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from warcards.engine.api import Game
from warcards.engine.registry import load_game


@lru_cache(maxsize=512)
def _game(game_id: str, options_json: str) -> Game:
    return load_game(game_id, **json.loads(options_json))


def shared_game(game_id: str, options: dict[str, Any]) -> Game:
    """The game for `options` (checked by the engine as `load_game` checks them), built once per process."""
    try:
        key = json.dumps(options, sort_keys=True)
    except (TypeError, ValueError):
        return load_game(game_id, **options)
    return _game(game_id, key)
