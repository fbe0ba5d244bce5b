"""Race to Messina options and the per-variant numbers of the rule text.

Options: `variant` ("invasion" default, "race", "sicily") and `players` (None, or the variant's own seat
count: 2, 2, 3). Each variant's table below is the rule text's numbers (hand size, discard limit,
activation order, Progress Token goals), read in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from warcards.engine.options import OptionSpec

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
