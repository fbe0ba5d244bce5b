"""The command line on every registered game: play to the end, bad entries, simulate, replay, bench, rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import warcards
from warcards.cli.main import app

runner = CliRunner()
GAMES = warcards.games()


def test_games_lists_every_game_and_its_options() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for game_id in GAMES:
        assert game_id in result.output


def test_unknown_game_is_a_clear_error() -> None:
    result = runner.invoke(app, ["simulate", "chess", "-n", "1"])
    assert result.exit_code != 0
    assert "unknown game 'chess'" in result.output


@pytest.mark.parametrize("game_id", GAMES)
def test_play_a_whole_game_by_numbers_with_bad_entries_in_between(game_id: str) -> None:
    # Bad entries first (a number out of range, garbage, a command), then always the first legal move.
    entries = ["999", "fly me to the moon", "help", "moves", "log", *["1"] * 5000]
    result = runner.invoke(
        app, ["play", game_id, "--vs", "random", "--seed", "3"], input="\n".join(entries) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert "There is no move 999" in result.output
    assert "Game over" in result.output


@pytest.mark.parametrize("game_id", GAMES)
def test_play_quit_leaves_cleanly(game_id: str) -> None:
    result = runner.invoke(app, ["play", game_id, "--seed", "1"], input="quit\n")
    assert result.exit_code == 0
    assert "You left the game" in result.output


def test_play_bad_seat_and_bad_bot_are_explained() -> None:
    game_id = GAMES[0] if GAMES else pytest.skip("no game registered")
    result = runner.invoke(app, ["play", game_id, "--seat", "nobody"])
    assert result.exit_code != 0 and "unknown seat 'nobody'" in result.output
    result = runner.invoke(app, ["play", game_id, "--vs", "deep-blue"])
    assert result.exit_code != 0 and "unknown bot 'deep-blue'" in result.output


def test_bad_option_names_the_allowed_values() -> None:
    game_id = GAMES[0] if GAMES else pytest.skip("no game registered")
    result = runner.invoke(app, ["simulate", game_id, "-n", "1", "--option", "nonsense=1"])
    assert result.exit_code != 0 and "unknown option 'nonsense'" in result.output


@pytest.mark.parametrize("game_id", GAMES)
def test_simulate_is_identical_whatever_jobs_and_replays(game_id: str, tmp_path: Path) -> None:
    outputs = []
    for jobs in (1, 2):
        out = tmp_path / f"games{jobs}.jsonl"
        result = runner.invoke(
            app,
            [
                "simulate",
                game_id,
                "-n",
                "6",
                "--bots",
                "random",
                "--seed",
                "11",
                "--jobs",
                str(jobs),
                "--out",
                str(out),
                "--json",
            ],
        )
        assert result.exit_code == 0, result.output
        outputs.append((json.loads(result.output), out.read_text()))
    assert outputs[0] == outputs[1]
    summary = outputs[0][0]
    assert summary["games"] == 6 and len(summary["seats"]) == warcards.load_game(game_id).num_players
    result = runner.invoke(app, ["replay", str(tmp_path / "games1.jsonl")])
    assert result.exit_code == 0 and "6 of 6 records replay exactly" in result.output


def test_replay_detects_a_tampered_record(tmp_path: Path) -> None:
    game_id = GAMES[0] if GAMES else pytest.skip("no game registered")
    record = warcards.play_match(
        warcards.load_game(game_id), ["random"] * warcards.load_game(game_id).num_players, 4
    )
    record.actions = record.actions[:-1]
    path = tmp_path / "one.json"
    path.write_text(record.model_dump_json())
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "0 of 1 records replay exactly" in result.output


def test_bench_json_reports_every_configuration() -> None:
    game_id = GAMES[0] if GAMES else pytest.skip("no game registered")
    result = runner.invoke(app, ["bench", "--game", game_id, "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert rows and all(row["actions_per_s"] > 0 and row["clones_per_s"] > 0 for row in rows)


def test_bench_table_shows_only_the_columns_the_run_measures() -> None:
    result = runner.invoke(app, ["bench", "--game", "cards-of-war", "--seconds", "0.1"])
    assert result.exit_code == 0, result.output
    assert "cards-of-war" in result.output and "length=short" in result.output and "determinize" in result.output
    assert "hearts" not in result.output and "sims/s" not in result.output  # no --compare, no --search


def test_bench_search_columns_time_the_search_bot() -> None:
    game_id = GAMES[0] if GAMES else pytest.skip("no game registered")
    result = runner.invoke(
        app, ["bench", "--game", game_id, "--seconds", "0.1", "--search", "hard", "--json"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert all(row["search_level"] == "hard" and row["search_simulations_per_s"] > 0 for row in rows)
    bad = runner.invoke(app, ["bench", "--game", game_id, "--search", "grandmaster"])
    assert bad.exit_code != 0 and "search bot level" in bad.output


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_prints_the_rulings(game_id: str) -> None:
    result = runner.invoke(app, ["rules", game_id])
    assert result.exit_code == 0 and len(result.output) > 200


def test_scenario_command_reports_a_failed_expectation(tmp_path: Path) -> None:
    game_id = GAMES[0] if GAMES else pytest.skip("no game registered")
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"game": game_id, "expect": {"terminal": True}}))
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 1
    assert json.loads(result.output.splitlines()[0])["passed"] is False
    path.write_text("{")
    assert runner.invoke(app, ["scenario", str(path)]).exit_code == 2
