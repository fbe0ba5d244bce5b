"""The game registry: `games()`, `game_spec()`, `load_game()` and the option sets of each game.

A game is a package that exports `SPEC = GameSpec(...)` (see `warcards.engine.spec`: id, title, options,
factory, conformance configs, heuristic, evaluate, render, RL encoder, search levels) and registers it under
the entry-point group `warcards.games`, name = the game id, in its `pyproject.toml`:

    [project.entry-points."warcards.games"]
    my-game = "my_package.my_game:SPEC"

so that a game in another installed package joins the registry. The order of `games()` is stable: the
four built-in games first, in `BUILTIN_GAMES` order, then the others sorted by id.

The built-in games are also listed here (`BUILTIN_GAMES`), and the registry falls back to that list when
their entry points are missing: entry points are read from the installed package's metadata, so they are
absent when the code runs from a source tree without an install (`PYTHONPATH=src`), and stale in an
editable install made before the entry points were declared (a re-install refreshes them). A built-in id
is reserved: another package's entry point under it is ignored.

A package without an `__init__.py` (a namespace folder, e.g. a game being started) is not listed.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

from warcards.engine.api import Game
from warcards.engine.errors import OptionError
from warcards.engine.options import OptionSpec, resolve_options
from warcards.engine.params import PARAMS_OPTION, ParamSpec, resolve_params
from warcards.engine.spec import GameSpec, load_reference
from warcards.engine.text import quote

ENTRY_POINT_GROUP = "warcards.games"
"""The entry-point group games register under (name: the game id; value: `"package.module:SPEC"`)."""

BUILTIN_GAMES: dict[str, str] = {
    "race-to-messina": "warcards.games.race_to_messina:SPEC",
    "med-sirocco": "warcards.games.med_sirocco:SPEC",
    "naval-war": "warcards.games.naval_war:SPEC",
    "cards-of-war": "warcards.games.cards_of_war:SPEC",
}
"""The games of this package, in the registry's order (also declared as entry points in pyproject.toml)."""


def _present(reference: str) -> bool:
    """The referenced module exists; a folder without __init__.py (a namespace package) is not a game yet."""
    module_name = reference.partition(":")[0]
    try:
        spec = importlib.util.find_spec(module_name)
    except ModuleNotFoundError:
        return False
    return spec is not None and spec.origin not in (None, "namespace")


@cache
def _references() -> dict[str, str]:
    """Game id -> `"module:SPEC"` reference: the built-ins, then the other entry points sorted by id."""
    others: dict[str, str] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name in BUILTIN_GAMES:
            continue
        known = others.setdefault(point.name, point.value)
        if known != point.value:
            raise OptionError(
                f"game {point.name!r} is registered twice, as {known!r} and as {point.value!r}; "
                "uninstall one of the packages"
            )
    found = {**BUILTIN_GAMES, **dict(sorted(others.items()))}
    return {game_id: reference for game_id, reference in found.items() if _present(reference)}


def games() -> list[str]:
    """The ids of every registered game, in a stable order (the built-ins first, then the others by id)."""
    return list(_references())


def _unknown(game_id: str) -> OptionError:
    return OptionError(f"unknown game {quote(game_id)}; games are: {', '.join(games())}")


def check_game(game_id: str) -> str:
    """`game_id` if it is a registered game, else an `OptionError` naming the games there are. The one check
    of a game id for every entry point: the command line (which turns it into its exit code 2) and the
    server (a 422 answer) word an unknown game alike."""
    if not isinstance(game_id, str) or game_id not in _references():
        raise _unknown(game_id)
    return game_id


def game_spec(game_id: str) -> GameSpec:
    """The `GameSpec` of a registered game (its package imported on first use), or an `OptionError` listing
    the known games (whatever `game_id` is: a name of any length, or not a string at all)."""
    if not isinstance(game_id, str) or game_id not in _references():
        raise _unknown(game_id)
    return _load_spec(game_id)


@cache
def _load_spec(game_id: str) -> GameSpec:
    reference = _references()[game_id]
    spec = load_reference(reference)
    if not isinstance(spec, GameSpec):
        raise TypeError(f"{reference} (game {game_id!r}) is a {type(spec).__name__}, not a GameSpec")
    if spec.id != game_id:
        raise ValueError(f"{reference} is registered as game {game_id!r} but its id is {spec.id!r}")
    return spec


def spec_of(game: Game) -> GameSpec | None:
    """The spec of a built game: the registered one for its id, else the `SPEC` of the module that defines
    its class (a game built directly, outside the registry, as the tests' toy games are), else None."""
    if game.game_id in _references():
        return game_spec(game.game_id)
    module: ModuleType | None = sys.modules.get(type(game).__module__)
    spec = vars(module).get("SPEC") if module is not None else None
    return spec if isinstance(spec, GameSpec) else None


def game_module(game_id: str) -> ModuleType:
    """The package that defines a registered game's `SPEC` (its rule files live there)."""
    game_spec(game_id)
    return sys.modules[_references()[game_id].partition(":")[0]]


def option_specs(game_id: str) -> list[OptionSpec]:
    """The declared options of a game."""
    return list(game_spec(game_id).options)


def param_specs(game_id: str, options: dict[str, Any] | None = None) -> list[ParamSpec]:
    """The rule parameters of a game with these options (None: the default options), or [] when it has none."""
    spec = game_spec(game_id)
    if spec.parameters is None:
        return []
    given = {name: value for name, value in (options or {}).items() if name != PARAMS_OPTION}
    return list(spec.parameters(resolve_options(game_id, spec.options, given)))


def load_game(game_id: str, **options: Any) -> Game:
    """Build a game with `options` (and `params`, the rule parameters it changes: `warcards.engine.params`);
    an unknown game or a bad option or parameter raises a `ValueError` naming it and what is allowed."""
    spec = game_spec(game_id)
    given_params = options.pop(PARAMS_OPTION, None)
    resolved = resolve_options(game_id, spec.options, options)
    if given_params is not None:
        specs = list(spec.parameters(resolved)) if spec.parameters is not None else []
        changed = resolve_params(game_id, specs, given_params)
        if changed:
            resolved[PARAMS_OPTION] = changed
    return spec.factory(resolved)


def conformance_configs(game_id: str) -> list[dict[str, Any]]:
    """The option sets the conformance battery covers for a game."""
    return [dict(config) for config in game_spec(game_id).conformance_configs]


def variant_keys(game_id: str) -> tuple[str, ...]:
    """The options that make a variant of a game (by default `variant` and `players`; a game may declare
    others, e.g. a game length, as its spec's `variant_options`)."""
    return game_spec(game_id).variant_options


def is_variant_config(game_id: str, options: dict[str, Any]) -> bool:
    """True when `options` choose a variant and leave every other option at its default."""
    keys = variant_keys(game_id)
    defaults = {spec.name: spec.default for spec in option_specs(game_id)}
    return all(value == defaults.get(name) for name, value in options.items() if name not in keys)


__all__ = [
    "BUILTIN_GAMES",
    "ENTRY_POINT_GROUP",
    "OptionError",
    "check_game",
    "conformance_configs",
    "game_module",
    "game_spec",
    "games",
    "is_variant_config",
    "load_game",
    "option_specs",
    "param_specs",
    "spec_of",
    "variant_keys",
]
