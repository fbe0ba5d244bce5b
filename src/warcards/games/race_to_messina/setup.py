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
from warcards.games.race_to_messina.cards import CardTable
from warcards.games.race_to_messina.codes import PHASE_NAMES, Phase
from warcards.games.race_to_messina.notation import parse_card
from warcards.games.race_to_messina.state import RaceToMessinaState
from warcards.games.race_to_messina.views import deck_zone, discard_zone, pending_zone

if TYPE_CHECKING:
    from warcards.games.race_to_messina.game import RaceToMessinaGame

POSITION_FIELDS = ("phase", "turn", "pt", "seat", "slot", "passed", "activated", "discarded",
                   "known")


def _card(table: CardTable, text: Any, where: str) -> int:
    if not isinstance(text, str):
        raise SetupError(f"setup: {where}: {quote(text)} is not a card id")
    try:
        return parse_card(table, text)
    except InvalidActionError as error:
        raise SetupError(f"setup: {where}: {error}") from None


def _seat(state: RaceToMessinaState, text: Any, field: str) -> int:
    names = list(state.variant.seats)
    if isinstance(text, str) and text.lower() in names:
        return names.index(text.lower())
    raise SetupError(f"setup: position field {field!r}: {quote(text)} is not a seat; seats are {', '.join(names)}")


def state_from_setup(game: RaceToMessinaGame, setup: Mapping[str, Any]) -> RaceToMessinaState:
    """A position from a scenario setup (docs/notation/race-to-messina.md); `SetupError` if impossible."""
    state = RaceToMessinaState(game)
    apply_setup(state, setup)
    state.to_act = rules.player_to_act(state)
    return state


def apply_setup(state: RaceToMessinaState, spec: Mapping[str, Any]) -> None:
    """Fill an empty state from a scenario setup (zones, then position fields)."""
    zone_spec, position = setup_parts(spec)
    v = state.variant
    t = state.table
    targets: dict[str, tuple[str, int]] = {}
    for family in range(len(v.family_zone)):
        targets[deck_zone(state, family)] = ("deck", family)
        targets[discard_zone(state, family)] = ("discard", family)
    for seat, name in enumerate(v.seats):
        targets[f"hand:{name}"] = ("hand", seat)
    for group, zone in enumerate(v.group_zone):
        targets[zone] = ("table", group)
        targets[pending_zone(state, group)] = ("pending", group)
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
            card = _card(t, text, f"zone {zone!r}")
            if card in placed:
                raise SetupError(f"setup: card {t.ids[card]} is placed twice ({placed[card]!r} and {zone!r})")
            placed[card] = zone
    for card in range(t.size):
        if card in placed:
            continue
        if rest_zone is not None:
            kind, index = targets[rest_zone]
            if kind not in ("deck", "discard") or state.card_family[card] == index:
                placed[card] = rest_zone
                continue
        default = deck_zone(state, state.card_family[card])
        if default in zone_spec:
            raise SetupError(f"setup: {t.ids[card]} is placed nowhere and zone {default!r} is listed exactly; "
                             "list the card, or mark one zone \"rest\"")
        placed[card] = default
    for card, zone in sorted(placed.items()):
        kind, index = targets[zone]
        _place(state, card, zone, kind, index)
    _apply_position(state, position)


def _place(state: RaceToMessinaState, card: int, zone: str, kind: str, index: int) -> None:
    v = state.variant
    t = state.table
    label = f"{t.ids[card]} {t.names[card]}"
    if kind in ("deck", "discard"):
        if state.card_family[card] != index:
            raise SetupError(f"setup: {label} cannot be in {zone!r}: it belongs to the other deck")
        (state.decks if kind == "deck" else state.discards)[index].append(card)
        return
    seat = index if kind == "hand" else v.group_owner[index]
    if v.seat_family[seat] != state.card_family[card]:
        raise SetupError(f"setup: {label} cannot be in {zone!r}: {v.seats[seat]} draws from the other deck")
    if kind == "hand":
        insort(state.hands[seat], card)
        return
    if not rules.may_use(state, seat, card):
        raise SetupError(f"setup: {label} cannot be in {zone!r}: {v.seats[seat]} may not use it (AA/AB)")
    if kind == "table":
        insort(state.on_table[index], card)
    else:
        state.deploying[index].append(card)


def _apply_position(state: RaceToMessinaState, position: Mapping[str, Any]) -> None:
    v = state.variant
    unknown = [key for key in position if key not in POSITION_FIELDS]
    if unknown:
        raise SetupError(f"setup: unknown position field {quote(unknown[0])}; fields are: {', '.join(POSITION_FIELDS)}")
    phase_name = position.get("phase", "logistics")
    if phase_name not in PHASE_NAMES[:-1]:
        raise SetupError(f"setup: phase {quote(phase_name)}; phases are: {', '.join(PHASE_NAMES[:-1])}")
    phase = PHASE_NAMES.index(phase_name)
    state.turn = int_field(position, "turn", 1, 1, v.turn_limit)
    state.progress_tokens = int_list_field(position, "pt", v.num_players, 0) or [0] * v.num_players
    for seat_name, cards in mapping_field(position, "known", list).items():
        viewer = _seat(state, seat_name, "known")
        for text in cards:
            state.recon_known[viewer] |= 1 << _card(state.table, text, "position field 'known'")
    for text in str_list_field(position, "activated"):
        card = _card(state.table, text, "position field 'activated'")
        if not any(card in table for table in state.on_table):
            raise SetupError(f"setup: activated card {text} is not on a table")
        state.activated |= 1 << card
    seat_order = v.order
    seat = _seat(state, position["seat"], "seat") if "seat" in position else seat_order[0]
    if phase != Phase.ACTION:
        if any(state.on_table) and phase != Phase.DEPLOYMENT:
            raise SetupError(f"setup: tables must be empty in the {phase_name} phase (Resolution discards them)")
        state.order_index = seat_order.index(seat)
    state.phase = phase
    discarded = int_field(position, "discarded", 0, 0, v.discard_limit)
    if phase == Phase.STRATEGY:
        state.discarded = discarded
    if phase == Phase.ACTION:
        slot_zone = position.get("slot")
        if slot_zone is None:
            state.active_slot = next(i for i, g in enumerate(v.slots) if v.group_owner[g] == seat) if "seat" in position else 0
        elif slot_zone in v.group_zone and v.group_zone.index(slot_zone) in v.slots:
            state.active_slot = v.slots.index(v.group_zone.index(slot_zone))
        else:
            raise SetupError(f"setup: slot {quote(slot_zone)}; slots are {', '.join(v.group_zone[g] for g in v.slots)}")
        for zone in str_list_field(position, "passed"):
            if zone not in v.group_zone or v.group_zone.index(zone) not in v.slots:
                raise SetupError(f"setup: passed {quote(zone)}; slots are {', '.join(v.group_zone)}")
            state.passed_slots |= 1 << v.slots.index(v.group_zone.index(zone))
        if state.passed_slots >> state.active_slot & 1:
            raise SetupError("setup: the slot to act has already passed")
    elif "slot" in position or "passed" in position:
        raise SetupError(f"setup: 'slot' and 'passed' describe the action phase, not the {phase_name} phase")
    if any(state.deploying) and phase != Phase.DEPLOYMENT:
        raise SetupError("setup: hidden deployments (deploying:*) exist only in the deployment phase")
    if phase == Phase.LOGISTICS:
        rules.logistics_next(state)
    if any(pt_value for pt_value in state.progress_tokens):
        rules.check_victory(state)
