"""Scenario setups for Race to Messina: zones (zone name -> card ids) plus position fields.

Fields and zone names are documented in docs/notation/race-to-messina.md. A setup that loses or
duplicates a card, names an unknown card, zone or field, or puts a card where it cannot be, is refused.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from warcards.engine.errors import InvalidActionError, SetupError
from warcards.engine.setupfields import int_field, int_list_field, mapping_field, setup_parts, str_list_field
from warcards.engine.text import quote
from warcards.games.race_to_messina import rules
from warcards.games.race_to_messina.notation import parse_card
from warcards.games.race_to_messina.views import PHASES, deck_zone, discard_zone, pending_zone

if TYPE_CHECKING:
    from warcards.games.race_to_messina.state import RaceToMessinaState

POSITION_FIELDS = ("phase", "turn", "pt", "seat", "slot", "passed", "activated", "discarded",
                   "known")


def _card(text: Any, where: str) -> int:
    if not isinstance(text, str):
        raise SetupError(f"setup: {where}: {quote(text)} is not a card id")
    try:
        return parse_card(text)
    except InvalidActionError as error:
        raise SetupError(f"setup: {where}: {error}") from None


def _seat(s: RaceToMessinaState, text: Any, field: str) -> int:
    names = list(s.v.seats)
    if isinstance(text, str) and text.lower() in names:
        return names.index(text.lower())
    raise SetupError(f"setup: position field {field!r}: {quote(text)} is not a seat; seats are {', '.join(names)}")


def apply_setup(s: RaceToMessinaState, spec: Mapping[str, Any]) -> None:
    """Fill an empty state from a scenario setup (zones, then position fields)."""
    zone_spec, position = setup_parts(spec)
    v = s.v
    t = s.t
    targets: dict[str, tuple[str, int]] = {}
    for family in range(len(v.family_zone)):
        targets[deck_zone(s, family)] = ("deck", family)
        targets[discard_zone(s, family)] = ("discard", family)
    for seat, name in enumerate(v.seats):
        targets[f"hand:{name}"] = ("hand", seat)
    for group, zone in enumerate(v.group_zone):
        targets[zone] = ("table", group)
        targets[pending_zone(s, group)] = ("pending", group)
    placed: dict[int, str] = {}
    rest_zone: str | None = None
    for zone, cards in zone_spec.items():
        if zone not in targets:
            raise SetupError(f"setup: unknown zone {quote(zone)}; zones are: {', '.join(targets)}")
        if cards == "rest":
            if rest_zone is not None:
                raise SetupError(f"setup: only one zone may be 'rest' ({rest_zone!r} and {zone!r})")
            rest_zone = zone
            continue
        if not isinstance(cards, list):
            raise SetupError(f"setup: zone {zone!r} must be a list of card ids or \"rest\"")
        for text in cards:
            card = _card(text, f"zone {zone!r}")
            if card in placed:
                raise SetupError(f"setup: card {t.ids[card]} is placed twice ({placed[card]!r} and {zone!r})")
            placed[card] = zone
    for card in range(t.size):
        if card in placed:
            continue
        if rest_zone is not None:
            kind, index = targets[rest_zone]
            if kind not in ("deck", "discard") or s.family[card] == index:
                placed[card] = rest_zone
                continue
        default = deck_zone(s, s.family[card])
        if default in zone_spec:
            raise SetupError(f"setup: {t.ids[card]} is placed nowhere and zone {default!r} is listed exactly; "
                             "list the card, or mark one zone \"rest\"")
        placed[card] = default
    for card, zone in sorted(placed.items()):
        kind, index = targets[zone]
        _place(s, card, zone, kind, index)
    _apply_position(s, position)


def _place(s: RaceToMessinaState, card: int, zone: str, kind: str, index: int) -> None:
    v = s.v
    t = s.t
    label = f"{t.ids[card]} {t.names[card]}"
    if kind in ("deck", "discard"):
        if s.family[card] != index:
            raise SetupError(f"setup: {label} cannot be in {zone!r}: it belongs to the other deck")
        (s.decks if kind == "deck" else s.discards)[index].append(card)
        return
    seat = index if kind == "hand" else v.group_owner[index]
    if v.seat_family[seat] != s.family[card]:
        raise SetupError(f"setup: {label} cannot be in {zone!r}: {v.seats[seat]} draws from the other deck")
    if kind == "hand":
        insort(s.hands[seat], card)
        return
    if not rules.may_use(s, seat, card):
        raise SetupError(f"setup: {label} cannot be in {zone!r}: {v.seats[seat]} may not use it (AA/AB)")
    if kind == "table":
        insort(s.tables[index], card)
    else:
        s.pending[index].append(card)


def _apply_position(s: RaceToMessinaState, position: Mapping[str, Any]) -> None:
    v = s.v
    unknown = [key for key in position if key not in POSITION_FIELDS]
    if unknown:
        raise SetupError(f"setup: unknown position field {quote(unknown[0])}; fields are: {', '.join(POSITION_FIELDS)}")
    phase_name = position.get("phase", "logistics")
    if phase_name not in PHASES[:-1]:
        raise SetupError(f"setup: phase {quote(phase_name)}; phases are: {', '.join(PHASES[:-1])}")
    phase = PHASES.index(phase_name)
    s.turn = int_field(position, "turn", 1, 1, v.turn_limit)
    s.pt = int_list_field(position, "pt", v.num_players, 0) or [0] * v.num_players
    for seat_name, cards in mapping_field(position, "known", list).items():
        viewer = _seat(s, seat_name, "known")
        for text in cards:
            s.known[viewer] |= 1 << _card(text, "position field 'known'")
    for text in str_list_field(position, "activated"):
        card = _card(text, "position field 'activated'")
        if not any(card in table for table in s.tables):
            raise SetupError(f"setup: activated card {text} is not on a table")
        s.activated |= 1 << card
    seat_order = v.order
    seat = _seat(s, position["seat"], "seat") if "seat" in position else seat_order[0]
    if phase != rules.ACTION:
        if any(s.tables) and phase != rules.DEPLOYMENT:
            raise SetupError(f"setup: tables must be empty in the {phase_name} phase (Resolution discards them)")
        s.step = seat_order.index(seat)
    s.phase = phase
    discarded = int_field(position, "discarded", 0, 0, v.discard_limit)
    if phase == rules.STRATEGY:
        s.discarded = discarded
    if phase == rules.ACTION:
        slot_zone = position.get("slot")
        if slot_zone is None:
            s.slot = next(i for i, g in enumerate(v.slots) if v.group_owner[g] == seat) if "seat" in position else 0
        elif slot_zone in v.group_zone and v.group_zone.index(slot_zone) in v.slots:
            s.slot = v.slots.index(v.group_zone.index(slot_zone))
        else:
            raise SetupError(f"setup: slot {quote(slot_zone)}; slots are {', '.join(v.group_zone[g] for g in v.slots)}")
        for zone in str_list_field(position, "passed"):
            if zone not in v.group_zone or v.group_zone.index(zone) not in v.slots:
                raise SetupError(f"setup: passed {quote(zone)}; slots are {', '.join(v.group_zone)}")
            s.passed |= 1 << v.slots.index(v.group_zone.index(zone))
        if s.passed >> s.slot & 1:
            raise SetupError("setup: the slot to act has already passed")
    elif "slot" in position or "passed" in position:
        raise SetupError(f"setup: 'slot' and 'passed' describe the action phase, not the {phase_name} phase")
    if any(s.pending) and phase != rules.DEPLOYMENT:
        raise SetupError("setup: hidden deployments (deploying:*) exist only in the deployment phase")
    if phase == rules.LOGISTICS:
        rules.logistics_next(s)
    if any(pt_value for pt_value in s.pt):
        rules.check_victory(s)
