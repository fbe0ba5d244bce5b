"""`warcards tune` (issue 35): Optuna over a game's rule parameters, on the tournament runner, resumable.

The tuner finds a known answer (the Coin test game's even setting); a study killed with `kill -9` resumes
where it was without counting a trial twice; two workers on one SQLite study share its trials; the search
space file is checked; the report names the rule text's setting beside the best, re-simulated."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Mapping
from functools import partial
from pathlib import Path

import pytest

pytest.importorskip("optuna")

from warcards.arena.tournament import InlineBackend, TournamentSpec
from warcards.arena.tune import (
    SpaceFile,
    Study,
    TuneError,
    candidates,
    check_space,
    fresh_seed,
    optimize,
    read_space,
    resimulate,
    write_report,
)
from warcards.engine.registry import param_specs

from .coingame import EDGE, CoinGame

SRC = str(Path(__file__).resolve().parents[2] / "src")


def coin_specs(params: Mapping[str, int], games: int, seed: int) -> TournamentSpec:
    options = {"params": dict(params)} if params else {}
    return TournamentSpec("coin", ("random",), games, seed, options, factory=partial(CoinGame, options))


def test_the_tuner_finds_the_even_setting_of_a_game_whose_parameter_sets_the_edge(tmp_path: Path) -> None:
    space = SpaceFile.model_validate({
        "game": "coin", "bot": "random", "parameters": {"edge": {"low": 0, "high": 10}},
        "games": 200, "trials": 14, "batch": 50,
    })
    run = Study(space, [EDGE], coin_specs, 2, f"sqlite:///{tmp_path / 'study.sqlite3'}", "coin", 3, InlineBackend())
    study = optimize(run)
    assert abs(study.best_params["edge"] - 5) <= 1
    chosen = candidates(run, study)
    assert chosen[0].label == "rule text" and chosen[0].changed == {}
    resimulate(run, chosen, 400, fresh_seed(3))
    best = chosen[1]
    assert best.fresh is not None
    low, high = best.fresh.interval(0)
    assert low <= 0.5 <= high  # the chosen setting is even on fresh seeds too
    rule_text = chosen[0].fresh
    assert rule_text is not None and rule_text.interval(0)[0] > 0.8  # the text's 9 in 10 is far off
    report = write_report(run, study, chosen, tmp_path / "report", ["first", "second"], "warcards tune coin", 1)
    text = report.read_text()
    assert "| rule text | — |" in text and "edge 9→" in text and "--param edge=" in text
    assert (tmp_path / "report" / "history.png").stat().st_size > 1000
    assert "[params]" in (tmp_path / "report" / "best.params.toml").read_text()


def test_the_search_space_is_checked_against_the_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "race-to-messina"\nparameters = { axis_hand_size = { low = 3 } }\n')
    with pytest.raises(TuneError, match="give either low and high, or choices"):
        read_space(bad)
    bad.write_text('game = "race-to-messina"\nobjectives = ["fun"]\nparameters = { x = { low = 1, high = 2 } }\n')
    with pytest.raises(TuneError, match="objectives"):
        read_space(bad)
    bad.write_text('game = "race-to-messina"\nparameters = { axis_hand_size = { low = 3, high = 99 } }\n')
    space = read_space(bad)
    with pytest.raises(TuneError, match=r"outside its range 1\.\.20"):
        check_space(space, param_specs("race-to-messina"))
    space.parameters = {"nope": space.parameters["axis_hand_size"]}
    with pytest.raises(TuneError, match="unknown parameter 'nope'"):
        check_space(space, param_specs("race-to-messina"))


SPACE = """game = "race-to-messina"
options = { variant = "race" }
bot = "random"
games = 6
batch = 6
trials = 5

[parameters]
british_hand_size = { low = 8, high = 14 }
"""


def tune(folder: Path, space: Path, *extra: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.Popen(
        [sys.executable, "-m", "warcards", "tune", "race-to-messina", "--space", str(space), "--out", str(folder),
         "--resimulate", "10", "--no-progress", *extra],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def trial_states(folder: Path) -> list[tuple[int, str]]:
    database = folder / "study.sqlite3"
    if not database.exists():
        return []
    try:
        with sqlite3.connect(database, timeout=30) as connection:
            return list(connection.execute("select number, state from trials order by number"))
    except sqlite3.OperationalError:
        return []


def test_a_killed_study_resumes_without_counting_a_trial_twice(tmp_path: Path) -> None:
    space = tmp_path / "race.toml"
    space.write_text(SPACE)
    folder = tmp_path / "out"
    first = tune(folder, space)
    deadline = time.monotonic() + 600
    while sum(state == "COMPLETE" for _, state in trial_states(folder)) < 2:
        assert first.poll() is None, first.stderr.read() if first.stderr else ""
        assert time.monotonic() < deadline, "no trial finished in 10 minutes"
        time.sleep(0.2)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    before = [number for number, state in trial_states(folder) if state in ("COMPLETE", "PRUNED")]
    second = tune(folder, space)
    _, error = second.communicate(timeout=900)
    assert second.returncode == 0, error.decode()
    after = trial_states(folder)
    finished = [number for number, state in after if state in ("COMPLETE", "PRUNED")]
    assert len(finished) == 5 and set(before) <= set(finished)  # the first run's trials kept, none again
    assert len({number for number, _ in after}) == len(after)
    assert (folder / "README.md").exists()


def test_two_workers_share_one_study(tmp_path: Path) -> None:
    space = tmp_path / "race.toml"
    space.write_text(SPACE.replace("trials = 5", "trials = 6"))
    folder = tmp_path / "out"
    folder.mkdir()
    workers = [tune(folder, space), tune(folder, space)]
    for worker in workers:
        _, error = worker.communicate(timeout=900)
        assert worker.returncode == 0, error.decode()
    finished = [number for number, state in trial_states(folder) if state in ("COMPLETE", "PRUNED")]
    assert 6 <= len(finished) <= 7  # each stops once the study holds six (one may finish a last one)
