"""The Cards of War deck file: its pydantic schema and the compact tables the rules use.

A deck file (TOML, format in docs/cards/cards-of-war-deck-format.md) has a `[deck]` table, a `[types]` legend
of type letters, `[[pair]]` joint-deployment pairs (by card name) and one `[[card]]` per physical card. The
shipped `cards.toml` is a stand-in (the printed list is not available); `--cards FILE` loads an owner's list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from warcards.engine.cards import read_toml, validate_cards
from warcards.engine.errors import CardDataError

THEATRES: tuple[str, ...] = ("air", "sea", "ground", "intel")
ALL_TYPES = "*"
DEFAULT_CARDS = Path(__file__).with_name("cards.toml")
MIN_CARDS = 24

Theatre = Literal["air", "sea", "ground", "intel"]


class CardModel(BaseModel):
    """One card: type letters on the left, KILL letters and the REINFORCE/RECON marks, the score on the right
    (THE CARDS; SPECIAL ABILITIES)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[A-Za-z0-9_-]+$")
    name: str = Field(min_length=1)
    theatre: Theatre
    types: list[str] = Field(min_length=1)
    kill: list[str] = Field(default_factory=list)
    reinforce: bool = False
    recon: bool = False
    score: int = Field(ge=0, le=14)


class PairModel(BaseModel):
    """A joint-deployment pair, by card names (OPTIONAL RULES: Joint deployment)."""

    model_config = ConfigDict(extra="forbid")

    cards: tuple[str, str]


class DeckModel(BaseModel):
    """The `[deck]` table: a name, and whether the list is a stand-in for the printed cards."""

    model_config = ConfigDict(extra="forbid")

    name: str
    stand_in: bool = False


@dataclass(frozen=True)
class CardTable:
    """The deck as tuples indexed by card kind (0..n-1); bit masks over the legend's type letters."""

    name: str
    stand_in: bool
    source: str
    legend: dict[str, str]
    ids: tuple[str, ...]
    names: tuple[str, ...]
    theatre: tuple[int, ...]
    typemask: tuple[int, ...]
    killmask: tuple[int, ...]
    reinforce: tuple[bool, ...]
    recon: tuple[bool, ...]
    score: tuple[int, ...]
    partners: tuple[int, ...]
    pairs: tuple[tuple[str, str], ...]

    @property
    def n(self) -> int:
        return len(self.ids)

    def type_letters(self, mask: int) -> str:
        """The legend letters in `mask` ("*" when it holds every type)."""
        letters = list(self.legend)
        if mask == (1 << len(letters)) - 1 and len(letters) > 1:
            return ALL_TYPES
        return "".join(letter for bit, letter in enumerate(letters) if mask >> bit & 1)


def _type_letter(letter: str) -> bool:
    return re.fullmatch(r"[A-Z]", letter) is not None


def load_cards(path: str | Path | None = None) -> CardTable:
    """Load and validate a deck file (the stand-in when `path` is None); `CardDataError` names what is wrong."""
    return _load(str(path) if path is not None else str(DEFAULT_CARDS))


@cache
def _load(source: str) -> CardTable:
    data = read_toml(source)
    unknown = sorted(set(data) - {"deck", "types", "pair", "card"})
    if unknown:
        raise CardDataError(f"{source}: unknown table(s) {', '.join(unknown)}; allowed: deck, types, pair, card")
    deck = validate_cards(DeckModel, [data.get("deck", {})], source, key="name")[0]
    legend = data.get("types", {})
    if not isinstance(legend, dict) or not legend:
        raise CardDataError(f"{source}: [types] must map each type letter (A-Z) to its meaning")
    for letter, meaning in legend.items():
        if not _type_letter(letter) or not isinstance(meaning, str):
            raise CardDataError(f"{source}: [types] entry {letter!r} must be one capital letter = \"meaning\"")
    cards = validate_cards(CardModel, data.get("card", []), source)
    if len(cards) < MIN_CARDS:
        raise CardDataError(f"{source}: a deck needs at least {MIN_CARDS} cards (two hands and a draw pile)")
    bit = {letter: 1 << index for index, letter in enumerate(legend)}
    every = (1 << len(legend)) - 1
    problems: list[str] = []
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            problems.append(f"card {card.id}: field id: duplicate id")
        seen.add(card.id)
        for letter in card.types:
            if letter != ALL_TYPES and letter not in bit:
                problems.append(f"card {card.id}: field types: {letter!r} is not in the [types] legend")
        for letter in card.kill:
            if letter not in bit:
                problems.append(f"card {card.id}: field kill: {letter!r} is not in the [types] legend")
    names = {card.name for card in cards}
    pairs = [p.cards for p in validate_cards(PairModel, data.get("pair", []), source, key="cards")]
    for first, second in pairs:
        for name in (first, second):
            if name not in names:
                problems.append(f"pair {first} & {second}: no card is named {name!r}")
        theatres = {c.theatre for c in cards if c.name in (first, second)}
        if len(theatres) > 1:
            problems.append(f"pair {first} & {second}: both cards must belong to one theatre (Joint deployment)")
    if problems:
        raise CardDataError(f"{source}: " + "; ".join(problems[:10]))

    def mask(letters: list[str]) -> int:
        return every if ALL_TYPES in letters else sum(bit[letter] for letter in set(letters))

    partners = []
    for card in cards:
        partner_names = {b for a, b in pairs if a == card.name} | {a for a, b in pairs if b == card.name}
        partners.append(sum(1 << k for k, other in enumerate(cards) if other.name in partner_names))
    return CardTable(
        name=deck.name,
        stand_in=deck.stand_in,
        source=source,
        legend=dict(legend),
        ids=tuple(card.id for card in cards),
        names=tuple(card.name for card in cards),
        theatre=tuple(THEATRES.index(card.theatre) for card in cards),
        typemask=tuple(mask(card.types) for card in cards),
        killmask=tuple(mask(card.kill) for card in cards),
        reinforce=tuple(card.reinforce for card in cards),
        recon=tuple(card.recon for card in cards),
        score=tuple(card.score for card in cards),
        partners=tuple(partners),
        pairs=tuple((a, b) for a, b in pairs),
    )
