"""Untrusted text at the engine's edge: one length cap, one bare-number parser, short quotes in messages.

Everything a person or a program types reaches the engine as text; these helpers keep every game's parser
linear in time and every message short, whatever was sent.
"""

from __future__ import annotations

import reprlib

MAX_ACTION_TEXT = 200
"""The longest action text the engine parses; anything longer is refused before any game sees it."""

QUOTE_LIMIT = 40
"""How many characters of an input a message quotes at most."""

_ASCII_DIGITS = frozenset("0123456789")

_SHORT_REPR = reprlib.Repr()
"""Bounded reprs of containers (a list of a million items is shown by its first few)."""
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = QUOTE_LIMIT


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """Any value for a message, cut to a short prefix: text quoted (`'abc'`), anything else as its repr,
    an integer too long to print (Python refuses ints over 4,300 digits) by its size."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}… ({len(value) - limit} more characters)"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"<an integer of {value.bit_length()} bits>"
    try:
        text = _SHORT_REPR.repr(value)
    except (ValueError, RecursionError):
        return f"<a {type(value).__name__}>"
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more characters)"


def quote_path(path: object, limit: int = QUOTE_LIMIT * 2) -> str:
    """A file path for a message: quoted whole when short, else its END (the file's own name and the folders
    nearest it, what tells a person which file it is) behind an ellipsis; anything else as `quote` shows it."""
    if not isinstance(path, str):
        return quote(path, limit)
    if len(path) <= limit:
        return repr(path)
    return repr("…" + path[len(path) - limit :])


def parse_bare_number(text: str, stop: int) -> int | None:
    """The number `text` spells in ASCII digits if it lies in `range(stop)`; None if it is no bare number.

    Raises `ValueError` naming the allowed range when `text` is a bare number outside it, so a number typed
    out of range is never mistaken for notation. Cheap for any length: over-long digit strings are refused
    by their length before `int()` sees them."""
    if not text or not all(char in _ASCII_DIGITS for char in text):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(max(stop - 1, 0))) or int(digits) >= stop:
        raise ValueError(f"{quote(text)} is out of range: numbers here are 0..{stop - 1}")
    return int(digits)
