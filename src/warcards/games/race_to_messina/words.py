"""Race to Messina in a player's words: seat and table names, verbs that agree, phases, short card texts.

The engine's zone ids (`table:axis:british`) stay in the notation and the observation; everything a person
reads (the board, the game log, move labels, the end screen) names them as the rule text does: "Axis set
against the British". Shared by `render.py` (which reads only an observation) and `playlog.py`.
"""

from __future__ import annotations

from warcards.games.race_to_messina.cards import (
    DISCARD,
    GAIN_PT,
    PROGRESS,
    RECON,
    SUPPLY,
    CardTable,
    mask_names,
)
from warcards.games.race_to_messina.params import RACE_TURN_LIMIT, Variant

SEAT_TITLES = {"allies": "Allies", "axis": "Axis", "british": "British", "americans": "Americans"}
"""Each seat id as a player reads it."""

PLURAL = {"allies": True, "axis": False, "british": True, "americans": True}
"""Whether a seat's name takes a plural verb ("the Allies draw", "the Axis draws")."""

PHASE_WORDS = {
    "logistics": "Logistics",
    "strategy": "Strategy",
    "deployment": "Deployment",
    "action": "Action",
    "recovery": "Recovery",
    "over": "game over",
}
"""Each phase name of the observation as a player reads it (the rule text's six phases; Resolution is a step
between Action and Recovery)."""

_IRREGULAR = {"is": "are", "has": "have"}


def seat_title(name: str) -> str:
    """`axis` -> `Axis`."""
    return SEAT_TITLES.get(name, name.capitalize())


def verb(name: str | None, base: str) -> str:
    """The verb agreeing with seat `name` (None: "you"): `verb("axis", "draw")` is `draws`."""
    if name is None or PLURAL.get(name, False):
        return _IRREGULAR.get(base, base)
    if base in _IRREGULAR:
        return base
    if base.endswith(("s", "sh", "ch", "x")):
        return base + "es"
    return base + "s"


def group_name(variant: Variant, group: int) -> str:
    """A table as players call it: the owner's name, or in Sicily "Axis set against the British"."""
    owner = variant.seats[variant.group_owner[group]]
    if len(variant.seat_groups[variant.group_owner[group]]) < 2:
        return seat_title(owner)
    facing = variant.seats[variant.group_owner[variant.group_opponent[group]]]
    return f"{seat_title(owner)} set against the {seat_title(facing)}"


def zone_name(variant: Variant, zone: str) -> str:
    """A table zone id (`table:axis:british`) by its name (`Axis set against the British`)."""
    return group_name(variant, variant.group_zone.index(zone))


def deck_name(variant: Variant, family: int) -> str:
    """`the Allies deck`, or `the deck` in the Race (one mixed deck)."""
    suffix = variant.family_zone[family]
    return f"the {seat_title(suffix)} deck" if suffix else "the deck"


def ability_text(table: CardTable, card: int) -> str:
    """A card's ability or modifier in a few words ("DT Defense", "Supply", "+2F Defense/Terrain"), or ''."""
    ability = table.ability[card]
    if ability == DISCARD:
        return "DT " + "/".join(mask_names(table.targets[card]))
    if ability in (SUPPLY, RECON, PROGRESS):
        return {SUPPLY: "Supply", RECON: "Recon", PROGRESS: "Progress"}[ability]
    if ability == GAIN_PT:
        return "gain 1 PT"
    if table.mod_bonus[card]:
        return f"+{table.mod_bonus[card]}F to " + "/".join(mask_names(table.mod_mask[card]))
    return ""


def card_facts(table: CardTable, card: int) -> str:
    """`3F Infantry, DT Defense` — force, traits, AA/AB and ability, as a move label adds them."""
    parts = [f"{table.force[card]}F " + "/".join(table.trait_names(card))]
    restriction = table.models[card].restriction
    if restriction:
        parts.append({"american": "AA", "british": "AB"}[restriction])
    ability = ability_text(table, card)
    if ability:
        parts.append(ability)
    immune = mask_names(table.immune[card])
    if immune:
        parts.append("immune to " + "/".join(immune))
    return ", ".join(parts)


def name_list(table: CardTable, cards: list[int] | tuple[int, ...]) -> str:
    """Card names joined for a log line, or `no card`."""
    return ", ".join(table.names[c] for c in cards) if cards else "no card"


def count(n: int, noun: str) -> str:
    """`1 card`, `3 cards`."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def end_reason(variant: Variant, pt: list[int], winner: str) -> str:
    """Why the game ended as it did, citing the rule text or the ruling: `pt` per seat at the end, `winner`
    a seat id or `draw` (R3, R4, R7, R37)."""
    seats = variant.seats
    goals = variant.pt_goal
    reached = [seat for seat in range(len(seats)) if pt[seat] >= goals[seat]]
    title = [seat_title(name) for name in seats]
    if variant.name == "invasion":
        if pt[0] >= goals[0]:
            if winner == seats[0]:
                return f"Allies reach {goals[0]} PT with the Axis at 15 or less: Messina is taken (R3, R4)"
            return f"Allies reach {goals[0]} PT while the Axis holds 16 or more (R4)"
        return f"Axis reaches {goals[1]} PT: evacuation complete (R3)"
    if variant.name == "race":
        if not reached:
            if winner == "draw":
                return f"turn {RACE_TURN_LIMIT} ends with equal PT and no one at 10: a draw (R37)"
            return f"turn {RACE_TURN_LIMIT} ends with no one at 10 PT: more PT wins (R37)"
        if len(reached) == 1:
            return f"{title[reached[0]]} reach {goals[reached[0]]} PT first and take Messina (R3)"
        if winner == "draw":
            return "both reach 10 PT in the same turn with equal PT: a draw (R7)"
        return "both reach 10 PT in the same turn: more PT wins (R7)"
    axis = variant.axis_seat
    if len(reached) == 1:
        if reached[0] == axis:
            return f"Axis reaches {goals[axis]} PT: evacuation complete (R3)"
        who = title[reached[0]]
        return f"{who} reach {goals[reached[0]]} PT: " + (
            "Monty gets there first (R3)" if seats[reached[0]] == "british" else "Patton gets there first (R3)")
    if axis not in reached:
        return f"both Allies at {goals[0]} PT in the same turn: ties go to the Axis (R4)"
    arrived = " and ".join(title[seat] for seat in reached if seat != axis)
    return f"{arrived} at 10 PT as the Axis reaches {goals[axis]}: ties go to the Axis (R4)"
