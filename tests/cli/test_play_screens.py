"""Issue 23, the terminal side: what `warcards play` prints (the seed, the log, the prompt's status line, the
end screen with the winner and the reason), Enter for a forced move, `--out`/`--resume`, `undo`, and
`warcards replay --show`."""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

import warcards
from warcards.cli.main import app
from warcards.cli.play import TerminalGame, end_line, seat_title, thinking
from warcards.cli.screen import columns_that_fit
from warcards.match import PlayRecord, RecordError, replay

runner = CliRunner()
GAMES = warcards.games()
ONES = "1\n" * 4000


def _console() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, width=80, color_system=None, force_terminal=False, highlight=False), buffer


def _record(path: Path) -> PlayRecord:
    return PlayRecord.model_validate(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("game_id", GAMES)
def test_play_to_the_end_prints_the_seed_the_log_and_the_end_screen_with_winner_and_reason(
    game_id: str, tmp_path: Path
) -> None:
    out = tmp_path / "game.json"
    result = runner.invoke(app, ["play", game_id, "--vs", "random", "--seed", "5", "--out", str(out)], input=ONES)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Traceback" not in text and "Internal error" not in text
    assert text.count("seed 5 — replay with --seed 5") == 2  # at the start and on the end screen
    final = replay(_record(out))
    outcome = final.result()
    names = final.game.seat_names()
    assert "Game over" in text
    assert end_line(outcome, names, 0) in " ".join(text.split())
    assert any(seat_title(names[winner]) in text.split("Game over")[-1] for winner in outcome.winners)
    assert "returns" not in text.split("Game over")[-1]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_without_seed_gets_a_random_one_and_prints_it(game_id: str) -> None:
    result = runner.invoke(app, ["play", game_id], input="quit\n")
    assert result.exit_code == 0, result.output
    match = re.search(r"seed (\d+) — replay with --seed (\d+)", result.output)
    assert match and match.group(1) == match.group(2)


class _Scripted:
    """A human at a `TerminalGame` who answers each prompt with `answer(session, prompt)` and keeps the
    prompts it was shown."""

    def __init__(self, answer: Callable[[TerminalGame, str], str]) -> None:
        self.answer = answer
        self.prompts: list[str] = []
        self.session: TerminalGame | None = None

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        assert self.session is not None
        return self.answer(self.session, prompt)


def _session(
    game_id: str, human: _Scripted, options: dict[str, object] | None = None, seed: int = 11
) -> tuple[TerminalGame, io.StringIO]:
    console, buffer = _console()
    game = warcards.load_game(game_id, **(options or {}))
    session = TerminalGame(game, 0, "random", seed, console, human)
    human.session = session
    return session, buffer


def _first_or_enter(session: TerminalGame, prompt: str) -> str:
    return "" if len(session.state.legal_actions()) == 1 else "1"


@pytest.mark.parametrize("game_id", GAMES)
def test_enter_plays_the_only_move_and_the_prompt_shows_the_status_line(game_id: str) -> None:
    human = _Scripted(_first_or_enter)
    session, buffer = _session(game_id, human)
    assert session.run() is not None
    assert session.state.is_terminal()
    assert "Type a move's number" not in buffer.getvalue(), "Enter on a forced move is never refused"
    assert human.prompts and all(re.fullmatch(r"\[[^\n]+\]( your move)?> ", p) for p in human.prompts)
    assert all("your move" in p.lower() for p in human.prompts)
    assert all(len(p) <= 80 for p in human.prompts)


def test_enter_with_several_moves_asks_again() -> None:
    answers = iter(["", "quit"])
    session, buffer = _session("race-to-messina", _Scripted(lambda s, p: next(answers)))
    assert session.run() is None
    assert "Type a move's number (1 to" in buffer.getvalue()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_resumed_game_reaches_the_same_end_as_an_uninterrupted_one(game_id: str, tmp_path: Path) -> None:
    """The bots' decisions and the chance draws go on exactly: the same moves typed give the same game."""
    whole = tmp_path / "whole.json"
    cut = tmp_path / "cut.json"
    args = ["play", game_id, "--vs", "random", "--seed", "21"]
    assert runner.invoke(app, [*args, "--out", str(whole)], input=ONES).exit_code == 0
    left = runner.invoke(app, [*args, "--out", str(cut)], input="1\n" * 6 + "quit\n")
    assert left.exit_code == 0 and "You left the game. It is saved" in left.output
    partial = _record(cut)
    assert not partial.finished() and partial.returns == [] and partial.humans == [0]
    checked = runner.invoke(app, ["replay", str(cut)])  # a partial record replays as far as it goes, and says so
    assert checked.exit_code == 0 and "1 game is not over" in checked.output
    resumed = runner.invoke(app, ["play", "--resume", str(cut)], input=ONES)
    assert resumed.exit_code == 0, resumed.output
    assert "Resumed after move" in resumed.output and "Game over" in resumed.output
    assert _record(cut).actions == _record(whole).actions
    assert _record(cut).returns == _record(whole).returns


def test_resume_refuses_a_finished_game_other_flags_and_a_bots_record(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert runner.invoke(app, ["play", "cards-of-war", "--vs", "random", "--out", str(path)], input=ONES).exit_code == 0
    over = runner.invoke(app, ["play", "--resume", str(path)])
    assert over.exit_code == 2 and "is over" in over.output
    flags = runner.invoke(app, ["play", "--resume", str(path), "--seed", "3"])
    assert flags.exit_code == 2 and "drop --seed" in flags.output
    again = runner.invoke(app, ["play", "cards-of-war", "--out", str(path)], input="quit\n")
    assert again.exit_code == 2 and "exists" in again.output
    bots = tmp_path / "bots.jsonl"
    assert runner.invoke(app, ["simulate", "cards-of-war", "-n", "1", "--out", str(bots)]).exit_code == 0
    refused = runner.invoke(app, ["play", "--resume", str(bots)])
    assert refused.exit_code == 2 and "not a game saved by" in refused.output
    assert "Traceback" not in refused.output


def test_a_tampered_partial_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    runner.invoke(app, ["play", "race-to-messina", "--seed", "2", "--out", str(path)], input="1\n1\nquit\n")
    data = json.loads(path.read_text())
    data["returns"] = [1.0, -1.0]  # claims an end the game has not reached
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["play", "--resume", str(path)])
    assert result.exit_code == 2 and "not over" in result.output


@pytest.mark.parametrize("game_id", GAMES)
def test_undo_takes_back_the_last_move_and_the_bots_replies_and_the_game_goes_on_the_same(game_id: str) -> None:
    moves: list[list[int]] = []

    def answer(session: TerminalGame, prompt: str) -> str:
        moves.append(session.state.history())
        if len(moves) == 4:
            return "undo"
        if len(moves) > 8:
            return "quit"
        return "1"

    session, buffer = _session(game_id, _Scripted(answer))
    session.run()
    out = buffer.getvalue()
    assert "Took back your move" in out
    assert moves[4] == moves[2], "after undo it is the human's turn of the move taken back"
    assert moves[5] == moves[3], "the same move again gives the same replies (bots and chance alike)"


def test_undo_before_any_move_says_so() -> None:
    answers = iter(["undo", "quit"])
    session, buffer = _session("race-to-messina", _Scripted(lambda s, p: next(answers)))
    session.run()
    assert "There is no move of yours to take back." in buffer.getvalue()


def test_the_prompt_commands_board_log_guide_and_rules_work() -> None:
    answers = iter(["board", "log", "guide", "rules R1", "rules R999", "rules", "help", "quit"])
    session, buffer = _session("naval-war", _Scripted(lambda s, p: next(answers)), options={"players": 3})
    assert session.run() is None
    out = buffer.getvalue()
    assert "Naval War in warcards" in out  # the guide's title
    assert "R1." in out and "has no ruling 'R999'; its rulings are R1 to" in out
    assert "undo" in out and "You left the game." in out


def test_replay_show_needs_a_persons_seat_until_the_end_then_shows_everyone(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    runner.invoke(app, ["play", "race-to-messina", "--seed", "8", "--vs", "random", "--out", str(path)], input="1\n" * 5 + "quit\n")
    refused = runner.invoke(app, ["replay", "--show", str(path)])
    assert refused.exit_code == 2 and "not over" in refused.output and "--seat" in refused.output
    bot_seat = runner.invoke(app, ["replay", "--show", str(path), "--seat", "1"])
    assert bot_seat.exit_code == 2 and "only as a seat a person plays" in bot_seat.output
    own = runner.invoke(app, ["replay", "--show", str(path), "--seat", "0"])
    assert own.exit_code == 0 and "The game is not over" in own.output
    runner.invoke(app, ["play", "--resume", str(path)], input=ONES)
    everyone = runner.invoke(app, ["replay", "--show", str(path)])
    assert everyone.exit_code == 0 and "every seat's moves in full" in everyone.output
    final = replay(_record(path))
    assert final.result().reason in " ".join(everyone.output.split())
    seat = runner.invoke(app, ["replay", "--show", str(path), "--seat", "1"])
    assert seat.exit_code == 0 and "Game over" in seat.output


def test_replay_show_takes_one_record_and_seat_needs_show(tmp_path: Path) -> None:
    bots = tmp_path / "bots.jsonl"
    runner.invoke(app, ["simulate", "cards-of-war", "-n", "2", "--out", str(bots)])
    several = runner.invoke(app, ["replay", "--show", str(bots)])
    assert several.exit_code == 2 and "several game records" in several.output
    alone = runner.invoke(app, ["replay", str(bots), "--seat", "0"])
    assert alone.exit_code == 2 and "--seat goes with --show" in alone.output
    one = tmp_path / "one.json"
    one.write_text(bots.read_text().splitlines()[0])
    shown = runner.invoke(app, ["replay", "--show", str(one), "--seat", "1"])
    assert shown.exit_code == 0 and "Game over" in shown.output


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    path = tmp_path_factory.mktemp("saved") / "g.json"
    runner.invoke(app, ["play", "race-to-messina", "--seed", "4", "--vs", "random", "--out", str(path)], input="1\n" * 4 + "quit\n")
    data: dict[str, object] = json.loads(path.read_text())
    return data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    humans=st.one_of(st.just([0]), st.lists(st.integers(-2, 3), max_size=3)),
    agents=st.one_of(st.just(None), st.lists(st.sampled_from(["human", "random", "deep-blue", "[red]"]), max_size=3)),
    cut=st.integers(-3, 3),
    extra=st.lists(st.integers(-1, 2**70), max_size=2),
    returns=st.one_of(st.just([]), st.lists(st.floats(-2, 2), max_size=3)),
)
def test_a_changed_saved_game_is_refused_in_one_line_or_plays_never_a_traceback(
    saved_game: dict[str, object], tmp_path: Path, humans: list[int], agents: list[str] | None, cut: int,
    extra: list[int], returns: list[float],
) -> None:
    data = dict(saved_game)
    actions = list(data["actions"])  # type: ignore[call-overload]
    data.update(humans=humans, returns=returns, actions=actions[: len(actions) + cut] + extra)
    if agents is not None:
        data["agents"] = agents
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data))
    for args in (["play", "--resume", str(path)], ["replay", "--show", str(path), "--seat", "0"]):
        result = runner.invoke(app, args, input="quit\n")
        assert "Traceback" not in result.output and "Internal error" not in result.output, result.output[-2000:]
        assert result.exit_code in (0, 2), result.output[-2000:]
        if result.exit_code == 2:
            assert result.output.count("Error:") == 1


def test_a_play_record_claims_exactly_whether_the_game_is_over() -> None:
    """An unfinished game has empty returns, a finished one its returns; a plain MatchRecord is always whole."""
    record = warcards.play_match("cards-of-war", ["random", "random"], seed=3)
    whole = PlayRecord(**record.model_dump(exclude={"agents"}), agents=["human", "random"], humans=[0])
    replay(whole)
    with pytest.raises(RecordError, match="the game is over after"):
        replay(whole.model_copy(update={"returns": []}))
    part = whole.model_copy(update={"actions": whole.actions[:-3], "returns": []})
    assert not replay(part).is_terminal()
    with pytest.raises(RecordError, match="not over"):
        replay(part.model_copy(update={"returns": whole.returns}))
    with pytest.raises(RecordError, match="0 returns"):
        replay(record.model_copy(update={"actions": whole.actions[:-3], "returns": []}))
    with pytest.raises(RecordError, match="not distinct seats"):
        replay(whole.model_copy(update={"humans": [0, 0]}))


def test_the_thinking_line_shows_on_a_terminal_only_and_only_for_a_slow_bot() -> None:
    quiet, quiet_out = _console()
    with thinking(quiet, "Axis is thinking…", delay=0.0):
        pass
    assert quiet_out.getvalue() == ""
    buffer = io.StringIO()
    terminal = Console(file=buffer, width=80, force_terminal=True, color_system=None)
    with thinking(terminal, "Axis is thinking…", delay=3600.0):
        pass  # a quick bot: the timer is cancelled before it fires
    assert "thinking" not in buffer.getvalue()
    with thinking(terminal, "Axis is thinking…", delay=0.0):
        for _ in range(2000):  # a slow bot: wait (boundedly) for the line to appear
            if "Axis is thinking…" in buffer.getvalue():
                break
            time.sleep(0.005)
    assert "Axis is thinking…" in buffer.getvalue()


def test_moves_take_as_many_columns_as_fit_each_as_wide_as_its_widest_move() -> None:
    assert columns_that_fit([20, 10, 20, 10], 80) == 4  # 20 + 10 + 20 + 10 and three gaps of 2
    assert columns_that_fit([30, 10, 30, 10], 80) == 3  # 30 + 10 + 30 (the 4th under the 1st)
    assert columns_that_fit([40, 38, 40, 38], 80) == 2
    assert columns_that_fit([43, 38, 43, 38], 80) == 1
    assert columns_that_fit([5] * 20, 80) == 4
    assert columns_that_fit([200], 80) == 1
