"""`warcards tournament` and `warcards balance` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import warcards
from warcards.cli.main import app

runner = CliRunner()


def _playable_game() -> str:
    for game_id in warcards.games():
        try:
            warcards.load_game(game_id)
        except (ImportError, AttributeError):
            continue
        return game_id
    pytest.skip("no registered game is complete yet")


def test_tournament_prints_json_and_resumes(tmp_path: Path) -> None:
    game_id = _playable_game()
    out = tmp_path / "t.jsonl"
    args = [
        "tournament",
        game_id,
        "--agents",
        "random,heuristic",
        "--games",
        "2",
        "--seed",
        "3",
        "--out",
        str(out),
    ]
    first = runner.invoke(app, [*args, "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert data["games"] == 2 and {a["agent"] for a in data["agents"]} == {"random", "heuristic"}
    (same_seat,) = data["same_seat"]
    assert (same_seat["agent"], same_seat["other"], same_seat["deals"]) == ("random", "heuristic", 1)
    assert len(out.read_text().splitlines()) == 2
    again = runner.invoke(app, [*args, "--no-progress"])
    assert again.exit_code == 0, again.output
    assert "head to head" in again.output and "openskill" in again.output
    assert "same deal, same seat" in again.output
    assert len(out.read_text().splitlines()) == 2


def test_tournament_refuses_unknown_bots_and_games() -> None:
    game_id = _playable_game()
    result = runner.invoke(app, ["tournament", game_id, "--agents", "random,grandmaster"])
    assert result.exit_code != 0 and "unknown bot 'grandmaster'" in result.output
    result = runner.invoke(app, ["tournament", "chess", "--agents", "random"])
    assert result.exit_code != 0 and "unknown game 'chess'" in result.output


def test_balance_reads_results_and_writes_a_report(tmp_path: Path) -> None:
    game_id = _playable_game()
    results = tmp_path / "results"
    report = tmp_path / "report"
    args = ["balance", game_id, "--agent", "random", "--games", "3", "--results-dir", str(results)]
    played = runner.invoke(app, [*args, "--out-dir", str(report), "--no-progress"])
    assert played.exit_code == 0, played.output
    text = (report / "README.md").read_text()
    assert f"warcards balance {game_id} --agent random --games 3 --seed 0" in text
    files = sorted(results.glob("*.jsonl"))
    assert files
    reread = runner.invoke(
        app, ["balance", game_id, "--read", str(files[0]), "--out-dir", str(tmp_path / "again")]
    )
    assert reread.exit_code == 0, reread.output
    assert (tmp_path / "again" / "seat-win-rates.png").exists()
