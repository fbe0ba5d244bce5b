"""The Minimal Game's rules (README.md): legal actions, chance, transitions, refusals.

One function per rule step; each takes the state and cites its rule. Rules code never imports `random`:
every deal and draw is a chance node.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from minimal_game.codes import FACE_DOWN, NO_CARD, Phase
from warcards.engine.api import CHANCE, TERMINAL, Chance, Uniform

if TYPE_CHECKING:
    from minimal_game.state import MinimalState


def legal_actions(state: MinimalState) -> list[int]:
    """Rule 3: the leader plays a card face up; a follower plays one face up or discards one face down."""
    layout = state.game.layout
    hand = state.hands[state.to_act]
    plays = [layout.play + card for card in hand]
    if state.to_act == state.leader:
        return plays
    return plays + [layout.discard + card for card in hand]


def chance(state: MinimalState) -> Chance:
    """Rules 2 and 5: every card left in the (sorted) pile is equally likely to be drawn."""
    return Uniform(state.pile)


def returns(state: MinimalState) -> list[float]:
    """Rule 6: each seat scores the tricks it won; zeros before the end."""
    if state.to_act != TERMINAL:
        return [0.0] * state.num_players
    return [float(tricks) for tricks in state.tricks_won]


def illegal_reason(state: MinimalState, action: int) -> str:
    """Why a player action of the game is not legal now, citing the rule."""
    _, card = state.game.layout.decode(action)
    label = state.table.label(card)
    seat = state.to_act
    if card not in state.hands[seat]:
        held = ", ".join(state.table.ids[c] for c in state.hands[seat])
        return f"rule 3: {label} is not in your hand (your hand: {held})"
    return f"rule 3: the leader plays face up; only a follower may discard {label} face down"


def apply(state: MinimalState, action: int) -> None:
    """Apply a legal action or chance outcome (checked by the engine)."""
    if state.to_act == CHANCE:
        draw(state, action)
        return
    kind, card = state.game.layout.decode(action)
    play(state, card, face_up=kind == "play")


def draw(state: MinimalState, card: int) -> None:
    """Rules 2 and 5: `card` leaves the pile for the drawer's hand; the next seat in order draws next, and
    play starts (or goes on) when the deal or the refill is done."""
    state.pile.remove(card)
    insort(state.hands[state.drawer], card)
    state.draws_left -= 1
    state.drawer = (state.drawer + 1) % state.num_players
    if state.draws_left == 0:
        state.phase = Phase.PLAY
        state.to_act = state.leader


def play(state: MinimalState, card: int, face_up: bool) -> None:
    """Rule 3: the seat to act plays `card` face up, or discards it face down; the trick is settled when
    every seat has played (rule 4)."""
    seat = state.to_act
    state.hands[seat].remove(card)
    if face_up:
        state.trick[seat] = card
    else:
        state.trick[seat] = FACE_DOWN
        state.face_down[seat].append(card)
    following = (seat + 1) % state.num_players
    if following == state.leader:
        settle_trick(state)
    else:
        state.to_act = following


def trick_winner(state: MinimalState) -> int:
    """Rule 4: the seat of the strongest face-up card of the led suit (the leader's card is face up)."""
    table = state.table
    led_suit = table.suits[state.trick[state.leader]]
    winner = state.leader
    for seat, card in enumerate(state.trick):
        if card >= 0 and table.suits[card] == led_suit and table.strengths[card] > table.strengths[state.trick[winner]]:
            winner = seat
    return winner


def settle_trick(state: MinimalState) -> None:
    """Rule 4: the winner scores and leads next; the face-up cards stay face up. Then rule 5 (refill, or
    not: R1) or rule 6 (the end)."""
    winner = trick_winner(state)
    state.tricks_won[winner] += 1
    players = state.num_players
    for offset in range(players):
        card = state.trick[(state.leader + offset) % players]
        if card >= 0:
            state.played.append(card)
    state.trick = [NO_CARD] * players
    state.leader = winner
    if refills(state):
        state.phase = Phase.DRAW
        state.to_act = CHANCE
        state.drawer = winner
        state.draws_left = players
    elif not any(state.hands):
        state.phase = Phase.OVER
        state.to_act = TERMINAL
    else:
        state.to_act = winner


def refills(state: MinimalState) -> bool:
    """R1: after a trick every seat draws a card only while the pile holds one for every seat."""
    return len(state.pile) >= state.num_players
