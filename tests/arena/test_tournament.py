"""Tournaments: seat rotation, seeds independent of the worker layout, resumable JSONL, SPRT stopping."""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from warcards.arena import (
    SPRTConfig,
    TournamentSpec,
    agent_summaries,
    lineups,
    make_backend,
    read_records,
    run_tournament,
    schedule,
)
from warcards.arena.tournament import ChunkQueue, GameTask, InlineBackend, TournamentRecord
from warcards.engine.agents import Agent
from warcards.engine.api import Game
from warcards.match import derive_seed

from ..bots.toygame import ToyGame, toy_heuristic, toy_search

TOY2 = functools.partial(ToyGame, 2)
TOY3 = functools.partial(ToyGame, 3)
BUILDERS = {"heuristic": toy_heuristic, "search": toy_search}


def _spec(
    games: int = 12, seed: int = 7, agents: tuple[str, ...] = ("search", "heuristic", "random")
) -> TournamentSpec:
    return TournamentSpec(
        "toy-tricks", agents, games, seed, factory=TOY2, builders=BUILDERS
    )


class CountingBackend(InlineBackend):
    """Plays inline and remembers which games it was asked to play."""

    def __init__(self) -> None:
        self.played: list[int] = []

    def run(self, spec: TournamentSpec, tasks: Sequence[GameTask]) -> Iterator[list[TournamentRecord]]:
        self.played += [task.index for task in tasks]
        yield from super().run(spec, tasks)


def test_every_agent_sits_in_every_seat() -> None:
    for agents, seats in [
        (("a", "b"), 2),
        (("a", "b", "c"), 2),
        (("a", "b"), 4),
        (("a", "b", "c"), 4),
        (("a",), 3),
    ]:
        rotations = lineups(agents, seats)
        for seat in range(seats):
            assert {lineup[seat] for lineup in rotations} == set(agents), (agents, seats)
        counts = Counter(name for lineup in rotations for name in lineup)
        assert len(set(counts.values())) == 1, f"unequal seat-games {counts}"
    assert len(lineups(("a", "b", "c"), 2)) == 6
    assert len(lineups(("a", "b", "c", "d"), 3)) == 24


def test_schedule_repeats_each_deal_once_per_rotation() -> None:
    tasks = schedule(_spec(games=12), seats=2)
    assert [t.index for t in tasks] == list(range(12))
    rotations = len(lineups(("search", "heuristic", "random"), 2))
    assert rotations == 6
    assert len({t.seed for t in tasks[:6]}) == 1 and tasks[6].seed != tasks[0].seed
    assert len({t.agents for t in tasks[:6]}) == 6


def test_results_are_identical_whatever_the_number_of_jobs() -> None:
    spec = _spec(games=12)
    inline = run_tournament(spec).records
    pooled = run_tournament(spec, make_backend("process", 2)).records
    assert inline == pooled
    assert [r.index for r in inline] == list(range(12))


def test_records_replay_and_name_the_agents_by_seat() -> None:
    records = run_tournament(_spec(games=6)).records
    game = TOY2()
    for record in records:
        state = game.new_initial_state()
        for action in record.actions:
            state.apply_action(action)
        assert state.is_terminal() and state.returns() == record.returns
        assert tuple(record.agents) == schedule(_spec(games=6), 2)[record.index].agents


def test_a_rerun_resumes_from_the_results_file(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    first = CountingBackend()
    run_tournament(_spec(games=6), first, out)
    assert first.played == list(range(6))
    lines_before = out.read_text().splitlines()
    second = CountingBackend()
    result = run_tournament(_spec(games=12), second, out)
    assert second.played == list(range(6, 12))
    assert out.read_text().splitlines()[:6] == lines_before
    assert result.records == run_tournament(_spec(games=12)).records
    third = CountingBackend()
    run_tournament(_spec(games=12), third, out)
    assert third.played == []


def test_an_interrupted_last_line_is_replayed(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    run_tournament(_spec(games=4), out=out)
    text = out.read_text()
    out.write_text(text[: len(text) - 20])
    assert [r.index for r in read_records(out)] == [0, 1, 2]
    backend = CountingBackend()
    result = run_tournament(_spec(games=4), backend, out)
    assert backend.played == [3]
    assert [json.loads(line)["index"] for line in out.read_text().splitlines()] == [0, 1, 2, 3]
    assert result.records == run_tournament(_spec(games=4)).records


def test_a_results_file_of_another_tournament_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    run_tournament(_spec(games=3, seed=1), out=out)
    before = out.read_text()
    with pytest.raises(ValueError, match="holds a different tournament"):
        run_tournament(_spec(games=3, seed=2), out=out)
    assert out.read_text() == before


def test_bad_arguments_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        _spec(games=0)
    with pytest.raises(ValueError, match="--jobs must be at least 1"):
        make_backend("process", 0)
    with pytest.raises(ValueError, match="backends are: process, ray"):
        make_backend("dask", 2)
    with pytest.raises(ValueError, match="--address is for --backend ray"):
        make_backend("process", 2, "auto")
    with pytest.raises(ValueError, match="exactly two agents"):
        run_tournament(_spec(games=2), until_significant=SPRTConfig())


def test_until_significant_stops_a_lopsided_match_early() -> None:
    spec = TournamentSpec("toy-tricks", ("search", "random"), 1000, 3, factory=TOY2, builders=BUILDERS)
    result = run_tournament(spec, until_significant=SPRTConfig(elo0=0, elo1=50), batch=20)
    assert result.sprt is not None and result.sprt.decision == "H1"
    assert len(result.records) < 1000 and len(result.records) % 20 == 0
    assert result.sprt.games == len(result.records)


def test_three_seat_tournament_has_even_share_one_third() -> None:
    spec = TournamentSpec("toy-tricks", ("search", "random"), 8, 1, factory=TOY3, builders=BUILDERS)
    records = run_tournament(spec).records
    assert {tuple(r.agents) for r in records} == {("search", "random", "search"), ("random", "search", "random")}
    summaries = agent_summaries(records)
    assert all(abs(s.win.even - 1 / 3) < 1e-12 for s in summaries)
    assert sum(s.win.trials for s in summaries) == 8 * 3


def test_a_shorter_rerun_uses_the_first_games_of_a_longer_file(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    longer = run_tournament(_spec(games=8), out=out).records
    backend = CountingBackend()
    shorter = run_tournament(_spec(games=5), backend, out).records
    assert backend.played == []
    assert shorter == longer[:5]


def test_chunks_hold_one_slow_game_and_many_fast_ones() -> None:
    tasks = schedule(_spec(games=40), 2)
    slow = ChunkQueue(tasks)
    assert len(slow.take()) == 1, "one game at a time until a game has been timed"
    slow.timed(1, 90.0)  # a search bot's game
    assert [len(slow.take()) for _ in range(3)] == [1, 1, 1]
    fast = ChunkQueue(tasks)
    fast.timed(len(fast.take()), 0.003)  # a random bot's game
    assert len(fast.take()) == 16
    medium = ChunkQueue(tasks, target=2.0)
    medium.timed(4, 2.0)
    assert medium.size() == 4
    handed: list[GameTask] = []
    while medium:
        handed += medium.take()
    assert handed == tasks[:] and not medium


def test_an_interrupted_run_keeps_every_game_it_finished(tmp_path: Path) -> None:
    spec = TournamentSpec("toy-tricks", ("heuristic", "random"), 6, 7, factory=TOY2,
                          builders=BUILDERS)
    fourth = schedule(spec, 2)[3]
    fails = derive_seed(fourth.seed, "agent", fourth.agents.index("heuristic"))

    def failing_in_the_fourth_game(game: Game, seat: int, seed: int) -> Agent:
        if seed == fails:
            raise RuntimeError("the machine went down")
        return toy_heuristic(game, seat, seed)

    out = tmp_path / "results.jsonl"
    broken = TournamentSpec(spec.game, spec.agents, spec.games, spec.seed, factory=TOY2,
                            builders={"heuristic": failing_in_the_fourth_game})
    with pytest.raises(RuntimeError, match="went down"):
        run_tournament(broken, out=out)
    assert [record.index for record in read_records(out)] == [0, 1, 2]
    backend = CountingBackend()
    resumed = run_tournament(spec, backend, out).records
    assert backend.played == [3, 4, 5]
    assert resumed == run_tournament(spec).records
