"""The game registry: `games()` and `load_game()`.

Each game lives in its own package `warcards.games.<name>` which exposes:
- `OPTIONS: list[OptionSpec]` — every option with its default and allowed values;
- `make_game(options: dict) -> Game` — build the game from resolved options;
- `CONFORMANCE_CONFIGS: list[dict]` — option sets the conformance battery plays (every variant/player count,
  and the option combinations the rules allow);
- optionally `VARIANT_OPTIONS: tuple[str, ...]` — the options that make a variant (default: variant, players);
- `heuristic_agent(game: Game, seat: int, seed: int) -> Agent` — the game's heuristic bot;
- `render(observation: dict, seat: int) -> str` — a plain-text table for the terminal.
A game joins the registry by being listed in `_GAME_MODULES` and having its package installed.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from types import ModuleType
from typing import Any

from warcards.engine.api import Game
from warcards.engine.errors import OptionError
from warcards.engine.options import OptionSpec, resolve_options
from warcards.engine.text import quote

_GAME_MODULES: dict[str, str] = {
    "race-to-messina": "warcards.games.race_to_messina",
    "med-sirocco": "warcards.games.med_sirocco",
    "naval-war": "warcards.games.naval_war",
    "cards-of-war": "warcards.games.cards_of_war",
}


def _present(module_name: str) -> bool:
    # A folder without __init__.py (a namespace package) is not a game yet.
    try:
        spec = importlib.util.find_spec(module_name)
    except ModuleNotFoundError:
        return False
    return spec is not None and bool(spec.origin) and str(spec.origin).endswith("__init__.py")


@cache
def games() -> list[str]:
    """The ids of every registered game, in a stable order."""
    return [game_id for game_id, module in _GAME_MODULES.items() if _present(module)]


def game_module(game_id: str) -> ModuleType:
    """The package implementing `game_id`, or `OptionError` listing the known games (quoting at most a short
    prefix of `game_id`, whatever its length or type)."""
    if not isinstance(game_id, str) or game_id not in games():
        raise OptionError(f"unknown game {quote(game_id)}; games are: {', '.join(games())}")
    return importlib.import_module(_GAME_MODULES[game_id])


def option_specs(game_id: str) -> list[OptionSpec]:
    """The declared options of a game."""
    specs: list[OptionSpec] = game_module(game_id).OPTIONS
    return specs


def load_game(game_id: str, **options: Any) -> Game:
    """Build a game with `options`; an unknown game or a bad option raises a `ValueError` naming it."""
    module = game_module(game_id)
    resolved = resolve_options(game_id, module.OPTIONS, options)
    game: Game = module.make_game(resolved)
    return game


def conformance_configs(game_id: str) -> list[dict[str, Any]]:
    """The option sets the conformance battery covers for a game."""
    configs: list[dict[str, Any]] = game_module(game_id).CONFORMANCE_CONFIGS
    return configs


def variant_keys(game_id: str) -> tuple[str, ...]:
    """The options that make a variant of a game (by default `variant` and `players`; a game may declare
    others, e.g. a game length, as `VARIANT_OPTIONS`)."""
    keys: tuple[str, ...] = getattr(game_module(game_id), "VARIANT_OPTIONS", ("variant", "players"))
    return keys


def is_variant_config(game_id: str, options: dict[str, Any]) -> bool:
    """True when `options` choose a variant and leave every other option at its default."""
    keys = variant_keys(game_id)
    defaults = {spec.name: spec.default for spec in option_specs(game_id)}
    return all(value == defaults.get(name) for name, value in options.items() if name not in keys)


__all__ = [
    "OptionError",
    "conformance_configs",
    "game_module",
    "games",
    "is_variant_config",
    "load_game",
    "option_specs",
    "variant_keys",
]
