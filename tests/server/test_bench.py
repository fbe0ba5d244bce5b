"""`warcards bench --server`: the server benchmark of docs/server.md runs end to end and refuses bad options."""

from __future__ import annotations

from typer.testing import CliRunner

from warcards.cli.main import app
from warcards.server.pgcluster import postgres_bin

runner = CliRunner()


def test_bench_server_plays_every_table_to_its_end_and_reports_the_figures() -> None:
    result = runner.invoke(app, ["bench", "--server", "--tables", "2", "--database", "sqlite"])
    assert result.exit_code == 0, result.output
    assert "database: sqlite; game: cards-of-war; tables: 2" in result.output
    assert "did not finish" not in result.output
    assert "per second" in result.output and "p99" in result.output and "KiB" in result.output


def test_bench_server_against_a_throwaway_postgresql_server() -> None:
    if postgres_bin() is None:
        result = runner.invoke(app, ["bench", "--server", "--tables", "1", "--database", "postgres"])
        assert "skipped" in result.output and "apt-get install postgresql" in result.output
        return
    result = runner.invoke(app, ["bench", "--server", "--tables", "1", "--database", "postgres"])
    assert result.exit_code == 0, result.output
    assert "database: postgresql; game: cards-of-war; tables: 1" in result.output


def test_bench_server_options_are_checked_before_anything_starts() -> None:
    for args, words in (
        (["--tables", "5"], "--tables and --database go with --server"),
        (["--server", "--tables", "0"], "--tables must be from 1 to 1000"),
        (["--server", "--game", "chess"], "chess"),
        (["--server", "--game", "naval-war", "--game", "cards-of-war"], "one --game"),
    ):
        result = runner.invoke(app, ["bench", *args])
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output, (args, result.output)
        assert "Traceback" not in result.output
