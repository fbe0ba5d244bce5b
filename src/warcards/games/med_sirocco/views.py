"""What a seat may know (`observe`), sampled full states for search (`determinize`), what each seat sees of
each action (`hidden_action_text`), what every seat sees (`observe_public`). What a player reads of it — the
game log, move labels, the result — is `log.py`.

A seat sees its own hand, every face-up card, the backs of face-down cards, hand sizes, the discard pile
(discards are face up, R16), each player's won Operations face up and the count of his hidden
captured cards (3.4 "The cards under the Operation card must remain hidden"), and the cards it knows to
be in another hand (S02 Lost exchanges, 2.41 Supply pick-ups).

"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from warcards.engine.api import JSON, Rng
from warcards.games.med_sirocco import codes, rules
from warcards.games.med_sirocco.cards import (
    E_NIGHT,
    K_STORM,
    TYPE_NAMES,
)
from warcards.games.med_sirocco.codes import ChanceKind, Phase, Stage
from warcards.games.med_sirocco.notation import (
    DISCARD,
    PLAY,
)

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoState


def event_text(ids: tuple[str, ...], event: tuple[int, int, int]) -> str:
    """One public event as text."""
    code, a, b = event
    texts = {
        codes.EV_OP: lambda: f"player {a} turns over {ids[b]}",
        codes.EV_ROLL_SIROCCO: lambda: f"player {a} rolls {b} for the Sirocco",
        codes.EV_ROLL_EXPL: lambda: f"player {a} rolls {b} for the Explosion",
        codes.EV_ROLL_CARD: lambda: f"{ids[a]} rolls {b}",
        codes.EV_CANCEL: lambda: f"the Sirocco of player {a} cancels player {b}",
        codes.EV_SIROCCO_PASS: lambda: f"the Sirocco passes from player {a} to player {b}",
        codes.EV_SIROCCO_GONE: lambda: f"the Sirocco of player {a} is discarded",
        codes.EV_DESTROY: lambda: f"player {a} destroys {ids[b]}",
        codes.EV_SUNK: lambda: f"{ids[b]} of player {a} is sunk",
        codes.EV_INVALID: lambda: f"{ids[b]} of player {a} is invalid and discarded",
        codes.EV_TOTALS: lambda: f"Allies {a}, Axis {b}",
        codes.EV_WIN: lambda: f"player {a} wins {ids[b]}",
        codes.EV_DRAW: lambda: f"draw: {ids[b]} is replayed",
        codes.EV_NO_COMBAT: lambda: f"no combat: {ids[b]} is discarded",
        codes.EV_PICKUP: lambda: f"player {a} picks up {ids[b]}",
    }
    return texts[code]() if code in texts else str(event)


def _plays(state: MedSiroccoState, seat: int) -> list[JSON]:
    """The Engagement's cards in play; another seat's face-down card (and what it is played on) is hidden."""
    ids = state.table.ids
    cards, players, hosts, face_down = state.entry_card, state.entry_player, state.entry_host, state.entry_face_down
    plays = []
    for e in [e for e, alive in enumerate(state.entry_alive) if alive]:
        down = face_down[e]
        shown = not down or players[e] == seat
        host = hosts[e]
        plays.append({
            "seat": players[e],
            "card": ids[cards[e]] if shown else None,
            "face_down": down,
            "round": state.entry_round[e] + 1,
            "on": ids[cards[host]] if host >= 0 and shown else None,
        })
    return plays


def _known_in_hands(state: MedSiroccoState, seat: int) -> list[list[str]]:
    ids = state.table.ids
    known = state.known_cards[seat]
    return [sorted(ids[c] for c in state.hands[p] if known >> c & 1) if p != seat else [] for p in range(state.num_players)]


def _field_table() -> dict[str, Callable[[MedSiroccoState, int], Any]]:
    """Each observation field and how it is computed from the state for a seat."""
    return {
        "game": lambda state, seat: "med-sirocco",
        "seat": lambda state, seat: seat,
        "players": lambda state, seat: state.num_players,
        "phase": lambda state, seat: codes.PHASE_NAMES[state.phase],
        "current_player": lambda state, seat: state.to_act if state.phase not in (Phase.CHANCE, Phase.END) else None,
        "hand": lambda state, seat: sorted(map(state.table.ids.__getitem__, state.hands[seat])),
        "hand_sizes": lambda state, seat: [len(h) for h in state.hands],
        "hand_limits": lambda state, seat: [rules.hand_limit(state, p) for p in range(state.num_players)],
        "known_in_hands": _known_in_hands,
        "operation": lambda state, seat: state.table.ids[state.operation] if state.operation >= 0 else None,
        "operation_choice": lambda state, seat: sorted(state.table.ids[c] for c in state.operation_choice)
        if state.first_player == seat or not state.operation_choice else len(state.operation_choice),
        "kind": lambda state, seat: None if state.operation < 0 else ("battle" if state.is_battle else "convoy"),
        "engagement_type": lambda state, seat: TYPE_NAMES.get(state.engagement_type)
        if state.operation >= 0 and state.phase != Phase.TYPE else None,
        "round": lambda state, seat: state.round_index + 1,
        "rounds": lambda state, seat: state.rounds,
        "first_player": lambda state, seat: state.first_player,
        "dealer": lambda state, seat: state.dealer,
        "sides": lambda state, seat: [None if x < 0 else ("allies", "axis")[x] for x in state.seat_side],
        "cancelled": lambda state, seat: [bool(state.cancelled >> p & 1) for p in range(state.num_players)],
        "sat_out": lambda state, seat: [bool(state.sat_out >> p & 1) for p in range(state.num_players)],
        "plays": _plays,
        "under_operation": lambda state, seat: [state.table.ids[c] for c in state.under_card if c >= 0],
        "discard": lambda state, seat: [state.table.ids[c] for c in state.discard],
        "pile_size": lambda state, seat: len(state.pile),
        "operations_left": lambda state, seat: len(state.operations_pile),
        "operations_out": lambda state, seat: [state.table.ids[c] for c in state.operations_out],
        "operations_done": lambda state, seat: state.operations_done,
        "operations_total": lambda state, seat: state.operations_total,
        "won": lambda state, seat: [[state.table.ids[c] for c in state.won[p]] for p in range(state.num_players)],
        "captured_counts": lambda state, seat: [len(state.captured[p]) for p in range(state.num_players)],
        "captured": lambda state, seat: [state.table.ids[c] for c in state.captured[seat]],
        "sunk": lambda state, seat: [state.table.ids[c] for c in state.sunk],
        "restriction": lambda state, seat: None if state.restrict_by < 0 else ("allies", "axis")[state.restrict_side],
        "admiral_combined": lambda state, seat: state.admiral_by >= 0,
        "bomb_alley_on": lambda state, seat: state.table.ids[state.entry_card[state.bomb_entry]] if state.bomb_entry >= 0 else None,
        "shallows": lambda state, seat: state.shallows_by >= 0,
        "sirocco_holder": lambda state, seat: state.sirocco_holder if state.sirocco_holder >= 0 else None,
        "lost_selected": lambda state, seat: [state.table.ids[c] for c in state.lost_cards]
        if state.lost_player == seat else len(state.lost_cards),
        "lost_seats": lambda state, seat: list(state.lost_seats),
        "supply_candidates": lambda state, seat: [state.table.ids[c] for c in rules.supply_candidates(state)]
        if state.phase == Phase.SUPPLY else [],
        "share_pool": lambda state, seat: [state.table.ids[c] for c in state.share_pool],
        "share_counts": lambda state, seat: list(state.share_count),
        "won_vp": lambda state, seat: [sum(map(state.table.vp.__getitem__, won)) for won in state.won],
        "my_vp": lambda state, seat: rules.victory_points(state)[seat],
        "series_vp": lambda state, seat: list(state.series_vp) if state.series else None,
        "game_number": lambda state, seat: state.game_number,
        "log": lambda state, seat: [event_text(state.table.ids, e) for e in state.previous_log + state.log],
        "final_vp": lambda state, seat: rules.victory_points(state),
    }


_FIELDS = _field_table()


def observe(state: MedSiroccoState, seat: int) -> JSON:
    """Exactly what `seat` may know now (`final_vp` once the game is over)."""
    over = state.phase == Phase.END
    return _with_params(state, {name: build(state, seat) for name, build in _FIELDS.items()
                                if over or name != "final_vp"})


def observe_fields(state: MedSiroccoState, seat: int, fields: frozenset[str]) -> JSON:
    """The named top-level fields of `observe(state, seat)`, each computed only when asked for (bots read a
    few fields on every move)."""
    over = state.phase == Phase.END
    chosen = _CHOSEN.get(fields)
    if chosen is None:
        chosen = tuple((name, build) for name, build in _FIELDS.items() if name in fields)
        if len(_CHOSEN) < 64:
            _CHOSEN[fields] = chosen
    view = {name: build(state, seat) for name, build in chosen if over or name != "final_vp"}
    return _with_params(state, view) if "params" in fields else view


def _with_params(state: MedSiroccoState, view: dict[str, Any]) -> dict[str, Any]:
    """A game with house rules (changed rule parameters) says so in every view, under `params`; the rule
    text's game adds nothing."""
    changed = state.game.options.get("params")
    if changed:
        view["params"] = dict(changed)
    return view


_CHOSEN: dict[frozenset[str], tuple[tuple[str, Callable[[MedSiroccoState, int], Any]], ...]] = {}
"""The fields of `_FIELDS` a field set asks for, in `_FIELDS`' order (a bot asks for the same few fields on
every move of its rollouts; a walk of all the fields for each cost a search about 7% of its time)."""


_PRIVATE_FIELDS = frozenset({"seat", "hand", "known_in_hands", "operation_choice", "captured", "my_vp",
                             "lost_selected"})
"""The fields of `observe` that hold what one seat alone knows (its hand, what it knows of other hands, the
Operations drawn for it to choose from, its captured cards and their VP, the cards it chose for Lost)."""


def observe_public(state: MedSiroccoState) -> JSON:
    """What every seat sees (a spectator's view): `observe`'s public fields, every face-down card hidden,
    and for the private ones only what all may know (how many Operations are drawn to choose from, how many
    cards Lost's player has chosen)."""
    over = state.phase == Phase.END
    view: dict[str, Any] = {name: build(state, -1) for name, build in _FIELDS.items()
                            if name not in _PRIVATE_FIELDS and (over or name != "final_vp")}
    view["seat"] = None
    view["operation_choice"] = len(state.operation_choice)
    view["lost_selected"] = len(state.lost_cards)
    return _with_params(state, view)


def determinize(state: MedSiroccoState, seat: int, rng: Rng) -> MedSiroccoState:
    """A full state consistent with `seat`'s view: other hands, others' face-down cards, the Force pile and
    the Operations pile are resampled from the cards the seat cannot locate; known cards stay put.

    Only what the seat knows decides the sample: the unknown cards are pooled in sorted order before the
    shuffle and dealt to slots laid out by public facts (hand sizes, known cards, face-down plays, pile
    size), so two true states the seat cannot tell apart give the same sample for the same `rng`."""
    t = state._copy()
    known = state.known_cards[seat]
    # The slots, in a fixed order: other hands' unknown cards, others' face-down plays, the pile.
    pool: list[int] = []
    hand_slots: list[tuple[int, int]] = []
    for p in range(state.num_players):
        if p == seat:
            continue
        hand = t.hands[p]
        if known:
            for i, c in enumerate(hand):
                if not known >> c & 1:
                    pool.append(c)
                    hand_slots.append((p, i))
        else:
            pool += hand
            hand_slots += [(p, i) for i in range(len(hand))]
    e_card = t.entry_card
    down = [e for e in range(len(e_card)) if t.entry_alive[e] and t.entry_face_down[e] and t.entry_player[e] != seat]
    pool += [e_card[e] for e in down]
    pool += t.pile
    # Captured cards are face down (3.4) but were all seen in play by every seat; they stay.
    true_cards = pool[:] if t.any_known else []
    pool.sort()
    rng.shuffle(pool)
    hands = t.hands
    for (p, i), c in zip(hand_slots, pool, strict=False):
        hands[p][i] = c
    start = len(hand_slots)
    pside = state.game.played_side
    for e, c in zip(down, pool[start:], strict=False):
        e_card[e] = c
        t.entry_side[e] = pside[c]
    t.pile = sorted(pool[start + len(down) :])
    if true_cards:
        # What another seat knows of a hand the seat cannot see (S02 Lost: the giver and the taker) is the
        # card in that slot: it follows the slot to the card sampled there.
        unknown = 0
        for c in true_cards:
            unknown |= 1 << c
        for q in range(state.num_players):
            mask = t.known_cards[q]
            if q != seat and mask & unknown:
                moved = mask & ~unknown
                for old, new in zip(true_cards, pool, strict=True):
                    if mask >> old & 1:
                        moved |= 1 << new
                t.known_cards[q] = moved
    if t.lost_player >= 0 and t.lost_player != seat:
        if t.lost_step > 0:
            # S02: the card already given went last into the first chosen player's hand (seen there only by
            # him and the Lost player); name the card the sample put there.
            t.lost_cards = [t.hands[t.lost_seats[0]][-1], *t.lost_cards[1:]]
        if len(t.lost_cards) > t.lost_step:
            # S02: the cards the Lost player chose (not yet given) are hidden; choose them again from his hand.
            hand = sorted(c for c in t.hands[t.lost_player] if c not in t.lost_cards[: t.lost_step])
            rng.shuffle(hand)
            t.lost_cards = t.lost_cards[: t.lost_step] + hand[: len(t.lost_cards) - t.lost_step]
    if t.operation_choice and seat != state.first_player:
        ops = sorted(t.operations_pile + t.operation_choice)
        rng.shuffle(ops)
        t.operation_choice = ops[: len(t.operation_choice)]
        t.operations_pile = sorted(ops[len(t.operation_choice) :])
    return t


def zones(state: MedSiroccoState) -> dict[str, list[str]]:
    """God view: every card's zone (hands, piles, play, under the Operation, won, captured, sunk)."""
    ids = state.table.ids
    where: dict[str, list[str]] = {}
    for p in range(state.num_players):
        where[f"hand:{p}"] = [ids[c] for c in state.hands[p]]
        where[f"won:{p}"] = [ids[c] for c in state.won[p]]
        where[f"captured:{p}"] = [ids[c] for c in state.captured[p]]
        where[f"play:{p}"] = [ids[state.entry_card[e]] for e in range(len(state.entry_card))
                              if state.entry_alive[e] and state.entry_player[e] == p]
    where["pile"] = [ids[c] for c in state.pile]
    where["discard"] = [ids[c] for c in state.discard]
    where["operations"] = [ids[c] for c in state.operations_pile]
    where["operations:out"] = [ids[c] for c in state.operations_out]
    in_play = state.operation >= 0 and (state.stage != Stage.SHARE or state.operation in state.share_pool)
    where["operation"] = [ids[c] for c in ([state.operation] if in_play else []) + state.operation_choice]
    where["prizes"] = [ids[c] for c in state.share_pool if c != state.operation]
    where["under"] = [ids[c] for c in state.under_card if c >= 0]
    where["sunk"] = [ids[c] for c in state.sunk]
    where["sirocco"] = [ids[state.table.index["S01"]]] if state.sirocco_holder >= 0 else []
    return where


def position(state: MedSiroccoState) -> JSON:
    """The documented position fields (docs/notation/med-sirocco.md)."""
    table = state.table
    return {
        "phase": codes.PHASE_NAMES[state.phase],
        "stage": codes.STAGE_NAMES[state.stage],
        "first_player": state.first_player,
        "dealer": state.dealer,
        "operations_done": state.operations_done,
        "operations_total": state.operations_total,
        "operation": table.ids[state.operation] if state.operation >= 0 else None,
        "kind": None if state.operation < 0 else ("battle" if state.is_battle else "convoy"),
        "engagement_type": TYPE_NAMES.get(state.engagement_type, "none") if state.operation >= 0 else None,
        "round": state.round_index + 1,
        "sides": [None if s < 0 else ("allies", "axis")[s] for s in state.seat_side],
        "cancelled": [bool(state.cancelled >> p & 1) for p in range(state.num_players)],
        "vp": rules.victory_points(state),
        "operations_won": [len(w) for w in state.won],
        "hand_limits": [rules.hand_limit(state, p) for p in range(state.num_players)],
        "sirocco_holder": state.sirocco_holder if state.sirocco_holder >= 0 else None,
        "restriction": None if state.restrict_by < 0 else ("allies", "axis")[state.restrict_side],
        "game": state.game_number,
        "series_vp": list(state.series_vp),
    }


def hidden_action_text(state: MedSiroccoState, action: int, seat: int | None) -> str | None:
    """What `seat` (None: a spectator) reads instead of legal `action`, or None when it sees it in full.

    Hidden: a card drawn into a hand (1.3, 1.5: the drawer sees it); the two Operations drawn for the 1st
    player to choose from (5.0: he alone sees them); a card played face down in the 2nd round of a Battle
    (3.2, Storm cards other than Night excepted); the cards the Lost player chooses to exchange and the card
    taken from the chosen player's hand (S02: the two players concerned see it). Dice, Operations turned
    over, Explosion losses and every face-up play are public."""
    table = state.table
    if state.phase == Phase.CHANCE:
        ck = state.chance_kind
        if ck == ChanceKind.DRAW:
            drawer = state.draw_queue[0]
            return None if seat == drawer else f"player {drawer} draws a card"
        if ck == ChanceKind.OPERATION:
            turned_over = not state.operation_choice and (not state.advanced or len(state.operations_pile) == 1)
            if turned_over or seat == state.first_player:
                return None
            return f"player {state.first_player} draws an Operation to choose from"
        if ck == ChanceKind.LOST_PICK:
            taker, giver = state.lost_player, state.lost_seats[state.lost_step]
            if seat in (taker, giver):
                return None
            return f"player {taker} takes a random card from player {giver}"
        return None
    player = state.to_act
    if seat == player:
        return None
    if state.phase in (Phase.TURN, Phase.BUILD) and PLAY <= action < DISCARD:
        card = action - PLAY
        night_or_not_storm = table.kind[card] != K_STORM or table.effect[card] == E_NIGHT
        if state.is_battle and state.round_index == 1 and state.turn_mode == 0 and night_or_not_storm:
            return f"player {player} plays a card face down"
    if state.phase == Phase.LOST_CARD:
        return f"player {player} chooses a card to exchange"
    return None
