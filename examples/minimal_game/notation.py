"""Minimal Game notation and action numbers.

Player actions: `play A4` (a card face up, rule 3) and `discard A4` (a card face down, rule 3). Chance
outcomes: `draw A4` (a card dealt or drawn from the pile, rules 2 and 5). Card ids are case-insensitive.

Action numbers are laid out with the engine's one helper (`ActionLayout`): `play` + card, then `discard` +
card. A chance outcome is the drawn card's number. Bare numbers are read by the engine
(`State.parse_action`), never here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.actions import ActionLayout
from warcards.engine.api import CHANCE
from warcards.engine.errors import InvalidActionError
from warcards.engine.text import quote

if TYPE_CHECKING:
    from minimal_game.state import MinimalState

FORMS = "play <card>, discard <card> (cards by id, e.g. A4); chance: draw <card>"
"""The accepted forms, as error messages list them."""


def build_layout(cards: int) -> ActionLayout:
    """The player action space of a deck of `cards` cards: play each card face up, or discard it face down."""
    return ActionLayout.build(("play", cards), ("discard", cards))


def action_to_string(state: MinimalState, action: int) -> str:
    """The action in notation, read in the current context (a chance outcome at a chance node)."""
    ids = state.table.ids
    if state.to_act == CHANCE and 0 <= action < len(ids):
        return f"draw {ids[action]}"
    kind, card = state.game.layout.decode(action)
    return f"{kind} {ids[card]}"


def parse_action(state: MinimalState, text: str) -> int:
    """The action for `text` (stripped, short, not a bare number: the engine has checked), or
    `InvalidActionError` listing the forms. Linear in `text`: one `split` and dictionary look-ups."""
    tokens = text.lower().split()
    if len(tokens) != 2:
        raise InvalidActionError(f"{quote(text)} is not an action; forms: {FORMS}")
    verb, ident = tokens
    card = state.game.card_numbers.get(ident)
    if card is None:
        raise InvalidActionError(f"no card {quote(ident)} in the deck; cards are named by id, e.g. "
                                 f"{state.table.ids[0]}")
    if state.to_act == CHANCE:
        if verb != "draw":
            raise InvalidActionError(f"{quote(text)}: a card is being drawn (a chance node), not a player's "
                                     f"move; write draw <card>")
        return card
    if verb == "play":
        return state.game.layout.play + card
    if verb == "discard":
        return state.game.layout.discard + card
    if verb == "draw":
        raise InvalidActionError(f"{quote(text)}: a draw is the game's chance event, not a player's move; "
                                 f"forms: {FORMS}")
    raise InvalidActionError(f"{quote(text)} is not an action; forms: {FORMS}")
