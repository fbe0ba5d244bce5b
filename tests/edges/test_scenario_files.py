"""Issue 21 §7: scenario files cannot pass by mistake.

A malformed file (unknown key, wrong shape, null, duplicate key, a checkpoint past the script) is refused with
a `ScenarioError` naming the field, and at the command line with exit code 2 and no traceback; every check is
as strict as docs/scenarios.md says, and each test below shows that its check can fail.
"""

from __future__ import annotations

import copy
import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.edges.scale import examples
from warcards.cli.main import app
from warcards.engine.errors import WarcardsError
from warcards.scenario import (
    MAX_MESSAGE,
    ScenarioError,
    ScenarioResult,
    _path,
    load_scenario,
    run_scenario,
)

ROOT = Path(__file__).parents[1] / "scenarios"
SHIPPED = sorted(ROOT.glob("*/*.json"))
DOCS = {path.name: json.loads(path.read_text()) for path in SHIPPED}
BASE = DOCS["resolution-tie-goes-to-the-axis.json"]
FAST = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Subtrees whose values the schema leaves to the game (checked by `state_from_setup` or compared at run time).
FREE = {("options",), ("setup", "position"), ("expect", "position"), ("observe", "contains")}


DICT_FIELDS = {"options", "zones", "zone_contains", "zone_excludes", "zone_sizes", "position", "contains"}


def _free(path: tuple[Any, ...]) -> bool:
    names = tuple(part for part in path if isinstance(part, str))
    return any(names[i : i + len(free)] == free for free in FREE for i in range(len(names)))


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) of a document whose shape the schema fixes (free subtrees' children left out)."""
    if path:
        yield path, value
    if path and _free(path):
        return
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


TYPED = [(name, path, value) for name, doc in DOCS.items() for path, value in _paths(doc)]
POOL: list[Any] = ["5", "x", "", 5, -1, 1.5, True, False, [], [1], {}, {"k": 1}, None]


def _wrong(path: tuple[Any, ...], value: Any) -> list[Any]:
    """Values of another JSON type than `value` (an int stands in for a float, so ints are not wrong there;
    a step is an action string or an error-step object)."""
    if len(path) == 2 and path[0] == "actions":
        return [item for item in POOL if not isinstance(item, (str, dict))]
    if len(path) == 3 and path[:2] == ("setup", "zones"):  # a list of card ids or "rest"
        return [item for item in POOL if not isinstance(item, list)]
    if path[-1] == "current_player":  # a seat number, "chance" or "terminal"
        return [item for item in POOL if item != 5 or isinstance(item, bool)]

    def kind(item: Any) -> str:
        if isinstance(item, bool):
            return "bool"
        if isinstance(item, (int, float)):
            return "number" if isinstance(value, float) else type(item).__name__
        return type(item).__name__

    return [item for item in POOL if kind(item) != kind(value)]


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(doc)
    node = out
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return out


def _refused(doc: Any) -> str:
    with pytest.raises(ScenarioError) as caught:
        run_scenario(doc)
    message = str(caught.value)
    assert len(message) <= MAX_MESSAGE and "\n" not in message
    return message


def _run(doc: dict[str, Any]) -> ScenarioResult:
    return run_scenario(doc)


def _failures(doc: dict[str, Any]) -> str:
    result = _run(doc)
    assert not result.passed
    return "; ".join(result.failures)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


# ----- malformed documents ---------------------------------------------------------------------------------
def test_every_shipped_scenario_passes_the_strict_runner() -> None:
    for path in SHIPPED:
        result = run_scenario(path)
        assert result.passed, f"{path.name}: {result.failures}"


@FAST
@given(json_values)
def test_random_json_documents_are_refused_with_a_bounded_scenario_error(doc: Any) -> None:
    try:
        run_scenario(doc)
    except ScenarioError as error:
        assert len(str(error)) <= MAX_MESSAGE


@settings(max_examples=examples(150), deadline=None)
@given(st.sampled_from(TYPED), st.data())
def test_a_wrong_type_at_any_schema_path_is_refused_naming_the_path(
    spot: tuple[str, tuple[Any, ...], Any], data: st.DataObject
) -> None:
    name, path, value = spot
    bad = data.draw(st.sampled_from(_wrong(path, value)))
    message = _refused(_set(DOCS[name], path, bad))
    shown = path[:-1] if path[:2] == ("setup", "zones") and len(path) == 4 else path
    assert _path(shown) in message, message


@settings(max_examples=examples(80), deadline=None)
@given(st.sampled_from(TYPED), st.sampled_from(["drop", "rename"]))
def test_a_dropped_or_renamed_key_is_refused_naming_it(spot: tuple[str, tuple[Any, ...], Any], how: str) -> None:
    name, path, _ = spot
    if not isinstance(path[-1], str) or _free(path[:-1]) or (len(path) > 1 and path[-2] in DICT_FIELDS):
        return
    doc = copy.deepcopy(DOCS[name])
    node = doc
    for part in path[:-1]:
        node = node[part]
    value = node.pop(path[-1])
    if how == "rename":
        node[path[-1] + "_"] = value
        assert f"{_path((*path[:-1], path[-1] + '_'))}: unknown key; allowed:" in _refused(doc)
    elif path[-1] in ("game", "action", "error", "after", "expect", "seat", "contains") and path != ("expect",):
        assert "required key missing" in _refused(doc)
    elif path == ("actions",) and doc.get("checkpoints"):
        assert "past the script" in _refused(doc)
    else:
        load_scenario(doc)  # an optional key may be left out


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from([(n, p) for n, p, _ in TYPED if p[:2] == ("setup", "position")] +
                       [(n, ("setup", "position", "turn")) for n in DOCS if DOCS[n].get("setup")]),
       json_values)
def test_any_setup_position_value_gives_a_setup_error_or_a_run(spot: tuple[str, tuple[Any, ...]], bad: Any) -> None:
    name, path = spot
    try:
        run_scenario(_set(DOCS[name], path, bad))
    except ScenarioError as error:
        assert len(str(error)) <= MAX_MESSAGE and "setup" in str(error)


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(TYPED), json_values)
def test_any_value_anywhere_gives_a_scenario_error_or_a_result(spot: tuple[str, tuple[Any, ...], Any], bad: Any) -> None:
    name, path, _ = spot
    try:
        result = run_scenario(_set(DOCS[name], path, bad))
    except ScenarioError as error:
        assert len(str(error)) <= MAX_MESSAGE
    else:
        assert isinstance(result, ScenarioResult)


@settings(max_examples=examples(25), deadline=None)
@given(st.sampled_from(TYPED), st.data())
def test_cli_refuses_a_malformed_file_with_exit_2_and_no_traceback(
    spot: tuple[str, tuple[Any, ...], Any], data: st.DataObject
) -> None:
    name, path, value = spot
    doc = _set(DOCS[name], path, data.draw(st.sampled_from(_wrong(path, value))))
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "bad.json"
        file.write_text(json.dumps(doc))
        result = CliRunner().invoke(app, ["scenario", str(file)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert '"error"' in result.output


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.json"
    os.mkfifo(path)
    return path


BAD_FILES: dict[str, Any] = {
    "not-json": lambda d: _write(d, b"{not json"),
    "empty": lambda d: _write(d, b""),
    "not-utf8": lambda d: _write(d, b'{"game": "\xff"}'),
    "nan": lambda d: _write(d, b'{"game": "naval-war", "seed": NaN}'),
    "duplicate-key": lambda d: _write(d, b'{"game": "naval-war", "game": "cards-of-war"}'),
    "deep": lambda d: _write(d, b'{"game": "naval-war", "options": ' + b"[" * 5000 + b"]" * 5000 + b"}"),
    "huge-number": lambda d: _write(d, b'{"game": "naval-war", "seed": ' + b"9" * 5000 + b"}"),
    "too-big": lambda d: _write(d, b" " * 1_100_000 + b"{}"),
    "top-level-list": lambda d: _write(d, b"[]"),
    "folder": lambda d: d,
    "missing": lambda d: d / "missing.json",
    "fifo": _fifo,
    "nul-in-path": lambda d: Path(f"{d}/a\x00b.json"),
}


def _write(folder: Path, raw: bytes) -> Path:
    path = folder / "scenario.json"
    path.write_bytes(raw)
    return path


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_malformed_files_are_refused_at_the_cli_with_exit_2(case: str, tmp_path: Path) -> None:
    path = BAD_FILES[case](tmp_path)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert len(str(caught.value)) <= MAX_MESSAGE
    result = CliRunner().invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"seed": None}, "seed: null is not a value here"),
        ({"seed": True}, "seed: expected an integer"),
        ({"seed": -1}, "seed: must be at least 0"),
        ({"game": "chess"}, 'unknown game "chess"'),
        ({"settle_chance": 1}, "settle_chance: expected true or false"),
        ({"expect": {"turn": 5}}, "expect.turn: unknown key; allowed: zones,"),
        ({"checkpoints": [{"after": "5", "expect": {}}]}, 'checkpoints[0].after: expected an integer, got "5"'),
        ({"checkpoints": [{"after": 8, "expect": {}}]}, "past the script"),
        ({"expect": {"legal": None}}, "expect.legal: null is not a value here"),
        ({"expect": {"zone_sizes": {"deck:allies": -1}}}, "expect.zone_sizes.deck:allies: must be at least 0"),
        ({"expect": {"current_player": "axis"}}, "expect.current_player: expected a seat number"),
        ({"expect": {"returns": ["1"]}}, "expect.returns[0]: expected a number"),
        ({"expect": {"observe": {"seat": 0, "contains": {}}}}, "expect.observe.contains: must not be empty"),
        ({"actions": [{"action": "pass", "error": "refused"}]}, "actions[0].error: expected 'invalid' or 'illegal'"),
        ({"actions": [7]}, "actions[0]: expected an action string"),
        ({"setup": {"zones": {"deck:allies": "rest", "deck:axis": "rest"}}}, 'only one zone may be "rest"'),
        ({"setup": {"zones": {"hand:allies": "A15"}}}, 'setup.zones.hand:allies: expected a list of card ids or "rest"'),
        ({"setup": {"board": {}}}, "setup.board: unknown key"),
        ({"options": {"variant": "moon"}}, "options:"),
        ({"options": {"game_id": "naval-war"}}, "options.game_id: unknown option; options are variant"),
        ({"setup": {"position": {"turn": "5"}}}, "'turn': expected an integer"),
    ],
)
def test_wrongly_shaped_expectation_or_setup_is_refused_naming_the_field(change: dict[str, Any], named: str) -> None:
    doc = {**copy.deepcopy(BASE), **change}
    assert named in _refused(doc)


def test_naval_war_turn_out_of_range_is_a_setup_error() -> None:
    doc = copy.deepcopy(DOCS["air-strike-targets-before-rolls.json"])
    doc["setup"]["position"]["turn"] = 5
    assert "'turn': expected an integer 0..2, got 5" in _refused(doc)


# ----- each check can fail ---------------------------------------------------------------------------------
def test_unparsable_illegal_string_fails_the_scenario() -> None:
    doc = copy.deepcopy(BASE)
    doc["expect"]["illegal"] = ["deploy Manpower Superiority"]
    assert _run(doc).passed  # a real action, not legal now
    doc["expect"]["illegal"] = ["frobnicate the panzers"]
    assert "should be illegal but does not parse" in _failures(doc)
    doc["expect"]["illegal"] = ["done"]
    assert "'done' should be illegal" in _failures(doc)


def test_checkpoint_after_zero_is_checked() -> None:
    doc = copy.deepcopy(BASE)
    doc["checkpoints"] = [{"after": 0, "expect": {"current_player": 1, "zones": {"hand:allies": ["A15"]}}}]
    assert _run(doc).passed
    doc["checkpoints"] = [{"after": 0, "expect": {"current_player": 0}}]
    assert "at the start: current player is 1, expected 0" in _failures(doc)


def test_two_checkpoints_at_one_step_are_both_checked() -> None:
    doc = copy.deepcopy(BASE)
    good = {"after": 3, "expect": {"current_player": 0}}
    bad = {"after": 3, "expect": {"zone_sizes": {"hand:allies": 7}}}
    doc["checkpoints"] = [good, good]
    assert _run(doc).passed
    for pair in ([good, bad], [bad, good]):
        doc["checkpoints"] = pair
        assert "hand:allies holds 1 cards, expected 7" in _failures(doc)


def test_error_step_distinguishes_invalid_from_illegal() -> None:
    doc = copy.deepcopy(BASE)
    illegal = {"action": "deploy Manpower Superiority", "error": "illegal", "message": "not in the axis hand"}
    invalid = {"action": "deploy Zzyzx Battalion", "error": "invalid"}
    doc["checkpoints"] = []
    doc["actions"][1:2] = [illegal, invalid]
    assert _run(doc).passed
    doc["actions"][1:3] = [{**illegal, "error": "invalid"}, invalid]
    assert "expected an invalid action, it was refused as illegal" in _failures(doc)
    doc["actions"][1:3] = [illegal, {**invalid, "error": "illegal"}]
    assert "expected an illegal action, it was refused as invalid" in _failures(doc)
    doc["actions"][1:3] = [{**illegal, "message": "Pact of Steel"}, invalid]
    assert "lacks 'Pact of Steel'" in _failures(doc)
    doc["actions"][1:3] = [{"action": "done", "error": "illegal"}, invalid]
    assert "it was applied" in _failures(doc)


DECKS = [
    ("race-to-messina", {"variant": "invasion"}, "deck:allies", "A01", "discard:allies"),
    ("med-sirocco", {}, "pile", "A01", "discard"),
    ("naval-war", {}, "deck", None, "discard"),
    ("cards-of-war", {}, "draw", None, "discard"),
]


def _a_card(game: str, options: dict[str, Any], zone: str) -> str:
    from warcards.engine.registry import load_game

    state = load_game(game, **options).new_initial_state()
    return sorted(state.zones()[zone] or [c for cards in state.zones().values() for c in cards])[0]


@pytest.mark.parametrize(("game", "options", "zone", "card", "other"), DECKS)
def test_explicit_deck_list_is_exact(game: str, options: dict[str, Any], zone: str, card: str | None,
                                     other: str) -> None:
    card = card or _a_card(game, options, zone)
    doc = {"game": game, "options": options, "setup": {"zones": {zone: [card]}}}
    assert f"zone '{zone}' is listed exactly" in _refused(doc)


def test_rest_fills_the_deck() -> None:
    check = {"zones": {"deck:allies": ["A01"]}, "zone_sizes": {"discard:allies": 46, "deck:axis": 47}}
    doc: dict[str, Any] = {"game": "race-to-messina", "options": {"variant": "invasion"},
           "setup": {"zones": {"deck:allies": ["A01"], "discard:allies": "rest"}},
           "checkpoints": [{"after": 0, "expect": check}], "settle_chance": False}
    assert _run(doc).passed
    doc["setup"]["zones"] = {"hand:allies": ["A01"], "deck:allies": "rest"}
    doc["checkpoints"][0]["expect"] = {"zone_sizes": {"deck:allies": 46, "hand:allies": 1, "discard:allies": 0}}
    assert _run(doc).passed
    doc["checkpoints"][0]["expect"] = {"zone_sizes": {"deck:allies": 47}}
    assert "deck:allies holds 46 cards, expected 47" in _failures(doc)


def test_legal_check_at_chance_node_is_refused() -> None:
    doc: dict[str, Any] = {"game": "race-to-messina", "options": {"variant": "invasion"},
           "checkpoints": [{"after": 0, "expect": {"current_player": "chance"}}]}
    assert _run(doc).passed
    for key in ("legal", "illegal"):
        doc["checkpoints"][0]["expect"] = {key: ["draw A01"]}
        assert "this is a chance node" in _failures(doc)


def test_position_and_observe_checks_compare_json_types() -> None:
    doc = copy.deepcopy(BASE)
    doc["expect"]["position"]["turn"] = 1
    assert _run(doc).passed
    doc["expect"]["position"]["turn"] = True
    assert "position turn is 1, expected true" in _failures(doc)
    doc = copy.deepcopy(BASE)
    doc["expect"]["observe"] = {"seat": 0, "contains": {"no_such_key": None}}
    assert "has no key 'no_such_key'" in _failures(doc)
    doc["expect"]["observe"] = {"seat": 9, "contains": {"phase": "recovery"}}
    assert "observe seat 9 does not exist" in _failures(doc)


def test_checkpoint_after_a_refused_step_is_reported_unreached() -> None:
    doc = copy.deepcopy(BASE)
    doc["actions"][0] = "deploy Zzyzx Battalion"
    assert "checkpoints after 3 not reached" in _failures(doc)


def test_scenario_error_is_a_warcards_error() -> None:
    assert issubclass(ScenarioError, WarcardsError)


def test_the_example_in_docs_scenarios_md_passes() -> None:
    text = (Path(__file__).parents[2] / "docs" / "scenarios.md").read_text()
    example = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    result = run_scenario(example)
    assert result.passed, result.failures
    example["checkpoints"][2]["expect"]["zone_sizes"]["hand:allies"] = 2
    assert not run_scenario(example).passed


def test_every_wrong_type_at_every_schema_path_of_every_shipped_file_is_refused() -> None:
    tried = 0
    for name, path, value in TYPED:
        shown = _path(path[:-1] if path[:2] == ("setup", "zones") and len(path) == 4 else path)
        for bad in _wrong(path, value):
            with pytest.raises(ScenarioError, match=re.escape(shown)):
                load_scenario(_set(DOCS[name], path, bad))
            tried += 1
    assert tried > 10_000


def test_a_card_id_the_game_does_not_have_fails_the_check() -> None:
    doc = copy.deepcopy(BASE)
    doc["expect"]["zone_excludes"] = {"hand:axis": ["X21"]}
    assert _run(doc).passed
    doc["expect"]["zone_excludes"] = {"hand:axis": ["X99"]}
    assert "'X99' not a card of this game" in _failures(doc)


@pytest.mark.parametrize(
    ("zones", "named"),
    [
        ({"deep6:1": "rest"}, "no seat has a ship afloat"),  # hung in the opening (no seat to move to)
        ({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "discard": "rest"}, "the deck is empty"),  # 1/0
    ],
)
def test_an_unplayable_naval_war_setup_is_refused_not_hung(zones: dict[str, Any], named: str) -> None:
    doc: dict[str, Any] = {"game": "naval-war", "setup": {"zones": zones, "position": {"phase": "turn"}}}
    assert named in _refused(doc)
    doc["setup"]["position"]["phase"] = "opening"
    if "afloat" in named:
        assert named in _refused(doc)


@FAST
@given(st.sampled_from(sorted(DOCS)), st.dictionaries(
    st.sampled_from(["game_id", "variant", "players", "rounds", "x", "__class__"]), json_values, max_size=3))
def test_any_options_give_a_scenario_error_or_a_result(name: str, options: dict[str, Any]) -> None:
    # (The `cards` option reads a card file: its edge is issue 21 §4's.)
    try:
        run_scenario({**DOCS[name], "options": options})
    except ScenarioError as error:
        assert len(str(error)) <= MAX_MESSAGE


def test_a_setup_field_the_phase_does_not_read_is_refused_not_ignored() -> None:
    doc = copy.deepcopy(BASE)
    doc["setup"]["position"]["passed"] = 5
    assert "'slot' and 'passed' describe the action phase" in _refused(doc)
    doc = copy.deepcopy(DOCS["bomb-alley-on-o32.json"])
    doc["setup"]["position"]["dealer"] = 7
    assert "position field 'dealer': expected an integer 0..3, got 7" in _refused(doc)
