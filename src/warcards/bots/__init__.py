"""Bots by name: the levels of `LADDER` (weakest first), `heuristic` (each game's own, the ladder's
`medium`), and the search bots when installed.

`make_agent(name, game, seat, seed)` is the one way consumers (runner, CLI, arena, RL) build a bot.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from warcards.bots.ladder import ALIASES, BLUNDER_RATES, LADDER, STUDY_BOTS, BlunderAgent, Rung, ladder_names
from warcards.engine.agents import Agent, RandomAgent
from warcards.engine.api import Game
from warcards.engine.registry import game_spec
from warcards.engine.spec import load_reference

AgentBuilder = Callable[[Game, int, int], Agent]


def _random(game: Game, seat: int, seed: int) -> Agent:
    return RandomAgent(seat, seed)


def _heuristic(game: Game, seat: int, seed: int) -> Agent:
    spec = game_spec(game.game_id)
    if spec.heuristic is None:
        raise ValueError(f"{game.game_id} has no heuristic bot; bots are: {', '.join(agent_names())}")
    return spec.heuristic.load()(game, seat, seed)


def _blunderer(name: str) -> AgentBuilder:
    rate = BLUNDER_RATES[name]

    def make(game: Game, seat: int, seed: int) -> Agent:
        return BlunderAgent(_heuristic(game, seat, seed), name, rate, seed)

    make.__name__ = f"make_{name}"
    return make


BUILT_ABOVE: dict[str, tuple[str, str]] = {
    "openspiel-ismcts": ("warcards.rl.ismcts:make_openspiel_ismcts", "rl"),
}
"""Bots whose builder lives above the bots (OpenSpiel's ISMCTS plays through the RL package's OpenSpiel
adapter): name -> (`"module:function"` reference, the extra it needs). Named by reference, as the engine's
registry names the games, and imported only when such a bot is built, so the bots import nothing above them."""


def _built_above(name: str) -> AgentBuilder:
    reference, extra = BUILT_ABOVE[name]

    def make(game: Game, seat: int, seed: int) -> Agent:
        try:
            builder: AgentBuilder = load_reference(reference)
        except ModuleNotFoundError as error:
            if error.name and error.name.startswith("warcards"):
                raise
            raise ValueError(f'{name} needs the {extra} extra: pip install -e ".[{extra}]" ({error})') from None
        return builder(game, seat, seed)

    make.__name__ = f"make_{name.replace('-', '_')}"
    return make


_BUILDERS: dict[str, AgentBuilder] = {
    "random": _random,
    **{name: _blunderer(name) for name in BLUNDER_RATES},
    "medium": _heuristic,
    "heuristic": _heuristic,
}

# The search bots register themselves from their own module (name -> builder), imported on first use.
_PLUGIN_MODULES = ("warcards.bots.ismcts",)


_plugins_loaded = False


def _load_plugins() -> None:
    """Import the plugin modules on first use (not at import: they import the heavy optional libraries)."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for module_name in _PLUGIN_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name and error.name.startswith("warcards") and error.name != module_name:
                raise
            continue
        _BUILDERS.update(module.AGENT_BUILDERS)
    _BUILDERS.update({name: _built_above(name) for name in BUILT_ABOVE})


def agent_names() -> list[str]:
    """Every bot name `make_agent` accepts: the ladder weakest first, its other names, then the rest."""
    _load_plugins()
    first = [*ladder_names(), *ALIASES]
    return [name for name in first if name in _BUILDERS] + [name for name in _BUILDERS if name not in first]


def make_agent(name: str, game: Game, seat: int, seed: int) -> Agent:
    """Build the bot called `name` for `seat` (a bad seat raises `SeatError`), with its own RNG seeded by
    `seed`."""
    seat = game.check_seat(seat)
    if name not in _BUILDERS:
        _load_plugins()
    try:
        builder = _BUILDERS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(agent_names())}") from None
    return builder(game, seat, seed)


__all__ = ["ALIASES", "LADDER", "STUDY_BOTS", "AgentBuilder", "Rung", "agent_names", "ladder_names", "make_agent"]
