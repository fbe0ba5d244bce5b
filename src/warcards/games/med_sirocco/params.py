"""Med Sirocco options (rule sections 1.2, 4.0, 5.0, 6.1–6.4) and tunable numbers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warcards.engine.options import OptionSpec
from warcards.engine.params import ParamSpec, param_values

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


# ----- rule parameters (docs/tuning.md): the numbers above that a designer may vary --------------------------
@dataclass(frozen=True)
class Numbers:
    """The rule text's numbers a game plays with (`game.numbers`): the defaults, or its changed parameters."""

    hand_size: int = HAND_SIZE
    max_hand: int = MAX_HAND
    series_target: int = SERIES_TARGET

    def __reduce__(self) -> tuple[type[Numbers], tuple[int, ...]]:
        """Pickled as the constructor and its fields: a frozen dataclass compiled by mypyc cannot be rebuilt
        the default way (it sets each field on a blank object and fails as frozen)."""
        return (Numbers, (self.hand_size, self.max_hand, self.series_target))


def parameters(options: Mapping[str, Any]) -> list[ParamSpec]:
    """The numbers of the rule text a designer may vary (series play's target only with series play)."""
    specs = [
        ParamSpec("hand_size", HAND_SIZE, 3, 10, "cards dealt to each player, and the hand refilled to", "1.3, 1.5"),
        ParamSpec("max_hand", MAX_HAND, 3, 14, "the largest hand, freighters won included", "1.5"),
    ]
    if options["series"]:
        specs.append(ParamSpec("series_target", SERIES_TARGET, 10, 300,
                               "series play ends once a player has this many VP at the end of a game", "1.2"))
    return specs


def numbers_of(options: Mapping[str, Any]) -> Numbers:
    """The numbers of a game with these resolved options (the rule text's, with the changed parameters)."""
    if not options.get("params"):
        return Numbers()
    return Numbers(**param_values(parameters(options), options))
