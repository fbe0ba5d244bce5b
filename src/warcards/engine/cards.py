"""Loading card data files: one checked path from a file name to a game's card tables.

Every game reads its card file through `load_card_file`: a regular file only (never a folder, a named pipe or
a device, which are refused without being opened for reading), at most `MAX_CARD_FILE_BYTES`, UTF-8 text,
TOML parsed with the standard library, rows validated by a pydantic schema. Every failure is a
`CardDataError` that names the file as the user gave it (quoted short), the card and the field, in at most
`MAX_MESSAGE` characters. Loaded tables are cached by the file's content, so an edited file is read again.
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
import stat
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from warcards.engine.errors import CardDataError, OptionError
from warcards.engine.text import quote, quote_path

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

MAX_CARD_FILE_BYTES = 1 << 20
"""The largest card file read: 1 MiB (the shipped files are under 30 kB)."""

MAX_KEY_PARTS = 8
"""A dotted key (`a.b.c`) has at most this many parts: the TOML parser's time grows with the square of a key's
depth. Text that reads like a longer dotted key (`a.b.c.d.e.f.g.h.i`) is refused too, wherever it stands."""

_KEY_PART = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]++|\\.)*+"|'[^'\n]*+')"""
_LONG_DOTTED_KEY = re.compile(
    r"""(?<![A-Za-z0-9_"'\\-])""" + _KEY_PART + r"(?:[ \t]*+\.[ \t]*+" + _KEY_PART + f"){{{MAX_KEY_PARTS}}}"
)
"""A chain of more than `MAX_KEY_PARTS` key parts joined by dots; possessive, so the search is linear."""

MAX_MESSAGE = 300
"""The longest message a card-file error carries."""

MAX_PATH_SHOWN = 80
"""How many characters of the file's path a message quotes (the end of a longer path)."""

MAX_ID_LENGTH = 24
"""The longest card id (or play-card code) any game accepts."""

MAX_NAME_LENGTH = 80
"""The longest card (or deck) name any game accepts."""

_CACHE_SIZE = 32
_cache: OrderedDict[tuple[str, str], Any] = OrderedDict()
_cache_lock = threading.Lock()


@dataclass(frozen=True)
class CardFile:
    """A card file read and parsed: its top-level TOML tables, how messages name it, its content digest."""

    data: dict[str, Any]
    label: str
    """`card file '<name as given>'`, the prefix of every message about this file."""
    digest: str
    """SHA-256 of the file's bytes (hex): the same digest, the same deck."""


def file_label(path: object) -> str:
    """How a message names a card file: the name the user gave, quoted short (a long path by its end, which
    holds the file's own name)."""
    shown = os.fspath(path) if isinstance(path, (str, os.PathLike)) else path
    return f"card file {quote_path(shown, MAX_PATH_SHOWN)}"


def card_file_option(game_id: str, value: object) -> str | Path | None:
    """The `cards` option checked: None (the shipped deck) or a non-empty path; `OptionError` otherwise."""
    if value is None:
        return None
    if isinstance(value, Path):
        return value
    if not isinstance(value, str):
        raise OptionError(f"{game_id}: option cards={quote(value)} must be a path (the name of a card file), or None "
                          f"for the shipped deck")
    if not value.strip():
        raise OptionError(f"{game_id}: option cards={quote(value)} is empty: give the path of a card file, or "
                          f"leave the option out (None) for the shipped deck")
    return value


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _refuse(label: str, why: str) -> CardDataError:
    return CardDataError(bounded(f"{label} {why}"))


def _check_regular(info: os.stat_result, label: str) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(label, f"is {_file_kind(info.st_mode)}; a card file is a regular UTF-8 TOML file")
    if info.st_size > MAX_CARD_FILE_BYTES:
        raise _refuse(label, f"holds {info.st_size} bytes; a card file holds at most {MAX_CARD_FILE_BYTES} "
                             f"bytes (1 MiB)")


def read_card_bytes(path: object) -> bytes:
    """The bytes of a regular card file of at most 1 MiB, or `CardDataError` saying what the path is instead.

    The path is checked with `os.stat` before it is opened, and opened without blocking, so a named pipe or a
    device never makes the caller wait."""
    label = file_label(path)
    if not isinstance(path, (str, os.PathLike)):
        raise _refuse(label, "is not a path: give the name of a card file as text")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise _refuse(label, "is not a path: give the name of a card file as text")
    if not name:
        raise _refuse(label, "has an empty name: give the path of a card file")
    if "\0" in name:
        raise _refuse(label, "has a NUL character in its name; no file is named so")
    handle = -1  # opened below only for a regular file of at most 1 MiB
    try:
        info = os.stat(name)
        if stat.S_ISREG(info.st_mode) and info.st_size <= MAX_CARD_FILE_BYTES:
            handle = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise _refuse(label, "does not exist") from None
    except NotADirectoryError:
        raise _refuse(label, "does not exist (a part of its path is not a folder)") from None
    except PermissionError:
        raise _refuse(label, "cannot be read: permission denied") from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or type(error).__name__
        raise _refuse(label, f"cannot be read: {reason}") from None
    _check_regular(info, label)
    try:
        _check_regular(os.fstat(handle), label)
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_CARD_FILE_BYTES:
            chunk = os.read(handle, MAX_CARD_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise _refuse(label, f"cannot be read: {error.strerror or type(error).__name__}") from None
    finally:
        os.close(handle)
    if size > MAX_CARD_FILE_BYTES:
        raise _refuse(label, f"holds more than {MAX_CARD_FILE_BYTES} bytes; a card file holds at most 1 MiB")
    return b"".join(chunks)


def parse_card_text(raw: bytes, label: str) -> dict[str, Any]:
    """The TOML tables of a card file's bytes: UTF-8 (a byte-order mark is allowed), valid TOML, shallow keys.

    Linear in the file: about a second or two for the largest file (1 MiB) whatever it holds."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _refuse(label, f"is not UTF-8 text (byte {error.start} is {raw[error.start]:#04x}); save it as "
                             f"UTF-8") from None
    deep = _LONG_DOTTED_KEY.search(text)
    if deep is not None:
        line = text.count("\n", 0, deep.start()) + 1
        raise _refuse(label, f"line {line} holds a dotted key of more than {MAX_KEY_PARTS} parts "
                             f"({quote(deep.group())}); a card file needs no deeper keys")
    collecting = gc.isenabled()
    gc.disable()  # the parser makes many small containers and no cycles: collecting them makes it superlinear
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise _refuse(label, f"is not valid TOML: {error}") from None
    except RecursionError:
        raise _refuse(label, "is not a card file: its arrays or tables are nested too deeply") from None
    except ValueError as error:
        raise _refuse(label, f"is not valid TOML: {str(error)[:80]}") from None
    finally:
        if collecting:
            gc.enable()


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a card file through every check of `read_card_bytes` and `parse_card_text`."""
    return parse_card_text(read_card_bytes(path), file_label(path))


def load_card_file(path: str | Path, build: Callable[[CardFile], T]) -> T:
    """The card tables `build` makes of the file at `path`, cached by the file's content (an edited file is
    built again; the same content is not). `build` raises `CardDataError` for a deck it refuses."""
    raw = read_card_bytes(path)
    digest = hashlib.sha256(raw).hexdigest()
    key = (f"{build.__module__}.{build.__qualname__}", digest)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]  # type: ignore[no-any-return]  # the cache holds each builder's own result, of the type it returns
    label = file_label(path)
    built = build(CardFile(parse_card_text(raw, label), label, digest))
    with _cache_lock:
        _cache[key] = built
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return built


def bounded(message: str) -> str:
    """`message` cut to `MAX_MESSAGE` characters."""
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def card_error(label: str, problems: Sequence[str]) -> CardDataError:
    """One `CardDataError` for a file's problems: as many as fit in `MAX_MESSAGE` characters, then a count."""
    head = f"{label}: "
    shown: list[str] = []
    used = len(head)
    for problem in problems:
        if shown and used + 2 + len(problem) + 20 > MAX_MESSAGE:
            break
        shown.append(problem)
        used += len(problem) + (2 if len(shown) > 1 else 0)
    more = len(problems) - len(shown)
    tail = f" (and {more} more)" if more else ""
    message = head + "; ".join(shown)
    if len(message) + len(tail) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - len(tail) - 1] + "…"
    return CardDataError(message + tail)


def name_of(value: object) -> str:
    """A card's id, name or field as a message shows it: plain when short and simple, else quoted short."""
    if isinstance(value, str) and 0 < len(value) <= MAX_ID_LENGTH and value.replace(" ", "").isprintable() \
            and not any(char in value for char in ";:'\""):
        return value
    return quote(value)


def rows_of(data: dict[str, Any], table: str, label: str) -> list[Any]:
    """The rows of the array of tables `table` (`[[table]]`, none when absent); a scalar or a single table in
    its place is refused."""
    rows = data.get(table)
    if rows is None:
        return []
    if not isinstance(rows, list):
        raise card_error(label, [f"field {table}: must be an array of [[{table}]] tables, not "
                                 f"{_toml_kind(rows)}"])
    return rows


def _toml_kind(value: object) -> str:
    kinds = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", dict: "a single table"}
    return kinds.get(type(value), f"a {type(value).__name__}")


def check_count(label: str, what: str, count: int, low: int, high: int, why: str) -> None:
    """Refuse a deck with fewer than `low` or more than `high` of `what` (the game's bounds, `why`)."""
    if not low <= count <= high:
        raise card_error(label, [f"the deck holds {count} {what}; a playable deck holds {low} to {high} ({why})"])


def check_tables(data: dict[str, Any], allowed: Sequence[str], source: str, holds: str) -> None:
    """Refuse a top-level table or key the game's format does not have (a misspelt `[[crad]]` would
    otherwise be ignored and the file played without it); `holds` says what the file holds."""
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise card_error(source, [f"unknown table(s) {', '.join(name_of(u) for u in unknown[:3])}; the file holds "
                                  f"{holds}"])


def validate_cards(model: type[M], rows: Sequence[Any], source: str, key: str = "id") -> list[M]:
    """Validate each row with `model`, strictly: a value of the wrong TOML type is refused, not converted
    (`reinforce = 'yes'` is no boolean, `score = "3"` no number); the error names the source, the card
    (by `key`) and the field.

    `source` is the file's label (`file_label`). Rows are validated in one pass (linear in the file)."""
    if not isinstance(rows, list):
        raise card_error(source, [f"the cards must be an array of tables, not {_toml_kind(rows)}"])
    cards: list[M] = []
    problems: list[str] = []
    for index, row in enumerate(rows):
        label = name_of(row.get(key)) if isinstance(row, dict) and key in row else f"#{index + 1}"
        try:
            cards.append(model.model_validate(row, strict=True))
        except ValidationError as error:
            for problem in error.errors(include_url=False, include_input=False):
                field = ".".join(name_of(str(part)) for part in problem["loc"]) or "(card)"
                message = problem["msg"]
                if problem["type"] == "string_pattern_mismatch":
                    described = model.model_fields.get(str(problem["loc"][0]))
                    if described is not None and described.description:
                        message = described.description
                problems.append(f"card {label}: field {field}: {message[:120]}")
    if problems:
        raise card_error(source, problems)
    return cards
