"""Race to Messina views: zones (god view), position fields, observe(seat) and determinize(seat, rng).

What a seat may know: its own hand and its own not-yet-revealed deployment; every table, discard pile
and PT; how many cards each other hand and each deck holds (during Deployment another seat's hidden choice
still counts in its hand size, R31); the cards it saw with Recon that have not left that hand publicly
(R33); the card it drew with Supply; and this turn's public log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from warcards.engine.api import CHANCE, JSON, TERMINAL, Rng
from warcards.games.race_to_messina import rules
from warcards.games.race_to_messina.cards import ALLY, AXIS, force_total
from warcards.games.race_to_messina.notation import K_DEPLOY, K_DEPLOY2, card_label, decode

if TYPE_CHECKING:
    from warcards.games.race_to_messina.state import RaceToMessinaState

PHASES = ("logistics", "strategy", "deployment", "action", "recovery", "over")


def deck_zone(s: RaceToMessinaState, family: int) -> str:
    suffix = s.v.family_zone[family]
    return f"deck:{suffix}" if suffix else "deck"


def discard_zone(s: RaceToMessinaState, family: int) -> str:
    suffix = s.v.family_zone[family]
    return f"discard:{suffix}" if suffix else "discard"


def pending_zone(s: RaceToMessinaState, group: int) -> str:
    return "deploying:" + s.v.group_zone[group].removeprefix("table:")


def ids(s: RaceToMessinaState, cards: list[int] | tuple[int, ...]) -> list[str]:
    names = s.t.ids
    return [names[c] for c in sorted(cards)]


def mask_ids(s: RaceToMessinaState, mask: int) -> list[str]:
    return [s.t.ids[c] for c in range(s.t.size) if mask >> c & 1]


def zones(s: RaceToMessinaState) -> dict[str, list[str]]:
    """Every zone's card ids: decks, discard piles, hands, tables and hidden deployments."""
    result: dict[str, list[str]] = {}
    for family in range(len(s.v.family_zone)):
        result[deck_zone(s, family)] = ids(s, s.decks[family])
        result[discard_zone(s, family)] = ids(s, s.discards[family])
    for seat, name in enumerate(s.v.seats):
        result[f"hand:{name}"] = ids(s, s.hands[seat])
    for group, zone in enumerate(s.v.group_zone):
        result[zone] = ids(s, s.tables[group])
        result[pending_zone(s, group)] = ids(s, s.pending[group])
    return result


def acting_seat(s: RaceToMessinaState) -> int:
    """The seat whose part of the phase it is (the drawer at a chance node), or -1 when over."""
    if s.phase == rules.OVER:
        return -1
    if s.phase == rules.ACTION:
        group = s.supply_group if s.supply_group >= 0 else s.v.slots[s.slot]
        return s.v.group_owner[group]
    return s.v.order[s.step]


def winner_name(s: RaceToMessinaState) -> str | None:
    if s.phase != rules.OVER:
        return None
    return "draw" if s.winner == -2 else s.v.seats[s.winner]


def position(s: RaceToMessinaState) -> JSON:
    """The documented position fields (docs/notation/race-to-messina.md)."""
    v = s.v
    seat = acting_seat(s)
    return {
        "variant": v.name,
        "phase": PHASES[s.phase],
        "turn": s.turn,
        "pt": s.pt[:],
        "seat": v.seats[seat] if seat >= 0 else None,
        "slot": v.group_zone[v.slots[s.slot]] if s.phase == rules.ACTION else None,
        "passed": [v.group_zone[g] for i, g in enumerate(v.slots) if s.passed >> i & 1]
        if s.phase == rules.ACTION else [],
        "activated": mask_ids(s, s.activated),
        "progress": {v.group_zone[g]: n for g in range(len(v.group_zone)) if (n := rules.progress_count(s, g))},
        "discarded": s.discarded,
        "to_draw": s.to_draw,
        "supply": s.t.ids[s.supply_card] if s.supply_card >= 0 else None,
        "supply_draw": s.supply_draw,
        "known": {v.seats[i]: mask_ids(s, m) for i, m in enumerate(s.known) if m},
        "winner": winner_name(s),
    }


def totals(s: RaceToMessinaState) -> dict[str, dict[str, int]]:
    """Force totals of every table, modifiers included (public): Race splits each table into its Ally
    side (attack) and Axis side (defence)."""
    result: dict[str, dict[str, int]] = {}
    for group, zone in enumerate(s.v.group_zone):
        if s.v.name == "race":
            result[zone] = {"ally": rules.side_total(s, group, ALLY), "axis": rules.side_total(s, group, AXIS)}
        else:
            result[zone] = {"total": force_total(s.t, s.tables[group])}
    return result


def log_lines(s: RaceToMessinaState, viewer: int) -> list[str]:
    """This turn's log as `viewer` may read it (private details shown to their owner only)."""
    v = s.v
    t = s.t
    seats = v.seats
    lines: list[str] = []
    reasons = ("won the hand", "Progress", "Hube", "end of turn")
    for event in s.log:
        kind = event[0]
        if kind == rules.EV_DISCARD:
            lines.append(f"{seats[event[1]]} discards {card_label(t, event[2])}")
        elif kind == rules.EV_DRAWN:
            lines.append(f"{seats[event[1]]} draws {event[2]} replacement card(s)")
        elif kind == rules.EV_DEPLOYED:
            lines.append(f"{v.group_zone[event[1]]}: {event[2]} card(s) revealed")
        elif kind == rules.EV_ACTIVATE:
            lines.append(f"{seats[event[1]]} activates {card_label(t, event[2])}")
        elif kind == rules.EV_TARGET:
            lines.append(f"{seats[event[1]]} activates {card_label(t, event[2])}: "
                         f"{card_label(t, event[3])} is discarded")
        elif kind == rules.EV_RECON:
            if viewer == event[1] and event[3] >= 0:
                lines.append(f"Recon: {seats[event[2]]} hand is " + ", ".join(
                    card_label(t, c) for c in range(t.size) if event[3] >> c & 1))
            else:
                lines.append(f"{seats[event[1]]} looks at the {seats[event[2]]} hand")
        elif kind == rules.EV_SUPPLY:
            shown = card_label(t, event[2]) if viewer == event[1] and event[2] >= 0 else "a card"
            lines.append(f"{seats[event[1]]} draws {shown} (Supply)")
        elif kind == rules.EV_KEEP:
            shown = card_label(t, event[2]) if viewer == event[1] and event[2] >= 0 else "it"
            lines.append(f"{seats[event[1]]} keeps {shown} in hand")
        elif kind == rules.EV_REVEAL:
            lines.append(f"{seats[event[1]]} reveals {card_label(t, event[2])}")
        elif kind == rules.EV_PT:
            lines.append(f"{seats[event[1]]} +{event[2]} PT ({reasons[event[3]]})")
        elif kind == rules.EV_HAND:
            winner = seats[v.group_owner[event[1]]] if event[5] else v.group_zone[event[3]]
            lines.append(f"{v.group_zone[event[1]]} Ally {event[2]} vs {v.group_zone[event[3]]} Axis "
                         f"{event[4]}: {winner} wins the hand")
        elif kind == rules.EV_SUPPLY_EMPTY:
            lines.append(f"{seats[event[1]]}: Supply finds no card (deck and discard empty)")
        elif kind == rules.EV_PASS:
            lines.append(f"{seats[event[1]]} passes ({v.group_zone[event[2]]})")
    return lines


def _current(s: RaceToMessinaState, seat: int) -> str:
    player = s.current_player()
    return "chance" if player == CHANCE else "terminal" if player == TERMINAL else s.v.seats[player]


def _hand_sizes(s: RaceToMessinaState, seat: int) -> dict[str, int]:
    """Hand sizes as `seat` sees them: another seat's hidden Deployment still counts as in its hand."""
    v = s.v
    hidden_deploy = s.phase == rules.DEPLOYMENT
    sizes: dict[str, int] = {}
    for other, name in enumerate(v.seats):
        size = len(s.hands[other])
        if hidden_deploy and other != seat:
            size += sum(len(s.pending[g]) for g in v.seat_groups[other])
        sizes[name] = size
    return sizes


def _supply(s: RaceToMessinaState, seat: int) -> dict[str, Any] | None:
    if s.supply_card < 0 and not s.supply_draw:
        return None
    v = s.v
    owner = v.group_owner[s.supply_group]
    return {"seat": v.seats[owner], "group": v.group_zone[s.supply_group],
            "card": s.t.ids[s.supply_card] if owner == seat and s.supply_card >= 0 else None}


def _known_hands(s: RaceToMessinaState, seat: int) -> dict[str, list[str]]:
    """Cards of other hands `seat` saw by Recon and has not seen leave them (R33)."""
    known = s.known[seat]
    if not known:
        return {}
    v = s.v
    t = s.t
    result: dict[str, list[str]] = {}
    for o in range(len(v.seats)):
        if o == seat:
            continue
        cards = [t.ids[c] for c in s.hands[o] if known >> c & 1] + [
            t.ids[c] for g in v.seat_groups[o] for c in sorted(s.pending[g]) if known >> c & 1]
        if cards:
            result[v.seats[o]] = sorted(cards)
    return result


def _table(s: RaceToMessinaState, seat: int) -> dict[str, list[dict[str, Any]]]:
    t = s.t
    return {s.v.group_zone[g]: [{"id": t.ids[c], "activated": bool(s.activated >> c & 1)} for c in s.tables[g]]
            for g in range(len(s.v.group_zone))}


def _groups(s: RaceToMessinaState, seat: int) -> dict[str, dict[str, str]]:
    v = s.v
    return {v.group_zone[g]: {"owner": v.seats[v.group_owner[g]], "faces": v.group_zone[v.group_opponent[g]]}
            for g in range(len(v.group_zone))}


def _field_table() -> dict[str, Callable[[RaceToMessinaState, int], Any]]:
    """Each observation field and how it is computed from the state for a seat."""
    return {
        "game": lambda s, seat: "race-to-messina",
        "variant": lambda s, seat: s.v.name,
        "seat": lambda s, seat: seat,
        "seat_name": lambda s, seat: s.v.seats[seat],
        "seats": lambda s, seat: list(s.v.seats),
        "turn": lambda s, seat: s.turn,
        "phase": lambda s, seat: PHASES[s.phase],
        "current_player": _current,
        "pt": lambda s, seat: {name: s.pt[i] for i, name in enumerate(s.v.seats)},
        "hand": lambda s, seat: ids(s, s.hands[seat]),
        "deploying": lambda s, seat: {pending_zone(s, g): ids(s, s.pending[g]) for g in s.v.seat_groups[seat]},
        "hand_sizes": _hand_sizes,
        "decks": lambda s, seat: {deck_zone(s, f): len(s.decks[f]) for f in range(len(s.decks))},
        "discards": lambda s, seat: {discard_zone(s, f): ids(s, s.discards[f]) for f in range(len(s.discards))},
        "table": _table,
        "totals": lambda s, seat: totals(s),
        "groups": _groups,
        "slot": lambda s, seat: s.v.group_zone[s.v.slots[s.slot]] if s.phase == rules.ACTION else None,
        "passed": lambda s, seat: [s.v.group_zone[g] for i, g in enumerate(s.v.slots) if s.passed >> i & 1]
        if s.phase == rules.ACTION else [],
        "progress": lambda s, seat: {s.v.group_zone[g]: n for g in range(len(s.v.group_zone))
                                     if (n := rules.progress_count(s, g))},
        "discarded": lambda s, seat: s.discarded if s.phase == rules.STRATEGY else 0,
        "supply": _supply,
        "known_hands": _known_hands,
        "log": log_lines,
        "winner": lambda s, seat: winner_name(s),
        "returns": lambda s, seat: s.returns() if s.phase == rules.OVER else None,
    }


_FIELDS = _field_table()


def observe(s: RaceToMessinaState, seat: int, fields: frozenset[str] | None = None) -> JSON:
    """Exactly what `seat` may know now (module docstring); with `fields`, only those top-level fields,
    each computed only when asked for (bots read a few fields on every move)."""
    if fields is None:
        return {name: build(s, seat) for name, build in _FIELDS.items()}
    return {name: build(s, seat) for name, build in _FIELDS.items() if name in fields}


_PRIVATE_EVENTS = (rules.EV_RECON, rules.EV_SUPPLY, rules.EV_KEEP)


def _redacted(event: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """A log event as `seat` knows it: another seat's private detail (the hand it saw by Recon, the card it
    drew by Supply or kept) is replaced by -1, so a sampled state carries none of the true hidden cards."""
    if event[0] not in _PRIVATE_EVENTS or event[1] == seat:
        return event
    return (*event[:-1], -1)


def determinize(s: RaceToMessinaState, seat: int, rng: Rng) -> RaceToMessinaState:
    """A full state consistent with what `seat` knows: other hands (and their hidden deployments) and the
    decks are redealt from the cards `seat` cannot locate, keeping every card `seat` saw by Recon in place.

    The result depends only on `seat`'s view and `rng`: each pool of unlocated cards is sorted before it
    is shuffled, and another seat's Recon knowledge of a third hand (Sicily: the Americans' look at the
    Axis hand, as the British see it) is dropped, since `seat` cannot tell which cards it covers (R33).
    """
    d = s._copy()
    v = d.v
    known = d.known[seat]
    others = [o for o in range(v.num_players) if o != seat]
    own = 0
    for card in d.hands[seat]:
        own |= 1 << card
    for group in v.seat_groups[seat]:
        for card in d.pending[group]:
            own |= 1 << card
    for o in others:
        d.known[o] &= own
    d.log = [_redacted(event, seat) for event in d.log]
    # During Deployment another seat's choice is hidden: fold it back into its hand for resampling, and
    # let a seat that is already done choose again at random below.
    redeploy: list[int] = []
    if d.phase == rules.DEPLOYMENT:
        for o in others:
            for g in v.seat_groups[o]:
                d.hands[o].extend(d.pending[g])
                d.pending[g] = []
            if v.order.index(o) < d.step:
                redeploy.append(o)
    supply_owner = v.group_owner[d.supply_group] if d.supply_card >= 0 else -1
    unknown_slots: dict[int, int] = {}
    for family in range(len(d.decks)):
        pool = list(d.decks[family])
        holders = [o for o in others if v.seat_family[o] == family]
        for o in holders:
            hidden = [c for c in d.hands[o] if not known >> c & 1]
            unknown_slots[o] = len(hidden)
            pool.extend(hidden)
            d.hands[o] = [c for c in d.hands[o] if known >> c & 1]
        pool.sort()
        rng.shuffle(pool)
        start = 0
        for o in holders:
            count = unknown_slots[o]
            dealt = pool[start:start + count]
            start += count
            d.hands[o].extend(dealt)
            d.hands[o].sort()
            if o == supply_owner and dealt:
                d.supply_card = dealt[rng.randrange(0, len(dealt))]
        d.decks[family] = sorted(pool[start:])
    for o in redeploy:
        groups = v.seat_groups[o]
        for card in list(d.hands[o]):
            if not rules.may_use(d, o, card) or rng.random() >= 0.5:
                continue
            group = groups[rng.randrange(0, len(groups))]
            if rules.group_full(d, group, len(d.pending[group])):
                continue
            d.hands[o].remove(card)
            d.pending[group].append(card)
    d._legal_cache = None
    d._chance_cache = None
    return d


def hidden_action_text(s: RaceToMessinaState, action: int, seat: int | None) -> str | None:
    """What `seat` (None: a spectator) reads instead of legal `action`, or None when it sees it in full.

    Every draw (Logistics, Strategy replacements, Supply) goes face down into the drawer's hand: only the
    drawer sees the card. Deployment is face down until every seat has deployed (R31): another seat reads
    that a card was deployed, not which nor where. Everything else is played face up."""
    player = s.current_player()
    names = s.v.seats
    if player == CHANCE:
        drawer = s.drawing_seat()
        if seat == drawer:
            return None
        return f"{names[drawer]} draws a card" + (" (Supply)" if s.phase == rules.ACTION else "")
    if seat == player:
        return None
    if decode(action)[0] in (K_DEPLOY, K_DEPLOY2):
        return f"{names[player]} deploys a card face down"
    return None
