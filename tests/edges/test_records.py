"""Issue 21, section 6: game records are bound to their seed, strictly validated, and files are read safely.

Every refusal is a `RecordError` from `warcards.replay` and, through `warcards replay FILE`, one line on
stderr with exit code 2 — never a traceback. `simulate --out` resumes after a kill and refuses another run's
file.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import warcards
from tests.edges.scale import examples
from warcards.cli.main import app
from warcards.engine.api import CHANCE, sample_chance
from warcards.match import MatchRecord, RecordError, chance_rng, parse_record, replay
from warcards.simulate import game_seed

runner = CliRunner()
GAMES = warcards.games()
SETTINGS = settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@cache
def _record(game_id: str, seed: int = 3) -> MatchRecord:
    game = warcards.load_game(game_id)
    return warcards.play_match(game, ["random"] * game.num_players, seed)


def _data(game_id: str, seed: int = 3) -> dict[str, Any]:
    return copy.deepcopy(_record(game_id, seed).model_dump())


def _chance_indices(data: dict[str, Any]) -> list[int]:
    """The positions of the chance outcomes in a record's actions."""
    state = warcards.load_game(data["game"], **data["options"]).new_initial_state()
    found = []
    for index, action in enumerate(data["actions"]):
        if state.current_player() == CHANCE:
            found.append(index)
        state.apply_action(action)
    return found


def _replay_data(data: Any) -> None:
    replay(parse_record(data, "test", MatchRecord))


def _cli_replay(path: Path) -> Any:
    result = runner.invoke(app, ["replay", str(path)])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def _refused(path: Path, *words: str) -> str:
    result = _cli_replay(path)
    assert result.exit_code == 2, result.output
    errors = result.stderr.strip().splitlines()
    assert errors and all(line.startswith("Error: ") and len(line) < 1000 for line in errors), result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    return result.stderr


def _write_lines(path: Path, *records: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


@pytest.mark.parametrize("game_id", GAMES)
def test_unchanged_records_replay_exactly(game_id: str, tmp_path: Path) -> None:
    _replay_data(_data(game_id))
    path = _write_lines(tmp_path / "ok.jsonl", _data(game_id), _data(game_id, 4))
    result = _cli_replay(path)
    assert result.exit_code == 0 and "2 of 2 records replay exactly" in result.output
    # A JSON array and one indented record are records files too.
    (tmp_path / "array.json").write_text(json.dumps([_data(game_id)], indent=2))
    assert _cli_replay(tmp_path / "array.json").exit_code == 0
    (tmp_path / "one.json").write_text(json.dumps(_data(game_id), indent=2))
    assert _cli_replay(tmp_path / "one.json").exit_code == 0


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_replay_refuses_a_changed_seed(game_id: str, seed: int, tmp_path: Path) -> None:
    data = _data(game_id)
    if seed == data["seed"]:
        seed += 1
    data["seed"] = seed
    with pytest.raises(RecordError, match=f"chance outcome the seed {seed} does not give"):
        _replay_data(data)
    _refused(_write_lines(tmp_path / "seed.jsonl", data), "does not give")


@pytest.mark.parametrize("game_id", GAMES)
def test_replay_refuses_a_forged_deal(game_id: str, tmp_path: Path) -> None:
    # Every chance outcome the record's seed did not draw is refused, even one the rules allow there.
    data = _data(game_id)
    state = warcards.load_game(game_id).new_initial_state()
    forged = 0
    for index, action in enumerate(data["actions"]):
        if state.current_player() == CHANCE and forged < 3:
            for other, _ in state.chance_outcomes():
                if other != action:
                    changed = _data(game_id)
                    changed["actions"][index] = other
                    with pytest.raises(RecordError, match=f"action {index} is a chance outcome the seed"):
                        _replay_data(changed)
                    forged += 1
                    break
        state.apply_action(action)
    assert forged
    changed = _data(game_id)
    first = _chance_indices(changed)[0]
    state = warcards.load_game(game_id).new_initial_state()
    for action in changed["actions"][:first]:
        state.apply_action(action)
    changed["actions"][first] = next(o for o, _ in state.chance_outcomes() if o != changed["actions"][first])
    _refused(_write_lines(tmp_path / "forged.jsonl", changed), f"action {first} is a chance outcome")


def test_replay_refuses_an_empty_file(tmp_path: Path) -> None:
    for name, text in (("empty.jsonl", ""), ("blank.jsonl", "\n  \n\n"), ("array.json", "[]")):
        path = tmp_path / name
        path.write_text(text)
        _refused(path, "no game records")


def test_replay_refuses_a_truncated_json_array(tmp_path: Path) -> None:
    game_id = GAMES[0]
    text = json.dumps([_data(game_id), _data(game_id, 4)], indent=1)
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2])
    assert "at line" in _refused(path, "not valid JSON")


def test_replay_refuses_a_truncated_jsonl_line(tmp_path: Path) -> None:
    game_id = GAMES[0]
    path = _write_lines(tmp_path / "cut.jsonl", _data(game_id), _data(game_id, 4))
    text = path.read_text()
    path.write_text(text[:-25])
    _refused(path, "line 2 is not a complete JSON record")


def test_replay_refuses_fields_of_the_wrong_type(tmp_path: Path) -> None:
    game_id = GAMES[0]
    cases = {
        "actions": lambda d: d["actions"].__setitem__(0, str(d["actions"][0])),
        "seed": lambda d: d.__setitem__("seed", "3"),
        "returns": lambda d: d.__setitem__("returns", ["1"] * len(d["returns"])),
        "options": lambda d: d.__setitem__("options", []),
        "game": lambda d: d.__setitem__("game", 5),
    }
    for field, change in cases.items():
        data = _data(game_id)
        change(data)
        with pytest.raises(RecordError, match=field):
            _replay_data(data)
        _refused(_write_lines(tmp_path / f"{field}.jsonl", data), field)
    for value in (True, 1.0, 2.5, None, [1]):
        data = _data(game_id)
        data["actions"][1] = value
        with pytest.raises(RecordError, match=r"actions\.1"):
            _replay_data(data)
    data = _data(game_id)
    data["returns"][0] = float("nan")
    with pytest.raises(RecordError, match="finite"):
        _replay_data(data)


def test_replay_refuses_extra_fields(tmp_path: Path) -> None:
    data = _data(GAMES[0]) | {"deal": [1, 2, 3]}
    with pytest.raises(RecordError, match="deal"):
        _replay_data(data)
    _refused(_write_lines(tmp_path / "extra.jsonl", data), "Extra inputs are not permitted")


def test_replay_refuses_an_unknown_or_other_game(tmp_path: Path) -> None:
    data = _data(GAMES[0]) | {"game": "x" * 10_000}
    message = _refused(_write_lines(tmp_path / "unknown.jsonl", data), "unknown game")
    assert "9960 more characters" in message
    other = next(g for g in GAMES if g != GAMES[0])
    moved = _data(GAMES[0]) | {"game": other, "options": {}}
    with pytest.raises(RecordError):
        _replay_data(moved)
    _refused(_write_lines(tmp_path / "other.jsonl", moved))


def test_replay_refuses_options_the_game_does_not_allow(tmp_path: Path) -> None:
    for options in ({"players": 99}, {"no such option": 1}, {"players": "[red]two"}):
        data = _data(GAMES[0]) | {"options": options}
        with pytest.raises(RecordError, match="cannot be loaded"):
            _replay_data(data)
        _refused(_write_lines(tmp_path / "options.jsonl", data), "cannot be loaded")


def test_replay_refuses_returns_of_the_wrong_length(tmp_path: Path) -> None:
    data = _data(GAMES[0])
    data["returns"] = [*data["returns"], 0.0]
    with pytest.raises(RecordError, match="returns"):
        _replay_data(data)
    _refused(_write_lines(tmp_path / "returns.jsonl", data), "returns")
    data = _data(GAMES[0])
    data["returns"] = [value + 1 for value in data["returns"]]
    _refused(_write_lines(tmp_path / "other-returns.jsonl", data), "differ")


def test_replay_refuses_a_game_cut_short_or_run_on(tmp_path: Path) -> None:
    data = _data(GAMES[0])
    data["actions"] = data["actions"][:-1]
    _refused(_write_lines(tmp_path / "short.jsonl", data), "not over")
    data = _data(GAMES[0])
    data["actions"] = [*data["actions"], 0]
    _refused(_write_lines(tmp_path / "long.jsonl", data), "the game ends after")


def test_replay_refuses_missing_folder_and_non_utf8_files(tmp_path: Path) -> None:
    _refused(tmp_path / "missing.jsonl", "does not exist")
    _refused(tmp_path, "not a regular file")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00{}\n")
    _refused(binary, "not UTF-8")
    for text in ("5\n", '"record"\n', "null\n"):
        (tmp_path / "scalar.jsonl").write_text(text)
        _refused(tmp_path / "scalar.jsonl", "a record is a JSON object")


def test_replay_function_checks_records_changed_after_they_were_made() -> None:
    record = _record(GAMES[0]).model_copy(deep=True)
    replay(record)
    replay(record.model_dump())  # parsed JSON is a record too
    record.returns = ["a"] * len(record.returns)  # type: ignore[list-item]
    with pytest.raises(RecordError, match="returns"):
        replay(record)
    changed = _record(GAMES[0]).model_copy(deep=True)
    changed.seed = "3"  # type: ignore[assignment]
    with pytest.raises(RecordError, match="seed"):
        replay(changed)
    for value in (5, None, [1], "record", {"game": GAMES[0]}):
        with pytest.raises(RecordError):
            replay(value)  # type: ignore[arg-type]


def test_replay_refuses_json_nested_too_deeply(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000)
    _refused(tmp_path / "deep.json", "nested too deeply")
    (tmp_path / "deep.jsonl").write_text('{"game": ' + "[" * 100_000 + "\n")
    _refused(tmp_path / "deep.jsonl", "line 1", "nested too deeply")


def test_replay_lists_at_most_ten_refusals(tmp_path: Path) -> None:
    data = _data(GAMES[0]) | {"seed": 1}
    path = _write_lines(tmp_path / "many.jsonl", *[data] * 25, _data(GAMES[0]))
    message = _refused(path, "and 15 more refused records")
    assert len(message.splitlines()) == 11
    assert "1 of 26 records replay exactly" in _cli_replay(path).stdout


MUTATIONS = (
    "seed",
    "swap",
    "change",
    "drop",
    "truncate",
    "type",
    "extra",
    "game",
    "returns",
    "agents",
)


def _mutate(data: dict[str, Any], kind: str, draw: Any) -> tuple[dict[str, Any] | None, str | None]:
    """A mutated record (or, for `truncate`, the file text to write) and whether it must be refused."""
    actions = data["actions"]
    if kind == "seed":
        data["seed"] = draw(st.integers(0, 2**63 - 1).filter(lambda s: s != data["seed"]))
    elif kind == "swap":
        i = draw(st.integers(0, len(actions) - 2))
        actions[i], actions[i + 1] = actions[i + 1], actions[i]
    elif kind == "change":
        i = draw(st.integers(0, len(actions) - 1))
        actions[i] = draw(st.integers(-5, 10**6).filter(lambda a: a != actions[i]))
    elif kind == "drop":
        del actions[draw(st.integers(0, len(actions) - 1))]
    elif kind == "truncate":
        text = json.dumps(data)
        return None, text[: draw(st.integers(1, len(text) - 1))]
    elif kind == "type":
        key = draw(st.sampled_from(["seed", "actions", "returns", "options", "agents", "game"]))
        data[key] = draw(st.sampled_from(["x", 1.5, None, [None], {"a": 1}, True]))
    elif kind == "extra":
        data[draw(st.text(min_size=1, max_size=10).filter(lambda k: k not in data))] = 1
    elif kind == "game":
        data["game"] = draw(st.sampled_from([g for g in GAMES if g != data["game"]] + ["chess", ""]))
    elif kind == "returns":
        data["returns"] = draw(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=7))
    elif kind == "agents":
        data["agents"] = draw(st.lists(st.sampled_from(["random", "x"]), min_size=1, max_size=9))
    return data, None


@SETTINGS
@given(game_id=st.sampled_from(GAMES), kind=st.sampled_from(MUTATIONS), data=st.data())
def test_random_record_mutations_are_refused_or_replay_exactly(
    game_id: str, kind: str, data: Any, tmp_path: Path
) -> None:
    record, text = _mutate(_data(game_id), kind, data.draw)
    path = tmp_path / "mutated.jsonl"
    path.write_text(text if text is not None else json.dumps(record) + "\n")
    result = _cli_replay(path)
    assert result.exit_code in (0, 2), result.output
    assert len(result.output) < 3000
    if record is not None:
        try:
            state = replay(parse_record(record, "test", MatchRecord))
        except RecordError as error:
            assert len(str(error)) < 1000
            assert result.exit_code == 2 and result.stderr.startswith("Error: ")
        else:
            # A mutation that happens to be a consistent game (two commuting moves swapped, an agent
            # renamed) replays; its chance outcomes are still the seed's and its returns the state's.
            assert result.exit_code == 0 and kind in ("swap", "change", "drop", "agents", "returns")
            assert [round(r, 9) for r in state.returns()] == [round(r, 9) for r in record["returns"]]
            rng = chance_rng(record["seed"])
            check = warcards.load_game(game_id, **record["options"]).new_initial_state()
            for action in record["actions"]:
                if check.current_player() == CHANCE:
                    assert action == sample_chance(check.chance_outcomes(), rng.random())
                check.apply_action(action)
    if kind in ("seed", "truncate", "type", "extra", "game"):
        assert result.exit_code == 2


def test_every_record_producer_draws_chance_from_the_seed(tmp_path: Path) -> None:
    # simulate and tournament (both through play_match) write records that replay under the seed check.
    game_id = "cards-of-war" if "cards-of-war" in GAMES else GAMES[0]
    simulated = tmp_path / "sim.jsonl"
    played = runner.invoke(app, ["simulate", game_id, "-n", "3", "--bots", "random", "--out", str(simulated)])
    assert played.exit_code == 0, played.output
    assert "3 of 3 records replay exactly" in _cli_replay(simulated).output
    tournament = tmp_path / "t.jsonl"
    args = ["tournament", game_id, "--agents", "random,heuristic", "--games", "2", "--no-progress"]
    played = runner.invoke(app, [*args, "--out", str(tournament), "--json"])
    assert played.exit_code == 0, played.output
    assert "2 of 2 records replay exactly" in _cli_replay(tournament).output
    # A tournament record's `index` is a strict integer too.
    line = json.loads(tournament.read_text().splitlines()[0]) | {"index": "0"}
    _refused(_write_lines(tmp_path / "index.jsonl", line), "index")


def _simulate(out: Path, *extra: str) -> Any:
    game_id = "cards-of-war" if "cards-of-war" in GAMES else GAMES[0]
    args = ["simulate", game_id, "--bots", "random", "--seed", "5", "--out", str(out), "--json", *extra]
    return runner.invoke(app, args)


def test_simulate_out_resumes_after_a_kill(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    first = _simulate(whole, "-n", "5")
    assert first.exit_code == 0, first.output
    killed = tmp_path / "killed.jsonl"
    assert _simulate(killed, "-n", "3").exit_code == 0
    text = killed.read_text()
    killed.write_text(text[:-30])  # the kill cut the third game's line short
    again = _simulate(killed, "-n", "5")
    assert again.exit_code == 0, again.output
    assert killed.read_text() == whole.read_text()
    assert json.loads(again.stdout) == json.loads(first.stdout)
    # Run again: nothing to play, nothing lost, the same summary.
    assert _simulate(killed, "-n", "5").stdout == first.stdout and killed.read_text() == whole.read_text()
    # Asking for fewer games keeps the file and summarises the first ones.
    fewer = _simulate(killed, "-n", "2")
    assert fewer.exit_code == 0 and json.loads(fewer.stdout)["games"] == 2
    assert killed.read_text() == whole.read_text()
    seeds = [json.loads(line)["seed"] for line in whole.read_text().splitlines()]
    assert seeds == [game_seed(5, index) for index in range(5)]


def test_simulate_out_refuses_a_file_of_another_run(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    assert _simulate(out, "-n", "2").exit_code == 0
    before = out.read_text()
    for extra, word in (
        (("--seed", "6"), "is not game 0 of --seed 6"),
        (("--bots", "heuristic"), "has bots"),
        (("--option", "length=long"), "has option"),
    ):
        result = _simulate(out, "-n", "3", *extra)
        assert result.exit_code == 2 and "holds games of a different run" in result.stderr, result.output
        assert word in result.stderr and "Traceback" not in result.output
        assert out.read_text() == before
    garbled = tmp_path / "garbled.jsonl"
    lines = before.splitlines()
    garbled.write_text(lines[0][:-10] + "\n" + lines[1] + "\n")
    result = _simulate(garbled, "-n", "3")
    assert result.exit_code == 2 and "line 1" in result.stderr
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"\xff not a results file\n")
    result = _simulate(notes, "-n", "1")
    assert result.exit_code == 2 and "not UTF-8" in result.stderr
    assert notes.read_bytes() == b"\xff not a results file\n"
