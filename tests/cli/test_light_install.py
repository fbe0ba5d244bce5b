"""Issue 23, "a lighter install": playing (and `simulate`, `replay`, `guide`, `rules`) needs only the core
dependencies; `tournament` and `balance` name the `stats` extra in one line when it is missing. Checked in
a fresh interpreter where scipy, matplotlib, numpy and openskill cannot be imported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import warcards

SOURCE = Path(warcards.__file__).resolve().parents[1]

BLOCKED = """
import sys
from importlib.abc import MetaPathFinder

BLOCKED = {"scipy", "matplotlib", "numpy", "openskill"}

class Blocker(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)", name=name)
        return None

sys.meta_path.insert(0, Blocker())
from warcards.cli.main import app
try:
    app(sys.argv[1:], prog_name="warcards")
finally:
    loaded = sorted(name for name in sys.modules if name.split(".")[0] in BLOCKED)
    assert not loaded, loaded
"""


def _run(args: list[str], stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SOURCE), "COLUMNS": "80"}
    return subprocess.run(
        [sys.executable, "-c", BLOCKED, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
    )


@pytest.mark.parametrize("game_id", warcards.games())
def test_play_needs_no_scipy_matplotlib_numpy_or_openskill(game_id: str) -> None:
    result = _run(["play", game_id, "--vs", "random", "--seed", "2"], stdin="1\n" * 4000)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Game over" in result.stdout and "Traceback" not in result.stderr


def test_simulate_replay_guide_and_rules_need_no_extra(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    assert _run(["simulate", "race-to-messina", "-n", "3", "--bots", "random", "--out", str(out)]).returncode == 0
    assert _run(["replay", str(out)]).returncode == 0
    assert _run(["guide", "naval-war"]).returncode == 0
    assert _run(["rules", "naval-war", "R1"]).returncode == 0


@pytest.mark.parametrize(
    "args",
    [["tournament", "race-to-messina", "--agents", "random,heuristic"], ["balance", "race-to-messina"]],
)
def test_tournament_and_balance_name_the_stats_extra_in_one_line(args: list[str], tmp_path: Path) -> None:
    result = _run(args, cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and 'pip install -e ".[stats]" in the warcards checkout' in lines[0], result.stderr
