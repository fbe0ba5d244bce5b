"""What each seat sees (`observe`, `hidden_action_text`), what a spectator sees (`observe_public`), a sampled
full state for search (`determinize`), the god view (`zones`) and the position fields. States built from scenario setups are in `setup.py`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, JSON, TERMINAL, Rng
from warcards.games.cards_of_war.cards import THEATRES
from warcards.games.cards_of_war.codes import (
    BATTLE_NAMES,
    NO_CARD,
    NUM_BATTLES,
    OPEN,
    PHASE_NAMES,
    VOID,
    Phase,
)

if TYPE_CHECKING:
    from warcards.games.cards_of_war.state import CardsOfWarState


def snapshot_problem(state: CardsOfWarState) -> str | None:
    """What is out of step in a position read from a snapshot (`State._snapshot_problem`): the rules rely on
    sorted hands and draw piles (a draw is found by a search in halves) and on `open_battles` mirroring the
    battles nobody has won. None when they agree."""
    for name, piles in (("hands", state.hands), ("draw_piles", state.draw_piles)):
        for index, pile in enumerate(piles):
            if pile != sorted(pile):
                return f"{name}[{index}] is not sorted"
    if state.open_battles != sum(1 << b for b, winner in enumerate(state.battle_winner) if winner == OPEN):
        return "open_battles is not the bitmask of the battles whose battle_winner is open"
    return None


def _who(state: CardsOfWarState) -> int | str:
    """Whose move it is, as the observation shows it: a seat, "chance" or "terminal"."""
    to_act = state.to_act
    return "chance" if to_act == CHANCE else "terminal" if to_act == TERMINAL else to_act


def _winner_text(value: int) -> int | str | None:
    """A battle's winner as shown: a seat, "void" (R11) or None while it is open."""
    return None if value < 0 else "void" if value == VOID else value


def observe(state: CardsOfWarState, seat: int) -> JSON:
    """A seat's view: its hand, every battle pile (face-down ones too: they were seen face up), the opponent's
    hand count, the discard piles, the draw pile sizes and every RECON answer so far (R8)."""
    cid = state.card_id
    battles = []
    for b in range(NUM_BATTLES):
        battles.append({
            "name": BATTLE_NAMES[b],
            "theatre": THEATRES[state.battle_theatre[b]] if state.battle_theatre[b] >= 0 else None,
            "winner": _winner_text(state.battle_winner[b]),
            "piles": [[cid(c) for c in state.battle_piles[b]], [cid(c) for c in state.battle_piles[NUM_BATTLES + b]]],
            "totals": [state.battle_totals[b], state.battle_totals[NUM_BATTLES + b]],
        })
    mine = state.mover == seat and state.phase == Phase.REINFORCE and state.reinforce_card >= 0
    return {
        "game": "cards-of-war",
        "seat": seat,
        "to_move": _who(state),
        "phase": PHASE_NAMES[state.phase],
        "round": state.round_number,
        "player": state.mover,
        "first_player": state.first_player,
        "rounds_won": state.rounds_won[:],
        "round_results": state.round_results[:],
        "hand": [cid(c) for c in state.hands[seat]],
        "hand_counts": [len(state.hands[0]), len(state.hands[1])],
        "hand_limits": state.hand_limits[:],
        "draw_pile": [len(p) for p in state.draw_piles],
        "discard": [[cid(c) for c in p] for p in state.discards],
        "battles": battles,
        "recon": [
            {"round": r, "by": by, "of": 1 - by, "counts": dict(zip(THEATRES, counts, strict=True))}
            for r, by, *counts in state.recon_answers
        ],
        "first_draw": [cid(c) if c != NO_CARD else None for c in state.first_draw],
        "first_draw_tied": [cid(c) for c in state.first_draw_tied],
        "pending_reinforce": state.pending_reinforce,
        "reinforce_card": cid(state.reinforce_card) if mine else None,
        "joint_first": cid(state.joint_first_kind + state.deck_offset[state.mover]) if state.joint_first_kind >= 0 else None,
        "options": {k: v for k, v in state.game.options.items() if k != "cards"},
        "deck": state.table.name,
        "deck_digest": state.table.digest,
        "winner": state.winner if state.phase == Phase.OVER and state.winner >= 0 else None,
    }


def determinize(state: CardsOfWarState, seat: int, rng: Rng) -> CardsOfWarState:
    """A full state consistent with `seat`'s view: the opponent's hand is resampled from the cards `seat`
    cannot locate, keeping at least as many cards of each theatre as the last RECON answer still proves (R8).

    The unknown cards are pooled in sorted order before any draw, so the sample depends only on what `seat`
    knows: two states it cannot tell apart give the same sample for the same rng."""
    other = state._copy()
    opp = 1 - seat
    deck = state.deck_of[opp]
    hand = state.hands[opp]
    k = len(hand)
    if not k:
        return other
    unknown = sorted(hand + state.draw_piles[deck])
    pool = unknown
    n = state.num_kinds
    theatre = state.table.theatre
    need = state.recon_floors[opp][:]
    chosen: list[int] = []
    if state.phase == Phase.JOINT_SECOND and state.mover == opp:
        # A joint deployment was declared: a partner of its first card is in the hand.
        partners = state.table.partners[state.joint_first_kind]
        candidates = [c for c in pool if partners >> (c % n) & 1]
        forced = candidates[rng.randrange(len(candidates))]
        chosen.append(forced)
        pool = [c for c in pool if c != forced]
        t = theatre[forced % n]
        need[t] = max(0, need[t] - 1)
    by_theatre: list[list[int]] = [[] for _ in THEATRES]
    for c in pool:
        by_theatre[theatre[c % n]].append(c)
    rest: list[int] = []
    for t in range(len(THEATRES)):
        group = by_theatre[t]
        rng.shuffle(group)
        take = min(need[t], len(group))
        chosen.extend(group[:take])
        rest.extend(group[take:])
    rng.shuffle(rest)
    chosen.extend(rest[: k - len(chosen)])
    taken = set(chosen)
    other.hands[opp] = sorted(chosen)
    other.draw_piles[deck] = [c for c in unknown if c not in taken]
    if state.phase == Phase.REINFORCE and state.mover == opp and state.reinforce_card >= 0:
        other.reinforce_card = other.hands[opp][rng.randrange(k)]
    return other


def hidden_action_text(state: CardsOfWarState, action: int, seat: int | None) -> str | None:
    """What `seat` (None: a spectator) reads instead of legal `action`, or None when it sees it in full.

    Hidden: a card dealt or drawn into a hand (SETUP, REINFORCE, the refill after a turn): the drawer sees
    it. The draws to see who goes first are shown to both (SETUP), and every deployment is face up."""
    if state.to_act != CHANCE or state.phase == Phase.FIRST_DRAW:
        return None
    drawer = state.drawer if state.phase == Phase.DEAL else state.mover
    return None if seat == drawer else f"{state.game.seat_names()[drawer]} draws a card"


def zones(state: CardsOfWarState) -> dict[str, list[str]]:
    """God view: every physical card in exactly one zone."""
    cid = state.card_id
    out: dict[str, list[str]] = {}
    if state.num_decks == 1:
        out["draw"] = [cid(c) for c in state.draw_piles[0]]
        out["discard"] = [cid(c) for c in state.discards[0]]
    else:
        for d in (0, 1):
            out[f"draw:{d}"] = [cid(c) for c in state.draw_piles[d]]
            out[f"discard:{d}"] = [cid(c) for c in state.discards[d]]
    for seat in (0, 1):
        out[f"hand:{seat}"] = [cid(c) for c in state.hands[seat]]
    for seat in (0, 1):
        for b in range(NUM_BATTLES):
            pile = [cid(c) for c in state.battle_piles[seat * NUM_BATTLES + b]]
            won = state.battle_winner[b] == seat
            out[f"battle:{seat}:{BATTLE_NAMES[b]}"] = [] if won else pile
            out[f"won:{seat}:{BATTLE_NAMES[b]}"] = pile if won else []
    for seat in (0, 1):
        out[f"first_draw:{seat}"] = [cid(state.first_draw[seat])] if state.first_draw[seat] >= 0 else []
    out["first_draw:tied"] = [cid(c) for c in state.first_draw_tied]
    return out


def position(state: CardsOfWarState) -> JSON:
    """The documented position fields (docs/notation/cards-of-war.md)."""
    return {
        "phase": PHASE_NAMES[state.phase],
        "round": state.round_number,
        "player": state.mover,
        "first_player": state.first_player,
        "rounds_won": state.rounds_won[:],
        "round_results": state.round_results[:],
        "hand_limits": state.hand_limits[:],
        "base_hand_limits": state.base_hand_limits[:],
        "theatres": [THEATRES[t] if t >= 0 else None for t in state.battle_theatre],
        "battle_winners": [_winner_text(w) for w in state.battle_winner],
        "totals": [state.battle_totals[:NUM_BATTLES], state.battle_totals[NUM_BATTLES:]],
        "pending_reinforce": state.pending_reinforce,
        "reinforce_card": state.card_id(state.reinforce_card) if state.reinforce_card >= 0 else None,
        "joint_first": state.card_id(state.joint_first_kind + state.deck_offset[state.mover]) if state.joint_first_kind >= 0 else None,
        "kills": state.kills[:],
        "moves": state.moves,
        "idle_moves": state.idle_moves,
        "winner": state.winner if state.phase == Phase.OVER and state.winner >= 0 else None,
    }


def observe_public(state: CardsOfWarState) -> JSON:
    """A spectator's view: a seat's view without its hand or its REINFORCE card (every other field is seen by
    both seats: the battles, the discards, the pile sizes, the hand sizes and the RECON answers)."""
    view = observe(state, 0)
    del view["hand"]
    view["seat"] = None
    view["reinforce_card"] = None
    return view
