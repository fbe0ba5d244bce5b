"""What a seat may know (`observe`), sampled full states for search (`determinize`), scenario setups.

A seat sees its own hand, every face-up card, the backs of face-down cards, hand sizes, the discard pile
(discards are face up, RULES.md), each player's won Operations face up and the count of his hidden
captured cards (3.4 "The cards under the Operation card must remain hidden"), and the cards it knows to
be in another hand (S02 Lost exchanges, 2.41 Supply pick-ups).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from warcards.engine.api import JSON, Rng
from warcards.engine.errors import SetupError
from warcards.engine.setupfields import int_field, int_list_field, setup_parts, str_field
from warcards.engine.text import quote
from warcards.games.med_sirocco import rules
from warcards.games.med_sirocco.cards import E_NIGHT, K_STORM, TYPE_NAMES
from warcards.games.med_sirocco.notation import DISCARD, PLAY

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoGame, MedSiroccoState


def event_text(ids: tuple[str, ...], event: tuple[int, int, int]) -> str:
    """One public event as text."""
    code, a, b = event
    texts = {
        rules.EV_OP: lambda: f"player {a} turns over {ids[b]}",
        rules.EV_ROLL_SIROCCO: lambda: f"player {a} rolls {b} for the Sirocco",
        rules.EV_ROLL_EXPL: lambda: f"player {a} rolls {b} for the Explosion",
        rules.EV_ROLL_CARD: lambda: f"{ids[a]} rolls {b}",
        rules.EV_CANCEL: lambda: f"the Sirocco of player {a} cancels player {b}",
        rules.EV_SIROCCO_PASS: lambda: f"the Sirocco passes from player {a} to player {b}",
        rules.EV_SIROCCO_GONE: lambda: f"the Sirocco of player {a} is discarded",
        rules.EV_DESTROY: lambda: f"player {a} destroys {ids[b]}",
        rules.EV_SUNK: lambda: f"{ids[b]} of player {a} is sunk",
        rules.EV_INVALID: lambda: f"{ids[b]} of player {a} is invalid and discarded",
        rules.EV_TOTALS: lambda: f"Allies {a}, Axis {b}",
        rules.EV_WIN: lambda: f"player {a} wins {ids[b]}",
        rules.EV_DRAW: lambda: f"draw: {ids[b]} is replayed",
        rules.EV_NO_COMBAT: lambda: f"no combat: {ids[b]} is discarded",
        rules.EV_PICKUP: lambda: f"player {a} picks up {ids[b]}",
    }
    return texts[code]() if code in texts else str(event)


def _plays(s: MedSiroccoState, seat: int) -> list[JSON]:
    """The Engagement's cards in play; another seat's face-down card (and what it is played on) is hidden."""
    ids = s.g.ids
    plays = []
    for e in range(len(s.e_card)):
        if not s.e_alive[e]:
            continue
        down = s.e_down[e]
        mine = s.e_player[e] == seat
        plays.append({
            "seat": s.e_player[e],
            "card": ids[s.e_card[e]] if (not down or mine) else None,
            "face_down": down,
            "round": s.e_round[e] + 1,
            "on": ids[s.e_card[s.e_host[e]]] if s.e_host[e] >= 0 and (not down or mine) else None,
        })
    return plays


def _known_in_hands(s: MedSiroccoState, seat: int) -> list[list[str]]:
    ids = s.g.ids
    known = s.known[seat]
    return [sorted(ids[c] for c in s.hands[p] if known >> c & 1) if p != seat else [] for p in range(s.n)]


def _field_table() -> dict[str, Callable[[MedSiroccoState, int], Any]]:
    """Each observation field and how it is computed from the state for a seat."""
    return {
        "game": lambda s, seat: "med-sirocco",
        "seat": lambda s, seat: seat,
        "players": lambda s, seat: s.n,
        "phase": lambda s, seat: rules.PHASE_NAMES[s.phase],
        "current_player": lambda s, seat: s.cur if s.phase not in (rules.PH_CHANCE, rules.PH_END) else None,
        "hand": lambda s, seat: sorted(s.g.ids[c] for c in s.hands[seat]),
        "hand_sizes": lambda s, seat: [len(h) for h in s.hands],
        "hand_limits": lambda s, seat: [rules.hand_limit(s, p) for p in range(s.n)],
        "known_in_hands": _known_in_hands,
        "operation": lambda s, seat: s.g.ids[s.op] if s.op >= 0 else None,
        "operation_choice": lambda s, seat: sorted(s.g.ids[c] for c in s.op_choice)
        if s.first == seat or not s.op_choice else len(s.op_choice),
        "kind": lambda s, seat: None if s.op < 0 else ("battle" if s.battle else "convoy"),
        "engagement_type": lambda s, seat: TYPE_NAMES.get(s.eng_type)
        if s.op >= 0 and s.phase != rules.PH_TYPE else None,
        "round": lambda s, seat: s.rnd + 1,
        "rounds": lambda s, seat: s.rounds,
        "first_player": lambda s, seat: s.first,
        "dealer": lambda s, seat: s.dealer,
        "sides": lambda s, seat: [None if x < 0 else ("allies", "axis")[x] for x in s.side],
        "cancelled": lambda s, seat: [bool(s.cancelled >> p & 1) for p in range(s.n)],
        "sat_out": lambda s, seat: [bool(s.satout >> p & 1) for p in range(s.n)],
        "plays": _plays,
        "under_operation": lambda s, seat: [s.g.ids[c] for c in s.u_card if c >= 0],
        "discard": lambda s, seat: [s.g.ids[c] for c in s.discard],
        "pile_size": lambda s, seat: len(s.pile),
        "operations_left": lambda s, seat: len(s.ops_pile),
        "operations_out": lambda s, seat: [s.g.ids[c] for c in s.ops_out],
        "operations_done": lambda s, seat: s.ops_done,
        "operations_total": lambda s, seat: s.ops_total,
        "won": lambda s, seat: [[s.g.ids[c] for c in s.won[p]] for p in range(s.n)],
        "captured_counts": lambda s, seat: [len(s.captured[p]) for p in range(s.n)],
        "captured": lambda s, seat: [s.g.ids[c] for c in s.captured[seat]],
        "sunk": lambda s, seat: [s.g.ids[c] for c in s.sunk],
        "restriction": lambda s, seat: None if s.restrict_by < 0 else ("allies", "axis")[s.restrict_side],
        "admiral_combined": lambda s, seat: s.admiral_by >= 0,
        "bomb_alley_on": lambda s, seat: s.g.ids[s.e_card[s.bomb_entry]] if s.bomb_entry >= 0 else None,
        "shallows": lambda s, seat: s.shallows_by >= 0,
        "sirocco_holder": lambda s, seat: s.sirocco_holder if s.sirocco_holder >= 0 else None,
        "lost_selected": lambda s, seat: [s.g.ids[c] for c in s.lost_cards]
        if s.lost_player == seat else len(s.lost_cards),
        "lost_seats": lambda s, seat: list(s.lost_seats),
        "supply_candidates": lambda s, seat: [s.g.ids[c] for c in rules.supply_candidates(s)]
        if s.phase == rules.PH_SUPPLY else [],
        "share_pool": lambda s, seat: [s.g.ids[c] for c in s.share_pool],
        "share_counts": lambda s, seat: list(s.share_count),
        "won_vp": lambda s, seat: [sum(s.g.vp[c] for c in s.won[p]) for p in range(s.n)],
        "my_vp": lambda s, seat: rules.victory_points(s)[seat],
        "series_vp": lambda s, seat: list(s.series_vp) if s.series else None,
        "game_number": lambda s, seat: s.game_no,
        "log": lambda s, seat: [event_text(s.g.ids, e) for e in s.log_prev + s.log],
        "final_vp": lambda s, seat: rules.victory_points(s),
    }


_FIELDS = _field_table()


def observe(s: MedSiroccoState, seat: int, fields: frozenset[str] | None = None) -> JSON:
    """Exactly what `seat` may know now (`final_vp` once the game is over); with `fields`, only those
    top-level fields, each computed only when asked for (bots read a few fields on every move)."""
    over = s.phase == rules.PH_END
    if fields is None:
        return {name: build(s, seat) for name, build in _FIELDS.items() if over or name != "final_vp"}
    return {
        name: build(s, seat)
        for name, build in _FIELDS.items()
        if name in fields and (over or name != "final_vp")
    }


def determinize(s: MedSiroccoState, seat: int, rng: Rng) -> MedSiroccoState:
    """A full state consistent with `seat`'s view: other hands, others' face-down cards, the Force pile and
    the Operations pile are resampled from the cards the seat cannot locate; known cards stay put.

    Only what the seat knows decides the sample: the unknown cards are pooled in sorted order before the
    shuffle and dealt to slots laid out by public facts (hand sizes, known cards, face-down plays, pile
    size), so two true states the seat cannot tell apart give the same sample for the same `rng`."""
    t = s._copy()
    known = s.known[seat]
    # The slots, in a fixed order: other hands' unknown cards, others' face-down plays, the pile.
    pool: list[int] = []
    hand_slots: list[tuple[int, int]] = []
    for p in range(s.n):
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
    e_card = t.e_card
    down = [e for e in range(len(e_card)) if t.e_alive[e] and t.e_down[e] and t.e_player[e] != seat]
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
    pside = s.g.pside
    for e, c in zip(down, pool[start:], strict=False):
        e_card[e] = c
        t.e_side[e] = pside[c]
    t.pile = sorted(pool[start + len(down) :])
    if true_cards:
        # What another seat knows of a hand the seat cannot see (S02 Lost: the giver and the taker) is the
        # card in that slot: it follows the slot to the card sampled there.
        unknown = 0
        for c in true_cards:
            unknown |= 1 << c
        for q in range(s.n):
            mask = t.known[q]
            if q != seat and mask & unknown:
                moved = mask & ~unknown
                for old, new in zip(true_cards, pool, strict=True):
                    if mask >> old & 1:
                        moved |= 1 << new
                t.known[q] = moved
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
    if t.op_choice and seat != s.first:
        ops = sorted(t.ops_pile + t.op_choice)
        rng.shuffle(ops)
        t.op_choice = ops[: len(t.op_choice)]
        t.ops_pile = sorted(ops[len(t.op_choice) :])
    return t


def state_from_setup(game: MedSiroccoGame, setup: Mapping[str, Any]) -> MedSiroccoState:
    """A state at the start of an Operation (or, with `operation`, right after it is turned over) built from
    zones (hand:<p>, pile, discard, operations, operations:out, won:<p>, captured:<p>, sunk) and position
    fields (first_player, dealer, operations_done, operation, freighters_full, freighters_half)."""
    from warcards.games.med_sirocco.state import MedSiroccoState

    s = MedSiroccoState(game)
    index = game.index
    n = s.n
    zones, position = setup_parts(setup, "med-sirocco: ")
    allowed_fields = {"first_player", "dealer", "operations_done", "operation", "freighters_full", "freighters_half"}
    unknown = set(position) - allowed_fields
    if unknown:
        raise SetupError(f"med-sirocco: unknown position field {quote(min(unknown))}; fields: {sorted(allowed_fields)}")
    placed: dict[str, str] = {}
    lists: dict[str, list[int]] = {}
    rest_zone = None
    names = [f"hand:{p}" for p in range(n)] + [f"won:{p}" for p in range(n)] + [f"captured:{p}" for p in range(n)]
    names += ["pile", "discard", "operations", "operations:out", "sunk"]
    for zone, cards in zones.items():
        if zone not in names:
            raise SetupError(f"med-sirocco: unknown zone {quote(zone)}; zones: {', '.join(names)}")
        if cards == "rest":
            rest_zone = zone
            continue
        out = []
        for cid in cards:
            if cid not in index:
                raise SetupError(f"med-sirocco: unknown card {quote(cid)} in zone {zone}")
            if cid in placed:
                raise SetupError(f"med-sirocco: card {cid} is in both {placed[cid]} and {zone}")
            placed[cid] = zone
            out.append(index[cid])
        lists[zone] = out
    op_id = str_field(position, "operation", None, "med-sirocco: ")
    if op_id is not None:
        if op_id not in index or index[op_id] < 121:
            raise SetupError(f"med-sirocco: position operation {quote(op_id)} is not an Operation card (O01–O44)")
        if op_id in placed:
            raise SetupError(f"med-sirocco: card {op_id} is both the Operation and in {placed[op_id]}")
        placed[op_id] = "operation"
    leftover_pile = [c for c in range(121) if game.ids[c] not in placed]
    leftover_ops = [c for c in range(121, 165) if game.ids[c] not in placed]
    if rest_zone is not None:
        lists.setdefault(rest_zone, [])
        if rest_zone.startswith("operations"):
            lists[rest_zone] += leftover_ops
            lists.setdefault("pile", [])
            lists["pile"] += leftover_pile
        else:
            lists[rest_zone] += leftover_pile
            lists.setdefault("operations", [])
            lists["operations"] += leftover_ops
    else:
        lists.setdefault("pile", [])
        lists["pile"] += leftover_pile
        lists.setdefault("operations", [])
        lists["operations"] += leftover_ops
    rest_ops = rest_zone is not None and rest_zone.startswith("operations")
    for zone, leftover in (("pile", leftover_pile if rest_zone is None or rest_ops else []),
                           ("operations", leftover_ops if not rest_ops else [])):
        if leftover and zone in zones:
            raise SetupError(f"med-sirocco: {game.ids[leftover[0]]} is placed nowhere and zone {zone!r} is listed "
                             "exactly; list the card, or mark one zone \"rest\"")
    for zone, cards in lists.items():
        for c in cards:
            is_op = c >= 121
            if zone in ("operations", "operations:out") or zone.startswith("won:"):
                if not is_op:
                    raise SetupError(f"med-sirocco: {game.ids[c]} is not an Operation card; zone {zone} holds O cards")
            elif is_op:
                raise SetupError(f"med-sirocco: {game.ids[c]} is an Operation card; zone {zone} cannot hold it")
    s.hands = [sorted(lists.get(f"hand:{p}", [])) for p in range(n)]
    s.won = [lists.get(f"won:{p}", []) for p in range(n)]
    s.captured = [lists.get(f"captured:{p}", []) for p in range(n)]
    s.pile = sorted(lists.get("pile", []))
    s.discard = lists.get("discard", [])
    s.ops_pile = sorted(lists.get("operations", []))
    s.ops_out = lists.get("operations:out", [])
    s.sunk = lists.get("sunk", [])
    s.first = int_field(position, "first_player", 0, 0, n - 1, "med-sirocco: ")
    s.dealer = int_field(position, "dealer", s.first, 0, n - 1, "med-sirocco: ")
    s.ops_done = int_field(position, "operations_done", 0, 0, prefix="med-sirocco: ")
    s.full = int_list_field(position, "freighters_full", n, 0, prefix="med-sirocco: ") or [0] * n
    s.half = int_list_field(position, "freighters_half", n, 0, prefix="med-sirocco: ") or [0] * n
    for p in range(n):
        for c in s.won[p]:
            load = game.op_load[c]
            if "freighters_full" not in position and load == 2:
                s.full[p] += 1
            if "freighters_half" not in position and load == 1:
                s.half[p] += 1
    s.stage = rules.ST_START_OP
    s.phase = rules.PH_CHANCE
    s.ck = -1
    if not any(z.startswith("hand:") for z in zones):
        for _ in range(6):
            for i in range(n):
                s.draw_queue.append((s.dealer + 1 + i) % n)
    if op_id is not None:
        rules.start_operation(s, index[op_id])
    rules.advance(s)
    return s


def hidden_action_text(s: MedSiroccoState, action: int, seat: int | None) -> str | None:
    """What `seat` (None: a spectator) reads instead of legal `action`, or None when it sees it in full.

    Hidden: a card drawn into a hand (1.3, 1.5: the drawer sees it); the two Operations drawn for the 1st
    player to choose from (5.0: he alone sees them); a card played face down in the 2nd round of a Battle
    (3.2, Storm cards other than Night excepted); the cards the Lost player chooses to exchange and the card
    taken from the chosen player's hand (S02: the two players concerned see it). Dice, Operations turned
    over, Explosion losses and every face-up play are public."""
    g = s.g
    if s.phase == rules.PH_CHANCE:
        ck = s.ck
        if ck == rules.CK_DRAW:
            drawer = s.draw_queue[0]
            return None if seat == drawer else f"player {drawer} draws a card"
        if ck == rules.CK_OP:
            turned_over = not s.op_choice and (not s.advanced or len(s.ops_pile) == 1)
            if turned_over or seat == s.first:
                return None
            return f"player {s.first} draws an Operation to choose from"
        if ck == rules.CK_LOST_PICK:
            taker, giver = s.lost_player, s.lost_seats[s.lost_step]
            if seat in (taker, giver):
                return None
            return f"player {taker} takes a random card from player {giver}"
        return None
    player = s.cur
    if seat == player:
        return None
    if s.phase in (rules.PH_TURN, rules.PH_BUILD) and PLAY <= action < DISCARD:
        card = action - PLAY
        night_or_not_storm = g.kind[card] != K_STORM or g.effect[card] == E_NIGHT
        if s.battle and s.rnd == 1 and s.t_mode == 0 and night_or_not_storm:
            return f"player {player} plays a card face down"
    if s.phase == rules.PH_LOST_CARD:
        return f"player {player} chooses a card to exchange"
    return None
