"""What the Minimal Game shows: the zones (the god view), the position fields, each seat's view, the
determinized states a seat's bots search, and what each seat sees of each action.

Hidden (rule 2): the hands and the pile; (rule 3) the face-down cards. A seat sees its own hand and its own
face-down cards, the face-up cards, and how many cards every other pile holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minimal_game.codes import FACE_DOWN, NO_CARD, PHASE_NAMES
from warcards.engine.api import CHANCE, JSON, TERMINAL, Rng

if TYPE_CHECKING:
    from minimal_game.state import MinimalState


def hand_zone(seat: int) -> str:
    """The zone of a seat's hand: `hand:0`."""
    return f"hand:{seat}"


def face_down_zone(seat: int) -> str:
    """The zone of a seat's face-down discards: `face_down:0`."""
    return f"face_down:{seat}"


def zones(state: MinimalState) -> dict[str, list[str]]:
    """Every zone's card ids; each card lies in exactly one zone."""
    ids = state.table.ids
    found: dict[str, list[str]] = {"pile": [ids[card] for card in state.pile]}
    for seat in range(state.num_players):
        found[hand_zone(seat)] = [ids[card] for card in state.hands[seat]]
        found[face_down_zone(seat)] = [ids[card] for card in state.face_down[seat]]
    found["trick"] = [ids[card] for card in state.trick if card >= 0]
    found["played"] = [ids[card] for card in state.played]
    return found


def _player(state: MinimalState) -> int | None:
    return None if state.to_act in (CHANCE, TERMINAL) else state.to_act


def position(state: MinimalState) -> JSON:
    """The position fields scenarios check (and setups set: `leader`, `tricks_won`)."""
    return {
        "phase": PHASE_NAMES[state.phase],
        "to_act": _player(state),
        "leader": state.leader,
        "tricks_won": state.tricks_won[:],
    }


def _trick_entry(state: MinimalState, card: int) -> str | None:
    if card == NO_CARD:
        return None
    if card == FACE_DOWN:
        return "face down"
    return state.table.ids[card]


def observe(state: MinimalState, seat: int) -> JSON:
    """Exactly what `seat` may know now: its own hand and face-down cards, the face-up cards, counts."""
    ids = state.table.ids
    return {
        **position(state),
        "seat": seat,
        "deck": state.table.name,
        "hand": [ids[card] for card in state.hands[seat]],
        "hand_sizes": [len(hand) for hand in state.hands],
        "pile_size": len(state.pile),
        "trick": [_trick_entry(state, card) for card in state.trick],
        "played": [ids[card] for card in state.played],
        "my_face_down": [ids[card] for card in state.face_down[seat]],
        "face_down_counts": [len(cards) for cards in state.face_down],
    }


def observe_public(state: MinimalState) -> JSON:
    """What every seat sees (a spectator's view): the face-up cards and the counts, no hand or face-down card."""
    return {
        **position(state),
        "deck": state.table.name,
        "hand_sizes": [len(hand) for hand in state.hands],
        "pile_size": len(state.pile),
        "trick": [None if card == NO_CARD else "face down" if card == FACE_DOWN else state.table.ids[card]
                  for card in state.trick],
        "played": [state.table.ids[card] for card in state.played],
        "face_down_counts": [len(cards) for cards in state.face_down],
    }


def determinize(state: MinimalState, seat: int, rng: Rng) -> MinimalState:
    """A full state `seat` cannot tell from this one: the cards it cannot locate (the pile, the other
    hands, the other seats' face-down cards) dealt again at random into the same places, in the same
    numbers. The pool is sorted before the first draw, so the sample depends only on the seat's view and
    `rng`."""
    sample = state._copy()
    others = [other for other in range(state.num_players) if other != seat]
    pool = sorted([*state.pile, *(card for other in others for card in state.hands[other]),
                   *(card for other in others for card in state.face_down[other])])
    rng.shuffle(pool)
    taken = 0
    for other in others:
        count = len(state.hands[other])
        sample.hands[other] = sorted(pool[taken:taken + count])
        taken += count
        count = len(state.face_down[other])
        sample.face_down[other] = pool[taken:taken + count]
        taken += count
    sample.pile = sorted(pool[taken:])
    return sample


def hidden_action_text(state: MinimalState, action: int, seat: int | None) -> str | None:
    """The seen-action hook: None when `seat` (None: a spectator) sees `action` in full, else what it reads.
    A draw shows the card to its drawer only (rule 2); a face-down discard to its player only (rule 3)."""
    names = state.game.seat_names()
    if state.to_act == CHANCE:
        return None if seat == state.drawer else f"{names[state.drawer]} draws a card"
    if action < state.game.layout.discard or seat == state.to_act:
        return None
    return f"{names[state.to_act]} discards a card face down"
