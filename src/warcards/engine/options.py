"""Declared game options: each has a name, a default, the allowed values and a line of documentation.

`load_game(game_id, **options)` validates the caller's options against the game's specs and raises an
`OptionError` that names the option and its allowed values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warcards.engine.errors import OptionError
from warcards.engine.text import quote


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: `allowed` is a sequence of values, or None with a `kind` for free values."""

    name: str
    default: Any
    doc: str
    allowed: Sequence[Any] | None = None
    kind: type | None = None

    def describe_allowed(self) -> str:
        if self.allowed is not None:
            return ", ".join(repr(v) for v in self.allowed)
        return f"any {self.kind.__name__ if self.kind else 'value'}"

    def check(self, game_id: str, value: Any) -> Any:
        if value is None and self.default is None:
            # The default of an optional value (e.g. no card file) is always allowed, so a game's own resolved
            # options (as kept in a match record) load again.
            return None
        if self.allowed is not None:
            # Accept a string form of an int/bool choice from the command line ("4" for 4, "true" for True).
            for candidate in self.allowed:
                if value == candidate and type(value) is type(candidate):
                    return candidate
                if isinstance(value, str) and _text_matches(value, candidate):
                    return candidate
            raise OptionError(
                f"{game_id}: option {self.name}={quote(value)} is not allowed; allowed values: "
                f"{self.describe_allowed()}"
            )
        if self.kind is not None and not isinstance(value, self.kind):
            raise OptionError(f"{game_id}: option {self.name}={quote(value)} must be {self.describe_allowed()}")
        return value


PATH_QUOTE = 160
"""How many characters of a file path a message quotes (paths are longer than typed values)."""


def _text_matches(text: str, candidate: Any) -> bool:
    if isinstance(candidate, bool):
        return text.lower() in (("true", "yes", "1") if candidate else ("false", "no", "0"))
    if isinstance(candidate, int):
        return text.strip() == str(candidate)
    return text == str(candidate)


def resolve_options(game_id: str, specs: Sequence[OptionSpec], given: Mapping[str, Any]) -> dict[str, Any]:
    """Return the full option dict (defaults filled in), or raise `OptionError` for a bad option."""
    by_name = {spec.name: spec for spec in specs}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        raise OptionError(
            f"{game_id}: unknown option {quote(unknown[0])}; options are: "
            + ", ".join(f"{s.name} ({s.describe_allowed()}; default {s.default!r})" for s in specs)
        )
    resolved = {spec.name: spec.default for spec in specs}
    for name, value in given.items():
        resolved[name] = by_name[name].check(game_id, value)
    return resolved
