"""The Med Sirocco card schema and the loader that turns a deck file into compact tables.

The shipped `cards.toml` is a stand-in (the printed list is not available); a user's own file in the same
format (`load_game("med-sirocco", cards=path)`) is validated by the same schema. Errors name the card and
the field. Card numbering and counts follow rule 2.0 and the deck facts: A01–A59, X01–X55, S01–S07,
O01–O44; 19 Bonus cards (2.3); the Supply, Special and Storm cards of 2.4.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from warcards.engine.cards import (
    MAX_NAME_LENGTH,
    CardFile,
    card_error,
    check_tables,
    load_card_file,
    rows_of,
    validate_cards,
)
from warcards.engine.text import quote

DEFAULT_CARDS = Path(__file__).with_name("cards.toml")

Value = int | Literal["?", "??"]
YEARS = (1940, 1941, 1942, 1943)
ALLIED_NATIONS = ("british", "american", "australian", "polish", "greek", "dutch")
AXIS_NATIONS = ("italian", "german", "romanian")

# Internal codes.
ALLIES: Final = 0
AXIS: Final = 1
NEUTRAL: Final = 2
SIDE_CODE = {"allies": ALLIES, "axis": AXIS, "none": NEUTRAL}
SIDE_NAMES = ("Allies", "Axis")
AIR: Final = 1
SURFACE: Final = 2
SUB: Final = 4
ALL_TYPES: Final = 7
FRAME_CODE = {"air": AIR, "surface": SURFACE, "sub": SUB, "all": ALL_TYPES}
TYPE_NAMES = {AIR: "air", SURFACE: "surface", SUB: "sub", ALL_TYPES: "combined", AIR | SURFACE: "air & surface",
              AIR | SUB: "air & sub", SURFACE | SUB: "surface & sub"}

K_FORCE: Final = 0
K_BONUS: Final = 1
K_SUPPLY: Final = 2
K_SPECIAL: Final = 3
K_STORM: Final = 4
K_OPERATION: Final = 5
KIND_CODE = {"force": K_FORCE, "bonus": K_BONUS, "supply": K_SUPPLY, "special": K_SPECIAL, "storm": K_STORM,
             "operation": K_OPERATION}

E_NONE: Final = 0
E_SUPPLY: Final = 1
E_RAID: Final = 2
E_FUEL: Final = 3
E_INTEL: Final = 4
E_ADMIRAL: Final = 5
E_SIROCCO: Final = 6
E_LOST: Final = 7
E_EXPLOSION: Final = 8
E_FOG: Final = 9
E_NIGHT: Final = 10
E_BOMB: Final = 11
E_SHALLOWS: Final = 12
EFFECT_CODE = {"supply": E_SUPPLY, "raid": E_RAID, "fuel": E_FUEL, "intelligence": E_INTEL, "admiral": E_ADMIRAL,
               "sirocco": E_SIROCCO, "lost": E_LOST, "explosion": E_EXPLOSION, "fog": E_FOG,
               "night_action": E_NIGHT, "bomb_alley": E_BOMB, "shallows": E_SHALLOWS}
STORM_EFFECTS = {"S01": "sirocco", "S02": "lost", "S03": "explosion", "S04": "fog", "S05": "night_action",
                 "S06": "bomb_alley", "S07": "shallows"}

# Bonus "plays_on": side (any Force card of the same side), nation (same flag), allies / axis (cross-side).
ON_SIDE: Final = 0
ON_NATION: Final = 1
ON_ALLIES: Final = 2
ON_AXIS: Final = 3
ON_CODE = {"side": ON_SIDE, "nation": ON_NATION, "allies": ON_ALLIES, "axis": ON_AXIS}
LOAD_CODE = {"empty": 0, "half": 1, "full": 2}


class CardModel(BaseModel):
    """One card of the deck file; which fields are required depends on `kind` (rule 2.1–2.4)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^(A(0[1-9]|[1-5][0-9])|X(0[1-9]|[1-4][0-9]|5[0-5])|S0[1-7]|O(0[1-9]|[1-3][0-9]|4[0-4]))$",
                    description="ids are A01–A59, X01–X55, S01–S07 and O01–O44 (2.0)")
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    kind: Literal["force", "bonus", "supply", "special", "storm", "operation"]
    side: Literal["allies", "axis", "none"] | None = None
    nation: str | None = None
    frame: Literal["air", "surface", "sub", "all"] | None = None
    air: Value | None = None
    surface: Value | None = None
    sub: Value | None = None
    years: list[int] | None = None
    vp: int | None = None
    victim: str | None = None
    solo: bool | None = None
    plays_on: Literal["side", "nation", "allies", "axis"] | None = None
    effect: str | None = None
    op_kind: Literal["convoy", "battle"] | None = None
    year: int | None = None
    load: Literal["empty", "half", "full"] | None = None
    battle_type: list[Literal["air", "surface", "sub"]] | None = None
    air_bonus: bool = False

    @field_validator("air", "surface", "sub")
    @classmethod
    def _value_range(cls, value: Value | None) -> Value | None:
        if isinstance(value, int) and not 0 <= value <= 6:
            raise ValueError("a combat value is 0–6, '?' or '??' (3.4)")
        return value

    @field_validator("years")
    @classmethod
    def _years(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and (not value or any(y not in YEARS for y in value)):
            raise ValueError("years are a non-empty list of 1940–1943 (2.2)")
        return value

    @model_validator(mode="after")
    def _by_kind(self) -> CardModel:
        prefix = self.id[0]
        need: list[str] = []
        if self.kind == "operation":
            if prefix != "O":
                raise ValueError("Operation cards are numbered O01–O44 (2.0)")
            need = ["op_kind", "year", "vp", "load"]
            if self.year is not None and self.year not in YEARS:
                raise ValueError("year: an Operation's year is 1940–1943 (2.1)")
            if self.vp is not None and not 1 <= self.vp <= 7:
                raise ValueError("vp: an Operation is worth 1 to 7 VP (1.1)")
            if self.op_kind == "battle" and not self.battle_type:
                raise ValueError("battle_type: a Battle card prints its engagement type (2.1, 6.4)")
            return self._require(need)
        if prefix == "O":
            raise ValueError("kind: O cards are Operations (2.0)")
        if self.kind == "storm":
            if prefix != "S":
                raise ValueError("Storm cards are numbered S01–S07 (2.0)")
            if self.effect != STORM_EFFECTS[self.id]:
                raise ValueError(f"effect: {self.id} is {STORM_EFFECTS[self.id]!r} (Explanation of significant cards)")
            return self
        if prefix == "S":
            raise ValueError("kind: S cards are Storm cards (2.0)")
        need = ["side", "nation"]
        expected_side = "allies" if prefix == "A" else "axis"
        if self.side is not None and self.side != expected_side:
            raise ValueError(f"side: {prefix} cards are {expected_side} (2.0)")
        nations = ALLIED_NATIONS if prefix == "A" else AXIS_NATIONS
        if self.nation is not None and self.nation not in nations:
            raise ValueError(f"nation: {quote(self.nation)} is not one of {', '.join(nations)} (2.2)")
        if self.kind == "force":
            need += ["frame", "air", "surface", "sub", "years", "vp"]
            if self.vp is not None and not 1 <= self.vp <= 5:
                raise ValueError("vp: a Force card is worth 1 to 5 VP (1.1)")
        elif self.kind == "bonus":
            need += ["frame", "air", "surface", "sub", "solo", "plays_on"]
            for field in ("air", "surface", "sub"):
                if isinstance(getattr(self, field), str):
                    raise ValueError(f"{field}: a Bonus value is a number 0–6")
        elif self.kind == "supply":
            if self.effect not in (None, "supply"):
                raise ValueError("effect: a Supply card has effect 'supply' (2.41)")
        else:
            allowed = ("raid", "intelligence", "admiral") if prefix == "A" else ("fuel", "intelligence", "admiral")
            if self.effect not in allowed:
                raise ValueError(f"effect: an {expected_side} Special card is one of {', '.join(allowed)} (2.4)")
        return self._require(need)

    def _require(self, fields: list[str]) -> CardModel:
        missing = [name for name in fields if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a {self.kind} card needs {', '.join(missing)}")
        return self


@dataclass(frozen=True)
class CardTable:
    """Compact card tables indexed by card number (0..120 Force-pile cards, 121..164 Operations)."""

    ids: tuple[str, ...]
    names: tuple[str, ...]
    kind: tuple[int, ...]
    side: tuple[int, ...]
    nation: tuple[str, ...]
    frame: tuple[int, ...]
    fixed: tuple[tuple[int, int, int], ...]  # fixed value per type (0 for ?)
    dice: tuple[tuple[int, int, int], ...]  # number of dice per type
    years: tuple[int, ...]  # bitmask of 1940.. -> bit 0..3
    vp: tuple[int, ...]
    victim: tuple[int, ...]  # card index of the Destiny victim, or -1
    solo: tuple[bool, ...]
    plays_on: tuple[int, ...]
    effect: tuple[int, ...]
    op_battle: tuple[bool, ...]
    op_year: tuple[int, ...]
    op_load: tuple[int, ...]
    op_type: tuple[int, ...]  # printed Battle type mask (6.4)
    op_air_bonus: tuple[bool, ...]
    index: dict[str, int]
    stand_in: bool

    @property
    def n_force_pile(self) -> int:
        return 121

    def label(self, card: int) -> str:
        return f"{self.ids[card]} {self.names[card]}"


def _order_key(card_id: str) -> tuple[int, int]:
    return ("AXSO".index(card_id[0]), int(card_id[1:]))


def expected_ids() -> list[str]:
    return ([f"A{i:02d}" for i in range(1, 60)] + [f"X{i:02d}" for i in range(1, 56)]
            + [f"S{i:02d}" for i in range(1, 8)] + [f"O{i:02d}" for i in range(1, 45)])


def load_cards(path: str | Path | None = None) -> CardTable:
    """Read and validate a deck file (the stand-in when `path` is None) into a `CardTable`.

    Cached by the file's content: an edited file is loaded again."""
    return load_card_file(path if path is not None else DEFAULT_CARDS, _build)


def _build(file: CardFile) -> CardTable:
    """The deck's tables, after every check of docs/cards/med-sirocco-deck-format.md."""
    label, data = file.label, file.data
    check_tables(data, ("deck", "cards"), label, "`deck = \"stand-in\"` (optional) and the `cards = [...]` array")
    if "cards" not in data:
        raise card_error(label, ["the file needs a `cards = [...]` array (see docs/cards/med-sirocco-deck-format.md)"])
    rows = rows_of(data, "cards", label)
    models = validate_cards(CardModel, rows, label)
    by_id: dict[str, CardModel] = {}
    for model in models:
        if model.id in by_id:
            raise card_error(label, [f"card {model.id}: field id: appears twice"])
        by_id[model.id] = model
    missing = [cid for cid in expected_ids() if cid not in by_id]
    if missing:
        raise card_error(label, [f"cards missing: {', '.join(missing[:10])} (2.0: A01–A59, X01–X55, S01–S07, "
                                 "O01–O44)"])
    problems = _deck_level_checks(by_id)
    if problems:
        raise card_error(label, problems)
    ordered = sorted(by_id.values(), key=lambda m: _order_key(m.id))
    index = {m.id: i for i, m in enumerate(ordered)}

    def value_parts(m: CardModel) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        fixed: list[int] = []
        dice: list[int] = []
        for v in (m.air, m.surface, m.sub):
            if isinstance(v, str):
                fixed.append(0)
                dice.append(len(v))
            else:
                fixed.append(v or 0)
                dice.append(0)
        return (fixed[0], fixed[1], fixed[2]), (dice[0], dice[1], dice[2])

    parts = [value_parts(m) for m in ordered]
    return CardTable(
        ids=tuple(m.id for m in ordered),
        names=tuple(m.name for m in ordered),
        kind=tuple(KIND_CODE[m.kind] for m in ordered),
        side=tuple(SIDE_CODE[m.side] if m.side else NEUTRAL for m in ordered),
        nation=tuple(m.nation or "none" for m in ordered),
        frame=tuple(FRAME_CODE[m.frame] if m.frame else 0 for m in ordered),
        fixed=tuple(p[0] for p in parts),
        dice=tuple(p[1] for p in parts),
        years=tuple(sum(1 << (y - 1940) for y in (m.years or YEARS)) for m in ordered),
        vp=tuple(m.vp or 0 for m in ordered),
        victim=tuple(index[m.victim] if m.victim else -1 for m in ordered),
        solo=tuple(bool(m.solo) for m in ordered),
        plays_on=tuple(ON_CODE[m.plays_on] if m.plays_on else ON_SIDE for m in ordered),
        effect=tuple(EFFECT_CODE[m.effect] if m.effect else (E_SUPPLY if m.kind == "supply" else E_NONE)
                     for m in ordered),
        op_battle=tuple(m.op_kind == "battle" for m in ordered),
        op_year=tuple(m.year or 0 for m in ordered),
        op_load=tuple(LOAD_CODE[m.load] if m.load else 0 for m in ordered),
        op_type=tuple(sum(FRAME_CODE[t] for t in set(m.battle_type)) if m.battle_type else ALL_TYPES for m in ordered),
        op_air_bonus=tuple(m.air_bonus for m in ordered),
        index=index,
        stand_in=data.get("deck") == "stand-in",
    )


def _deck_level_checks(by_id: dict[str, CardModel]) -> list[str]:
    """Counts and fixed numbers of the deck facts (2.3, 2.4, 2.41–2.46)."""
    problems: list[str] = []
    cards = list(by_id.values())
    bonus = [m for m in cards if m.kind == "bonus"]
    if len(bonus) != 19:
        problems.append(f"there must be 19 Bonus cards (2.3), found {len(bonus)}")
    if by_id["A53"].kind != "bonus" or by_id["A53"].plays_on != "axis":
        problems.append("card A53: field plays_on: A53 is a Bonus card playable on any Axis Force card (2.3)")
    if by_id["X54"].kind != "bonus" or by_id["X54"].plays_on != "allies":
        problems.append("card X54: field plays_on: X54 is a Bonus card playable on any Allied Force card (2.3)")
    if by_id["X55"].nation != "romanian":
        problems.append("card X55: field nation: X55 carries the Romanian flag (2.2)")
    for m in cards:
        if m.nation == "romanian" and m.id != "X55":
            problems.append(f"card {m.id}: field nation: only X55 is Romanian (2.2)")
        if m.kind == "bonus" and m.plays_on == "axis" and m.id != "A53":
            problems.append(f"card {m.id}: field plays_on: only A53 plays on Axis cards from the Allied side (2.3)")
        if m.kind == "bonus" and m.plays_on == "allies" and m.id != "X54":
            problems.append(f"card {m.id}: field plays_on: only X54 plays on Allied cards from the Axis side (2.3)")
        if m.victim is not None:
            if m.kind != "force":
                problems.append(f"card {m.id}: field victim: only Force cards are Destiny cards (3.3)")
            elif m.victim not in by_id:
                problems.append(f"card {m.id}: field victim: {quote(m.victim)} is not a card of the deck")
    for side, prefix in (("allies", "A"), ("axis", "X")):
        mine = [m for m in cards if m.id[0] == prefix]
        for effect, count in (("supply", 1), ("intelligence", 1), ("admiral", 1)):
            found = [m for m in mine if (m.kind == "supply" if effect == "supply" else m.effect == effect)]
            if len(found) != count:
                problems.append(f"the {side} need exactly {count} {effect} card (2.4), found {len(found)}")
        special = "raid" if prefix == "A" else "fuel"
        if sum(1 for m in mine if m.effect == special) != 1:
            problems.append(f"the {side} need exactly one {special} card (2.42/2.43)")
    for n in (32, 34, 36, 38):
        if not by_id[f"O{n}"].air_bonus:
            problems.append(f"card O{n}: field air_bonus: O32, O34, O36, O38 give +1 Air (Explanation of significant cards)")
    for m in cards:
        if m.air_bonus and m.id not in ("O32", "O34", "O36", "O38"):
            problems.append(f"card {m.id}: field air_bonus: only O32, O34, O36, O38 give +1 Air")
    return problems
