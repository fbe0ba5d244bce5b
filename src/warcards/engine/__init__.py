"""The warcards rules core: the contract, errors, options and the registry. No I/O, no consumers."""

from warcards.engine.agents import Agent, RandomAgent, SeatView
from warcards.engine.api import (
    CHANCE,
    TERMINAL,
    Game,
    GameResult,
    LogLine,
    Rng,
    SeenAction,
    State,
    apply_logged,
    pick_uniform,
    pick_weighted,
    sample_chance,
)
from warcards.engine.cards import read_toml, validate_cards
from warcards.engine.errors import (
    CardDataError,
    IllegalActionError,
    InvalidActionError,
    OptionError,
    SeatError,
    SetupError,
    SnapshotError,
    WarcardsError,
)
from warcards.engine.options import OptionSpec, resolve_options
from warcards.engine.registry import (
    conformance_configs,
    game_module,
    game_spec,
    games,
    load_game,
    option_specs,
)
from warcards.engine.spec import EncoderSpec, GameSpec, Ref

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Agent",
    "CardDataError",
    "EncoderSpec",
    "Game",
    "GameResult",
    "GameSpec",
    "IllegalActionError",
    "InvalidActionError",
    "LogLine",
    "OptionError",
    "OptionSpec",
    "RandomAgent",
    "Ref",
    "Rng",
    "SeatError",
    "SeatView",
    "SeenAction",
    "SetupError",
    "SnapshotError",
    "State",
    "WarcardsError",
    "apply_logged",
    "conformance_configs",
    "game_module",
    "game_spec",
    "games",
    "load_game",
    "option_specs",
    "pick_uniform",
    "pick_weighted",
    "read_toml",
    "resolve_options",
    "sample_chance",
    "validate_cards",
]
