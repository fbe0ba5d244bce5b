"""Leak scans: does a text shown to a seat name a card that seat may not know at that moment?

The tests of every consumer that prints or sends game text — the terminal, the server's frames, per-seat
replays — scan what was actually shown, not the code path. `LeakScan` follows one seat (or a spectator,
`seat=None`) through a game: `see(state)` records every card id the seat's own view holds (`observe(seat)`,
or `public_view()` for a spectator) — what it knows stays known — and `leaks(text)` lists the card ids, and
the names of cards, that `text` mentions although the seat has never been shown them.

Card ids are matched as whole tokens (`G07` is not found in `G070`). A name counts as a leak only when no
card the seat knows carries the same name (decks hold several cards of one name). Call `see` with the state
after each step before scanning that step's text: a drawer knows the card it drew.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping

from warcards.engine.api import State

_TOKEN_EDGE_BEFORE = r"(?<![A-Za-z0-9_\-])"
_TOKEN_EDGE_AFTER = r"(?![A-Za-z0-9_\-])"


def _token_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    ordered = sorted(set(words), key=len, reverse=True)
    if not ordered:
        return None
    alternatives = "|".join(re.escape(word) for word in ordered)
    return re.compile(f"{_TOKEN_EDGE_BEFORE}(?:{alternatives}){_TOKEN_EDGE_AFTER}")


class LeakScan:
    """One seat's knowledge of card ids through a game, and a scan of texts against it."""

    def __init__(self, state: State, seat: int | None, names: Mapping[str, str] | None = None) -> None:
        self.seat = seat
        self.card_ids: frozenset[str] = frozenset(card for cards in state.zones().values() for card in cards)
        self.names: dict[str, str] = {card: name for card, name in (names or {}).items() if card in self.card_ids}
        self._id_pattern = _token_pattern(self.card_ids)
        self._name_pattern = _token_pattern(self.names.values())
        self.known: set[str] = set()
        self.see(state)

    def view_text(self, state: State) -> str:
        """The seat's whole view now, as JSON text (a spectator's: the public view)."""
        view = state.public_view() if self.seat is None else state.observe(self.seat)
        return json.dumps(view, sort_keys=True)

    def ids_in(self, text: str) -> set[str]:
        """The card ids `text` mentions, as whole tokens."""
        if self._id_pattern is None:
            return set()
        return set(self._id_pattern.findall(text))

    def see(self, state: State) -> None:
        """Record the card ids the seat's view of `state` shows: from now on the seat knows them."""
        self.known |= self.ids_in(self.view_text(state))

    def hidden(self) -> frozenset[str]:
        """The card ids the seat has not been shown so far."""
        return self.card_ids - self.known

    def leaks(self, text: str) -> list[str]:
        """The ids, and names (`name:<name>`), of cards `text` mentions that the seat has not been shown."""
        found = sorted(self.ids_in(text) - self.known)
        if self._name_pattern is not None:
            known_names = {self.names[card] for card in self.known if card in self.names}
            for name in sorted(set(self._name_pattern.findall(text))):
                if name not in known_names:
                    found.append(f"name:{name}")
        return found
