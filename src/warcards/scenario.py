"""Scenarios: rule tests as data (format in docs/scenarios.md).

`run_scenario(data)` builds the position, plays the scripted actions (chance the script does not name is
sampled from the seed), checks every expectation and returns a `ScenarioResult` listing the failures.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from warcards.engine.api import CHANCE, TERMINAL, State, sample_chance
from warcards.engine.errors import WarcardsError
from warcards.engine.registry import load_game
from warcards.match import chance_rng


class ScenarioFileError(WarcardsError):
    """The scenario file itself is malformed (not a failed expectation)."""


class ErrorStep(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str
    error: str


class Checkpoint(BaseModel):
    model_config = ConfigDict(extra="forbid")
    after: int
    expect: dict[str, Any]


class Scenario(BaseModel):
    """A scenario file, validated."""

    model_config = ConfigDict(extra="forbid")
    name: str = ""
    rule: str = ""
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    setup: dict[str, Any] | None = None
    actions: list[str | ErrorStep] = Field(default_factory=list)
    checkpoints: list[Checkpoint] = Field(default_factory=list)
    expect: dict[str, Any] = Field(default_factory=dict)
    settle_chance: bool = True


class ScenarioResult(BaseModel):
    name: str
    rule: str
    game: str
    passed: bool
    failures: list[str]
    steps_run: int
    final_position: dict[str, Any] = Field(default_factory=dict)


_EXPECT_KEYS = {
    "zones",
    "zone_contains",
    "zone_excludes",
    "zone_sizes",
    "position",
    "current_player",
    "terminal",
    "returns",
    "legal",
    "illegal",
    "observe",
}


def load_scenario(source: str | Path | dict[str, Any]) -> Scenario:
    """Parse and validate a scenario from a file path or a dict; `ScenarioFileError` says what is wrong."""
    if isinstance(source, dict):
        data = source
        where = "scenario"
    else:
        where = str(source)
        try:
            data = json.loads(Path(source).read_text())
        except FileNotFoundError:
            raise ScenarioFileError(f"{where}: no such file") from None
        except json.JSONDecodeError as error:
            raise ScenarioFileError(f"{where}: not valid JSON: {error}") from None
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in error.errors()
        )
        raise ScenarioFileError(f"{where}: {problems}") from None
    for block in [scenario.expect, *(c.expect for c in scenario.checkpoints)]:
        unknown = set(block) - _EXPECT_KEYS
        if unknown:
            raise ScenarioFileError(
                f"{where}: unknown expectation {sorted(unknown)[0]!r}; allowed: {', '.join(sorted(_EXPECT_KEYS))}"
            )
    return scenario


def _player_label(player: int) -> int | str:
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "terminal"
    return player


def check_expectations(state: State, expect: dict[str, Any], where: str) -> list[str]:
    """Compare a state against an expectation block; returns human-readable failures."""
    failures: list[str] = []
    zones = state.zones()

    def zone(name: str) -> list[str] | None:
        if name not in zones:
            failures.append(f"{where}: no zone {name!r}; zones are {sorted(zones)}")
            return None
        return zones[name]

    for name, cards in expect.get("zones", {}).items():
        actual = zone(name)
        if actual is not None and Counter(actual) != Counter(cards):
            failures.append(f"{where}: zone {name} holds {sorted(actual)}, expected {sorted(cards)}")
    for name, cards in expect.get("zone_contains", {}).items():
        actual = zone(name)
        if actual is not None:
            missing = [c for c in cards if c not in actual]
            if missing:
                failures.append(f"{where}: zone {name} lacks {missing}; it holds {sorted(actual)}")
    for name, cards in expect.get("zone_excludes", {}).items():
        actual = zone(name)
        if actual is not None:
            present = [c for c in cards if c in actual]
            if present:
                failures.append(f"{where}: zone {name} should not hold {present}")
    for name, size in expect.get("zone_sizes", {}).items():
        actual = zone(name)
        if actual is not None and len(actual) != size:
            failures.append(f"{where}: zone {name} holds {len(actual)} cards, expected {size}")
    if "position" in expect:
        position = state.position()
        for key, value in expect["position"].items():
            if key not in position:
                failures.append(f"{where}: no position field {key!r}; fields are {sorted(position)}")
            elif position[key] != value:
                failures.append(f"{where}: position {key} is {position[key]!r}, expected {value!r}")
    if "current_player" in expect:
        actual_player = _player_label(state.current_player())
        if actual_player != expect["current_player"]:
            failures.append(
                f"{where}: current player is {actual_player!r}, expected {expect['current_player']!r}"
            )
    if "terminal" in expect and state.is_terminal() != expect["terminal"]:
        failures.append(f"{where}: terminal is {state.is_terminal()}, expected {expect['terminal']}")
    if "returns" in expect:
        actual_returns = [round(r, 9) for r in state.returns()]
        if actual_returns != [round(float(r), 9) for r in expect["returns"]]:
            failures.append(f"{where}: returns are {state.returns()}, expected {expect['returns']}")
    legal = set(state.legal_actions())
    for key, want in (("legal", True), ("illegal", False)):
        for text in expect.get(key, []):
            try:
                action = state.parse_action(text)
            except ValueError as error:
                if want:
                    failures.append(f"{where}: {text!r} should be legal but does not parse: {error}")
                continue
            if (action in legal) != want:
                failures.append(f"{where}: {text!r} should be {'legal' if want else 'illegal'}")
    if "observe" in expect:
        spec = expect["observe"]
        view = state.observe(int(spec["seat"]))
        for key, value in spec.get("contains", {}).items():
            if view.get(key) != value:
                failures.append(
                    f"{where}: observe({spec['seat']})[{key!r}] is {view.get(key)!r}, expected {value!r}"
                )
    return failures


def run_scenario(source: str | Path | dict[str, Any]) -> ScenarioResult:
    """Run a scenario and report every failed expectation (an empty list means it passed)."""
    scenario = load_scenario(source)
    game = load_game(scenario.game, **scenario.options)
    state = game.state_from_setup(scenario.setup) if scenario.setup else game.new_initial_state()
    rng = chance_rng(scenario.seed)
    failures: list[str] = []
    checkpoints = {c.after: c.expect for c in scenario.checkpoints}
    steps = 0

    def next_scripted_is_chance(text: str) -> int | None:
        # Chance outcomes and player actions are separate number spaces, so a scripted text is taken as
        # the chance outcome only if it parses to a possible outcome written with the same verb
        # ("draw X12", "roll 5").
        try:
            action = state.parse_action(text)
        except ValueError:
            return None
        if action not in state.legal_actions():
            return None
        verb = state.action_to_string(action).split()[:1]
        return action if verb == text.split()[:1] else None

    for index, step in enumerate(scenario.actions, start=1):
        text = step.action if isinstance(step, ErrorStep) else step
        while state.current_player() == CHANCE and next_scripted_is_chance(text) is None:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        before = state.clone()
        try:
            state.apply_action(state.parse_action(text))
        except ValueError as error:
            if not isinstance(step, ErrorStep):
                failures.append(f"step {index} {text!r}: refused: {error}")
                break
            if step.error.lower() not in str(error).lower():
                failures.append(f"step {index} {text!r}: error {str(error)!r} lacks {step.error!r}")
            if state != before:
                failures.append(f"step {index} {text!r}: a refused action changed the state")
        else:
            if isinstance(step, ErrorStep):
                failures.append(
                    f"step {index} {text!r}: expected an error containing {step.error!r}, it was applied"
                )
                break
        steps = index
        if index in checkpoints:
            failures += check_expectations(state, checkpoints[index], f"after step {index}")
    if scenario.settle_chance:
        while state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    failures += check_expectations(state, scenario.expect, "at the end")
    return ScenarioResult(
        name=scenario.name,
        rule=scenario.rule,
        game=scenario.game,
        passed=not failures,
        failures=failures,
        steps_run=steps,
        final_position=state.position(),
    )
