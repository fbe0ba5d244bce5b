"""Race to Messina options and the per-variant numbers of the rule text.

Options: `variant` ("invasion" default, "race", "sicily"), `players` (None, or the variant's own seat
count: 2, 2, 3) and `cards` (None, or the path of a card file in the format of `cards.toml`). Each
variant's table below is the rule text's numbers (hand size, discard limit, activation order, Progress
Token goals), read in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from warcards.engine.options import OptionSpec
from warcards.engine.params import ParamSpec, param_values

VARIANTS = ("invasion", "race", "sicily")

OPTIONS: list[OptionSpec] = [
    OptionSpec(
        "variant",
        "invasion",
        "invasion: Allies vs Axis (2 players); race: British vs Americans, one mixed deck (2 players); "
        "sicily: British, Americans and Axis (3 players)",
        allowed=VARIANTS,
    ),
    OptionSpec(
        "players",
        None,
        "seat count; implied by the variant (invasion 2, race 2, sicily 3) — a given value must match it",
        allowed=(None, 2, 3),
    ),
    OptionSpec(
        "cards",
        None,
        "path of a card file in the format of cards.toml: a regular UTF-8 file of at most 1 MiB, 1-100 Axis and "
        "1-100 Ally cards (warcards guide race-to-messina, Card files; None: the printed cards; '' is refused)",
    ),
]

SET_CAP = 7
"""Sicily: an Axis Set holds at most 7 cards (Deployment)."""

RECOVERY_KEEP = 2
"""Recovery: "You must discard down to 2 cards or less"."""

RACE_TURN_LIMIT = 50
"""Race only: a table limit that guarantees the end (RULES.md R37)."""

TURN_ACTION_BOUND = 700
"""An upper bound on actions in one turn (draws, discards, deployments, activations), for max_game_length."""


@dataclass(frozen=True)
class Variant:
    """The rule text's numbers for one variant.

    Groups are the force totals on the table: each is owned by one seat and faces one opposing group.
    Battles are (attacking group, defending group): the attacker's Ally cards against the defender's Axis
    cards; the attacker wins with a strictly greater total (Resolution).
    """

    name: str
    seats: tuple[str, ...]
    hand_size: tuple[int, ...]
    discard_limit: int
    order: tuple[int, ...]
    """Seat order of Logistics, Strategy, Deployment and Recovery (the activation order's seats)."""
    group_owner: tuple[int, ...]
    group_zone: tuple[str, ...]
    group_opponent: tuple[int, ...]
    seat_groups: tuple[tuple[int, ...], ...]
    slots: tuple[int, ...]
    """Activation slots in order (Action phase): each slot is a group whose owner activates its cards."""
    battles: tuple[tuple[int, int], ...]
    defender_scores: bool
    """Invasion and Sicily: the Axis group that holds a hand wins it (its Progress cards pay)."""
    seat_family: tuple[int, ...]
    """Which deck each seat draws from (index into `family_zone`)."""
    family_zone: tuple[str, ...]
    allowed_restrictions: tuple[int, ...]
    """Per seat: a bitmask of the card restrictions (cards.UNRESTRICTED/AMERICAN_ONLY/BRITISH_ONLY) it may use."""
    axis_seat: int
    """The Axis seat (Invasion, Sicily), or -1 (Race)."""
    pt_goal: tuple[int, ...]
    set_cap: int
    turn_limit: int
    recovery_keep: int = RECOVERY_KEEP
    """Recovery: the cards a seat may keep ("discard down to 2 cards or less")."""
    axis_holds_at: int = 16
    """Invasion: the Axis wins the end of the game with this many PT or more ("16 or more PT", R4)."""

    @property
    def num_players(self) -> int:
        return len(self.seats)


_ALL = 0b111
_US = 0b011
_UK = 0b101

INVASION = Variant(
    name="invasion",
    seats=("allies", "axis"),
    hand_size=(10, 10),
    discard_limit=5,
    order=(1, 0),
    group_owner=(0, 1),
    group_zone=("table:allies", "table:axis"),
    group_opponent=(1, 0),
    seat_groups=((0,), (1,)),
    slots=(1, 0),
    battles=((0, 1),),
    defender_scores=True,
    seat_family=(0, 1),
    family_zone=("allies", "axis"),
    allowed_restrictions=(_ALL, _ALL),
    axis_seat=1,
    pt_goal=(10, 20),
    set_cap=0,
    turn_limit=20,
)

RACE = Variant(
    name="race",
    seats=("british", "americans"),
    hand_size=(12, 12),
    discard_limit=4,
    order=(1, 0),
    group_owner=(0, 1),
    group_zone=("table:british", "table:americans"),
    group_opponent=(1, 0),
    seat_groups=((0,), (1,)),
    slots=(1, 0),
    battles=((1, 0), (0, 1)),
    defender_scores=False,
    seat_family=(0, 0),
    family_zone=("",),
    allowed_restrictions=(_UK, _US),
    axis_seat=-1,
    pt_goal=(10, 10),
    set_cap=0,
    turn_limit=RACE_TURN_LIMIT,
)

SICILY = Variant(
    name="sicily",
    seats=("british", "americans", "axis"),
    hand_size=(7, 7, 14),
    discard_limit=3,
    order=(2, 1, 0),
    group_owner=(0, 1, 2, 2),
    group_zone=("table:british", "table:americans", "table:axis:americans", "table:axis:british"),
    group_opponent=(3, 2, 1, 0),
    seat_groups=((0,), (1,), (2, 3)),
    slots=(2, 1, 3, 0),
    battles=((1, 2), (0, 3)),
    defender_scores=True,
    seat_family=(0, 0, 1),
    family_zone=("allies", "axis"),
    allowed_restrictions=(_UK, _US, _ALL),
    axis_seat=2,
    pt_goal=(10, 10, 16),
    set_cap=SET_CAP,
    turn_limit=16,
)

VARIANT_TABLE: dict[str, Variant] = {"invasion": INVASION, "race": RACE, "sicily": SICILY}


# ----- rule parameters (docs/tuning.md): the numbers above that a designer may vary --------------------------
def parameters(options: Mapping[str, Any]) -> list[ParamSpec]:
    """The variant's rule-text numbers as parameters (`warcards.engine.params`), named by seat where each
    seat has its own: fill-to hand sizes, PT goals, the Strategy discard limit, the Recovery keep, and the
    variant's own (Invasion's Axis hold line, Sicily's Set cap, Race's table limit)."""
    v = VARIANT_TABLE[str(options["variant"])]
    specs = [
        ParamSpec(f"{seat}_hand_size", v.hand_size[i], 1, 20, f"the {seat} fill their hand to this many cards",
                  "Logistics (R21)")
        for i, seat in enumerate(v.seats)
    ]
    specs += [
        ParamSpec(f"{seat}_pt_goal", v.pt_goal[i], 1, 40, f"the {seat} win on reaching this many PT",
                  "Victory (R3)")
        for i, seat in enumerate(v.seats)
    ]
    specs += [
        ParamSpec("discard_limit", v.discard_limit, 0, 10, "each player may discard up to this many cards",
                  "Strategy (R26)"),
        ParamSpec("recovery_keep", v.recovery_keep, 0, 10, "each player discards down to this many cards",
                  "Recovery (R28)"),
    ]
    if v.name == "invasion":
        specs.append(ParamSpec("axis_holds_at", v.axis_holds_at, 1, 40,
                               "the Axis wins with this many PT or more at the end of the game", "Victory (R4)"))
    if v.set_cap:
        specs.append(ParamSpec("axis_set_cap", v.set_cap, 1, 14, "an Axis Set holds at most this many cards",
                               "Deployment (R22)"))
    if v.axis_seat == -1:
        specs.append(ParamSpec("turn_limit", v.turn_limit, 1, 200,
                               "the game ends after this many turns, the player with more PT winning", "R37"))
    return specs


def variant_with(name: str, changed: Mapping[str, int] | None) -> Variant:
    """The variant with its changed parameters (`changed`: name -> value, as a game's `params` option or an
    observation's `params` field carry them); the rule text's own table when nothing is changed."""
    if not changed:
        return VARIANT_TABLE[name]
    return _variant_with(name, tuple(sorted(changed.items())))


@cache
def _variant_with(name: str, changed: tuple[tuple[str, int], ...]) -> Variant:
    v = VARIANT_TABLE[name]
    values = param_values(parameters({"variant": name}), {"params": dict(changed)})
    axis_goal = values.get("axis_pt_goal")
    return replace(
        v,
        hand_size=tuple(values[f"{seat}_hand_size"] for seat in v.seats),
        pt_goal=tuple(values[f"{seat}_pt_goal"] for seat in v.seats),
        discard_limit=values["discard_limit"],
        recovery_keep=values["recovery_keep"],
        axis_holds_at=values.get("axis_holds_at", v.axis_holds_at),
        set_cap=values.get("axis_set_cap", v.set_cap),
        # The Axis gains 1 PT a turn, so its goal bounds the turns; Race has its table limit (R37).
        turn_limit=values["turn_limit"] if v.axis_seat == -1 else int(axis_goal or v.turn_limit),
    )
