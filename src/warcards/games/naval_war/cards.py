"""The Naval War card data: the pydantic schema of `cards.toml` and the compact tables the rules use.

Ships are indexed 0..53 in file order; play cards 0..107, grouped by kind in file order, each copy with its
own id `<code>-<n>` (e.g. `SALVO16x4-2`). The `CardTable` holds tuples of ints, built once per process on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from warcards.engine.cards import (
    MAX_ID_LENGTH,
    MAX_NAME_LENGTH,
    CardFile,
    card_error,
    check_count,
    check_tables,
    load_card_file,
    rows_of,
    validate_cards,
)

CARD_FILE = Path(__file__).with_name("cards.toml")

MIN_SHIPS = 10
"""The fewest ships a deck may hold: two players are dealt five each (Setup); `make_params` checks the
players and options chosen against the deck."""
MAX_SHIPS: Final = 900
"""The most ships: a salvo under ship s is at position `codes.ON_SHIP + s`, below the codes of `codes.ON_SALVO`
(which is built from this number)."""
MIN_PLAY_CARDS = 10
"""The fewest play cards: two players are dealt five each (Setup)."""
MAX_PLAY_CARDS = 1000
"""The most play cards (copies of every kind together): Additional Damage actions number kinds x cards."""
MAX_PLAY_KINDS = 100
"""The most kinds of play card (the printed decks have 28)."""
SINGLE_KIND_CATEGORIES = ("additional_ship", "submarine", "torpedo_boat", "destroyer_squadron", "smoke", "repair",
                          "minesweeper")
"""Categories played by one action whatever the copy (`smoke`, `dd`, `sub at SHIP`, ...): one kind each."""
MAX_ADDITIONAL_SHIPS = 9
"""The most Additional Ship cards: a task force holds at most 7 dealt ships and 9 arrivals, the 16 slots by
which night actions name its face-down ships (`notation.SLOTS`)."""

GUNS: tuple[str, ...] = ("11", "12.6", "14", "15", "16", "18")
"""Gun sizes in inches, smallest first; a ship's gun class is its index here (carriers have -1)."""

Nation = Literal["Great Britain", "United States", "Japan", "Italy", "Germany"]
Gun = Literal["11", "12.6", "14", "15", "16", "18", "carrier"]
Category = Literal[
    "salvo",
    "additional_ship",
    "additional_damage",
    "minefield",
    "submarine",
    "torpedo_boat",
    "destroyer_squadron",
    "smoke",
    "repair",
    "minesweeper",
]
CATEGORIES: tuple[str, ...] = get_args(Category)

# Category numbers used by the rules (indices into CATEGORIES).
SALVO: Final = 0
ADDSHIP: Final = 1
ADDDMG: Final = 2
MINE: Final = 3
SUB: Final = 4
TORPEDO: Final = 5
DD: Final = 6
SMOKE: Final = 7
REPAIR: Final = 8
SWEEP: Final = 9
RED_CATEGORIES = frozenset({ADDSHIP, ADDDMG, MINE, SUB, TORPEDO})


class ShipCard(BaseModel):
    """One ship card: its Hit Number is both the damage that sinks it and its points (Card anatomy)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[A-Z][A-Z_]*[A-Z0-9]$", max_length=MAX_ID_LENGTH,
                    description=f"a ship id is 2 to {MAX_ID_LENGTH} capital letters and '_', ending in a letter "
                                "or digit")
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    nation: Nation
    gun: Gun
    hits: int = Field(ge=1, le=9)


class PlayKind(BaseModel):
    """One kind of play card with its number of copies (red = special, played at once)."""

    model_config = ConfigDict(extra="forbid")
    code: str = Field(pattern=r"^[A-Z][A-Z0-9.x]*$", max_length=MAX_ID_LENGTH,
                      description=f"a code is 1 to {MAX_ID_LENGTH} capital letters, digits, '.' and 'x'")
    category: Category
    gun: Literal["11", "12.6", "14", "15", "16", "18"] | None = None
    value: int = Field(ge=0, le=4)
    copies: int = Field(ge=1, le=MAX_PLAY_CARDS)
    red: bool


@dataclass(frozen=True, eq=False)
class CardTable:
    """Compact card tables (tuples indexed by ship, card or kind number); compared and hashed by identity
    (`load_cards` returns one object per file content), so that lookups derived from a table cache cheaply."""

    ship_ids: tuple[str, ...]
    ship_names: tuple[str, ...]
    ship_nation: tuple[str, ...]
    ship_gun: tuple[int, ...]
    ship_hits: tuple[int, ...]
    ship_carrier: tuple[bool, ...]
    ship_japan: tuple[bool, ...]
    kind_codes: tuple[str, ...]
    kind_cat: tuple[int, ...]
    kind_gun: tuple[int, ...]
    kind_value: tuple[int, ...]
    kind_red: tuple[bool, ...]
    kind_cards: tuple[tuple[int, ...], ...]
    card_ids: tuple[str, ...]
    card_kind: tuple[int, ...]
    salvo_kinds: tuple[int, ...]
    adddmg_kinds: tuple[int, ...]
    mine_kinds: tuple[int, ...]
    salvo_cards: tuple[int, ...]
    adddmg_cards: tuple[int, ...]
    mine_cards: tuple[int, ...]
    kinds_addship: tuple[int, ...]
    kinds_sub: tuple[int, ...]
    kinds_torpedo: tuple[int, ...]
    kinds_dd: tuple[int, ...]
    kinds_smoke: tuple[int, ...]
    kinds_repair: tuple[int, ...]
    kinds_sweep: tuple[int, ...]
    ship_gunbit: tuple[int, ...]
    kind_gunbit: tuple[int, ...]
    salvo_index: tuple[int, ...]
    """Each kind's index among `salvo_kinds` (-1 for any other kind)."""
    adddmg_index: tuple[int, ...]
    """Each kind's index among `adddmg_kinds` (-1 for any other kind)."""
    mine_index: tuple[int, ...]
    """Each kind's index among `mine_kinds` (-1 for any other kind)."""

    @property
    def num_ships(self) -> int:
        return len(self.ship_ids)

    @property
    def num_cards(self) -> int:
        return len(self.card_ids)

    @property
    def num_kinds(self) -> int:
        return len(self.kind_codes)


def load_cards(path: str | Path = CARD_FILE) -> CardTable:
    """Read and validate a card file and build its tables; `CardDataError` names the bad card and field.

    Cached by the file's content: an edited file is loaded again."""
    return load_card_file(path, _build)


def _build(file: CardFile) -> CardTable:
    """The tables of a card file, after the checks of the guide (GUIDE.md, Card files)."""
    path, data = file.label, file.data
    check_tables(data, ("ship", "play"), path, "[[ship]] and [[play]] entries")
    ship_rows = rows_of(data, "ship", path)
    play_rows = rows_of(data, "play", path)
    check_count(path, "ships", len(ship_rows), MIN_SHIPS, MAX_SHIPS, "two task forces of five; position codes")
    check_count(path, "play card kinds", len(play_rows), 1, MAX_PLAY_KINDS, "actions per kind")
    ships = validate_cards(ShipCard, ship_rows, path)
    kinds = validate_cards(PlayKind, play_rows, path, key="code")
    _check_unique(path, "ship", [s.id for s in ships])
    _check_unique(path, "play card kind", [k.code for k in kinds])
    for kind in kinds:
        if (kind.category == "salvo") != (kind.gun is not None):
            raise card_error(path, [f"card {kind.code}: field gun: salvos (and only salvos) name a gun size"])
        if kind.red != (CATEGORIES.index(kind.category) in RED_CATEGORIES):
            raise card_error(path, [f"card {kind.code}: field red: {kind.category} cards are "
                                    f"{'red' if not kind.red else 'black'}"])
    for category in SINGLE_KIND_CATEGORIES:
        codes = [k.code for k in kinds if k.category == category]
        if len(codes) > 1:
            raise card_error(path, [f"card {codes[1]}: field category: one kind of {category} card only (the "
                                    f"notation plays it by its category); give {codes[0]} more copies instead"])
    check_count(path, "play cards", sum(k.copies for k in kinds), MIN_PLAY_CARDS, MAX_PLAY_CARDS,
                "two hands of five; Additional Damage actions")
    check_count(path, "Additional Ship cards", sum(k.copies for k in kinds if k.category == "additional_ship"),
                0, MAX_ADDITIONAL_SHIPS, "night actions number at most 16 ships in a task force")
    return _card_table(ships, kinds)


def _card_table(ships: list[ShipCard], kinds: list[PlayKind]) -> CardTable:
    """The compact tables of validated ships and play-card kinds (file order)."""
    card_ids: list[str] = []
    card_kind: list[int] = []
    kind_cards: list[tuple[int, ...]] = []
    for index, kind in enumerate(kinds):
        first = len(card_ids)
        for copy in range(1, kind.copies + 1):
            card_ids.append(f"{kind.code}-{copy}")
            card_kind.append(index)
        kind_cards.append(tuple(range(first, len(card_ids))))
    kind_cat = tuple(CATEGORIES.index(k.category) for k in kinds)

    def kinds_in(category: int) -> tuple[int, ...]:
        return tuple(k for k, cat in enumerate(kind_cat) if cat == category)

    def index_among(among: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(among.index(k) if k in among else -1 for k in range(len(kinds)))

    def cards_in(category: int) -> tuple[int, ...]:
        return tuple(c for c, k in enumerate(card_kind) if kind_cat[k] == category)

    return CardTable(
        ship_ids=tuple(s.id for s in ships),
        ship_names=tuple(s.name for s in ships),
        ship_nation=tuple(s.nation for s in ships),
        ship_gun=tuple(-1 if s.gun == "carrier" else GUNS.index(s.gun) for s in ships),
        ship_hits=tuple(s.hits for s in ships),
        ship_carrier=tuple(s.gun == "carrier" for s in ships),
        ship_japan=tuple(s.nation == "Japan" for s in ships),
        kind_codes=tuple(k.code for k in kinds),
        kind_cat=kind_cat,
        kind_gun=tuple(GUNS.index(k.gun) if k.gun is not None else -1 for k in kinds),
        kind_value=tuple(k.value for k in kinds),
        kind_red=tuple(k.red for k in kinds),
        kind_cards=tuple(kind_cards),
        card_ids=tuple(card_ids),
        card_kind=tuple(card_kind),
        salvo_kinds=kinds_in(SALVO),
        adddmg_kinds=kinds_in(ADDDMG),
        mine_kinds=kinds_in(MINE),
        salvo_cards=cards_in(SALVO),
        adddmg_cards=cards_in(ADDDMG),
        mine_cards=cards_in(MINE),
        kinds_addship=kinds_in(ADDSHIP),
        kinds_sub=kinds_in(SUB),
        kinds_torpedo=kinds_in(TORPEDO),
        kinds_dd=kinds_in(DD),
        kinds_smoke=kinds_in(SMOKE),
        kinds_repair=kinds_in(REPAIR),
        kinds_sweep=kinds_in(SWEEP),
        ship_gunbit=tuple(0 if s.gun == "carrier" else 1 << GUNS.index(s.gun) for s in ships),
        kind_gunbit=tuple(1 << GUNS.index(k.gun) if k.gun is not None else 0 for k in kinds),
        salvo_index=index_among(kinds_in(SALVO)),
        adddmg_index=index_among(kinds_in(ADDDMG)),
        mine_index=index_among(kinds_in(MINE)),
    )


def _check_unique(path: str, what: str, ids: list[str]) -> None:
    """Ids are unique, also as the notation reads them (ignoring case, `_` read as a space)."""
    seen: set[str] = set()
    for ident in ids:
        folded = " ".join(ident.replace("_", " ").lower().split())
        if folded in seen:
            raise card_error(path, [f"{what} {ident} appears twice; ids must be unique (ignoring case and '_')"])
        seen.add(folded)
