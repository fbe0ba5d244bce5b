"""Race to Messina views: zones (god view), position fields, observe(seat) and determinize(seat, rng).

What a seat may know: its own hand and its own not-yet-revealed deployment; every table, discard pile
and PT; how many cards each other hand and each deck holds (during Deployment another seat's hidden choice
still counts in its hand size, R31); the cards it saw with Recon that have not left that hand publicly
(R33); the card it drew with Supply; and this turn's public log. A game with house rules says so under
`params`, a game with a card file of its own (the `cards` option) under `deck_digest` (never its path).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from warcards.engine.api import CHANCE, JSON, TERMINAL, Rng
from warcards.games.race_to_messina import rules
from warcards.games.race_to_messina.cards import ALLY, AXIS, force_total, is_shipped
from warcards.games.race_to_messina.codes import (
    DRAW,
    EV_ACTIVATE,
    EV_DEPLOYED,
    EV_DISCARD,
    EV_DRAWN,
    EV_HAND,
    EV_KEEP,
    EV_PASS,
    EV_PT,
    EV_RECON,
    EV_REVEAL,
    EV_SUPPLY,
    EV_SUPPLY_EMPTY,
    EV_TARGET,
    HIDDEN,
    NO_CARD,
    NO_GROUP,
    NO_SEAT,
    PHASE_NAMES,
    PRIVATE_EVENTS,
    PT_REASONS,
    Phase,
)
from warcards.games.race_to_messina.notation import K_DEPLOY, K_DEPLOY_SECOND, card_label, decode

if TYPE_CHECKING:
    from warcards.games.race_to_messina.state import RaceToMessinaState

def deck_zone(state: RaceToMessinaState, family: int) -> str:
    suffix = state.variant.family_zone[family]
    return f"deck:{suffix}" if suffix else "deck"


def discard_zone(state: RaceToMessinaState, family: int) -> str:
    suffix = state.variant.family_zone[family]
    return f"discard:{suffix}" if suffix else "discard"


def pending_zone(state: RaceToMessinaState, group: int) -> str:
    return "deploying:" + state.variant.group_zone[group].removeprefix("table:")


def snapshot_problem(state: RaceToMessinaState) -> str | None:
    """What is out of step in a position read from a snapshot (`State._snapshot_problem`): the rules rely on
    sorted hands and decks (a draw is found in its deck by a search in halves). None when they agree."""
    for name, piles in (("hands", state.hands), ("decks", state.decks)):
        for index, pile in enumerate(piles):
            if pile != sorted(pile):
                return f"{name}[{index}] is not sorted"
    return None


def ids(state: RaceToMessinaState, cards: list[int] | tuple[int, ...]) -> list[str]:
    names = state.table.ids
    return [names[c] for c in sorted(cards)]


def mask_ids(state: RaceToMessinaState, mask: int) -> list[str]:
    return [state.table.ids[c] for c in range(state.table.size) if mask >> c & 1]


def zones(state: RaceToMessinaState) -> dict[str, list[str]]:
    """Every zone's card ids: decks, discard piles, hands, tables and hidden deployments."""
    result: dict[str, list[str]] = {}
    for family in range(len(state.variant.family_zone)):
        result[deck_zone(state, family)] = ids(state, state.decks[family])
        result[discard_zone(state, family)] = ids(state, state.discards[family])
    for seat, name in enumerate(state.variant.seats):
        result[f"hand:{name}"] = ids(state, state.hands[seat])
    for group, zone in enumerate(state.variant.group_zone):
        result[zone] = ids(state, state.on_table[group])
        result[pending_zone(state, group)] = ids(state, state.deploying[group])
    return result


def acting_seat(state: RaceToMessinaState) -> int:
    """The seat whose part of the phase it is (the drawer at a chance node), or `NO_SEAT` when over."""
    if state.phase == Phase.OVER:
        return NO_SEAT
    if state.phase == Phase.ACTION:
        group = state.supply_group if state.supply_group != NO_GROUP else state.variant.slots[state.active_slot]
        return state.variant.group_owner[group]
    return state.variant.order[state.order_index]


def winner_name(state: RaceToMessinaState) -> str | None:
    if state.phase != Phase.OVER:
        return None
    return "draw" if state.winner == DRAW else state.variant.seats[state.winner]


def position(state: RaceToMessinaState) -> JSON:
    """The documented position fields (docs/notation/race-to-messina.md)."""
    v = state.variant
    seat = acting_seat(state)
    return {
        "variant": v.name,
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turn,
        "pt": state.progress_tokens[:],
        "seat": v.seats[seat] if seat != NO_SEAT else None,
        "slot": v.group_zone[v.slots[state.active_slot]] if state.phase == Phase.ACTION else None,
        "passed": [v.group_zone[g] for i, g in enumerate(v.slots) if state.passed_slots >> i & 1]
        if state.phase == Phase.ACTION else [],
        "activated": mask_ids(state, state.activated),
        "progress": {v.group_zone[g]: n for g in range(len(v.group_zone)) if (n := rules.progress_count(state, g))},
        "discarded": state.discarded,
        "to_draw": state.to_draw,
        "supply": state.table.ids[state.supply_card] if state.supply_card != NO_CARD else None,
        "supply_draw": state.supply_draw,
        "known": {v.seats[i]: mask_ids(state, m) for i, m in enumerate(state.recon_known) if m},
        "winner": winner_name(state),
    }


def totals(state: RaceToMessinaState) -> dict[str, dict[str, int]]:
    """Force totals of every table, modifiers included (public): Race splits each table into its Ally
    side (attack) and Axis side (defence)."""
    result: dict[str, dict[str, int]] = {}
    for group, zone in enumerate(state.variant.group_zone):
        if state.variant.name == "race":
            result[zone] = {"ally": rules.side_total(state, group, ALLY), "axis": rules.side_total(state, group, AXIS)}
        else:
            result[zone] = {"total": force_total(state.table, state.on_table[group])}
    return result


def log_lines(state: RaceToMessinaState, viewer: int) -> list[str]:
    """This turn's log as `viewer` may read it (private details shown to their owner only)."""
    v = state.variant
    t = state.table
    seats = v.seats
    lines: list[str] = []
    for event in state.log:
        kind = event[0]
        if kind == EV_DISCARD:
            lines.append(f"{seats[event[1]]} discards {card_label(t, event[2])}")
        elif kind == EV_DRAWN:
            lines.append(f"{seats[event[1]]} draws {event[2]} replacement card(s)")
        elif kind == EV_DEPLOYED:
            lines.append(f"{v.group_zone[event[1]]}: {event[2]} card(s) revealed")
        elif kind == EV_ACTIVATE:
            lines.append(f"{seats[event[1]]} activates {card_label(t, event[2])}")
        elif kind == EV_TARGET:
            lines.append(f"{seats[event[1]]} activates {card_label(t, event[2])}: "
                         f"{card_label(t, event[3])} is discarded")
        elif kind == EV_RECON:
            if viewer == event[1] and event[3] != HIDDEN:
                lines.append(f"Recon: {seats[event[2]]} hand is " + ", ".join(
                    card_label(t, c) for c in range(t.size) if event[3] >> c & 1))
            else:
                lines.append(f"{seats[event[1]]} looks at the {seats[event[2]]} hand")
        elif kind == EV_SUPPLY:
            shown = card_label(t, event[2]) if viewer == event[1] and event[2] != HIDDEN else "a card"
            lines.append(f"{seats[event[1]]} draws {shown} (Supply)")
        elif kind == EV_KEEP:
            shown = card_label(t, event[2]) if viewer == event[1] and event[2] != HIDDEN else "it"
            lines.append(f"{seats[event[1]]} keeps {shown} in hand")
        elif kind == EV_REVEAL:
            lines.append(f"{seats[event[1]]} reveals {card_label(t, event[2])}")
        elif kind == EV_PT:
            lines.append(f"{seats[event[1]]} +{event[2]} PT ({PT_REASONS[event[3]]})")
        elif kind == EV_HAND:
            winner = seats[v.group_owner[event[1]]] if event[5] else v.group_zone[event[3]]
            lines.append(f"{v.group_zone[event[1]]} Ally {event[2]} vs {v.group_zone[event[3]]} Axis "
                         f"{event[4]}: {winner} wins the hand")
        elif kind == EV_SUPPLY_EMPTY:
            lines.append(f"{seats[event[1]]}: Supply finds no card (deck and discard empty)")
        elif kind == EV_PASS:
            lines.append(f"{seats[event[1]]} passes ({v.group_zone[event[2]]})")
    return lines


def _current(state: RaceToMessinaState, seat: int) -> str:
    player = state.current_player()
    return "chance" if player == CHANCE else "terminal" if player == TERMINAL else state.variant.seats[player]


def _hand_sizes(state: RaceToMessinaState, seat: int) -> dict[str, int]:
    """Hand sizes as `seat` sees them: another seat's hidden Deployment still counts as in its hand."""
    v = state.variant
    hidden_deploy = state.phase == Phase.DEPLOYMENT
    sizes: dict[str, int] = {}
    for other, name in enumerate(v.seats):
        size = len(state.hands[other])
        if hidden_deploy and other != seat:
            size += sum(len(state.deploying[g]) for g in v.seat_groups[other])
        sizes[name] = size
    return sizes


def _supply(state: RaceToMessinaState, seat: int) -> dict[str, Any] | None:
    if state.supply_card == NO_CARD and not state.supply_draw:
        return None
    v = state.variant
    owner = v.group_owner[state.supply_group]
    return {"seat": v.seats[owner], "group": v.group_zone[state.supply_group],
            "card": state.table.ids[state.supply_card] if owner == seat and state.supply_card != NO_CARD else None}


def _known_hands(state: RaceToMessinaState, seat: int) -> dict[str, list[str]]:
    """Cards of other hands `seat` saw by Recon and has not seen leave them (R33)."""
    known = state.recon_known[seat]
    if not known:
        return {}
    v = state.variant
    t = state.table
    result: dict[str, list[str]] = {}
    for o in range(len(v.seats)):
        if o == seat:
            continue
        cards = [t.ids[c] for c in state.hands[o] if known >> c & 1] + [
            t.ids[c] for g in v.seat_groups[o] for c in sorted(state.deploying[g]) if known >> c & 1]
        if cards:
            result[v.seats[o]] = sorted(cards)
    return result


def _table(state: RaceToMessinaState, seat: int) -> dict[str, list[dict[str, Any]]]:
    t = state.table
    return {state.variant.group_zone[g]: [{"id": t.ids[c], "activated": bool(state.activated >> c & 1)} for c in state.on_table[g]]
            for g in range(len(state.variant.group_zone))}


def _groups(state: RaceToMessinaState, seat: int) -> dict[str, dict[str, str]]:
    v = state.variant
    return {v.group_zone[g]: {"owner": v.seats[v.group_owner[g]], "faces": v.group_zone[v.group_opponent[g]]}
            for g in range(len(v.group_zone))}


def _field_table() -> dict[str, Callable[[RaceToMessinaState, int], Any]]:
    """Each observation field and how it is computed from the state for a seat."""
    return {
        "game": lambda state, seat: "race-to-messina",
        "variant": lambda state, seat: state.variant.name,
        "seat": lambda state, seat: seat,
        "seat_name": lambda state, seat: state.variant.seats[seat],
        "seats": lambda state, seat: list(state.variant.seats),
        "turn": lambda state, seat: state.turn,
        "phase": lambda state, seat: PHASE_NAMES[state.phase],
        "current_player": _current,
        "pt": lambda state, seat: {name: state.progress_tokens[i] for i, name in enumerate(state.variant.seats)},
        "hand": lambda state, seat: ids(state, state.hands[seat]),
        "deploying": lambda state, seat: {pending_zone(state, g): ids(state, state.deploying[g]) for g in state.variant.seat_groups[seat]},
        "hand_sizes": _hand_sizes,
        "decks": lambda state, seat: {deck_zone(state, f): len(state.decks[f]) for f in range(len(state.decks))},
        "discards": lambda state, seat: {discard_zone(state, f): ids(state, state.discards[f]) for f in range(len(state.discards))},
        "table": _table,
        "totals": lambda state, seat: totals(state),
        "groups": _groups,
        "slot": lambda state, seat: state.variant.group_zone[state.variant.slots[state.active_slot]] if state.phase == Phase.ACTION else None,
        "passed": lambda state, seat: [state.variant.group_zone[g] for i, g in enumerate(state.variant.slots) if state.passed_slots >> i & 1]
        if state.phase == Phase.ACTION else [],
        "progress": lambda state, seat: {state.variant.group_zone[g]: n for g in range(len(state.variant.group_zone))
                                     if (n := rules.progress_count(state, g))},
        "discarded": lambda state, seat: state.discarded if state.phase == Phase.STRATEGY else 0,
        "supply": _supply,
        "known_hands": _known_hands,
        "log": log_lines,
        "winner": lambda state, seat: winner_name(state),
        "returns": lambda state, seat: state.returns() if state.phase == Phase.OVER else None,
    }


_FIELDS = _field_table()


PUBLIC_FIELDS = ("game", "variant", "seats", "turn", "phase", "current_player", "pt", "hand_sizes", "decks",
                 "discards", "table", "totals", "groups", "slot", "passed", "progress", "discarded", "supply",
                 "winner", "returns")
"""The observation fields every seat sees alike (no hand, own deployment, Recon knowledge or private log)."""


def observe_public(state: RaceToMessinaState) -> JSON:
    """A spectator's view: the public observation fields as no seat (`NO_SEAT`) sees them — hand sizes count
    every hidden Deployment choice as still in hand (R31), the Supply card is unnamed — plus the result once
    the game is over."""
    view: JSON = _with_params(state, {name: _FIELDS[name](state, NO_SEAT) for name in PUBLIC_FIELDS})
    if state.phase == Phase.OVER:
        result = state.result()
        view["result"] = {"winners": [state.variant.seats[s] for s in result.winners], "scores": list(result.scores),
                          "reason": result.reason}
    return view


def _with_params(state: RaceToMessinaState, view: dict[str, Any],
                 fields: frozenset[str] = frozenset({"params", "deck_digest"})) -> dict[str, Any]:
    """A game with house rules (changed rule parameters) says so in every view, under `params`, so the
    board and the bots read the goals and sizes of the game being played; a game with a card file of its
    own names its cards under `deck_digest` (the SHA-256 of the file, by which the board finds the cards'
    names and forces, `cards.table_by_digest`). The rule text's game with the printed cards adds nothing."""
    changed = state.game.options.get("params")
    if changed and "params" in fields:
        view["params"] = dict(changed)
    if "deck_digest" in fields and not is_shipped(state.table):
        view["deck_digest"] = state.table.digest
    return view


def observe(state: RaceToMessinaState, seat: int) -> JSON:
    """Exactly what `seat` may know now (module docstring)."""
    return _with_params(state, {name: build(state, seat) for name, build in _FIELDS.items()})


def observe_fields(state: RaceToMessinaState, seat: int, fields: frozenset[str]) -> JSON:
    """The top-level `fields` of `observe(state, seat)`, each computed only when asked for (bots read a few
    fields on every move)."""
    view = {name: build(state, seat) for name, build in _FIELDS.items() if name in fields}
    return _with_params(state, view, fields)


def _redacted(event: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """A log event as `seat` knows it: another seat's private detail (the hand it saw by Recon, the card it
    drew by Supply or kept) is replaced by `HIDDEN`, so a sampled state carries none of the true hidden cards."""
    if event[0] not in PRIVATE_EVENTS or event[1] == seat:
        return event
    return (*event[:-1], HIDDEN)


def determinize(state: RaceToMessinaState, seat: int, rng: Rng) -> RaceToMessinaState:
    """A full state consistent with what `seat` knows: other hands (and their hidden deployments) and the
    decks are redealt from the cards `seat` cannot locate, keeping every card `seat` saw by Recon in place.

    The result depends only on `seat`'s view and `rng`: each pool of unlocated cards is sorted before it
    is shuffled, and another seat's Recon knowledge of a third hand (Sicily: the Americans' look at the
    Axis hand, as the British see it) is dropped, since `seat` cannot tell which cards it covers (R33).
    """
    d = state._copy()
    v = d.variant
    known = d.recon_known[seat]
    others = [o for o in range(v.num_players) if o != seat]
    own = 0
    for card in d.hands[seat]:
        own |= 1 << card
    for group in v.seat_groups[seat]:
        for card in d.deploying[group]:
            own |= 1 << card
    for o in others:
        d.recon_known[o] &= own
    d.log = [_redacted(event, seat) for event in d.log]
    # During Deployment another seat's choice is hidden: fold it back into its hand for resampling, and
    # let a seat that is already done choose again at random below.
    redeploy: list[int] = []
    if d.phase == Phase.DEPLOYMENT:
        for o in others:
            for g in v.seat_groups[o]:
                d.hands[o].extend(d.deploying[g])
                d.deploying[g] = []
            if v.order.index(o) < d.order_index:
                redeploy.append(o)
    supply_owner = v.group_owner[d.supply_group] if d.supply_card != NO_CARD else NO_SEAT
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
            if rules.group_full(d, group, len(d.deploying[group])):
                continue
            d.hands[o].remove(card)
            d.deploying[group].append(card)
    d._legal_cache = None
    return d


def hidden_action_text(state: RaceToMessinaState, action: int, seat: int | None) -> str | None:
    """What `seat` (None: a spectator) reads instead of legal `action`, or None when it sees it in full.

    Every draw (Logistics, Strategy replacements, Supply) goes face down into the drawer's hand: only the
    drawer sees the card. Deployment is face down until every seat has deployed (R31): another seat reads
    that a card was deployed, not which nor where. Everything else is played face up."""
    player = state.current_player()
    names = state.variant.seats
    if player == CHANCE:
        drawer = rules.drawing_seat(state)
        if seat == drawer:
            return None
        return f"{names[drawer]} draws a card" + (" (Supply)" if state.phase == Phase.ACTION else "")
    if seat == player:
        return None
    if decode(state.table, action)[0] in (K_DEPLOY, K_DEPLOY_SECOND):
        return f"{names[player]} deploys a card face down"
    return None


def nothing_to(state: RaceToMessinaState, action: int, seat: int | None) -> bool | None:
    """True when legal `action` is nothing at all to `seat` (None: a spectator): another seat's face-down
    Deployment choice (R31). It gives that seat no log line, and its view stays as it was — the deployer is
    still to move and its hand size counts the chosen card as still in hand — so not even the number of
    choices reaches it (`State._nothing_to`). None otherwise: every other step gives each seat a line."""
    player = state.current_player()
    if player >= 0 and seat != player and decode(state.table, action)[0] in (K_DEPLOY, K_DEPLOY_SECOND):
        return True
    return None
