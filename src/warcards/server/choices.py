"""The legal moves a seat is offered (`legal` in `view` and `event` frames, docs/protocol.md), each with the
card ids it names, so the page marks the cards a move plays without reading the notation itself.

The engine has no hook that says which cards an action names, so they are read off the notation here,
against the cards the seat may know: a word of the notation names a card when it is the id of a card the
seat's own view shows (`observe(seat)`: its hand, the cards face up on the table), or when it is the kind
of cards in the seat's own hand (the id without its copy number: `discard SALVO14x1` names the hand's
`SALVO14x1-1` and `SALVO14x1-5`; `smoke` names `SMOKE-1`), compared without regard to case. Only ids the
seat's view shows can come out, so the field carries nothing the seat may not know.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from warcards.engine.api import State
from warcards.server import protocol as p

_COPY = re.compile(r"-\d+$")
"""A copy number at the end of a card id (`SALVO14x1-5`): the id without it is the card's kind."""


def _strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _hand(state: State, seat: int, zones: dict[str, list[str]]) -> list[str]:
    """The seat's hand: the zone `hand:<seat>`, or `hand:<seat name>` in a game that names its hands by side."""
    for name in (str(seat), state.game.seat_names()[seat].lower()):
        if f"hand:{name}" in zones:
            return zones[f"hand:{name}"]
    return []


class CardWords:
    """Which card ids each word of a notation names, for one seat at one state."""

    def __init__(self, state: State, seat: int, view: Any) -> None:
        zones = state.zones()
        every = {card for cards in zones.values() for card in cards}
        shown = set(_strings(view))
        self.ids = every & shown
        self.kinds: dict[str, list[str]] = {}
        for card in _hand(state, seat, zones):
            if card in shown and _COPY.search(card):
                self.kinds.setdefault(_COPY.sub("", card).lower(), []).append(card)

    def cards(self, notation: str) -> list[str]:
        """The card ids `notation` names, in the order it names them, each once."""
        named: dict[str, None] = {}
        for word in notation.split():
            if word in self.ids:
                named[word] = None
            else:
                named.update(dict.fromkeys(self.kinds.get(word.lower(), ())))
        return list(named)


def choices(state: State, seat: int, view: Any) -> list[p.Choice]:
    """The seat's legal moves at `state` as `Choice`s (`view`: the seat's observation, sent beside them)."""
    words = CardWords(state, seat, view)
    offered = []
    for action in state.legal_actions():
        notation = state.action_to_string(action)
        offered.append(p.Choice(action=action, notation=notation, label=state.action_label(action),
                                cards=words.cards(notation)))
    return offered
