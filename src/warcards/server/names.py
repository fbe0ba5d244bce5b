"""Display names (docs/server.md, "Names"): the name a person sits under, checked before it is stored, and
the names the server gives bots and deleted accounts.

A name is read as text a person typed: NFC-normalised, every space separator read as a plain space, runs of
spaces collapsed and the ends trimmed; then it must be 1 to `MAX_NAME` characters of the Unicode categories
letters, marks, numbers, punctuation and symbols, and plain spaces. Refused: control, format (every bidi
control, zero-width spaces and joiners), private-use, unassigned and surrogate characters, line and
paragraph separators, the "letters" that draw nothing (Hangul fillers, the braille blank), a first character
that is a combining mark, and any name that reads as a bot's ("Bot", "bot·x", "B0T", "Mr Bot") or as the
neutral name of a deleted account ("Deleted player"). The engine never sees a name: it keeps seat numbers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from warcards.server.protocol import SeatPlayer

if TYPE_CHECKING:
    from warcards.server.db import SeatInfo

MAX_NAME = 24
"""The longest display name, in characters (code points, after normalisation)."""

MAX_NAME_INPUT = 1_000
"""The longest text a join may send as a name (before normalisation); the checks say what is wrong below it."""

DELETED_NAME = "Deleted player"
"""The neutral name a deleted account's seats are shown under (no person may take it)."""

BOT_LEVEL_WORDS = frozenset({"random", "heuristic", "beginner", "easy", "medium", "hard", "expert"})
"""Words that, after "bot", make a name read as one of our bots ("Bot hard")."""

RULE = (
    f"a display name is 1 to {MAX_NAME} characters: letters, marks, numbers, punctuation, symbols and single "
    "spaces; no control, format (bidi or zero-width), private-use or unassigned characters, and not a bot's "
    f"name or {DELETED_NAME!r}"
)
"""What is allowed, said with every refusal."""

REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "a format character (bidi controls and zero-width characters are not allowed)",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
    "Cs": "a surrogate",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}

INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
"""Characters of allowed categories that draw nothing: a name of them would look empty."""

LOOK_ALIKES = str.maketrans({
    "0": "o", "1": "l", "2": "z", "3": "e", "4": "a", "5": "s", "6": "b", "7": "t", "8": "b", "9": "g",
    "в": "b", "о": "o", "т": "t", "е": "e", "а": "a", "р": "p", "с": "c", "у": "y", "і": "i", "ј": "j",
    "β": "b", "ο": "o", "τ": "t", "ε": "e", "α": "a", "ρ": "p", "ι": "i", "κ": "k", "ν": "v",
})
"""Digits and Cyrillic/Greek letters that pass for Latin letters (casefolded): "B0T" and "Вот" read "bot"."""


class NameRefused(ValueError):
    """A display name that may not be used; the message says what is wrong and what is allowed."""


def check_display_name(given: str) -> str:
    """The display name `given` as it is stored and shown, or `NameRefused` saying what is wrong."""
    text = unicodedata.normalize("NFC", given).strip()
    for char in text:
        why = REFUSED_CATEGORIES.get(unicodedata.category(char))
        if why is not None:
            raise NameRefused(f"this name holds {_named(char)}, {why}; {RULE}")
        if char in INVISIBLE:
            raise NameRefused(f"this name holds {_named(char)}, which draws nothing; {RULE}")
    name = re.sub(" +", " ", "".join(" " if unicodedata.category(c) == "Zs" else c for c in text)).strip(" ")
    if not name:
        raise NameRefused(f"this name is empty; {RULE}")
    if len(name) > MAX_NAME:
        raise NameRefused(f"this name is {len(name)} characters long; {RULE}")
    if unicodedata.category(name[0]).startswith("M"):
        raise NameRefused(f"this name starts with a combining mark ({_named(name[0])}); {RULE}")
    if reads_as_bot(name):
        raise NameRefused(f"this name reads as a bot's name (bots are shown as \"{bot_name('hard')}\"); {RULE}")
    if skeleton(name) == skeleton(DELETED_NAME):
        raise NameRefused(f"this name reads as {DELETED_NAME!r}, the name of deleted accounts; {RULE}")
    return name


def skeleton(name: str, look_alikes: bool = True) -> str:
    """The letters and digits of `name` as they read: compatibility-decomposed, marks dropped, casefolded,
    look-alike digits and letters mapped to the Latin letter they pass for (unless `look_alikes` is False);
    punctuation, symbols and spaces become word breaks (single spaces)."""
    decomposed = unicodedata.normalize("NFKD", name)
    kept = "".join(
        char if unicodedata.category(char)[0] in "LN" else " "
        for char in decomposed
        if not unicodedata.category(char).startswith("M")
    )
    folded = kept.casefold()
    return " ".join((folded.translate(LOOK_ALIKES) if look_alikes else folded).split())


def reads_as_bot(name: str) -> bool:
    """The name passes for a bot's: a word of it is "bot"/"bots" (look-alikes mapped), or its letters are
    "bot" alone or followed by digits or a level ("B.O.T.", "bot2", "Bothard")."""
    words = skeleton(name).split(" ")
    if any(word in ("bot", "bots") for word in words):
        return True
    joined = "".join(words)
    if not joined.startswith("bot"):
        return False
    rest = joined[3:]
    as_typed = "".join(skeleton(name, look_alikes=False).split(" "))[3:]  # the mapping keeps lengths
    return rest in BOT_LEVEL_WORDS or rest in ("", "s") or as_typed.isdigit()


def bot_name(level: str | None) -> str:
    """How a bot is named at the table: "Bot · hard" (its level)."""
    return f"Bot · {level}" if level else "Bot"


def seat_display_name(kind: str, level: str | None, name: str | None) -> str | None:
    """The name a seat is shown under: a bot's "Bot · LEVEL", a person's stored name (None while open)."""
    if kind == "bot":
        return bot_name(level)
    return name


def seat_players(seats: Sequence[SeatInfo], seat_names: Sequence[str]) -> list[SeatPlayer]:
    """Who sits in each seat, as `welcome`, `end`, the record and the replay name them: the game's side,
    the display name (None while open), a person or a bot, and a bot's level."""
    return [
        SeatPlayer(
            seat=seat.seat, seat_name=seat_names[seat.seat], kind=seat.kind,  # type: ignore[arg-type]  # the store's kind column is a str; it holds only the lobby's checked 'person' or 'bot'
            name=seat_display_name(seat.kind, seat.level, seat.name if seat.taken else None), level=seat.level,
        )
        for seat in seats
    ]


def _named(char: str) -> str:
    """A character as a refusal names it: U+202E (RIGHT-TO-LEFT OVERRIDE)."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} ({name})" if name else f"U+{ord(char):04X}"
