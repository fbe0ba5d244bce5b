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
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("optuna")

from warcards.arena.tournament import GameTask, InlineBackend, TournamentRecord, TournamentSpec
from warcards.arena.tune import (
    CardSource,
    SpaceFile,
    Study,
    TuneError,
    candidates,
    check_space,
    fresh_seed,
    open_study,
    optimize,
    read_space,
    resimulate,
    status_line,
    write_report,
)
from warcards.arena.tune_cards import card_defaults, dump_toml, split_setting
from warcards.bots import make_agent
from warcards.engine.cards import read_toml
from warcards.engine.registry import load_game, param_specs

from .coingame import CARD_COIN_CARDS, EDGE, CardCoinGame, CoinGame

SRC = str(Path(__file__).resolve().parents[2] / "src")


def coin_specs(extra: Mapping[str, Any], games: int, seed: int) -> TournamentSpec:
    options = dict(extra)
    return TournamentSpec("coin", ("random",), games, seed, options, factory=partial(CoinGame, options))


def test_the_tuner_finds_the_even_setting_of_a_game_whose_parameter_sets_the_edge(tmp_path: Path) -> None:
    space = SpaceFile.model_validate({
        "game": "coin", "bot": "random", "parameters": {"edge": {"low": 0, "high": 10}},
        "games": 200, "trials": 14, "batch": 50,
    })
    run = Study(space, [EDGE], coin_specs, 2, f"sqlite:///{tmp_path / 'study.sqlite3'}", "coin", 3, InlineBackend())
    study = optimize(run)
    assert abs(study.best_params["edge"] - 5) <= 1
    status = status_line(study, 14)  # the progress bar's text: trials, pruned, the best so far and its setting
    assert status.startswith("trial 14/14 · ") and " pruned · best 0.0" in status and "edge=" in status
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


def tune(folder: Path, space: Path, *extra: str, game: str = "race-to-messina") -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.Popen(
        [sys.executable, "-m", "warcards", "tune", game, "--space", str(space), "--out", str(folder),
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


# ----- card fields, card impact, a bot per seat -----------------------------------------------------------------
def card_coin_specs(extra: Mapping[str, Any], games: int, seed: int) -> TournamentSpec:
    options = {"params": {"edge": 5}, **extra}
    return TournamentSpec("card-coin", ("random",), games, seed, options, factory=partial(CardCoinGame, options))


def card_coin_study(tmp_path: Path, space: SpaceFile, backend: Any = None) -> Study:
    deck = tmp_path / "deck.toml"
    deck.write_text(CARD_COIN_CARDS)
    source = CardSource.read(deck, space, tmp_path / "cards")
    make = partial(_with_deck, deck)
    return Study(space, [EDGE], make, 2, f"sqlite:///{tmp_path / 'study.sqlite3'}", "card-coin", 5,
                 backend or InlineBackend(), source)


def _with_deck(deck: Path, extra: Mapping[str, Any], games: int, seed: int) -> TournamentSpec:
    return card_coin_specs({"cards": str(deck), **extra}, games, seed)


def test_a_card_field_study_finds_the_power_at_which_no_card_decides_the_game(tmp_path: Path) -> None:
    space = SpaceFile.model_validate({
        "game": "card-coin", "bot": "random", "cards": {"ACE": {"power": {"low": 0, "high": 10}}},
        "objectives": ["card_impact"], "band": 0.1, "games": 240, "trials": 12, "batch": 240,
    })
    run = card_coin_study(tmp_path, space)
    rule_text = run.play({}, 400, 11, 400)
    assert rule_text.card_impact()[0] == "ACE" and rule_text.card_impact()[1] > 0.45  # the ACE decides it
    study = optimize(run)
    assert study.trials[0].params == {"ACE.power": 10}  # the card file's value is the baseline
    assert study.best_params["ACE.power"] <= 3
    files = sorted((tmp_path / "cards").glob("cards-*.toml"))
    assert len(files) >= 3  # one card file per setting tried, each the deck with the power changed
    powers = {row["power"] for f in files for row in read_toml(f)["card"] if row["id"] == "ACE"}
    assert len(powers) == len(files) and powers <= set(range(10))
    chosen = candidates(run, study)
    resimulate(run, chosen, 400, fresh_seed(5))
    report = write_report(run, study, chosen, tmp_path / "report", ["first", "second"], "warcards tune card-coin", 1)
    text = report.read_text()
    assert "ACE.power 10→" in text and "largest card impact" in text and "--cards best.cards.toml" in text
    best = read_toml(tmp_path / "report" / "best.cards.toml")
    ace = next(row for row in best["card"] if row["id"] == "ACE")
    assert ace["power"] <= 3 and [row["id"] for row in best["card"]] == ["ACE", "K1", "K2", "K3"]
    assert CardCoinGame({"params": {"edge": 5}, "cards": str(tmp_path / "report" / "best.cards.toml")}).powers["ACE"] == ace["power"]


def test_a_card_impact_limit_makes_a_deciding_card_infeasible(tmp_path: Path) -> None:
    space = SpaceFile.model_validate({
        "game": "card-coin", "bot": "random", "cards": {"ACE": {"power": {"choices": [0, 10]}}},
        "objectives": ["balance"], "card_impact_limit": 0.2, "games": 200, "trials": 2, "batch": 200,
    })
    run = card_coin_study(tmp_path, space)
    open_study(run).enqueue_trial({"ACE.power": 0})  # after the baseline (the file's 10), the other choice
    study = optimize(run)
    by_power = {t.params["ACE.power"]: t for t in study.trials}
    assert by_power[10].user_attrs["constraint"][0] > 0.2  # the ACE moves its player's share by ~67 points
    assert by_power[0].user_attrs["constraint"][0] <= 0
    assert by_power[10].user_attrs["card_impact"][0] == "ACE"


def test_card_field_errors_name_the_card_and_the_field(tmp_path: Path) -> None:
    def space(cards: dict[str, Any]) -> SpaceFile:
        return SpaceFile.model_validate({"game": "card-coin", "cards": cards})

    with pytest.raises(TuneError, match=r"unknown card 'QUEEN'.*ACE, K1, K2, K3"):
        card_coin_study(tmp_path, space({"QUEEN": {"power": {"low": 0, "high": 1}}}))
    with pytest.raises(TuneError, match="card ACE has no field 'might'; its numeric fields are: power"):
        card_coin_study(tmp_path, space({"ACE": {"might": {"low": 0, "high": 1}}}))
    with pytest.raises(TuneError, match="card ACE field id is 'ACE', not a whole number"):
        card_coin_study(tmp_path, space({"ACE": {"id": {"low": 0, "high": 1}}}))
    run = card_coin_study(tmp_path, space({"ACE": {"power": {"low": 5, "high": 12}}}))
    with pytest.raises(TuneError, match=r"highest card values are refused: .*card ACE: field power: Input should be "
                                        r"less than or equal to 10"):
        run.check_cards()


def test_a_card_field_out_of_the_games_range_exits_2_with_a_sentence(tmp_path: Path) -> None:
    space = tmp_path / "cards.toml"
    space.write_text('game = "cards-of-war"\nbot = "random"\n\n[cards.A01]\nscore = { low = 1, high = 20 }\n')
    worker = tune(tmp_path / "out", space, game="cards-of-war")
    _, error = worker.communicate(timeout=300)
    assert worker.returncode == 2
    message = error.decode()
    assert "card A01: field score" in message and "less than or equal to 14" in message
    assert "Traceback" not in message
    space.write_text('game = "race-to-messina"\nbot = "random"\n\n[cards.X01]\nforce = { low = 1, high = 12 }\n')
    worker = tune(tmp_path / "out", space)
    _, error = worker.communicate(timeout=300)
    message = error.decode()
    assert worker.returncode == 2 and "card X01: field force" in message and "less than or equal to 10" in message
    assert "Traceback" not in message


RACE_CARDS_SPACE = SPACE.replace("trials = 5", "trials = 4").replace(
    "[parameters]\nbritish_hand_size = { low = 8, high = 14 }",
    "[cards.X35]                        # Company of Tigers, force 9 in the printed list\nforce = { low = 5, high = 10 }",
)


def test_a_race_to_messina_card_field_is_tuned_through_its_cards_option(tmp_path: Path) -> None:
    space = tmp_path / "tigers.toml"
    assert "[cards.X35]" in RACE_CARDS_SPACE and "[parameters]" not in RACE_CARDS_SPACE
    space.write_text(RACE_CARDS_SPACE)
    folder = tmp_path / "out"
    worker = tune(folder, space)
    _, error = worker.communicate(timeout=900)
    assert worker.returncode == 0, error.decode()
    import optuna

    study = optuna.load_study(study_name="race-to-messina-tigers-seed0",
                              storage=f"sqlite:///{folder / 'study.sqlite3'}")
    assert [t.state.name for t in study.trials] == ["COMPLETE"] * 4
    tried = [t.params["X35.force"] for t in study.trials]
    assert tried[0] == 9 and set(tried) <= set(range(5, 11)) and len(set(tried)) > 1  # the file's value first
    files = sorted((folder / "cards").glob("cards-*.toml"))
    forces = {next(row["force"] for row in read_toml(f)["card"] if row["id"] == "X35"): f for f in files}
    assert set(tried) - {9} <= set(forces) <= set(range(5, 11)) - {9}  # the rule text's trial plays the shipped file
    for force, path in forces.items():
        game = load_game("race-to-messina", variant="race", cards=str(path))
        assert game.table.force[game.table.by_key["x35"]] == force  # what that trial's games played
    assert "Traceback" not in error.decode()


class Recording(InlineBackend):
    """The inline backend, keeping each game's seats."""

    def __init__(self) -> None:
        self.agents: list[tuple[str, ...]] = []

    def run(self, spec: TournamentSpec, tasks: Sequence[GameTask]) -> Iterator[list[TournamentRecord]]:
        for records in super().run(spec, tasks):
            self.agents += [tuple(record.agents) for record in records]
            yield records


def test_a_bot_per_seat_plays_every_game_in_those_seats(tmp_path: Path) -> None:
    base = {"game": "coin", "parameters": {"edge": {"low": 0, "high": 10}}}
    assert SpaceFile.model_validate({**base, "bots": ["hard", "random"]}).lineup(["first", "second"]) == ("hard", "random")
    by_name = SpaceFile.model_validate({**base, "bot": "random", "bots": {"second": "medium"}})
    assert by_name.lineup(["first", "second"]) == ("random", "medium")
    assert SpaceFile.model_validate({**base, "bots": {"seat0": "easy"}}).lineup(["first", "second"])[0] == "easy"
    with pytest.raises(TuneError, match=r"bots names seat 'third'; the seats are first \(seat0\), second \(seat1\)"):
        SpaceFile.model_validate({**base, "bots": {"third": "easy"}}).lineup(["first", "second"])
    with pytest.raises(TuneError, match="bots lists 1 bots; coin has 2 seats"):
        SpaceFile.model_validate({**base, "bots": ["easy"]}).lineup(["first", "second"])
    backend = Recording()
    space = SpaceFile.model_validate({**base, "bots": ["cautious", "random"]})
    lineup = space.lineup(["first", "second"])
    cautious = {"cautious": partial(make_agent, "random")}  # a second name: Coin is no registered game
    run = Study(space, [EDGE], lambda extra, games, seed: TournamentSpec(
        "coin", tuple(dict.fromkeys(lineup)), games, seed, dict(extra), factory=partial(CoinGame, dict(extra)),
        builders=cautious), 2, "sqlite://", "coin", 0, backend, lineup=lineup)
    run.play({}, 8, 0, 4)
    assert backend.agents == [("cautious", "random")] * 8  # no rotation: each seat keeps its bot


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server of its own (as tests/server's fixture), stopped after."""
    from warcards.server.pgcluster import postgres_bin, throwaway_postgres

    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin or on PATH)")
    with throwaway_postgres(fsync=False) as url:
        yield url


def test_two_workers_share_one_postgresql_study_and_count_no_trial_twice(tmp_path: Path, postgres_url: str) -> None:
    import psycopg

    space = tmp_path / "race.toml"
    space.write_text(SPACE.replace("trials = 5", "trials = 6"))
    shared = ("--storage", postgres_url, "--study", "shared")
    workers = [tune(tmp_path / "one", space, *shared), tune(tmp_path / "two", space, *shared)]
    for worker in workers:
        _, error = worker.communicate(timeout=900)
        assert worker.returncode == 0, error.decode()
    with psycopg.connect(postgres_url) as connection:
        rows = connection.execute("select t.number, t.state from trials t join studies s using (study_id) "
                                  "where s.study_name = 'shared' order by t.number").fetchall()
    numbers = [number for number, _ in rows]
    finished = [number for number, state in rows if state in ("COMPLETE", "PRUNED")]
    assert numbers == list(range(len(numbers)))  # each trial once, numbered in one sequence
    assert 6 <= len(finished) <= 7  # each stops once the study holds six (one may finish a last one)
    for folder in (tmp_path / "one", tmp_path / "two"):
        assert "Study `shared` in `postgresql://…@127.0.0.1" in (folder / "README.md").read_text()


def test_every_shipped_card_file_writes_back_to_the_same_tables_and_a_dotted_card_id_keeps_its_field() -> None:
    games = Path(SRC) / "warcards" / "games"
    for path in sorted(games.glob("*/cards.toml")):
        data = read_toml(path)
        assert tomllib.loads(dump_toml(data)) == data, path  # what a trial's card file is written from
    naval = read_toml(games / "naval_war" / "cards.toml")
    assert card_defaults(naval, {"SALVO12.6x2": ["value"]}, "naval")["SALVO12.6x2.value"] >= 0
    assert split_setting({"SALVO12.6x2.value": 3, "hand_size": 7}) == ({"hand_size": 7}, {"SALVO12.6x2": {"value": 3}})
