"""The moves every rule makes with the cards on the table (1.4, 1.5, 3.0): a card leaves a hand or goes
to the discard pile, an entry joins or leaves play, the refill queue, a chance event, a fresh Engagement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.games.med_sirocco.codes import Phase, Stage
from warcards.games.med_sirocco.rules.play_checks import (
    hand_limit,
)

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoState


def leave_hand(state: MedSiroccoState, p: int, card: int) -> None:
    state.hands[p].remove(card)
    if state.any_known and any(state.known_cards):  # else `forget` has nothing to do: no call
        forget(state, card)


def forget(state: MedSiroccoState, card: int) -> None:
    """A card that leaves a hand is no longer known to be there.

    Only the masks holding the card change (most hold nothing: one `any` skips them all), so no mask is
    rebuilt for nothing."""
    known = state.known_cards
    if state.any_known and any(known):
        bit = 1 << card
        for i, mask in enumerate(known):
            if mask & bit:
                known[i] = mask ^ bit


def to_discard(state: MedSiroccoState, card: int) -> None:
    """1.0 / 1.5: a discarded card goes to the discard pile, reshuffled into the Force pile when it runs out."""
    state.discard.append(card)


def set_chance(state: MedSiroccoState, kind: int) -> None:
    state.phase = Phase.CHANCE
    state.chance_kind = kind


def queue_refill(state: MedSiroccoState, start: int) -> None:
    """1.5: players draw to their hand size in the order of play, starting with the 1st player."""
    n = state.num_players
    hands = state.hands
    queue = state.draw_queue
    for i in range(n):
        p = (start + i) % n
        need = hand_limit(state, p) - len(hands[p])
        if need > 0:
            queue.extend([p] * need)


def begin_engagement(state: MedSiroccoState) -> None:
    """1.4 C: a fresh Engagement (or the replay of a drawn one, 3.4 Tie) starts with its 1st player."""
    state.engagement_type = state.operation_type
    state.round_index = 0
    state.turn_index = 0
    state.cancelled = 0
    state.sat_out = 0
    state.victims = 0
    state.raid_players = 0
    state.seat_side = [-1] * state.num_players
    state.entry_card, state.entry_player, state.entry_round, state.entry_host = [], [], [], []
    state.entry_alive, state.entry_face_down, state.entry_side, state.entry_dice = [], [], [], []
    state.restrict_by = -1
    state.admiral_by = -1
    state.bomb_entry = -1
    state.bomb_by = -1
    state.shallows_by = -1
    state.sirocco_holder = -1
    state.intel_queue = []
    state.explosion_queue = []
    state.roll_queue = []
    state.resolved = False
    state.stage = Stage.TURNS
    state.phase = Phase.CHANCE
    state.chance_kind = -1


def kill_entry(state: MedSiroccoState, e: int, to_pile: bool) -> None:
    """Take an entry out of play; `to_pile` discards its card (otherwise the caller places it)."""
    if not state.entry_alive[e]:
        return
    state.entry_alive[e] = False
    if to_pile:
        to_discard(state, state.entry_card[e])


def discard_dependents(state: MedSiroccoState, e: int) -> None:
    """3.3: if the victim had a Bonus card, the Bonus card is discarded."""
    for b in range(len(state.entry_card)):
        if state.entry_host[b] == e and state.entry_alive[b]:
            kill_entry(state, b, to_pile=True)
