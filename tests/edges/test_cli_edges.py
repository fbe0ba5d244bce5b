"""Issue 21, section 5: the command line has one error boundary.

Every bad input — flags, entries, games, options, bots, counts, seeds, seconds, files and folders — gets one
line `Error: …` on stderr and exit code 2 (Click's own usage errors keep their format and exit 2); nothing
reaches the user as a traceback; messages are bounded and keep brackets; `--version` works; `balance`
writes only where it is told.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import warcards
from tests.edges.scale import examples
from warcards.cli.main import DEBUG_ENV, app

runner = CliRunner()
GAMES = warcards.games()
SMALL = "cards-of-war" if "cards-of-war" in GAMES else GAMES[0]
"""The quickest game to play (short games, one configuration for `balance`)."""

LONG = "x" * 10_000
JUNK = ["", " ", "[red]x[/red]", "[/]", "[bold", "²", "٣", "é\u0301", "\x00", "-", "--", "=", ",", LONG, "9" * 5000]


def _check(result: Any, allowed: tuple[int, ...] = (0, 2)) -> None:
    """No traceback, an allowed exit code, bounded output; a refusal is one line on stderr."""
    output = result.output
    assert "Traceback" not in output and "Internal error" not in output, output[-3000:]
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in allowed, (result.exit_code, output[-3000:])
    assert len(output) < 300_000
    assert all(len(line) < 1000 for line in result.stderr.splitlines()), result.stderr[:3000]
    if result.exit_code == 2 and result.stderr.startswith("Error: "):
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def _invoke(args: list[str], **kwargs: Any) -> Any:
    return runner.invoke(app, args, input=kwargs.pop("input", "quit\n"), **kwargs)


def _error(args: list[str], *words: str) -> str:
    """Run `args`, which must be refused: exit 2, one line on stderr holding `words`."""
    result = _invoke(args)
    _check(result, (2,))
    for word in words:
        assert word in result.stderr, result.stderr
    return result.stderr


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Paths of every kind: a folder, missing ones, empty, binary, junk, a valid record file."""
    root = tmp_path_factory.mktemp("edges")
    (root / "folder").mkdir()
    (root / "empty.txt").write_text("")
    (root / "binary.bin").write_bytes(b"\xff\xfe\x00\x81")
    (root / "junk.json").write_text("{[}")
    (root / "brackets [red].txt").write_text("[/]")
    record = warcards.play_match(SMALL, ["random"] * warcards.load_game(SMALL).num_players, 1)
    (root / "records.jsonl").write_text(record.model_dump_json() + "\n")
    paths = {
        "folder": root / "folder",
        "missing": root / "missing.jsonl",
        "missing folder": root / "nowhere" / "x.jsonl",
        "empty": root / "empty.txt",
        "binary": root / "binary.bin",
        "junk": root / "junk.json",
        "brackets": root / "brackets [red].txt",
        "records": root / "records.jsonl",
        "long": root / ("y" * 300),
    }
    return paths


FLAGS = {
    "play": ["--variant", "--players", "--cards", "--option", "--seat", "--vs", "--seed", "--resume"],
    "replay": ["--show", "--seat"],
    "simulate": ["--variant", "--players", "--option", "-n", "--bots", "--seed", "--jobs", "--out", "--json"],
    "bench": ["--game", "--seconds", "--search", "--seed", "--json"],
    "tournament": [
        "--agents", "--games", "--seed", "--jobs", "--out", "--backend", "--address", "--until-significant",
        "--elo0", "--alpha", "--batch", "--variant", "--players", "--option", "--sides", "--json",
    ],
    "balance": [
        "--variant", "--players", "--option", "--vary", "--agent", "--games", "--seed", "--backend", "--out",
        "--out-dir", "--results-dir", "--read",
    ],
}
"""The flags each command takes (the random command lines use them three times in four)."""

COMMANDS = ["games", "play", "simulate", "bench", "replay", "scenario", "rules", "tournament", "balance"]


def _argv(draw: Callable[[Any], Any], files: dict[str, Path], fresh: Path) -> list[str]:
    """A random command line: a command, its usual arguments, then random flags and values (counts
    small, so a run that is valid stays quick)."""

    def mostly(good: list[str], bad: list[str]) -> Any:
        """Good values three times in four."""
        return st.one_of(st.sampled_from(good), st.sampled_from(good), st.sampled_from(good), st.sampled_from(bad))

    path = st.sampled_from([str(p) for p in files.values()] + [str(fresh / "new.jsonl"), str(fresh), ""])
    # Where a command writes: never one of the shared input files, which the other tests read as they were
    # made (a valid `simulate --out empty.jsonl` would fill it with a record).
    out_path = st.sampled_from([str(fresh / "new.jsonl"), str(fresh / "out"), str(fresh), "", "/"])
    game = mostly(GAMES, ["chess", *JUNK])
    count = st.sampled_from(["0", "-1", "1", "2", "x", "", "1.5", "9" * 5000, "²"])
    bots = st.sampled_from(["random", "heuristic", "random,heuristic", "", ",", "deep-blue", "random,[red]"])
    values: dict[str, Any] = {
        "--variant": st.sampled_from(["invasion", "sicily", "race", *JUNK]),
        "--players": st.sampled_from(["0", "2", "3", "99", "-1", "x", "9" * 30]),
        "--cards": path,
        "--option": st.sampled_from(["length=long", "players=2", "x", "=", "a=b=c", "variant=[red]", LONG]),
        "--seat": st.sampled_from(["0", "1", "axis", "allies", "9", "-1", "²", *JUNK]),
        "--vs": bots,
        "--seed": st.sampled_from(["0", "5", "-1", "x", "9" * 30, "9" * 5000, ""]),
        "-n": count,
        "--games": count,
        "--bots": bots,
        "--jobs": st.sampled_from(["0", "-1", "1", "x"]),
        "--out": out_path,
        "--resume": path,
        "--game": game,
        "--seconds": st.sampled_from(["0", "-1", "-0.0", "nan", "inf", "x", ""]),
        "--search": st.sampled_from(["easy", "grandmaster", ""]),
        "--agents": bots,
        "--agent": bots,
        "--backend": st.sampled_from(["process", "x", ""]),
        "--address": st.sampled_from(["auto", "x"]),
        "--elo0": st.sampled_from(["0", "-20", "nan", "inf", "x"]),
        "--alpha": st.sampled_from(["0", "0.05", "1", "nan", "x"]),
        "--batch": count,
        "--sides": st.sampled_from(["0,1", "0", "0,0,1", "x", "", "²,1", "9" * 50]),
        "--vary": st.sampled_from(["length=short,long", "players=2,3", "x", "=", LONG]),
        "--out-dir": out_path,
        "--results-dir": out_path,
        "--read": path,
    }
    switches = mostly(["--json", "--no-progress", "--until-significant", "--help"], ["--bogus", *JUNK])
    command = draw(mostly(COMMANDS, ["chess", *JUNK]))
    argv = [command]
    if command in ("play", "simulate", "rules", "tournament", "balance"):
        argv.append(draw(game))
    if command in ("replay",):
        argv.append(draw(path))
    if command == "scenario":
        argv += draw(st.lists(path, min_size=0, max_size=2))
    # Keep valid runs short: few games, random bots (a later flag may override these).
    argv += {
        "simulate": ["-n", "1", "--bots", "random"],
        "tournament": ["--games", "1", "--agents", "random", "--no-progress"],
        "balance": ["--games", "1", "--agent", "random", "--no-progress"],
    }.get(command, [])
    own = FLAGS.get(command, [])
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.integers(0, 3)) > 0 and own:
            flag = draw(st.sampled_from(own))
        elif draw(st.booleans()):
            flag = draw(st.sampled_from(sorted(values)))
        else:
            argv.append(draw(switches))
            continue
        argv += [flag] if flag.startswith("--") and flag not in values else [flag, draw(values[flag])]
    if command == "bench":
        argv += ["--seconds", draw(values["--seconds"])]  # a valid bench takes seconds: test refusal only
    if "--until-significant" in argv and command == "tournament":
        argv += ["--batch", "1"]
    return argv


@settings(
    max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_random_command_lines_exit_0_or_2_without_a_traceback(
    data: Any, files: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    fresh = tmp_path_factory.mktemp("run")
    argv = _argv(data.draw, files, fresh)
    os.chdir(fresh)  # `balance` makes its fresh folder here
    try:
        result = _invoke(argv)
    finally:
        os.chdir(Path(__file__).parent)
    event(f"{argv[0][:12]} exit {result.exit_code}")
    _check(result, (0, 1, 2) if argv[0] == "scenario" else (0, 2))


def test_bad_flags_and_entries_get_one_line_and_exit_2() -> None:
    _error(["simulate", "chess", "-n", "1"], "unknown game 'chess'")
    _error(["simulate", SMALL, "-n", "1", "--option", "nonsense=1"], "unknown option 'nonsense'")
    _error(["simulate", SMALL, "-n", "1", "--option", "nonsense"], "--option takes key=value")
    _error(["play", SMALL, "--vs", "deep-blue"], "unknown bot 'deep-blue'")
    _error(["play", SMALL, "--seat", "nobody"], "nobody")
    _error(["tournament", SMALL, "--agents", "random,random"], "lists a bot twice")
    _error(["tournament", SMALL, "--agents", "random", "--sides", "x"], "--sides takes one side number")
    _error(["tournament", SMALL, "--agents", "random", "--backend", "carrier-pigeon"], "unknown backend")
    _error(["bench", "--game", "chess", "--seconds", "0.01"], "unknown game")


def test_click_usage_errors_still_exit_2() -> None:
    for args in (["--bogus"], ["simulate"], ["simulate", SMALL, "-n", "x"], ["nosuchcommand"]):
        result = _invoke(args)
        _check(result, (2,))
        assert "Usage:" in result.output


def test_long_inputs_are_quoted_short() -> None:
    with pytest.raises(warcards.OptionError) as raised:
        warcards.load_game("x" * 10_000)
    assert len(str(raised.value)) < 300 and "9960 more characters" in str(raised.value)
    with pytest.raises(warcards.OptionError) as raised:
        warcards.load_game(SMALL, players="y" * 10_000)
    assert len(str(raised.value)) < 300
    with pytest.raises(warcards.OptionError) as raised:
        warcards.load_game(SMALL, players=10**5000)
    assert "bits" in str(raised.value)
    message = _error(["simulate", LONG, "-n", "1"], "more characters")
    assert len(message) < 400
    message = _error(["simulate", SMALL, "-n", "1", "--option", f"{LONG}=1"], "more characters")
    assert len(message) < 1000
    result = _invoke(["simulate", SMALL, "-n", "9" * 10_000])
    _check(result, (2,))
    assert len(result.output) < 2000


def test_simulate_refuses_empty_bots() -> None:
    for bots in ("", " ", ",", " , "):
        _error(["simulate", SMALL, "-n", "1", "--bots", bots], "--bots needs at least one bot name")


def test_simulate_refuses_more_bots_than_seats() -> None:
    _error(["simulate", SMALL, "-n", "1", "--bots", ",".join(["random"] * 10)], "--bots names 10 bots")


def test_out_pointing_at_a_folder_is_refused(tmp_path: Path) -> None:
    _error(["simulate", SMALL, "-n", "1", "--out", str(tmp_path)], "is a folder")
    _error(["tournament", SMALL, "--agents", "random", "--games", "1", "--out", str(tmp_path)], "is a folder")
    assert list(tmp_path.iterdir()) == []


def test_out_into_a_missing_folder_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "games.jsonl"
    _error(["simulate", SMALL, "-n", "1", "--out", str(target)], "does not exist")
    _error(["tournament", SMALL, "--agents", "random", "--games", "1", "--out", str(target)], "does not exist")
    assert not (tmp_path / "nowhere").exists()


def test_missing_unreadable_and_non_utf8_files_are_refused(files: dict[str, Path]) -> None:
    for kind in ("folder", "missing", "empty", "binary", "junk", "long"):
        _error(["replay", str(files[kind])])
        _error(["balance", SMALL, "--read", str(files[kind]), "--out", str(files["folder"] / "r")])
        _error(["simulate", SMALL, "-n", "1", "--cards", str(files[kind])])
    _error(["replay", str(files["binary"])], "not UTF-8")
    _error(["replay", "a\x00b"])
    if hasattr(os, "mkfifo"):
        fifo = files["folder"] / "pipe"
        if not fifo.exists():
            os.mkfifo(fifo)
        _error(["replay", str(fifo)], "not a regular file")  # refused, not read (it would hang)
        _error(["balance", SMALL, "--read", str(fifo)], "not a regular file")


def test_bench_refuses_zero_seconds() -> None:
    _error(["bench", "--seconds", "0"], "--seconds must be a number of seconds above 0")


def test_bench_refuses_negative_and_non_finite_seconds() -> None:
    for seconds in ("-1", "-0.001", "nan", "inf"):
        _error(["bench", "--seconds", seconds], "--seconds must be")


def test_negative_and_zero_counts_are_refused() -> None:
    for args in (
        ["simulate", SMALL, "-n", "0"],
        ["simulate", SMALL, "-n", "-1"],
        ["simulate", SMALL, "-n", "1", "--jobs", "0"],
        ["tournament", SMALL, "--agents", "random", "--games", "0"],
        ["tournament", SMALL, "--agents", "random", "--games", "-3"],
        ["tournament", SMALL, "--agents", "random", "--jobs", "0"],
        ["tournament", SMALL, "--agents", "random,heuristic", "--until-significant", "--batch", "0"],
        ["balance", SMALL, "--games", "0"],
        ["simulate", SMALL, "-n", "1", "--players", "0"],
    ):
        _check(_invoke(args), (2,))


def test_bad_seeds_are_refused() -> None:
    for seed in ("-1", str(2**63), "x", "1.5", "9" * 5000, ""):
        _check(_invoke(["simulate", SMALL, "-n", "1", "--seed", seed]), (2,))
    _check(_invoke(["simulate", SMALL, "-n", "1", "--seed", str(2**63 - 1), "--bots", "random"]), (0,))


def test_messages_keep_text_in_brackets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    message = _error(["tournament", SMALL, "--agents", "random", "--backend", "ray"], "needs Ray")
    assert '".[ray]"' in message


def test_rich_markup_in_user_text_is_escaped(tmp_path: Path) -> None:
    _error(["simulate", "[red]x[/red]", "-n", "1"], "'[red]x[/red]'")
    _error(["simulate", SMALL, "-n", "1", "--bots", "[/]"], "'[/]'")
    out = tmp_path / "[bold]report[/bold]"
    result = _invoke(["balance", SMALL, "--games", "1", "--agent", "random", "--no-progress", "--out", str(out)])
    _check(result, (0,))
    assert f"wrote {out / 'README.md'}" in result.stdout.replace("\n", "")
    assert (out / "README.md").exists()


def test_version_flag_prints_the_version() -> None:
    result = _invoke(["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"warcards {warcards.__version__}"
    assert "--version" in _invoke(["--help"]).stdout


def test_internal_errors_are_one_line_and_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: Any, **__: Any) -> None:
        raise TypeError("a bug")

    monkeypatch.setattr("warcards.simulate.summarize", broken)
    args = ["simulate", SMALL, "-n", "1", "--bots", "random"]
    result = _invoke(args)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "Internal error" in result.stderr and "--debug" in result.stderr and DEBUG_ENV in result.stderr
    assert isinstance(_invoke(["--debug", *args]).exception, TypeError)
    monkeypatch.setenv(DEBUG_ENV, "1")
    assert isinstance(_invoke(args).exception, TypeError)


def test_balance_never_writes_into_the_current_folder_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["balance", SMALL, "--games", "1", "--agent", "random", "--no-progress"]
    first = _invoke(args)
    _check(first, (0,))
    second = _invoke(args)
    _check(second, (0,))
    made = sorted(p.name for p in tmp_path.iterdir())
    assert len(made) == 2 and all(name.startswith(f"balance-{SMALL}-") for name in made), made
    assert not (tmp_path / "docs").exists() and not (tmp_path / "results").exists()
    for name in made:
        assert (tmp_path / name / "README.md").exists() and list((tmp_path / name / "results").glob("*.jsonl"))
        assert name in (first.stdout + second.stdout).replace("\n", "")


def test_balance_out_writes_only_there_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "reports" / "mine"
    args = ["balance", SMALL, "--games", "2", "--agent", "random", "--no-progress", "--out", str(target)]
    _check(_invoke(args), (0,))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]
    results = list((target / "results").glob("*.jsonl"))
    before = [p.read_text() for p in results]
    _check(_invoke(args), (0,))
    assert [p.read_text() for p in results] == before
    assert f"--out {target}" in (target / "README.md").read_text()
    (tmp_path / "a-file").write_text("")
    _error([*args[:-1], str(tmp_path / "a-file")], "is not a folder")
    # A bad option is refused before any folder is made.
    _error(["balance", SMALL, "--games", "1", "--players", "99", "--out", str(tmp_path / "never")], "players")
    monkeypatch.chdir(target)
    _error(["balance", SMALL, "--games", "1", "--option", "length=forever"], "length")
    assert not (tmp_path / "never").exists() and not list(target.glob("balance-*"))


def _results(tmp_path: Path, game_id: str, *extra: str) -> Path:
    out = tmp_path / f"{game_id}{len(extra)}.jsonl"
    args = ["tournament", game_id, "--agents", "random", "--games", "2", "--no-progress", "--json", *extra]
    _check(_invoke([*args, "--out", str(out)]), (0,))
    return out


def test_balance_read_refuses_another_games_records(tmp_path: Path) -> None:
    other = next(g for g in GAMES if g != SMALL)
    theirs = _results(tmp_path, other)
    _error(["balance", SMALL, "--read", str(theirs), "--out", str(tmp_path / "r")], f"not of {SMALL}")
    assert not (tmp_path / "r").exists()


def test_balance_read_refuses_records_of_other_options_or_bots(tmp_path: Path) -> None:
    plain = _results(tmp_path, SMALL)
    out = ["--out", str(tmp_path / "r")]
    _error(["balance", SMALL, "--read", str(plain), "--option", "length=long", *out], "not one of the configurations")
    _error(["balance", SMALL, "--read", str(plain), "--agent", "heuristic", *out], "needs heuristic in every seat")
    lines = plain.read_text().splitlines()
    mixed = tmp_path / "mixed.jsonl"
    longer = _results(tmp_path, SMALL, "--option", "length=long").read_text().splitlines()
    mixed.write_text(lines[0] + "\n" + json.dumps(json.loads(longer[1])) + "\n")
    _error(["balance", SMALL, "--read", str(mixed), *out], "one configuration")
    forged = tmp_path / "forged.jsonl"
    record = json.loads(lines[0])
    record["seed"] += 1
    forged.write_text(json.dumps(record) + "\n")
    _error(["balance", SMALL, "--read", str(forged), *out], "does not give")
    accepted = _invoke(["balance", SMALL, "--read", str(plain), *out])
    _check(accepted, (0,))
    assert "--agent random" in (tmp_path / "r" / "README.md").read_text()


SUBPROCESS_CASES = [
    ["simulate", "chess"],
    ["simulate", SMALL, "-n", "1", "--bots", ""],
    ["simulate", SMALL, "-n", "1", "--out", "/"],
    ["bench", "--seconds", "-1"],
    ["replay", "/nonexistent/records.jsonl"],
    ["--version"],
    ["--bogus"],
]


@pytest.mark.parametrize("args", SUBPROCESS_CASES, ids=lambda args: " ".join(args)[:40] or "empty")
def test_no_traceback_reaches_stderr_of_the_real_command(args: list[str]) -> None:
    source = Path(warcards.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(source), DEBUG_ENV: ""}
    done = subprocess.run(
        [sys.executable, "-m", "warcards", *args], capture_output=True, text=True, env=env, timeout=60
    )
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr
    assert done.returncode == (0 if args == ["--version"] else 2), (done.returncode, done.stderr)
    if args[0] != "--bogus" and done.returncode == 2:
        assert done.stderr.startswith("Error: ") and len(done.stderr.splitlines()) == 1, done.stderr
