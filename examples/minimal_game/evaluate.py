"""`evaluate(state)`: the search's estimate of the Minimal Game's final returns (tricks won, rule 6).

The tricks already won, plus the tricks still to play shared out by the strength each seat holds. Exactly
`returns()` at the end.
"""

from __future__ import annotations

from minimal_game.codes import NO_CARD
from minimal_game.state import MinimalState
from warcards.engine.api import State


def tricks_left(state: MinimalState) -> int:
    """How many tricks are still to be won: the cards still to be played (those in hand and on the current
    trick, and the refills the pile still gives, R1), one per seat and trick."""
    players = state.num_players
    on_trick = sum(1 for card in state.trick if card != NO_CARD)
    in_hands = sum(len(hand) for hand in state.hands)
    drawn = len(state.pile) - len(state.pile) % players
    return (in_hands + on_trick + drawn) // players


def evaluate(state: State) -> list[float]:
    """Per seat: tricks won plus a share of the tricks left, in proportion to the strength in hand + 1."""
    if not isinstance(state, MinimalState):
        raise TypeError(f"minimal-game evaluates its own states, not {type(state).__name__}")
    if state.is_terminal():
        return state.returns()
    strengths = state.table.strengths
    weights = [1.0 + sum(strengths[card] for card in hand) for hand in state.hands]
    total = sum(weights)
    left = tricks_left(state)
    return [won + left * weight / total for won, weight in zip(state.tricks_won, weights, strict=True)]
