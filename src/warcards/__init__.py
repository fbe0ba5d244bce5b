"""warcards: rules engine, bots and tools for four World War 2 card games.

>>> import warcards
>>> game = warcards.load_game("race-to-messina", variant="invasion")
>>> state = game.new_initial_state()
>>> state.current_player() == warcards.CHANCE
True
"""

from warcards import native

native.choose_modules()  # before any compiled module is imported: a stale build runs as Python

from warcards._version import __version__  # noqa: E402  (the compiled core's choice comes first)
from warcards.engine import (  # noqa: E402
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    InvalidActionError,
    OptionError,
    State,
    games,
    load_game,
)
from warcards.match import MatchRecord, play_match, replay  # noqa: E402

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "MatchRecord",
    "OptionError",
    "State",
    "__version__",
    "games",
    "load_game",
    "play_match",
    "replay",
]
