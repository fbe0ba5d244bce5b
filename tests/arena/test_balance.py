"""Balance reports: seat and first-player edge, lengths and action impact, written as Markdown and PNGs."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

import warcards
from warcards.arena import TournamentSpec, run_tournament
from warcards.arena.balance import analyse, configurations, reports_from_files, write_report
from warcards.arena.tournament import TournamentRecord

from ..bots.toygame import ToyGame, toy_heuristic


def _records(players: int, games: int) -> list[TournamentRecord]:
    spec = TournamentSpec(
        "toy-tricks",
        ("heuristic",),
        games,
        5,
        factory=functools.partial(ToyGame, players),
        builders={"heuristic": toy_heuristic},
    )
    return run_tournament(spec).records


def test_analysis_counts_seats_first_player_lengths_and_actions() -> None:
    game = ToyGame(3)
    records = _records(3, 60)
    report = analyse(game, records, "3p")
    assert report.games == 60 and report.seat_names == ["p0", "p1", "p2"]
    assert sum(rate.wins for rate in report.seats) == pytest.approx(60)
    assert all(rate.even == pytest.approx(1 / 3) for rate in report.seats)
    # seat 0 always leads the first trick in Toy Tricks
    assert report.first.wins == pytest.approx(report.seats[0].wins)
    assert report.lengths == [12] * 60
    labels = {impact.label for impact in report.impacts}
    assert "play 11" in labels
    top = next(i for i in report.impacts if i.label == "play 11")
    assert top.rate > top.baseline, "the highest card always wins its trick"
    assert top.low <= top.rate <= top.high


def test_report_has_tables_and_small_plots(tmp_path: Path) -> None:
    reports = [analyse(ToyGame(2), _records(2, 40), "2p"), analyse(ToyGame(3), _records(3, 30), "3p")]
    path = write_report("toy-tricks", reports, tmp_path, "warcards balance toy-tricks", "heuristic")
    text = path.read_text()
    for heading in (
        "## Win rate per seat",
        "## First-player advantage",
        "## Game length",
        "## Card impact",
    ):
        assert heading in text
    assert "| 2p | p0 | 40 |" in text and "| 3p | p2 | 30 |" in text
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    assert pngs == [
        "first-player.png",
        "game-length.png",
        "impact-2p.png",
        "impact-3p.png",
        "seat-win-rates.png",
    ]
    for png in tmp_path.glob("*.png"):
        assert png.read_bytes()[:4] == b"\x89PNG" and png.stat().st_size < 200_000
        assert f"]({png.name})" in text


def _registered() -> list[str]:
    return warcards.games()


@pytest.mark.parametrize("game_id", _registered())
def test_balance_runs_on_every_registered_game(game_id: str, tmp_path: Path) -> None:
    try:
        configs = configurations(game_id)
        warcards.load_game(game_id, **configs[0])
    except (ImportError, AttributeError) as error:
        pytest.skip(f"{game_id} is not complete yet: {error}")
    spec = TournamentSpec(game_id, ("random",), 4, 1, configs[0])
    out = tmp_path / "r.jsonl"
    run_tournament(spec, out=out)
    reports = reports_from_files([out])
    assert reports[0].games == 4
    path = write_report(game_id, reports, tmp_path / "report", "test", "random")
    assert path.exists()
