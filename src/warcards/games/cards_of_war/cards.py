"""The Cards of War deck file: its pydantic schema and the compact tables the rules use.

A deck file (TOML, format in docs/cards/cards-of-war-deck-format.md) has a `[deck]` table, a `[types]` legend
of type letters, `[[pair]]` joint-deployment pairs (by card name) and one `[[card]]` per physical card. The
shipped `cards.toml` is a stand-in (the printed list is not available); `--cards FILE` loads an owner's list.
"""

from __future__ import annotations

import re
import weakref
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
    check_tables,
    load_card_file,
    name_of,
    rows_of,
    validate_cards,
)
from warcards.engine.text import quote

THEATRES: tuple[str, ...] = ("air", "sea", "ground", "intel")
ALL_TYPES = "*"
DEFAULT_CARDS = Path(__file__).with_name("cards.toml")
MIN_CARDS = 24
"""SETUP deals eight cards to each player (nine with Tactical advantage) and needs a draw pile beyond them."""
MAX_CARDS = 500
"""The most cards a deck file may list (ten times the printed 52): the action space is 6 per card."""
RESERVED_IDS = frozenset({"discard", "top-discard", "pass", "draw", "deploy", "joint"})
"""Words of the notation (docs/notation/cards-of-war.md) that a card id may not be, in any case."""

Theatre = Literal["air", "sea", "ground", "intel"]


class CardModel(BaseModel):
    """One card: type letters on the left, KILL letters and the REINFORCE/RECON marks, the score on the right
    (THE CARDS; SPECIAL ABILITIES)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[A-Za-z0-9_-]+$", max_length=MAX_ID_LENGTH,
                    description=f"an id is 1 to {MAX_ID_LENGTH} letters, digits, '_' or '-'")
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH, pattern=r"^[^()]+$",
                      description="a name holds no parentheses (the notation writes it in parentheses)")
    theatre: Theatre
    types: list[str] = Field(min_length=1)
    kill: list[str] = Field(default_factory=list)
    reinforce: bool = False
    recon: bool = False
    score: int = Field(ge=0, le=14)


class PairModel(BaseModel):
    """A joint-deployment pair, by card names (OPTIONAL RULES: Joint deployment)."""

    model_config = ConfigDict(extra="forbid")

    cards: list[str] = Field(min_length=2, max_length=2, description="a pair names two cards")


class DeckModel(BaseModel):
    """The `[deck]` table: a name, and whether the list is a stand-in for the printed cards."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    stand_in: bool = False


@dataclass(frozen=True)
class CardTable:
    """The deck as tuples indexed by card kind (0..n-1); bit masks over the legend's type letters."""

    name: str
    stand_in: bool
    digest: str
    """SHA-256 of the deck file's bytes: names the deck in a view without naming a path of the machine."""
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


_loaded: weakref.WeakValueDictionary[str, CardTable] = weakref.WeakValueDictionary()


def _type_letter(letter: str) -> bool:
    return re.fullmatch(r"[A-Z]", letter) is not None


def load_cards(path: str | Path | None = None) -> CardTable:
    """Load and validate a deck file (the stand-in when `path` is None); `CardDataError` names what is wrong.

    Cached by the file's content: an edited file is loaded again."""
    table = load_card_file(path if path is not None else DEFAULT_CARDS, _build)
    _loaded[table.digest] = table
    return table


def table_by_digest(digest: str) -> CardTable:
    """The deck of a view's `deck_digest`: a deck loaded in this process (the stand-in if none matches)."""
    return _loaded.get(digest) or load_cards()


def _build(file: CardFile) -> CardTable:
    """The deck's tables, after every check of docs/cards/cards-of-war-deck-format.md (linear in the file)."""
    source, data = file.label, file.data
    check_tables(data, ("deck", "types", "pair", "card"), source, "[deck], [types], [[pair]] and [[card]] tables")
    rows = rows_of(data, "card", source)
    check_count(source, "cards", len(rows), MIN_CARDS, MAX_CARDS,
                "two hands of eight or nine and a draw pile; six actions per card")
    deck = validate_cards(DeckModel, [data.get("deck", {})], source, key="name")[0]
    legend = data.get("types", {})
    if not isinstance(legend, dict) or not legend:
        raise card_error(source, ["[types] must map each type letter (A-Z) to its meaning"])
    for letter, meaning in legend.items():
        if not _type_letter(letter) or not isinstance(meaning, str):
            raise card_error(source, [f"[types] entry {quote(letter)} must be one capital letter = \"meaning\""])
    cards = validate_cards(CardModel, rows, source)
    bit = {letter: 1 << index for index, letter in enumerate(legend)}
    every = (1 << len(legend)) - 1
    problems: list[str] = []
    seen: set[str] = set()
    for card in cards:
        folded = card.id.lower()
        if folded in seen:
            problems.append(f"card {card.id}: field id: duplicate id (ids are compared ignoring case)")
        seen.add(folded)
        if folded in RESERVED_IDS or re.fullmatch(r"-?[0-9]+", card.id):
            problems.append(f"card {card.id}: field id: a number or a word of the notation "
                            f"({', '.join(sorted(RESERVED_IDS))}) is no card id")
        for letter in card.types:
            if letter != ALL_TYPES and letter not in bit:
                problems.append(f"card {card.id}: field types: {quote(letter)} is not in the [types] legend")
        for letter in card.kill:
            if letter not in bit:
                problems.append(f"card {card.id}: field kill: {quote(letter)} is not in the [types] legend")
    kinds_named: dict[str, list[int]] = {}
    for kind, card in enumerate(cards):
        kinds_named.setdefault(card.name, []).append(kind)
    pair_rows = rows_of(data, "pair", source)
    pairs = [p.cards for p in validate_cards(PairModel, pair_rows, source, key="cards")]
    for first, second in pairs:
        shown = f"pair {name_of(first)} & {name_of(second)}"
        for name in (first, second):
            if name not in kinds_named:
                problems.append(f"{shown}: field cards: no card is named {name_of(name)}")
        theatres = {cards[k].theatre for name in (first, second) for k in kinds_named.get(name, ())}
        if len(theatres) > 1:
            problems.append(f"{shown}: field cards: both cards must belong to one theatre (Joint deployment)")
    if problems:
        raise card_error(source, problems)

    def mask(letters: list[str]) -> int:
        return every if ALL_TYPES in letters else sum(bit[letter] for letter in set(letters))

    partner_names: dict[str, set[str]] = {}
    for first, second in pairs:
        partner_names.setdefault(first, set()).add(second)
        partner_names.setdefault(second, set()).add(first)
    name_mask = {name: sum(1 << k for k in kinds) for name, kinds in kinds_named.items()}
    partners = [sum(name_mask[other] for other in partner_names.get(card.name, ())) for card in cards]
    return CardTable(
        name=deck.name,
        stand_in=deck.stand_in,
        digest=file.digest,
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
