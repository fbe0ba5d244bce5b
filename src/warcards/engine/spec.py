"""`GameSpec`: everything the registry, the bots, the RL adapters and the CLI need to know about one game.

A game package exports one `SPEC = GameSpec(...)` from its `__init__` (and registers it under the
`warcards.games` entry-point group, see `warcards.engine.registry`). The parts that import heavy modules or
that only some consumers use — the heuristic bot, the evaluation, the renderer, the RL encoder — are named
as `"package.module:attribute"` references (`Ref`), imported on first use and cached, so that
`load_game()` imports the rules and nothing else (no numpy).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Generic, TypeVar

from warcards.engine.agents import Agent
from warcards.engine.api import Game, State
from warcards.engine.options import OptionSpec, resolve_options
from warcards.engine.params import ParamSpec

T = TypeVar("T")

AgentFactory = Callable[[Game, int, int], Agent]
"""`heuristic(game, seat, seed) -> Agent`: a bot for `seat` with its own RNG seeded by `seed`."""
Evaluator = Callable[[State], list[float]]
"""`evaluate(state) -> list[float]`: an estimate of `state.returns()` at the end of the game, per seat."""
Renderer = Callable[[dict[str, Any], int], str]
"""`render(observation, seat) -> str`: a seat's view (`state.observe(seat)`) as a plain-text table."""
ShapeFunction = Callable[[Game], tuple[int, ...]]
"""`observation_shape(game) -> tuple[int, ...]`: the shape of the game's observation vectors."""
EncodeFunction = Callable[[Mapping[str, Any], Game], Any]
"""`encode_observation(observation, game) -> numpy.ndarray`: one seat's view as a float32 vector."""
UtilityBounds = Callable[[Game], tuple[float, float]]
"""`utility_bounds(game) -> (low, high)`: the range of every seat's return."""
CardFacts = Callable[[Game], dict[str, dict[str, Any]]]
"""`card_facts(game) -> {card id: facts}`: what a player reads on each card of the game's deck (see
`GameSpec.card_facts` and docs/contributing/log.md)."""

SearchSettings = Mapping[str, object]
"""`SearchConfig` fields (see `warcards.bots.ismcts`) with the values a game sets for a search level."""

DEFAULT_VARIANT_OPTIONS = ("variant", "players")
"""The options that make a variant when a game declares no others."""

OPENSPIEL_UTILITIES = ("zero_sum", "constant_sum", "general_sum", "identical")
"""The utility kinds OpenSpiel knows (`pyspiel.GameType.Utility`)."""

PAIRED_SEARCH: SearchSettings = {
    "paired": True,
    "action_budget": None,
    "rollout": "heuristic",
    "override": 2.0,
}
"""What the `hard` level of a game with an `evaluate` shares: paired sampling at the root, heuristic
rollouts to a horizon scored by `evaluate`, the heuristic's move kept unless another beats it by two
standard errors of the paired differences; each game adds its own budget (`iterations`) and `horizon`."""


def _split(path: str) -> tuple[str, str]:
    """A reference's module and attribute, or a `ValueError` showing the expected form."""
    module_name, sep, attribute = path.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"reference {path!r} must be 'package.module:attribute'")
    return module_name, attribute


@cache
def load_reference(path: str) -> Any:
    """The object a `"package.module:attribute"` reference names (imported once, then cached); a
    malformed path or a missing attribute raises a `ValueError` naming the reference."""
    module_name, attribute = _split(path)
    module = importlib.import_module(module_name)
    target: Any = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ValueError(f"reference {path!r}: {module_name} has no attribute {attribute!r}") from None
    return target


@dataclass(frozen=True)
class Ref(Generic[T]):
    """A lazily imported object, named `"package.module:attribute"`; `load()` imports it on first use."""

    path: str
    """Where the object lives: the module's dotted name, a colon, the attribute's name."""

    def __post_init__(self) -> None:
        _split(self.path)

    def load(self) -> T:
        """The object (imported on the first call, cached after)."""
        loaded: T = load_reference(self.path)
        return loaded


@dataclass(frozen=True)
class EncoderSpec:
    """A game's own observation encoder for the RL adapters (`warcards.rl.encoding`); every part is a
    reference, so that numpy is imported only when an encoder is built."""

    encode: Ref[EncodeFunction]
    """`encode_observation(observation, game) -> numpy.ndarray`, float32, of the declared shape."""
    shape: Ref[ShapeFunction]
    """`observation_shape(game) -> tuple[int, ...]`."""
    version: Ref[int]
    """The encoding's version (≥ 1), raised whenever the layout or meaning of the vector changes; an env's
    version is the wrapper's plus this one."""
    bounds: Ref[tuple[float, float]] | None = None
    """`(low, high)`: every entry of a vector lies in this range; None is `(0.0, 1.0)`."""

    @classmethod
    def from_module(cls, module: str) -> EncoderSpec:
        """The encoder of a module that defines the usual names: `encode_observation`,
        `observation_shape`, `OBSERVATION_VERSION` and `OBSERVATION_BOUNDS`."""
        return cls(
            encode=Ref(f"{module}:encode_observation"),
            shape=Ref(f"{module}:observation_shape"),
            version=Ref(f"{module}:OBSERVATION_VERSION"),
            bounds=Ref(f"{module}:OBSERVATION_BOUNDS"),
        )


@dataclass(frozen=True, eq=False)
class GameSpec:
    """One game, as the registry, the bots, the RL adapters and the CLI see it.

    Compared by identity (a spec holds option lists and callables, not values to compare).
    """

    id: str
    """The game id of the registry and of `Game.game_id`, e.g. `race-to-messina`."""
    title: str
    """The game's name for people, e.g. `Race to Messina`."""
    options: Sequence[OptionSpec]
    """Every option with its default and allowed values (`load_game` validates against them)."""
    factory: Callable[[Mapping[str, Any]], Game]
    """`factory(options) -> Game`: build the game from options already resolved against `options`
    (defaults filled in); cross-option checks raise `OptionError`."""
    conformance_configs: Sequence[Mapping[str, Any]]
    """The option sets the conformance battery plays: every variant and player count, and the option
    combinations the rules allow."""
    variant_options: tuple[str, ...] = DEFAULT_VARIANT_OPTIONS
    """The options that make a variant (an option set that changes only these is played in full by the
    battery); e.g. a game length."""
    heuristic: Ref[AgentFactory] | None = None
    """The game's heuristic bot, `heuristic(game, seat, seed) -> Agent` (the `heuristic` bot, and the
    search's rollouts and prior); None: the game has none."""
    evaluate: Ref[Evaluator] | None = None
    """`evaluate(state) -> list[float]`, the search's estimate of the final returns (on their scale), used
    where rollouts stop at a horizon; None: rollouts play to the end."""
    render: Ref[Renderer] | None = None
    """`render(observation, seat) -> str`, the terminal table; None: consumers show the view as JSON."""
    status: Ref[Renderer] | None = None
    """`status(observation, seat) -> str`, one line of at most 60 characters for the prompt: whose turn, the
    phase and the scores in player's words; None: the terminal shows the seat's name only."""
    facts: Ref[CardFacts] | None = None
    """`card_facts(game) -> {card id: facts}` (in the game's `log.py`, the room for what a player reads):
    every card of the deck with what a player needs to decide about it; None: the game publishes none."""
    encoder: EncoderSpec | None = None
    """The RL observation encoder; None: the RL adapters use the generic feature-hashing encoder."""
    utility: str = "general_sum"
    """The OpenSpiel utility kind: one of `OPENSPIEL_UTILITIES`."""
    utility_bounds: Ref[UtilityBounds] | None = None
    """`utility_bounds(game) -> (low, high)`, every seat's return range (OpenSpiel's min and max utility);
    None: unbounded."""
    utility_sum: float | None = None
    """The sum of the returns when `utility` is `constant_sum` (zero-sum games sum to 0)."""
    search_levels: Mapping[str, SearchSettings] = field(default_factory=dict)
    """Per named search level (`hard`, `ismcts`), the `SearchConfig` fields this game
    sets over the level's defaults (`warcards.bots.ismcts.LEVELS`): budgets, horizons, paired sampling."""
    player_count_levels: Mapping[tuple[str, int], SearchSettings] = field(default_factory=dict)
    """Per (level, player count), fields set over `search_levels` where one player count needs its own
    budget."""
    parameters: Callable[[Mapping[str, Any]], Sequence[ParamSpec]] | None = None
    """`parameters(options) -> [ParamSpec]`: the rule text's numbers a designer may vary for a game with these
    resolved options (`warcards.engine.params`; `load_game(game_id, params={...})`); None: the game has none."""

    def __post_init__(self) -> None:
        if not self.id or self.id != self.id.strip():
            raise ValueError(f"GameSpec id {self.id!r} must be a non-empty name without outer spaces")
        if self.utility not in OPENSPIEL_UTILITIES:
            raise ValueError(
                f"{self.id}: utility={self.utility!r} is not allowed; allowed: {', '.join(OPENSPIEL_UTILITIES)}"
            )
        if (self.utility == "constant_sum") != (self.utility_sum is not None):
            raise ValueError(f"{self.id}: utility_sum is given exactly when utility is 'constant_sum'")
        names = {option.name for option in self.options}
        for key in self.player_count_levels:
            if not (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], str) and isinstance(key[1], int)):
                raise ValueError(f"{self.id}: player_count_levels keys are (level, players), not {key!r}")
        for config in self.conformance_configs:
            unknown = sorted(set(config) - names)
            if unknown:
                raise ValueError(f"{self.id}: conformance config {dict(config)} names unknown options {unknown}")

    def card_facts(self, game: Game | None = None) -> dict[str, dict[str, Any]]:
        """Every card id of `game`'s deck (None: the game with its default options) with its facts, ready
        for JSON: at least `name` and `text` (one line a person reads: values, traits, abilities), then the
        game's own fields (docs/contributing/log.md, "Card facts"). Card data is public knowledge, like a
        deck list; a client shows a card's facts only where the card itself is shown. Empty when the game
        publishes none."""
        if self.facts is None:
            return {}
        return self.facts.load()(game if game is not None else self.factory(resolve_options(self.id, self.options, {})))

    def search_settings(self, level: str, players: int) -> dict[str, object]:
        """The `SearchConfig` fields this game sets for `level` at `players` seats (the per-count settings
        over the per-level ones)."""
        return {**self.search_levels.get(level, {}), **self.player_count_levels.get((level, players), {})}


__all__ = [
    "DEFAULT_VARIANT_OPTIONS",
    "OPENSPIEL_UTILITIES",
    "PAIRED_SEARCH",
    "AgentFactory",
    "CardFacts",
    "EncodeFunction",
    "EncoderSpec",
    "Evaluator",
    "GameSpec",
    "Ref",
    "Renderer",
    "SearchSettings",
    "ShapeFunction",
    "UtilityBounds",
    "load_reference",
]
