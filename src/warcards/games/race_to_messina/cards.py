"""Race to Messina card data: the pydantic schema of `cards.toml` and the compact tables built from it.

Every card of the printed list (rule text, card list) is one row; ids are `X01..X47` (Axis) and
`A01..A47` (Ally) in list order. Internally a card is its index in `CardTable.ids` (Axis cards first).
The `cards` option loads a file of the same format in place of the shipped one (`load_cards`); everything
that reads a card reads the game's own table (`game.table`, `state.table`), or for a view the table its
`deck_digest` names (`table_by_digest`).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from warcards.engine.cards import (
    MAX_NAME_LENGTH,
    CardFile,
    card_error,
    check_count,
    check_tables,
    load_card_file,
    rows_of,
    validate_cards,
)
from warcards.engine.text import quote

TRAITS: tuple[str, ...] = (
    "Tanks",
    "Infantry",
    "Air",
    "Naval",
    "Leader",
    "Strategy",
    "Defense",
    "Terrain",
    "Artillery",
    "Intelligence",
    "Blunder",
    "Weather",
    "Base",
)
ITALIAN = "Italian"
"""Not a printed trait: the selector of General Guzzoni's modifier ("Italian Cards get +1F")."""

TRAIT_BIT: dict[str, int] = {name: 1 << i for i, name in enumerate(TRAITS)}
ITALIAN_BIT = 1 << len(TRAITS)

AXIS: Final = 0
ALLY: Final = 1

NO_ABILITY: Final = 0
DISCARD: Final = 1
SUPPLY: Final = 2
RECON: Final = 3
PROGRESS: Final = 4
GAIN_PT: Final = 5
ABILITY_CODES = {"none": NO_ABILITY, "discard": DISCARD, "supply": SUPPLY, "recon": RECON,
                 "progress": PROGRESS, "gain_pt": GAIN_PT}

UNRESTRICTED: Final = 0
AMERICAN_ONLY: Final = 1
BRITISH_ONLY: Final = 2
RESTRICTION_CODES = {"": UNRESTRICTED, "american": AMERICAN_ONLY, "british": BRITISH_ONLY}

MAX_FACTION_CARDS = 100
"""The most cards of one faction a card file may list: the ids `X00`–`X99` (`A00`–`A99`)."""

NOTATION_WORDS = frozenset({"target", "on", "->"})
"""Words that split `activate CARD target CARD` (docs/notation/race-to-messina.md): no card name holds one."""
SIDE_WORDS = frozenset({"vs", "against", "to"})
SIDE_NAMES = frozenset({"american", "americans", "british", "brit", "brits"})
"""`deploy CARD vs british` names a Sicily Axis Set: no card name ends with a side word and a side."""

Trait = Literal[
    "Tanks", "Infantry", "Air", "Naval", "Leader", "Strategy", "Defense", "Terrain", "Artillery",
    "Intelligence", "Blunder", "Weather", "Base",
]


class CardModel(BaseModel):
    """One row of `cards.toml` (the card list of the rule text)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[XA]\d\d$", description="ids are X00–X99 (Axis) and A00–A99 (Allies)")
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH, pattern=r"^[^\s()]+( [^\s()]+)*$",
                      description="a name is words separated by single spaces, without parentheses (the "
                                  "notation writes 'X05 Luftwaffe')")
    faction: Literal["axis", "ally"]
    restriction: Literal["", "american", "british"] = ""
    force: int = Field(ge=1, le=10)
    traits: list[Trait] = Field(min_length=1)
    ability: Literal["none", "discard", "supply", "recon", "progress", "gain_pt"]
    targets: list[Trait] = Field(default_factory=list)
    modifier_traits: list[Trait | Literal["Italian"]] = Field(default_factory=list)
    modifier_bonus: int = Field(default=0, ge=0, le=5)
    immune_to: list[Trait] = Field(default_factory=list)
    italian: bool = False
    text: str = ""

    @field_validator("name")
    @classmethod
    def _readable_in_the_notation(cls, name: str) -> str:
        words = name.lower().split()
        clash = NOTATION_WORDS.intersection(words)
        if clash:
            raise ValueError(f"a name may not hold the word {min(clash)!r}: 'activate CARD target CARD' "
                             f"reads {', '.join(sorted(NOTATION_WORDS))} as the start of the target")
        if len(words) >= 2 and words[-2] in SIDE_WORDS and words[-1] in SIDE_NAMES:
            raise ValueError(f"a name may not end with {' '.join(words[-2:])!r}: 'deploy CARD vs british' reads "
                             f"it as the Sicily Axis Set")
        return name

    @model_validator(mode="after")
    def _consistent(self) -> CardModel:
        if (self.ability == "discard") != bool(self.targets):
            raise ValueError("a discard ability needs targets, and only a discard ability has them")
        if bool(self.modifier_traits) != (self.modifier_bonus > 0):
            raise ValueError("modifier_traits and a positive modifier_bonus go together")
        if (self.id[0] == "X") != (self.faction == "axis"):
            raise ValueError("X ids are Axis cards and A ids are Ally cards")
        if self.restriction and self.faction != "ally":
            raise ValueError("only Ally cards carry the AA / AB restriction")
        return self


@dataclass(frozen=True, eq=False)
class CardTable:
    """Precomputed per-card tables, indexed by card number (tuples of ints).

    Compared and hashed by identity (`eq=False`): what is derived from a table (the action layout, the
    observation layout, the evaluation's deck rates) is cached per table object, and the loader returns the
    same object for the same file content."""

    digest: str
    """SHA-256 of the card file's bytes: names the cards in a view without naming a path of the machine."""
    ids: tuple[str, ...]
    names: tuple[str, ...]
    faction: tuple[int, ...]
    restriction: tuple[int, ...]
    force: tuple[int, ...]
    traits: tuple[int, ...]
    """Trait bitmask, with `ITALIAN_BIT` set on Italian cards."""
    ability: tuple[int, ...]
    targets: tuple[int, ...]
    mod_mask: tuple[int, ...]
    mod_bonus: tuple[int, ...]
    immune: tuple[int, ...]
    dt_index: tuple[int, ...]
    """Position of a discard-ability card among `dt_cards`, or -1."""
    dt_cards: tuple[int, ...]
    modifiers: tuple[int, ...]
    by_key: dict[str, int]
    """Lower-cased id and lower-cased name -> card number."""
    models: tuple[CardModel, ...]

    @property
    def size(self) -> int:
        return len(self.ids)

    def trait_names(self, card: int) -> list[str]:
        return [name for name in TRAITS if self.traits[card] & TRAIT_BIT[name]]


CARDS_FILE = Path(__file__).with_name("cards.toml")

_loaded: weakref.WeakValueDictionary[str, CardTable] = weakref.WeakValueDictionary()


def load_cards(path: str | Path | None = None) -> CardTable:
    """Read and validate a card file (the shipped `cards.toml` when `path` is None) and build the tables;
    `CardDataError` names the file, the card and the field. Cached by the file's content: an edited file is
    loaded again."""
    table = load_card_file(path if path is not None else CARDS_FILE, _build)
    _loaded[table.digest] = table
    return table


def table_by_digest(digest: object) -> CardTable:
    """The table of a view's `deck_digest`: one loaded in this process (the shipped table for a view without
    one, or when none matches)."""
    found = _loaded.get(digest) if isinstance(digest, str) else None
    return found if found is not None else card_table()


def is_shipped(table: CardTable) -> bool:
    """Whether `table` is the shipped card list (by content)."""
    return table.digest == card_table().digest


def _build(file: CardFile) -> CardTable:
    label = file.label
    check_tables(file.data, ("card",), label, "[[card]] tables")
    rows = rows_of(file.data, "card", label)
    if not rows:
        raise card_error(label, ["expected a list of [[card]] tables"])
    models = validate_cards(CardModel, rows, label)
    for faction, letter in (("axis", "X"), ("ally", "A")):
        count = sum(1 for m in models if m.faction == faction)
        check_count(label, f"{faction} cards", count, 1, MAX_FACTION_CARDS,
                    f"each side draws from its own cards; ids {letter}00-{letter}99")
    models.sort(key=lambda m: (m.faction != "axis", m.id))
    seen: dict[str, str] = {}
    for model in models:
        for key in (model.id.lower(), model.name.lower()):
            if key in seen:
                raise card_error(label, [f"card {model.id}: {quote(key)} is used twice"])
            seen[key] = model.id

    def mask(names: list[str]) -> int:
        bits = 0
        for name in names:
            bits |= ITALIAN_BIT if name == ITALIAN else TRAIT_BIT[name]
        return bits

    dt_cards = tuple(i for i, m in enumerate(models) if m.ability == "discard")
    dt_index = [-1] * len(models)
    for k, card in enumerate(dt_cards):
        dt_index[card] = k
    return CardTable(
        digest=file.digest,
        ids=tuple(m.id for m in models),
        names=tuple(m.name for m in models),
        faction=tuple(AXIS if m.faction == "axis" else ALLY for m in models),
        restriction=tuple(RESTRICTION_CODES[m.restriction] for m in models),
        force=tuple(m.force for m in models),
        traits=tuple(mask(list(m.traits)) | (ITALIAN_BIT if m.italian else 0) for m in models),
        ability=tuple(ABILITY_CODES[m.ability] for m in models),
        targets=tuple(mask(list(m.targets)) for m in models),
        mod_mask=tuple(mask(list(m.modifier_traits)) for m in models),
        mod_bonus=tuple(m.modifier_bonus for m in models),
        immune=tuple(mask(list(m.immune_to)) for m in models),
        dt_index=tuple(dt_index),
        dt_cards=dt_cards,
        modifiers=tuple(i for i, m in enumerate(models) if m.modifier_bonus),
        by_key={key: i for i, m in enumerate(models) for key in (m.id.lower(), m.name.lower())},
        models=tuple(models),
    )


@cache
def card_table() -> CardTable:
    """The shipped card tables (the embedded default of the `cards` option), loaded once on first use."""
    return load_cards()


def mask_names(mask: int) -> list[str]:
    """The trait names set in a trait bitmask."""
    names = [name for name in TRAITS if mask & TRAIT_BIT[name]]
    if mask & ITALIAN_BIT:
        names.append(ITALIAN)
    return names


def force_total(table: CardTable, cards: list[int]) -> int:
    """Sum of force values plus the passive modifiers of cards in the same total (Resolution; RULES.md R9-R14)."""
    force = table.force
    total = 0
    for card in cards:
        total += force[card]
    mod_bonus = table.mod_bonus
    mod_mask = table.mod_mask
    traits = table.traits
    for source in cards:
        bonus = mod_bonus[source]
        if bonus:
            selector = mod_mask[source]
            for card in cards:
                if traits[card] & selector:
                    total += bonus
    return total
