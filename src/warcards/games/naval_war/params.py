"""Naval War options (the printed game's variations) and the tunable numbers of the rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warcards.engine.errors import OptionError
from warcards.engine.options import OptionSpec
from warcards.engine.params import ParamSpec, param_values

FLEET_SHAPES: dict[str, tuple[int, int]] = {
    "none": (0, 0),
    "2x2": (2, 2),
    "2x3": (2, 3),
    "3x2": (3, 2),
    "2x4": (2, 4),
    "4x2": (4, 2),
    "3x3": (3, 3),
}
"""Fleet play (Variations: Fleet play): "<fleets>x<members>" for 4, 6, 8 or 9 players."""

OPTIONS: list[OptionSpec] = [
    OptionSpec("players", 4, "number of players (the printed game is for 3–9; 2 is a documented option)",
               allowed=tuple(range(2, 10))),
    OptionSpec("target", 100, "points that end the game at the end of a round (Goal; Variations: raise the target)",
               allowed=(20, 50, 100, 150, 200)),
    OptionSpec("additional_ship", True, "keep the 8 Additional Ship cards (Variations: remove them for shorter rounds)",
               allowed=(True, False)),
    OptionSpec("extra_cards", 0, "ships and play cards dealt beyond 5 (4 with 9 players) (Variations: deal more)",
               allowed=(0, 1, 2)),
    OptionSpec("gunnery", False, "gunnery game: no red cards, Destroyer Squadrons, Minesweepers or carriers",
               allowed=(True, False)),
    OptionSpec("mines_two", False, "every minefield counts 2 hits (Variations)", allowed=(True, False)),
    OptionSpec("kamikaze", False, "Japanese carriers may strike as Kamikaze: 1–2 sinks, then rest (Variations)",
               allowed=(True, False)),
    OptionSpec("draw_past_specials", False, "after a red card drawn in a turn, draw again (Variations)",
               allowed=(True, False)),
    OptionSpec("night", False, "night actions: ships face down until they fire or are attacked (Variations)",
               allowed=(True, False)),
    OptionSpec("fleets", "none", "fleet (team) play: '<fleets>x<members>' (Fleet play)",
               allowed=tuple(FLEET_SHAPES)),
    OptionSpec("cards", None, "path of your own card data file in the format of cards.toml: a regular UTF-8 file "
               "of at most 1 MiB, 10-900 ships, 10-1000 play cards (warcards guide naval-war, Card files; None: "
               "the printed decks; '' is refused)"),
]

MAX_ROUNDS = 20
"""Rounds after which the game ends even if no one reached the target (RULES.md: a bound on the game)."""
MAX_TURNS_PER_ROUND = 400
"""Turns after which a round ends as if the draw pile were empty (RULES.md: a bound on air-strike rounds)."""
DD_HITS = 4
"""Hits from salvos that destroy a Destroyer Squadron (Normal cards: Destroyer Squadron)."""
SOLE_SURVIVOR_BONUS = 10
ELIMINATION_PENALTY = 10


@dataclass(frozen=True)
class Params:
    """Resolved options as plain fields."""

    players: int
    target: int
    additional_ship: bool
    extra_cards: int
    gunnery: bool
    mines_two: bool
    kamikaze: bool
    draw_past_specials: bool
    night: bool
    fleets: str
    num_fleets: int
    deal: int
    sole_survivor_bonus: int = SOLE_SURVIVOR_BONUS
    elimination_penalty: int = ELIMINATION_PENALTY
    dd_hits: int = DD_HITS

    @property
    def hand_size(self) -> int:
        return self.deal


def make_params(options: dict[str, Any], ships: int = 54, carriers: int = 4) -> Params:
    """Check option combinations the per-option lists cannot express (fleet shape vs players, deck size)."""
    players = int(options["players"])
    fleets = str(options["fleets"])
    count, members = FLEET_SHAPES[fleets]
    if count and count * members != players:
        shapes = [name for name, (c, m) in FLEET_SHAPES.items() if c * m == players]
        raise OptionError(
            f"naval-war: option fleets={fleets!r} needs {count * members} players, not {players}; "
            f"with {players} players fleets may be: {', '.join(['none', *shapes])}"
        )
    deal = (4 if players == 9 else 5) + int(options["extra_cards"])
    in_play = ships - (carriers if options["gunnery"] else 0)
    if players * deal > in_play:
        raise OptionError(
            f"naval-war: option extra_cards={options['extra_cards']} deals {players * deal} ships to "
            f"{players} players; the ship deck holds only {in_play}"
        )
    numbers = param_values(parameters(options), options)
    return Params(
        sole_survivor_bonus=numbers["sole_survivor_bonus"],
        elimination_penalty=numbers["elimination_penalty"],
        dd_hits=numbers["destroyer_squadron_hits"],
        players=players,
        target=int(options["target"]),
        additional_ship=bool(options["additional_ship"]),
        extra_cards=int(options["extra_cards"]),
        gunnery=bool(options["gunnery"]),
        mines_two=bool(options["mines_two"]),
        kamikaze=bool(options["kamikaze"]),
        draw_past_specials=bool(options["draw_past_specials"]),
        night=bool(options["night"]),
        fleets=fleets,
        num_fleets=count,
        deal=deal,
    )


# ----- rule parameters (docs/tuning.md): the numbers above that a designer may vary --------------------------
def parameters(options: Mapping[str, Any]) -> list[ParamSpec]:
    """The numbers of the rule text a designer may vary (the target and the deal are options already)."""
    return [
        ParamSpec("sole_survivor_bonus", SOLE_SURVIVOR_BONUS, 0, 50,
                  "points to the sole survivor of a round (each surviving member of the last fleet)", "Scoring"),
        ParamSpec("elimination_penalty", ELIMINATION_PENALTY, 0, 50,
                  "points lost by a player eliminated in a round", "Scoring"),
        ParamSpec("destroyer_squadron_hits", DD_HITS, 1, 12, "salvo hits that destroy a Destroyer Squadron",
                  "Normal cards: Destroyer Squadron"),
    ]
