"""What the three adapters share: resolving a game, the illegal-action policy, masks, chance, game sources."""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from warcards.engine.api import CHANCE, Game, State, describe_value
from warcards.engine.errors import InvalidActionError, OptionError, WarcardsError
from warcards.engine.options import OptionSpec, resolve_options
from warcards.engine.registry import conformance_configs, load_game, option_specs
from warcards.match import step_chance

ILLEGAL_POLICIES = ("penalize", "terminate", "raise")


def resolve_game(game: Game | str, options: Mapping[str, Any]) -> Game:
    """A `Game` from a game id and options (validated by `load_game`), or a game already built."""
    if isinstance(game, Game):
        if options:
            raise OptionError(
                f"options {sorted(options)} given with a built game {game!r}; pass the game id instead"
            )
        return game
    return load_game(game, **options)


def check_illegal_policy(policy: str) -> str:
    """`policy` if it is one of `ILLEGAL_POLICIES`, else an `OptionError` listing them."""
    if policy not in ILLEGAL_POLICIES:
        raise OptionError(
            f"illegal_action={policy!r} is not allowed; allowed values: {', '.join(ILLEGAL_POLICIES)}"
        )
    return policy


def as_action(action: Any) -> int:
    """A plain int for an int, a numpy integer or a 0-d integer array (through `operator.index`).

    Anything else — a bool, a float (`np.float32(55.0)` too), a string, None, an array of another shape —
    raises `InvalidActionError` whatever the illegal-action policy, since it is no action at all; the state
    is untouched. The range and legality of the number are the engine's to check (and the policy's)."""
    if type(action) is int:
        return action
    try:
        if isinstance(action, (bool, np.bool_)):
            raise TypeError("a bool is no action")
        return int(operator.index(action))
    except Exception:
        shown = f"an array of shape {action.shape}" if isinstance(action, np.ndarray) else describe_value(action)
        raise InvalidActionError(f"an action is an integer (an int or a numpy integer), not {shown}") from None


def try_apply(state: State, action: Any) -> str | None:
    """Apply `action`; on refusal return the engine's message (the state is then unchanged)."""
    try:
        state.apply_action(action)
    except WarcardsError as error:
        return str(error)
    return None


def legal_mask(state: State, size: int) -> np.ndarray:
    """An int8 mask over the action space: 1 for each legal action of the player to act."""
    mask = np.zeros(size, dtype=np.int8)
    mask[state.legal_actions()] = 1
    return mask


def settle_chance(state: State, rng: random.Random) -> None:
    """Sample chance nodes with `rng` until a player must act or the game ends."""
    while state.current_player() == CHANCE:
        step_chance(state, rng)


def camel_name(game_id: str) -> str:
    """`race-to-messina` -> `RaceToMessina` (the Gymnasium id's name part)."""
    return "".join(part.capitalize() for part in game_id.split("-"))


def snake_name(game_id: str) -> str:
    """`race-to-messina` -> `race_to_messina` (PettingZoo and OpenSpiel names)."""
    return game_id.replace("-", "_")


@dataclass(frozen=True)
class GameSource:
    """How to build one game with options: what OpenSpiel registration and the test suite need."""

    game_id: str
    options: Sequence[OptionSpec]
    configs: Sequence[Mapping[str, Any]]
    build: Callable[[Mapping[str, Any]], Game] = field(repr=False)

    @classmethod
    def registered(cls, game_id: str) -> GameSource:
        """The source of a game of the registry."""

        def build(options: Mapping[str, Any]) -> Game:
            return load_game(game_id, **options)

        return cls(game_id, option_specs(game_id), conformance_configs(game_id), build)

    @classmethod
    def from_module(
        cls,
        game_id: str,
        options: Sequence[OptionSpec],
        configs: Sequence[Mapping[str, Any]],
        make_game: Callable[[dict[str, Any]], Game],
    ) -> GameSource:
        """A source for a game package outside the registry (its OPTIONS, CONFORMANCE_CONFIGS, make_game)."""

        def build(given: Mapping[str, Any]) -> Game:
            return make_game(resolve_options(game_id, options, given))

        return cls(game_id, options, configs, build)

    def load(self, **options: Any) -> Game:
        return self.build(options)


__all__ = [
    "ILLEGAL_POLICIES",
    "GameSource",
    "as_action",
    "camel_name",
    "check_illegal_policy",
    "legal_mask",
    "resolve_game",
    "settle_chance",
    "snake_name",
    "try_apply",
]
