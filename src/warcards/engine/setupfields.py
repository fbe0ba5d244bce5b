"""Typed reads of a scenario setup's position fields, shared by every game's `state_from_setup`.

A setup comes from a file or a program we do not control: each field is read with the shape it must have,
and a value of another shape or out of range raises `SetupError` naming the field, what it holds (a short
quote) and what is allowed, never a `TypeError` from deep inside the rules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from warcards.engine.errors import SetupError
from warcards.engine.text import QUOTE_LIMIT, quote

_MISSING = object()


def show(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A value from a setup as short JSON text for a message (at most `limit` characters, then how many more)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = quote(value, limit)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more characters)"


def _bad(prefix: str, name: str, value: Any, wanted: str) -> SetupError:
    return SetupError(f"{prefix}position field {name!r}: expected {wanted}, got {show(value)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bounds(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"an integer {low}..{high}"
    if low is not None:
        return f"an integer >= {low}"
    return "an integer"


def int_field(position: Mapping[str, Any], name: str, default: int, low: int | None = None,
              high: int | None = None, prefix: str = "setup: ") -> int:
    """`position[name]` as an integer in `low..high` (either end open when None), or `default`."""
    value = position.get(name, _MISSING)
    if value is _MISSING:
        return default
    if not _is_int(value) or (low is not None and value < low) or (high is not None and value > high):
        raise _bad(prefix, name, value, _bounds(low, high))
    return int(value)


def int_list_field(position: Mapping[str, Any], name: str, length: int, low: int | None = None,
                   high: int | None = None, prefix: str = "setup: ") -> list[int] | None:
    """`position[name]` as a list of `length` integers in `low..high`, or None when the field is absent."""
    value = position.get(name, _MISSING)
    if value is _MISSING:
        return None
    if not (isinstance(value, list) and len(value) == length and all(
            _is_int(v) and (low is None or v >= low) and (high is None or v <= high) for v in value)):
        raise _bad(prefix, name, value, f"a list of {length} items, each {_bounds(low, high)}")
    return [int(v) for v in value]


def str_field(position: Mapping[str, Any], name: str, default: str | None,
              prefix: str = "setup: ") -> str | None:
    """`position[name]` as a string, or `default`."""
    value = position.get(name, _MISSING)
    if value is _MISSING:
        return default
    if not isinstance(value, str):
        raise _bad(prefix, name, value, "a string")
    return value


def str_list_field(position: Mapping[str, Any], name: str, prefix: str = "setup: ") -> list[str]:
    """`position[name]` as a list of strings (empty when absent)."""
    value = position.get(name, [])
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise _bad(prefix, name, value, "a list of strings")
    return list(value)


def mapping_field(position: Mapping[str, Any], name: str, values: type, prefix: str = "setup: ") -> dict[str, Any]:
    """`position[name]` as an object whose values are all of type `values` (`int` excludes booleans; `list`
    means a list of strings); empty when absent."""
    value = position.get(name, {})
    wanted = {int: "integers", str: "strings", list: "lists of strings"}.get(values, values.__name__)

    def fits(item: Any) -> bool:
        if values is int:
            return _is_int(item)
        if values is list:
            return isinstance(item, list) and all(isinstance(v, str) for v in item)
        return isinstance(item, values)

    if not (isinstance(value, dict) and all(isinstance(k, str) and fits(v) for k, v in value.items())):
        raise _bad(prefix, name, value, f"an object whose values are {wanted}")
    return dict(value)


def setup_parts(setup: Any, prefix: str = "setup: ") -> tuple[dict[str, Any], dict[str, Any]]:
    """The `zones` (zone -> list of card ids, or "rest") and `position` of a setup, checked for shape only."""
    if not isinstance(setup, Mapping):
        raise SetupError(f"{prefix}a setup is an object with 'zones' and 'position', got {show(setup)}")
    unknown = [key for key in setup if key not in ("zones", "position")]
    if unknown:
        raise SetupError(f"{prefix}unknown key {quote(unknown[0])}; a setup has 'zones' and 'position'")
    zones = setup.get("zones") or {}
    position = setup.get("position") or {}
    if not isinstance(zones, Mapping) or not all(isinstance(k, str) for k in zones):
        raise SetupError(f"{prefix}'zones' must be an object (zone name -> card ids), got {show(zones)}")
    for zone, cards in zones.items():
        if cards != "rest" and not (isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
            raise SetupError(f"{prefix}zone {quote(zone)} must be a list of card ids or \"rest\", got {show(cards)}")
    if not isinstance(position, Mapping) or not all(isinstance(k, str) for k in position):
        raise SetupError(f"{prefix}'position' must be an object (field -> value), got {show(position)}")
    return dict(zones), dict(position)
