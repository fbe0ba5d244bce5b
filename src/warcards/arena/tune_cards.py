"""Card fields in a tuning study, and the per-card impact objective (docs/tuning.md).

A search space may vary named numeric fields of named cards (`[cards.X01] force = {low = 1, high = 5}`). Each
trial writes the game's own card file with those fields changed (the file as TOML, comments dropped) and plays
with `cards=<that file>`, so the game's strict loader checks every value as it would a designer's file.

The impact of a card is read from the records a trial plays: replaying each record, a seat *plays* a card when
its own action's notation names the card's id (the first id it names; a discard is not a play). Among the
seats that played the card in some game, the card's impact is the distance between such a seat's win share in
the games where it played the card and in the games where it did not.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warcards.engine.api import Game
from warcards.engine.errors import WarcardsError
from warcards.engine.text import quote
from warcards.match import MatchRecord
from warcards.simulate import win_shares

CARD_KEYS = ("id", "code")
"""The field that names a card in a card file's rows (`code` for Naval War's play cards)."""

FIELD_SEPARATOR = "."
"""A card field's name in a study's settings: `CARD.FIELD` (`X01.force`, `SALVO12.6x2.value`: the field is after
the last dot); rule parameters and card fields have no dot."""

IMPACT_MIN_GAMES = 10
"""A card counts toward the impact objective once it was played in, and left unplayed in, this many games
(of the seats that played it): fewer say nothing but noise."""


class CardFieldError(WarcardsError):
    """A card field of a search space that the game's card file does not have, or cannot take."""


def card_key(card: str, name: str) -> str:
    return f"{card}{FIELD_SEPARATOR}{name}"


def split_setting(setting: Mapping[str, int]) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """A study's setting as (rule parameters, {card: {field: value}})."""
    params: dict[str, int] = {}
    cards: dict[str, dict[str, int]] = {}
    for name, value in setting.items():
        if FIELD_SEPARATOR in name:
            card, field_name = name.rsplit(FIELD_SEPARATOR, 1)  # a card id may hold a dot (SALVO12.6x2)
            cards.setdefault(card, {})[field_name] = value
        else:
            params[name] = value
    return params, cards


def shipped_card_file(game: Game) -> Path:
    """The card file a game plays without a `cards` option: `cards.toml` beside its module."""
    path = Path(inspect.getfile(type(game))).with_name("cards.toml")
    if not path.is_file():
        raise CardFieldError(f"{game.game_id} has no shipped card file; give options.cards in the search space")
    return path


def card_rows(data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every card row of a parsed card file by its id: the rows of each top-level array of tables."""
    rows: dict[str, dict[str, Any]] = {}
    for value in data.values():
        if isinstance(value, list):
            for row in value:
                if isinstance(row, dict):
                    name = next((row[key] for key in CARD_KEYS if isinstance(row.get(key), str)), None)
                    if name is not None:
                        rows.setdefault(name, row)
    return rows


def card_defaults(data: Mapping[str, Any], fields: Mapping[str, Iterable[str]], label: str) -> dict[str, int]:
    """The current value of every searched card field (`CARD.FIELD`), or `CardFieldError` naming the card and
    the field: a card the file does not hold, a field the card does not have, or one that is not a whole
    number."""
    rows = card_rows(data)
    defaults: dict[str, int] = {}
    for card, names in fields.items():
        row = rows.get(card)
        if row is None:
            some = ", ".join(sorted(rows)[:6])
            raise CardFieldError(f"{label}: unknown card {quote(card)} in the search space; cards are named by "
                                 f"their id ({some}, … {len(rows)} in all)")
        numeric = sorted(k for k, v in row.items() if isinstance(v, int) and not isinstance(v, bool))
        for name in names:
            if name not in row:
                raise CardFieldError(f"{label}: card {card} has no field {quote(name)}; its numeric fields are: "
                                     f"{', '.join(numeric) or 'none'}")
            if name not in numeric:
                raise CardFieldError(f"{label}: card {card} field {name} is {quote(row[name])}, not a whole "
                                     f"number; the tuner varies numbers only ({', '.join(numeric) or 'none'})")
            defaults[card_key(card, name)] = row[name]
    return defaults


def with_card_values(data: Mapping[str, Any], cards: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """A copy of a parsed card file with these card fields changed."""
    copy: dict[str, Any] = json.loads(json.dumps(data))
    rows = card_rows(copy)
    for card, values in cards.items():
        rows[card].update(values)
    return copy


def write_card_file(data: Mapping[str, Any], cards: Mapping[str, Mapping[str, int]], folder: Path,
                    note: str) -> Path:
    """The card file with these fields changed, written once under `folder` by its content's digest."""
    text = f"# {note}\n" + dump_toml(with_card_values(data, cards))
    path = folder / f"cards-{hashlib.sha256(text.encode()).hexdigest()[:16]}.toml"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")  # workers sharing the folder each write their own
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    return path


# ----- TOML out (the card files hold strings, numbers, booleans, arrays and tables) -------------------------
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else json.dumps(name, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {type(value).__name__}")


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def dump_toml(data: Mapping[str, Any]) -> str:
    """TOML text that `tomllib.loads` reads back to `data` (top-level tables and arrays of tables; anything
    deeper inline)."""
    lines = [f"{_key(k)} = {_value(v)}" for k, v in data.items()
             if not isinstance(v, dict) and not _is_table_array(v)]
    for name, value in data.items():
        if isinstance(value, dict):
            lines += ["", f"[{_key(name)}]"] + [f"{_key(k)} = {_value(v)}" for k, v in value.items()]
        elif _is_table_array(value):
            for row in value:
                lines += ["", f"[[{_key(name)}]]"] + [f"{_key(k)} = {_value(v)}" for k, v in row.items()]
    return "\n".join(lines) + "\n"


# ----- the per-card impact ------------------------------------------------------------------------------------
def cards_played(game: Game, record: MatchRecord, card_ids: frozenset[str]) -> list[set[str]]:
    """The cards each seat played in the record's game: a seat's own action whose notation names a card id
    (the first it names; `SALVO14x1-2`, a copy, names `SALVO14x1`), other than a discard."""
    played: list[set[str]] = [set() for _ in range(game.num_players)]
    state = game.new_initial_state()
    for action in record.actions:
        seat = state.current_player()
        if seat >= 0:
            words = state.action_to_string(action).split()
            if words and words[0].lower() != "discard":
                card = next((_card_of(word, card_ids) for word in words if _card_of(word, card_ids)), None)
                if card is not None:
                    played[seat].add(card)
        state.apply_action(action)
    return played


def _card_of(word: str, card_ids: frozenset[str]) -> str | None:
    word = word.strip("(),;:")
    if word in card_ids:
        return word
    base = word.rsplit("-", 1)[0]
    return base if base in card_ids else None


@dataclass
class CardImpact:
    """The cards each seat played in each game of a setting, with the seat's win share there."""

    games: list[tuple[list[float], list[set[str]]]] = field(default_factory=list)

    def add(self, game: Game, records: Sequence[MatchRecord], card_ids: frozenset[str]) -> None:
        for record in records:
            self.games.append((win_shares(record.returns), cards_played(game, record, card_ids)))

    def impacts(self, minimum: int = IMPACT_MIN_GAMES) -> dict[str, tuple[float, int]]:
        """Each card's impact with the seat it was measured for: of the seats that played the card, the
        largest distance between the seat's win share in games where it played the card and in games where
        it did not, counting only seats with `minimum` games of each."""
        found: dict[str, tuple[float, int]] = {}
        seats = len(self.games[0][0]) if self.games else 0
        cards = {card for _, played in self.games for hand in played for card in hand}
        for card in sorted(cards):
            for seat in range(seats):
                with_card = [shares[seat] for shares, played in self.games if card in played[seat]]
                without = [shares[seat] for shares, played in self.games if card not in played[seat]]
                if len(with_card) < minimum or len(without) < minimum:
                    continue
                impact = abs(sum(with_card) / len(with_card) - sum(without) / len(without))
                if card not in found or impact > found[card][0]:
                    found[card] = (impact, seat)
        return found

    def largest(self, minimum: int = IMPACT_MIN_GAMES) -> tuple[str | None, float]:
        """The card of the largest impact and that impact (None, 0.0 when no card was played enough)."""
        impacts = self.impacts(minimum)
        if not impacts:
            return None, 0.0
        card = max(impacts, key=lambda name: (impacts[name][0], name))
        return card, impacts[card][0]
