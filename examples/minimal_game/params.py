"""Options of the Minimal Game (`load_game("minimal-game", ...)`) and the rule text's numbers (README.md)."""

from __future__ import annotations

from warcards.engine.options import OptionSpec

PLAYER_COUNTS = (2, 3, 4)
"""Rule 1: "2 to 4 players play"."""
HAND_SIZES = (2, 3)
"""Rule 2: "a hand of three cards (option `hand`: 2 or 3)"."""
DEFAULT_HAND = 3
"""Rule 2: "each player is dealt a hand of three cards"."""

OPTIONS: list[OptionSpec] = [
    OptionSpec("players", 2, "number of players (rule 1)", allowed=list(PLAYER_COUNTS)),
    OptionSpec("hand", DEFAULT_HAND, "cards in a hand (rule 2)", allowed=list(HAND_SIZES)),
    OptionSpec("cards", None, "path of a deck file in the format of cards.toml: a regular UTF-8 file of at most "
               "1 MiB (None: the shipped deck; '' is refused)"),
]
