"""Scenarios: rule tests as data (format and schema in docs/scenarios.md).

`load_scenario(source)` reads and validates a scenario file against a strict schema: an unknown key, a
value of the wrong type or shape, a duplicated key or a checkpoint past the script raises `ScenarioError`
naming the file and the field's path (`checkpoints[0].expect.zone_sizes.deck: expected an integer, got
"5"`). `run_scenario(source)` builds the position, plays the scripted actions (chance the script does not
name is sampled from the seed), checks every expectation and returns a `ScenarioResult` listing the
failures; a check that cannot be made is a failure, never a silent pass.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from warcards.engine.api import CHANCE, TERMINAL, State
from warcards.engine.errors import IllegalActionError, InvalidActionError, WarcardsError
from warcards.engine.registry import games, load_game, option_specs
from warcards.engine.text import quote
from warcards.match import chance_rng

MAX_SCENARIO_BYTES = 1_000_000
"""The largest scenario file read (the shipped ones are under 5 kB)."""

MAX_DEPTH = 32
"""How deeply a scenario document may nest lists and objects."""

MAX_MESSAGE = 600
"""The longest message a `ScenarioError` carries."""

_SHOWN_PROBLEMS = 3


class ScenarioError(WarcardsError):
    """The scenario file itself is malformed or cannot be run (not a failed expectation): the message names
    the file and the field."""

    def __init__(self, message: str) -> None:
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 1] + "…"
        super().__init__(message)


ScenarioFileError = ScenarioError
"""The former name of `ScenarioError`."""


# ----- the schema -----------------------------------------------------------------------------------------
class _Strict(BaseModel):
    """A block of a scenario file: exactly the keys declared, each of exactly its type."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = [key for key in data if key not in cls.model_fields]
            if unknown:
                raise PydanticCustomError(
                    "unknown_key", "unknown key; allowed: {allowed}",
                    {"key": unknown[0], "allowed": ", ".join(cls.model_fields)},
                )
            empty = [key for key, value in data.items() if value is None]
            if empty:
                raise PydanticCustomError("null_key", "null is not a value here; leave the key out", {"key": empty[0]})
        return data


def _player_label(value: Any) -> int | str:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if value in ("chance", "terminal"):
        return str(value)
    raise ValueError(f'expected a seat number (0, 1, ...), "chance" or "terminal", got {_show(value)}')


def _setup_zone(value: Any) -> list[str] | str:
    if value == "rest" and isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(card, str) for card in value):
        return list(value)
    if isinstance(value, list):
        index = next(i for i, card in enumerate(value) if not isinstance(card, str))
        raise ValueError(f"card [{index}]: expected a card id (a string), got {_show(value[index])}")
    raise ValueError(f'expected a list of card ids or "rest", got {_show(value)}')


PlayerLabel = Annotated[int | str, PlainValidator(_player_label)]
SetupZone = Annotated[list[str] | str, PlainValidator(_setup_zone)]
Count = Annotated[int, Field(ge=0)]


class Observe(_Strict):
    """`observe(seat)` holds each key of `contains` with exactly that value."""

    seat: Count
    contains: Annotated[dict[str, Any], Field(min_length=1)]


class Expect(_Strict):
    """An expectation block (docs/scenarios.md, Expectations); a key left out is not checked."""

    zones: dict[str, list[str]] | None = None
    zone_contains: dict[str, list[str]] | None = None
    zone_excludes: dict[str, list[str]] | None = None
    zone_sizes: dict[str, Count] | None = None
    position: dict[str, Any] | None = None
    current_player: PlayerLabel | None = None
    terminal: bool | None = None
    returns: list[float] | None = None
    legal: list[str] | None = None
    illegal: list[str] | None = None
    observe: Observe | None = None


class ErrorStep(_Strict):
    """An action the rules or the notation must refuse: `invalid` (not understood) or `illegal` (understood,
    refused by the rules now); `message`, if given, is a piece of the refusal's message."""

    action: str
    error: Literal["invalid", "illegal"]
    message: str = ""


def _step(value: Any) -> str | ErrorStep:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return ErrorStep.model_validate(value)
    raise ValueError(
        f'expected an action string or {{"action": ..., "error": "invalid" | "illegal"}}, got {_show(value)}'
    )


Step = Annotated[str | ErrorStep, PlainValidator(_step)]


class Checkpoint(_Strict):
    """Expectations after the first `after` actions of the script (0: the position as set up)."""

    after: Count
    expect: Expect


class Setup(_Strict):
    """The position: zones (zone -> card ids, or "rest") and the game's position fields."""

    zones: dict[str, SetupZone] = Field(default_factory=dict)
    position: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_rest(self) -> Setup:
        rest = [zone for zone, cards in self.zones.items() if cards == "rest"]
        if len(rest) > 1:
            raise ValueError(f'only one zone may be "rest"; {_show(rest[0])} and {_show(rest[1])} are')
        return self


class Scenario(_Strict):
    """A scenario file, validated."""

    name: str = ""
    rule: str = ""
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seed: Annotated[int, Field(ge=0, lt=2**63)] = 0
    setup: Setup | None = None
    actions: list[Step] = Field(default_factory=list)
    checkpoints: list[Checkpoint] = Field(default_factory=list)
    expect: Expect = Field(default_factory=Expect)
    settle_chance: bool = True

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        if self.game not in games():
            raise ValueError(f"game: unknown game {_show(self.game)}; games are: {', '.join(games())}")
        for index, checkpoint in enumerate(self.checkpoints):
            if checkpoint.after > len(self.actions):
                raise ValueError(
                    f"checkpoints[{index}].after: {checkpoint.after} is past the script "
                    f"({len(self.actions)} actions), so it would never be checked"
                )
        return self


class ScenarioResult(BaseModel):
    name: str
    rule: str
    game: str
    passed: bool
    failures: list[str]
    steps_run: int
    final_position: dict[str, Any] = Field(default_factory=dict)


# ----- reading and validating -----------------------------------------------------------------------------
def _show(value: Any, limit: int = 40) -> str:
    """A value as a short JSON-like text for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    if len(text) > limit:
        text = f"{text[:limit]}… ({len(text) - limit} more characters)"
    return text


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_:\-]{0,39}")
_EXPECTED = {
    "int_type": "expected an integer",
    "int_parsing": "expected an integer",
    "string_type": "expected a string",
    "bool_type": "expected true or false",
    "float_type": "expected a number",
    "list_type": "expected a list",
    "dict_type": "expected an object",
    "model_type": "expected an object",
    "model_attributes_type": "expected an object",
}


def _path(loc: tuple[int | str, ...] | list[int | str]) -> str:
    """A field's path as `checkpoints[0].expect.zones.deck` (list indices from 0)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _NAME.fullmatch(part):
            out += f".{part}" if out else part
        else:
            out += f"[{_show(part)}]"
    return out or "(the document)"


def _problem(error: Any) -> str:
    kind = error["type"]
    where = _path(error["loc"])
    if kind in ("unknown_key", "null_key"):
        return f"{_path((*error['loc'], error['ctx']['key']))}: {error['msg']}"
    if kind == "missing":
        return f"{where}: required key missing"
    if kind == "value_error":
        # Checks across fields (in `Scenario`) name their own paths.
        return f"{where}: {error['ctx']['error']}" if error["loc"] else str(error["ctx"]["error"])
    if kind in _EXPECTED:
        return f"{where}: {_EXPECTED[kind]}, got {_show(error['input'])}"
    if kind == "greater_than_equal":
        return f"{where}: must be at least {error['ctx']['ge']}, got {_show(error['input'])}"
    if kind == "less_than":
        return f"{where}: must be less than {error['ctx']['lt']}, got {_show(error['input'])}"
    if kind == "literal_error":
        return f"{where}: expected {error['ctx']['expected']}, got {_show(error['input'])}"
    if kind == "too_short":
        return f"{where}: must not be empty"
    return f"{where}: {error['msg']}, got {_show(error['input'])}"


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"key {_show(key)} appears twice in one object")
        out[key] = value
    return out


def _check_json(data: Any) -> str | None:
    """Why `data` is not a plain JSON document of bounded depth (or None): only dicts with string keys,
    lists, strings, finite numbers, booleans and null."""
    stack: list[tuple[Any, tuple[int | str, ...]]] = [(data, ())]
    while stack:
        value, loc = stack.pop()
        if len(loc) > MAX_DEPTH:
            return f"{_path(loc[:MAX_DEPTH])}: nested more than {MAX_DEPTH} levels deep"
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    return f"{_path(loc)}: key {_show(repr(key))} is not a string"
                stack.append((item, (*loc, key)))
        elif isinstance(value, list):
            stack.extend((item, (*loc, i)) for i, item in enumerate(value))
        elif isinstance(value, float):
            if not math.isfinite(value):
                return f"{_path(loc)}: {value} is not a JSON number"
        elif not (value is None or isinstance(value, (str, int, bool))):
            return f"{_path(loc)}: a {type(value).__name__} is not a JSON value"
    return None


def _read(path: Path) -> Any:
    where = _show(str(path), 80)
    try:
        info = os.stat(path)
    except (OSError, ValueError) as error:
        reason = "no such file" if isinstance(error, FileNotFoundError) else _os_reason(error)
        raise ScenarioError(f"{where}: {reason}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ScenarioError(f"{where}: not a regular file (a scenario is a JSON file)")
    if info.st_size > MAX_SCENARIO_BYTES:
        raise ScenarioError(f"{where}: {info.st_size} bytes; a scenario file holds at most {MAX_SCENARIO_BYTES}")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SCENARIO_BYTES + 1)
    except OSError as error:
        raise ScenarioError(f"{where}: {_os_reason(error)}") from None
    if len(raw) > MAX_SCENARIO_BYTES:
        raise ScenarioError(f"{where}: larger than {MAX_SCENARIO_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ScenarioError(f"{where}: not UTF-8 text (byte {error.start})") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except json.JSONDecodeError as error:
        raise ScenarioError(f"{where}: not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    except (ValueError, RecursionError) as error:
        raise ScenarioError(f"{where}: not valid JSON: {str(error)[:120] or 'nested too deeply'}") from None


def _os_reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return f"cannot read: {error.strerror}"
    return f"cannot read: {str(error)[:80]}"


def load_scenario(source: str | Path | dict[str, Any]) -> Scenario:
    """Read and validate a scenario from a file path or a dict; `ScenarioError` names the field at fault."""
    if isinstance(source, (str, os.PathLike)):
        data: Any = _read(Path(source))
        where = _show(str(source), 80)
    else:
        data = source
        where = "scenario"
    problem = _check_json(data)
    if problem:
        raise ScenarioError(f"{where}: {problem}")
    try:
        return Scenario.model_validate(data)
    except ValidationError as error:
        problems = [_problem(e) for e in error.errors(include_url=False)]
        more = f" (and {len(problems) - _SHOWN_PROBLEMS} more)" if len(problems) > _SHOWN_PROBLEMS else ""
        raise ScenarioError(f"{where}: {'; '.join(problems[:_SHOWN_PROBLEMS])}{more}") from None


# ----- checking -------------------------------------------------------------------------------------------
def _label(player: int) -> int | str:
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "terminal"
    return player


def _same(actual: Any, expected: Any) -> bool:
    """JSON equality that tells `true` from `1` (and a list from a string); numbers compare by value."""
    if isinstance(actual, bool) or isinstance(expected, bool):
        return isinstance(actual, bool) and isinstance(expected, bool) and actual == expected
    if isinstance(actual, (int, float)) and isinstance(expected, (int, float)):
        return actual == expected
    if isinstance(actual, (list, tuple)) and isinstance(expected, list):
        return len(actual) == len(expected) and all(_same(a, e) for a, e in zip(actual, expected, strict=True))
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(_same(actual[k], expected[k]) for k in expected)
    return type(actual) is type(expected) and actual == expected


def _parse(state: State, text: str) -> tuple[int | None, WarcardsError | ValueError | None]:
    try:
        return state.parse_action(text), None
    except ValueError as error:
        return None, error


def check_expectations(state: State, expect: Expect, where: str) -> list[str]:
    """Compare a state against an expectation block; returns human-readable failures."""
    failures: list[str] = []
    zones = state.zones()
    known = {card for cards in zones.values() for card in cards}
    named = [
        card
        for block in (expect.zones, expect.zone_contains, expect.zone_excludes)
        for cards in (block or {}).values()
        for card in cards
    ]
    unknown = sorted({card for card in named if card not in known})
    if unknown:
        # A typo in zone_excludes would pass for ever: every card named must be a card of the game.
        failures.append(f"{where}: {', '.join(quote(c) for c in unknown[:5])} not a card of this game")

    def zone(name: str) -> list[str] | None:
        if name not in zones:
            failures.append(f"{where}: no zone {quote(name)}; zones are {', '.join(sorted(zones))}")
            return None
        return zones[name]

    for name, cards in (expect.zones or {}).items():
        actual = zone(name)
        if actual is not None and Counter(actual) != Counter(cards):
            failures.append(f"{where}: zone {name} holds {sorted(actual)}, expected {sorted(cards)}")
    for name, cards in (expect.zone_contains or {}).items():
        actual = zone(name)
        if actual is not None:
            missing = [c for c in cards if c not in actual]
            if missing:
                failures.append(f"{where}: zone {name} lacks {missing}; it holds {sorted(actual)}")
    for name, cards in (expect.zone_excludes or {}).items():
        actual = zone(name)
        if actual is not None:
            present = [c for c in cards if c in actual]
            if present:
                failures.append(f"{where}: zone {name} should not hold {present}")
    for name, size in (expect.zone_sizes or {}).items():
        actual = zone(name)
        if actual is not None and len(actual) != size:
            failures.append(f"{where}: zone {name} holds {len(actual)} cards, expected {size}")
    if expect.position is not None:
        position = state.position()
        for key, value in expect.position.items():
            if key not in position:
                failures.append(f"{where}: no position field {quote(key)}; fields are {', '.join(sorted(position))}")
            elif not _same(position[key], value):
                failures.append(f"{where}: position {key} is {position[key]!r}, expected {_show(value)}")
    if expect.current_player is not None:
        actual_player = _label(state.current_player())
        if actual_player != expect.current_player:
            failures.append(f"{where}: current player is {actual_player!r}, expected {expect.current_player!r}")
    if expect.terminal is not None and state.is_terminal() != expect.terminal:
        failures.append(f"{where}: terminal is {state.is_terminal()}, expected {expect.terminal}")
    if expect.returns is not None:
        actual_returns = [round(r, 9) for r in state.returns()]
        if actual_returns != [round(r, 9) for r in expect.returns]:
            failures.append(f"{where}: returns are {state.returns()}, expected {expect.returns}")
    failures += _check_legality(state, expect, where)
    if expect.observe is not None:
        failures += _check_observe(state, expect.observe, where)
    return failures


def _check_legality(state: State, expect: Expect, where: str) -> list[str]:
    """`legal` / `illegal`: each string parses to an action that is (not) legal now. A string that does not
    parse fails both checks; a string refused as illegal while parsing counts as illegal. At a chance node
    the check is refused: chance outcomes are not player actions."""
    failures: list[str] = []
    wanted = [(text, True) for text in expect.legal or []] + [(text, False) for text in expect.illegal or []]
    if not wanted:
        return failures
    if state.current_player() == CHANCE:
        return [
            f"{where}: legal/illegal are checked only where a player acts, and this is a chance node "
            "(chance outcomes are not player actions): check current_player, or move the check after the draw"
        ]
    legal = set(state.legal_actions())
    for text, want in wanted:
        action, error = _parse(state, text)
        if action is None:
            if isinstance(error, IllegalActionError) and not want:
                continue
            failures.append(
                f"{where}: {quote(text)} should be {'legal' if want else 'illegal'} but does not parse: {error}"
            )
        elif (action in legal) != want:
            failures.append(f"{where}: {quote(text)} should be {'legal' if want else 'illegal'}")
    return failures


def _check_observe(state: State, spec: Observe, where: str) -> list[str]:
    seats = state.game.num_players
    if spec.seat >= seats:
        return [f"{where}: observe seat {spec.seat} does not exist; seats are 0..{seats - 1}"]
    view = state.observe(spec.seat)
    failures = []
    for key, value in spec.contains.items():
        if key not in view:
            failures.append(f"{where}: observe({spec.seat}) has no key {quote(key)}; keys are {', '.join(sorted(view))}")
        elif not _same(view[key], value):
            failures.append(f"{where}: observe({spec.seat})[{key!r}] is {view[key]!r}, expected {_show(value)}")
    return failures


def _refusal_kind(error: ValueError) -> str:
    if isinstance(error, InvalidActionError):
        return "invalid"
    if isinstance(error, IllegalActionError):
        return "illegal"
    return f"a bare {type(error).__name__} (neither invalid nor illegal: an engine bug)"


# ----- running --------------------------------------------------------------------------------------------
def _build(scenario: Scenario, where: str) -> State:
    names = [spec.name for spec in option_specs(scenario.game)]
    unknown = [key for key in scenario.options if key not in names]
    if unknown:
        raise ScenarioError(f"{where}: {_path(('options', unknown[0]))}: unknown option; options are {', '.join(names)}")
    try:
        game = load_game(scenario.game, **scenario.options)
    except WarcardsError as error:
        raise ScenarioError(f"{where}: options: {error}") from None
    if scenario.setup is None:
        return game.new_initial_state()
    try:
        return game.state_from_setup(scenario.setup.model_dump())
    except WarcardsError as error:
        raise ScenarioError(f"{where}: setup: {error}") from None


def run_scenario(source: str | Path | dict[str, Any]) -> ScenarioResult:
    """Run a scenario and report every failed expectation (an empty list means it passed).

    A malformed file, an unknown option or an impossible setup raises `ScenarioError`."""
    scenario = load_scenario(source)
    where = _show(str(source), 80) if isinstance(source, (str, os.PathLike)) else "scenario"
    state = _build(scenario, where)
    rng = chance_rng(scenario.seed)
    failures: list[str] = []
    checkpoints: dict[int, list[Expect]] = {}
    for checkpoint in scenario.checkpoints:
        checkpoints.setdefault(checkpoint.after, []).append(checkpoint.expect)

    def check_point(after: int) -> None:
        for number, expect in enumerate(checkpoints.get(after, []), start=1):
            label = f"after step {after}" if after else "at the start"
            if len(checkpoints[after]) > 1:
                label += f" (checkpoint {number} of {len(checkpoints[after])})"
            failures.extend(check_expectations(state, expect, label))

    def next_scripted_is_chance(text: str) -> int | None:
        # Chance outcomes and player actions are separate number spaces, so a scripted text is taken as
        # the chance outcome only if it parses to a possible outcome written with the same verb
        # ("draw X12", "roll 5").
        action, _ = _parse(state, text)
        if action is None or action not in state.legal_actions():
            return None
        verb = state.action_to_string(action).split()[:1]
        return action if verb == text.split()[:1] else None

    check_point(0)
    steps = 0
    for index, step in enumerate(scenario.actions, start=1):
        label = f"step {index} (actions[{index - 1}])"
        text = step.action if isinstance(step, ErrorStep) else step
        while state.current_player() == CHANCE and next_scripted_is_chance(text) is None:
            state.apply_chance(rng.random())
        before = state.fingerprint()
        try:
            state.apply_action(state.parse_action(text))
        except ValueError as error:
            if not isinstance(step, ErrorStep):
                failures.append(f"{label} {quote(text)}: refused: {error}")
                break
            kind = _refusal_kind(error)
            if kind != step.error:
                failures.append(f"{label} {quote(text)}: expected an {step.error} action, it was refused as {kind}: {error}")
            if step.message.lower() not in str(error).lower():
                failures.append(f"{label} {quote(text)}: the refusal {str(error)!r} lacks {step.message!r}")
            if state.fingerprint() != before:
                failures.append(f"{label} {quote(text)}: a refused action changed the state")
        else:
            if isinstance(step, ErrorStep):
                failures.append(f"{label} {quote(text)}: expected it to be refused as {step.error}, it was applied")
                break
        steps = index
        check_point(index)
    unreached = sorted(after for after in checkpoints if after > steps)
    if unreached:
        failures.append(f"checkpoints after {', '.join(map(str, unreached))} not reached: the script stopped at step {steps + 1}")
    if scenario.settle_chance:
        while state.current_player() == CHANCE:
            state.apply_chance(rng.random())
    failures += check_expectations(state, scenario.expect, "at the end")
    return ScenarioResult(
        name=scenario.name,
        rule=scenario.rule,
        game=scenario.game,
        passed=not failures,
        failures=[f if len(f) <= MAX_MESSAGE else f[: MAX_MESSAGE - 1] + "…" for f in failures],
        steps_run=steps,
        final_position=state.position(),
    )
