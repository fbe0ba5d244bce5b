"""Bots by name: `random`, `heuristic` (each game's own), and the search bots when installed.

`make_agent(name, game, seat, seed)` is the one way consumers (runner, CLI, arena, RL) build a bot.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from warcards.engine.agents import Agent, RandomAgent
from warcards.engine.api import Game
from warcards.engine.registry import game_module

AgentBuilder = Callable[[Game, int, int], Agent]


def _random(game: Game, seat: int, seed: int) -> Agent:
    return RandomAgent(seat, seed)


def _heuristic(game: Game, seat: int, seed: int) -> Agent:
    agent: Agent = game_module(game.game_id).heuristic_agent(game, seat, seed)
    return agent


_BUILDERS: dict[str, AgentBuilder] = {"random": _random, "heuristic": _heuristic}

# Search bots register themselves from their own module (name -> builder) when it exists.
_PLUGIN_MODULES = ("warcards.bots.ismcts",)


def _load_plugins() -> None:
    for module_name in _PLUGIN_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        _BUILDERS.update(module.AGENT_BUILDERS)


_load_plugins()


def agent_names() -> list[str]:
    """Every bot name `make_agent` accepts."""
    return list(_BUILDERS)


def make_agent(name: str, game: Game, seat: int, seed: int) -> Agent:
    """Build the bot called `name` for `seat`, with its own RNG seeded by `seed`."""
    try:
        builder = _BUILDERS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(_BUILDERS)}") from None
    return builder(game, seat, seed)
