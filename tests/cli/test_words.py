"""Issue 34, the words a player trips on at the terminal: the end line as a sentence for the reader, `--help`
in words at 80 columns, the README's prompt as the game prints it, `--seat ''` refused."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

import warcards
from warcards.cli.main import app
from warcards.cli.play import TerminalGame, end_line
from warcards.engine.api import GameResult

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.mark.parametrize(
    ("winners", "reason", "seat", "line"),
    [
        ((1,), "Axis reaches 20 PT: evacuation complete (R3)", 0, "You lost: Axis reaches 20 PT: evacuation complete (R3)"),
        ((1,), "Axis reaches 20 PT: evacuation complete (R3)", 1, "You won: you reach 20 PT: evacuation complete (R3)"),
        ((1,), "Allies reach 10 PT while the Axis holds 16 or more (R4)", 1,
         "You won: Allies reach 10 PT while you hold 16 or more (R4)"),
        ((1,), "axis reaches 20 PT (R3)", None, "Won by Axis: Axis reaches 20 PT (R3)"),
    ],
)
def test_the_end_line_says_who_won_as_a_sentence_to_the_reader(
    winners: tuple[int, ...], reason: str, seat: int | None, line: str
) -> None:
    result = GameResult(winners=winners, scores=("5 PT", "20 PT"), reason=reason)
    assert end_line(result, ["allies", "axis"], seat) == line


def test_the_end_line_never_repeats_the_winner_or_says_you_win_for_a_loser() -> None:
    names = ["player 0", "player 1", "player 2"]
    result = GameResult(winners=(1,), scores=("1", "2", "0"), reason="player 1 wins with 52 VP (most VP, 1.2)")
    assert end_line(result, names, 0) == "You lost: Player 1 wins with 52 VP (most VP, 1.2)"
    assert end_line(result, names, 1) == "You won: you win with 52 VP (most VP, 1.2)"
    assert not re.search(r"\b(\w+) wins: \1 wins", end_line(result, names, None), re.IGNORECASE)


def test_play_refuses_an_empty_seat() -> None:
    result = runner.invoke(app, ["play", "race-to-messina", "--seat", ""], input="quit\n")
    assert result.exit_code == 2 and "unknown seat" in result.output


def _commands() -> list[list[str]]:
    group = typer.main.get_command(app)
    return [[], *([name] for name in group.commands)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", _commands(), ids=lambda c: " ".join(c) or "warcards")
def test_help_at_80_columns_shows_no_python_types_and_cuts_no_option(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "80", "TERM": "dumb"})
    assert result.exit_code == 0, result.output
    assert not re.search(r"<(bool|str|int|float|path|list\[[^\]]*\])[^>]*>", result.output), result.output
    assert not re.search(r"\w…", result.output), "a cell cut off: " + result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80


def test_the_readmes_prompt_example_has_the_prompts_real_form() -> None:
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return "1" if len(prompts) < 40 else "quit"

    game = warcards.load_game("race-to-messina")
    TerminalGame(game, 1, "random", 3, Console(file=io.StringIO()), read_line).run()
    shapes = {re.sub(r"\d+", r"\\d+", re.escape(prompt.rstrip())) for prompt in prompts}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    examples = re.findall(r"`(\[[^`]*\] your move>)`", readme)
    assert examples, "the README shows the prompt"
    for example in examples:
        assert any(re.fullmatch(shape, example) for shape in shapes), example
