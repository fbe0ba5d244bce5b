"""`warcards bench --server` (issue 32, finding 8): load clients in their own processes play person seats
through a real `warcards serve`, and the bench reports the act -> ack latency they see and the server's
memory per playing table; bad options are refused before anything starts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from warcards.cli.main import app
from warcards.server.pgcluster import postgres_bin

runner = CliRunner()


def bench_json(*args: str) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["bench", "--server", "--json", *args])
    assert result.exit_code == 0, result.output
    return list(json.loads(result.output))


def assert_client_figures(figures: dict[str, Any]) -> None:
    """Client-side percentiles over acknowledged acts, the server's own figure beside them, memory per table."""
    assert figures["acts_acked"] > 0
    assert None not in (figures["p50_ms"], figures["p95_ms"], figures["p99_ms"])
    assert figures["p50_ms"] <= figures["p95_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert sum(count for _, count, _ in figures["p99_ms_by_slice"]) == figures["acts_acked"]
    assert figures["server_acts"] > 0 and figures["server_p99_ms"] is not None
    assert figures["kib_per_playing_table"] > 0
    assert figures["failures"] == 0, figures["failure_messages"]


def test_bench_measures_act_to_ack_latency_a_client_sees_playing_every_game_to_its_end() -> None:
    [figures] = bench_json("--tables", "4", "--client-processes", "1", "--think", "0", "--database", "sqlite")
    assert (figures["database"], figures["tables"], figures["client_processes"]) == ("sqlite", 4, 1)
    assert figures["finished"] == 4
    assert figures["refused"] == {}
    assert figures["events"] > figures["acts_acked"] / 2
    assert_client_figures(figures)


def test_bench_paced_clients_are_timed_over_a_window_and_the_lines_label_both_latencies() -> None:
    [figures] = bench_json(
        "--tables", "4", "--client-processes", "2", "--think", "0.01..0.05", "--duration", "2", "--database", "sqlite"
    )
    assert figures["think"] == [0.01, 0.05] and figures["duration"] == 2
    assert figures["events"] is None
    assert_client_figures(figures)
    result = runner.invoke(
        app, ["bench", "--server", "--tables", "2", "--client-processes", "1", "--think", "0.01", "--duration", "1",
              "--database", "sqlite"],
    )
    assert result.exit_code == 0, result.output
    assert "client-side act -> ack" in result.output and "p95" in result.output
    assert "server-side, receipt -> last broadcast queued" in result.output
    assert "memory per playing table" in result.output


def test_bench_server_against_a_throwaway_postgresql_server() -> None:
    if postgres_bin() is None:
        result = runner.invoke(app, ["bench", "--server", "--tables", "1", "--database", "postgres"])
        assert "skipped" in result.output and "apt-get install postgresql" in result.output
        return
    [figures] = bench_json("--tables", "1", "--client-processes", "1", "--database", "postgres")
    assert (figures["database"], figures["finished"]) == ("postgresql", 1)
    assert_client_figures(figures)


def test_bench_server_options_are_checked_before_anything_starts() -> None:
    for args, words in (
        (["--tables", "5"], "go with --server"),
        (["--think", "1..5"], "go with --server"),
        (["--duration", "60"], "go with --server"),
        (["--server", "--tables", "0"], "--tables must be from 1 to 1000"),
        (["--server", "--client-processes", "0"], "--client-processes must be from 1 to 32"),
        (["--server", "--think", "slow"], "--think takes 0, SECONDS or MIN..MAX"),
        (["--server", "--think", "5..1"], "MIN <= MAX"),
        (["--server", "--duration", "0"], "--duration must be a number of seconds above 0"),
        (["--server", "--duration", "nan"], "--duration must be a number of seconds above 0"),
        (["--server", "--game", "chess"], "chess"),
        (["--server", "--game", "naval-war", "--game", "cards-of-war"], "one --game"),
    ):
        result = runner.invoke(app, ["bench", *args])
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_bench_serve_flags_reach_the_server_and_a_server_that_cannot_start_is_an_error_not_a_traceback() -> None:
    result = runner.invoke(
        app, ["bench", "--server", "--tables", "1", "--database", "sqlite", "--serve-flag=--no-such-flag"]
    )
    assert result.exit_code == 1, result.output
    assert "warcards serve did not start" in result.output and "logs are in" in result.output
    assert "Traceback" not in result.output
    log = Path(result.output.split("its log: ", 1)[1].split(";", 1)[0].strip())
    assert "--no-such-flag" in log.read_text()
    shutil.rmtree(log.parent)
