"""Cards of War notation (docs/notation/cards-of-war.md).

Player actions: `deploy G01 (Pillbox) left`, `joint A01 (Fighters) left` (the first card of a joint
deployment), `deploy discard left` (Alternative Reinforce: the top discard), `pass`. Chance outcomes:
`draw G01`. Battles are left, centre and right (also 1, 2, 3). Card ids in the 2-deck version carry the
deck: `G01/0`, `G01/1`; a bare id means the mover's own copy. Names work in place of ids.

Action numbers (`action_layout`, n kinds of card): the blocks `deploy` (kind*3 + battle), `joint`
(the first card of a joint deployment: kind*3 + battle), `top_discard` (battle) and `pass_turn`, laid end to
end: deploy = kind*3 + battle, joint = 3n + kind*3 + battle, top discard = 6n + battle, pass = 6n + 3.
Chance outcomes are physical card numbers (deck*n + kind).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.actions import ActionLayout
from warcards.engine.api import CHANCE
from warcards.engine.errors import InvalidActionError
from warcards.engine.text import quote
from warcards.games.cards_of_war.codes import BATTLE_NAMES, NUM_BATTLES

if TYPE_CHECKING:
    from warcards.games.cards_of_war.state import CardsOfWarState

BATTLE_WORDS = {
    "left": 0, "l": 0, "1": 0,
    "centre": 1, "center": 1, "middle": 1, "c": 1, "2": 1,
    "right": 2, "r": 2, "3": 2,
}


def action_layout(num_kinds: int) -> ActionLayout:
    """The player action space for a deck of `num_kinds` kinds of card: a deployment of each kind into each
    battle, the same as the first card of a joint deployment, the top discard into each battle (Alternative
    Reinforce), and the pass (R11)."""
    per_battle = NUM_BATTLES * num_kinds
    return ActionLayout.build(
        ("deploy", per_battle), ("joint", per_battle), ("top_discard", NUM_BATTLES), ("pass_turn", 1)
    )


FORMS = ("deploy <card> <battle>, joint <card> <battle>, deploy discard <battle>, pass "
         "(battles: left, centre, right or 1-3; cards by id or name); chance: draw <card>")


def action_to_string(state: CardsOfWarState, action: int) -> str:
    """The action in notation, read in the current context (a chance outcome at a chance node)."""
    if state.to_act == CHANCE and 0 <= action < state.num_kinds * state.num_decks:
        return f"draw {state.card_id(action)}"
    layout = state.layout
    if not 0 <= action < layout.size:
        raise InvalidActionError(f"{action} is not an action of cards-of-war: actions are 0..{layout.size - 1}")
    block, index = layout.decode(action)
    if block == "pass_turn":
        return "pass"
    if block == "top_discard":
        pile = state.discards[state.deck_of[state.mover]]
        shown = f" ({state.card_label(pile[-1])})" if pile else ""
        return f"deploy discard{shown} {BATTLE_NAMES[index]}"
    verb = "joint" if block == "joint" else "deploy"
    kind, battle = divmod(index, NUM_BATTLES)
    card = kind + state.deck_offset[state.mover]
    return f"{verb} {state.card_id(card)} ({state.table.names[kind]}) {BATTLE_NAMES[battle]}"


def _card(state: CardsOfWarState, text: str, chance: bool) -> int:
    """The physical card named by id or name; a bare id in the 2-deck version is the mover's (or drawer's)."""
    n = state.num_kinds
    seat = state.drawer if chance else state.mover
    home = state.deck_of[seat]
    ident, _, suffix = text.partition("/")
    ids = [i.lower() for i in state.table.ids]
    if ident in ids:
        kind = ids.index(ident)
        if suffix:
            if state.num_decks == 1 or suffix not in ("0", "1"):
                raise InvalidActionError(f"{quote(text)}: a deck suffix is /0 or /1, and only in the 2-deck version")
            return int(suffix) * n + kind
        return home * n + kind
    names = [name.lower() for name in state.table.names]
    kinds = [k for k, name in enumerate(names) if name == text]
    if not kinds:
        raise InvalidActionError(f"no card {quote(text)} in the deck; name a card by id (e.g. {state.table.ids[0]}) or name")
    cards = [home * n + k for k in kinds]
    zone = state.draw_piles[home] if chance else state.hands[seat]
    held = [c for c in cards if c in zone]
    return (held or cards)[0]


def _drop_parentheses(text: str) -> str:
    """`text` with each `(...)` replaced by a space, as `re.sub(r"\\([^)]*\\)", " ", text)` would, in one pass:
    an opening bracket with no closing one after it (and everything after it) is kept as it is."""
    parts: list[str] = []
    start = 0
    while True:
        opening = text.find("(", start)
        closing = text.find(")", opening + 1) if opening >= 0 else -1
        if closing < 0:
            parts.append(text[start:])
            return "".join(parts)
        parts.append(text[start:opening])
        parts.append(" ")
        start = closing + 1


def parse_action(state: CardsOfWarState, text: str) -> int:
    """The action for `text` (see the module docstring), or `InvalidActionError` listing the forms.

    Bare numbers are the engine's (`State.parse_action`). At a chance node only `draw <card>` is read; a
    `draw` at a player's turn is refused, since a draw is the game's chance event, not a move
    (docs/notation/cards-of-war.md).
    Linear in the length of `text` (`str.find`, `str.split` and dictionary look-ups, no backtracking)."""
    cleaned = _drop_parentheses(text).lower()
    tokens = cleaned.replace("->", " ").replace("→", " ").split()
    if not tokens:
        raise InvalidActionError(f"empty action; forms: {FORMS}")
    verb = tokens[0]
    chance = state.to_act == CHANCE
    if chance:
        if verb != "draw":
            raise InvalidActionError(f"{quote(text)}: a card is being drawn (a chance node), not a player's "
                                     f"move; write draw <card>")
        if len(tokens) < 2:
            raise InvalidActionError(f"{quote(text)}: draw needs a card, e.g. draw {state.table.ids[0]}")
        return _card(state, " ".join(tokens[1:]), chance=True)
    if verb == "draw":
        raise InvalidActionError(f"{quote(text)}: a draw is the game's chance event, not a player's move; "
                                 f"forms: {FORMS}")
    if tokens == ["pass"]:
        return state.layout.pass_turn
    if verb in ("deploy", "joint"):
        tokens = tokens[1:]
    else:
        verb = "deploy"
    if len(tokens) < 2 or tokens[-1] not in BATTLE_WORDS:
        raise InvalidActionError(f"{quote(text)} is not an action; forms: {FORMS}")
    b = BATTLE_WORDS[tokens[-1]]
    what = " ".join(tokens[:-1])
    if what in ("discard", "top discard", "top-discard"):
        if verb == "joint":
            raise InvalidActionError("the top discard cannot start a joint deployment")
        return state.layout.top_discard + b
    card = _card(state, what, chance=False)
    seat = state.mover
    if card // state.num_kinds != state.deck_of[seat]:
        raise InvalidActionError(f"2 DECK VERSION: {state.card_id(card)} is not from your deck (deck {state.deck_of[seat]})")
    layout = state.layout
    block = layout.joint if verb == "joint" else layout.deploy
    return block + (card % state.num_kinds) * NUM_BATTLES + b
