"""Med Sirocco options (rule sections 1.2, 4.0, 5.0, 6.1–6.4) and tunable numbers."""

from __future__ import annotations

from warcards.engine.options import OptionSpec

OPTIONS: list[OptionSpec] = [
    OptionSpec("players", 4, "number of players (1.0: 2 to 6; 2 players use the rules of 4.0)", allowed=(2, 3, 4, 5, 6)),
    OptionSpec("cards", None, "path of a deck file in the format of docs/cards/med-sirocco-deck-format.md: a "
               "regular UTF-8 file of at most 1 MiB (None: the shipped stand-in deck; '' is refused)"),
    OptionSpec("operations", 22, "Operations played (1.0: 22; 6.2 Length of the game: 15 or 10)", allowed=(22, 15, 10)),
    OptionSpec("advanced", False, "5.0 Advanced rules: all 44 Operations, the first player draws two and keeps one, "
               "the trick's winner shares the spoils", allowed=(False, True)),
    OptionSpec("change_sides", False, "6.1 Changing sides during Battles (a player may play for the other side "
               "in a Battle's 2nd round)", allowed=(False, True)),
    OptionSpec("faster", False, "6.3 Faster game: every Battle card is played as a Convoy", allowed=(False, True)),
    OptionSpec("historicity", False, "6.4 Historicity: a Battle's engagement type is the one printed on its card",
               allowed=(False, True)),
    OptionSpec("series", False, "1.2 series play: deal new games until a player has 75 VP or more at the end of "
               "a game", allowed=(False, True)),
]

HAND_SIZE = 6  # 1.3
MAX_HAND = 9  # 1.5
SERIES_TARGET = 75  # 1.2
POOL_OPERATIONS = 22  # 1.3: the Operations pile (5.0: all 44, two drawn per Operation)
