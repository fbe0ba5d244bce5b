"""Rule parameters: the numbers of a game's rule text that a designer may vary (TAG's `Parameters`).

A game declares them as `ParamSpec`s (its `GameSpec.parameters(options)`: the set may depend on the variant,
whose seats and numbers differ). Each has the rule text's value as its default, an allowed range and a
meaning with its rule section, so nothing changes unless asked. `load_game(game_id, params={...})` checks
the given values (`resolve_params`) and keeps only those that differ from the default in the game's options
under `params`: a record carries them, and replay and resume load the same game. A game built without
`params` has no `params` option at all, so every record made before parameters existed loads unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warcards.engine.errors import OptionError
from warcards.engine.text import quote

PARAMS_OPTION = "params"
"""The option under which a game's changed parameters travel (`load_game(game_id, params={...})`)."""


@dataclass(frozen=True)
class ParamSpec:
    """One number of the rule text: `default` is the text's value, `low`..`high` the range a designer may
    choose from (inclusive), `meaning` what it sets, `rule` where the text says it."""

    name: str
    default: int
    low: int
    high: int
    meaning: str
    rule: str

    def __post_init__(self) -> None:
        if not self.low <= self.default <= self.high:
            raise ValueError(f"parameter {self.name}: default {self.default} outside {self.low}..{self.high}")

    def describe(self) -> str:
        return f"{self.name} ({self.low} to {self.high}; rule text: {self.default})"

    def check(self, game_id: str, value: Any) -> int:
        """The value as an int within the range; text from a command line ("12") is read as a number.
        An `OptionError` names the parameter, the value and the range otherwise (a bool is no number)."""
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) <= 12:
            number = int(value.strip())
        if number is None or not self.low <= number <= self.high:
            raise OptionError(
                f"{game_id}: parameter {self.name}={quote(value)} is not allowed: a whole number from "
                f"{self.low} to {self.high} (the rule text says {self.default}: {self.meaning}, {self.rule})"
            )
        return number


def resolve_params(game_id: str, specs: Sequence[ParamSpec], given: Any) -> dict[str, int]:
    """The given parameters checked against `specs`, keeping only those that differ from the rule text's
    value (sorted by name, so the same house rules are the same options); `OptionError` for an unknown
    name, a value out of range or something that is no mapping of names to numbers."""
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise OptionError(f"{game_id}: params must map parameter names to numbers, not {quote(given)}")
    by_name = {spec.name: spec for spec in specs}
    changed: dict[str, int] = {}
    for name in sorted(given, key=str):
        spec = by_name.get(name) if isinstance(name, str) else None
        if spec is None:
            allowed = ", ".join(spec.describe() for spec in specs) or "none (this game or variant has none yet)"
            raise OptionError(f"{game_id}: unknown parameter {quote(name)}; parameters are: {allowed}")
        value = spec.check(game_id, given[name])
        if value != spec.default:
            changed[name] = value
    return changed


def param_values(specs: Sequence[ParamSpec], options: Mapping[str, Any]) -> dict[str, int]:
    """Every parameter's value for a game with these resolved options: the rule text's, or the changed one."""
    changed = options.get(PARAMS_OPTION) or {}
    return {spec.name: changed.get(spec.name, spec.default) for spec in specs}


__all__ = ["PARAMS_OPTION", "ParamSpec", "param_values", "resolve_params"]
