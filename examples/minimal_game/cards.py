"""The Minimal Game deck file: its pydantic schema and the compact table the rules use.

A deck file (TOML, the format of the shipped `cards.toml`) has a `[deck]` table and one `[[card]]` per
physical card. It is read through `warcards.engine.cards.load_card_file`, the one checked path every game
uses (a regular file of at most 1 MiB, UTF-8, cached by content, errors naming the card and the field).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from warcards.engine.cards import (
    MAX_ID_LENGTH,
    MAX_NAME_LENGTH,
    CardFile,
    card_error,
    check_count,
    load_card_file,
    rows_of,
    validate_cards,
)

SUITS: tuple[str, ...] = ("air", "sea", "land", "intel")
"""Rule 1: the four suits, in the order a card's suit number counts them."""
DEFAULT_CARDS = Path(__file__).with_name("cards.toml")
MIN_CARDS = 12
"""The most cards a deal needs: four players with hands of three (rule 2)."""
MAX_CARDS = 200
"""The most cards a deck file may list (the action space is two per card)."""
RESERVED_IDS = frozenset({"play", "discard", "draw"})
"""Words of the notation (notation.py) that a card id may not be, in any case."""


class CardModel(BaseModel):
    """One card: its id, name, suit and strength (rule 1)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[A-Za-z0-9_-]+$", max_length=MAX_ID_LENGTH,
                    description=f"an id is 1 to {MAX_ID_LENGTH} letters, digits, '_' or '-'")
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    suit: Literal["air", "sea", "land", "intel"]
    strength: int = Field(ge=1, le=99)


class DeckModel(BaseModel):
    """The `[deck]` table: the deck's name."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)


@dataclass(frozen=True)
class CardTable:
    """The deck as tuples indexed by card number (0..size-1), in file order."""

    name: str
    """The deck's name (`[deck] name`)."""
    digest: str
    """SHA-256 of the file's bytes: the same digest, the same deck."""
    ids: tuple[str, ...]
    """Each card's id, as the notation, the zones and the views write it."""
    names: tuple[str, ...]
    """Each card's name."""
    suits: tuple[int, ...]
    """Each card's suit, an index into `SUITS`."""
    strengths: tuple[int, ...]
    """Each card's strength (rule 4: the strongest face-up card of the led suit wins)."""

    @property
    def size(self) -> int:
        """How many cards the deck holds."""
        return len(self.ids)

    def label(self, card: int) -> str:
        """`A4 Spitfire`: a card's id and name, for messages."""
        return f"{self.ids[card]} {self.names[card]}"


def load_cards(path: str | Path | None = None) -> CardTable:
    """Load and check a deck file (the shipped one when `path` is None); `CardDataError` says what is wrong."""
    return load_card_file(path if path is not None else DEFAULT_CARDS, _build)


def _build(file: CardFile) -> CardTable:
    """The deck's table, after every check of the schema, linear in the file."""
    source, data = file.label, file.data
    unknown = sorted(set(data) - {"deck", "card"})
    if unknown:
        raise card_error(source, [f"unknown table(s) {', '.join(unknown[:3])}; allowed: deck, card"])
    rows = rows_of(data, "card", source)
    check_count(source, "cards", len(rows), MIN_CARDS, MAX_CARDS, "four hands of three; two actions per card")
    deck = validate_cards(DeckModel, [data.get("deck", {})], source, key="name")[0]
    cards = validate_cards(CardModel, rows, source)
    problems: list[str] = []
    seen: set[str] = set()
    for card in cards:
        folded = card.id.lower()
        if folded in seen:
            problems.append(f"card {card.id}: field id: duplicate id (ids are compared ignoring case)")
        if folded in RESERVED_IDS or folded.isdigit():
            problems.append(f"card {card.id}: field id: a number or a word of the notation is no card id")
        seen.add(folded)
    if problems:
        raise card_error(source, problems)
    return CardTable(
        name=deck.name,
        digest=file.digest,
        ids=tuple(card.id for card in cards),
        names=tuple(card.name for card in cards),
        suits=tuple(SUITS.index(card.suit) for card in cards),
        strengths=tuple(card.strength for card in cards),
    )
