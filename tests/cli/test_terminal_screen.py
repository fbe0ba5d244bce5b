"""Issue 34, the 80×24 terminal: `warcards play` driven through a real pseudo-terminal (pexpect) read by a
terminal emulator (pyte). After the human's move the final screen holds what the bots did (their last move's
line), the human's board (its first line) and the human's moves (the first one) — nothing scrolled off."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pyte
import pytest

import warcards
from warcards.cli.screen import fold_lines, move_rows
from warcards.engine.api import CHANCE, LogLine
from warcards.engine.registry import game_spec
from warcards.match import PlayRecord, follow

ROOT = Path(__file__).resolve().parents[2]
ROWS, COLUMNS = 24, 80
PROMPT = rb"(?:\]|your move)(?:\x1b\[[0-9;]*m)*> "
"""The prompt's end (`[status] your move> `), styles between its words included."""
DEADLINE = 120.0
"""Seconds a screen may take to come (a busy machine included)."""


class Terminal:
    """`warcards play …` in a pseudo-terminal of `ROWS`×`COLUMNS`, its output fed to a pyte screen."""

    def __init__(self, args: list[str]) -> None:
        env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
        env.update(PYTHONPATH=str(ROOT / "src"), TERM="xterm-256color")
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(
            sys.executable, ["-m", "warcards", "play", *args], env=env, cwd=str(ROOT), dimensions=(ROWS, COLUMNS)
        )

    def until_prompt(self) -> None:
        self.child.expect(PROMPT, timeout=DEADLINE)
        self.stream.feed(self.child.before + self.child.after)

    def type(self, line: str) -> None:
        self.child.sendline(line)
        self.until_prompt()

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def close(self) -> None:
        self.child.sendline("quit")
        self.child.expect(pexpect.EOF, timeout=DEADLINE)


def _record(path: Path) -> PlayRecord:
    return PlayRecord.model_validate_json(path.read_text(encoding="utf-8"))


SEATS = [(game_id, "0") for game_id in warcards.games()] + [("race-to-messina", "axis")]


@pytest.mark.parametrize(("game_id", "seat"), SEATS)
def test_after_your_move_the_bots_reply_your_board_and_your_moves_are_all_on_the_80x24_screen(
    game_id: str, seat: str, tmp_path: Path
) -> None:
    out = tmp_path / "game.json"
    terminal = Terminal([game_id, "--seat", seat, "--seed", "7", "--vs", "random", "--out", str(out)])
    try:
        terminal.until_prompt()
        assert any(re.search(r"seed 7\b", line) for line in terminal.lines()), "the seed is on the first screen"
        checked = 0
        for _ in range(12):
            before = len(_record(out).actions)
            terminal.type("1")
            record = _record(out)
            game = warcards.load_game(record.game, **record.options)
            human = record.humans[0]
            followed = follow(game, record.seed, record.actions, [human])
            if followed.state.is_terminal():
                break
            bot_lines = [
                line
                for step, actor in zip(followed.steps[before:], followed.actors[before:], strict=True)
                if actor not in (CHANCE, human)
                for line in step[human].lines
                if line.kind == "move"
            ]
            if not bot_lines:
                continue
            screen = terminal.lines()
            text = "\n".join(screen)
            last = bot_lines[-1].text
            assert last[:60] in text, f"the bots' last move {last!r} is not on the screen:\n{text}"
            render = game_spec(game.game_id).render
            assert render is not None
            board = render.load()(followed.state.observe(human), human)
            first_row = board.split("\n")[0][:COLUMNS].rstrip()
            assert first_row in screen, f"the board's first line {first_row!r} is not on the screen:\n{text}"
            verb = followed.state.action_label(followed.state.legal_actions()[0]).split()[0]
            assert any(re.search(r"(^|\s)1 ", line) and verb in line for line in screen), (
                f"the first move ({verb} …) is not on the screen:\n{text}"
            )
            assert any(re.search(r"seed 7\b", line) for line in screen), "the seed stays on the screen"
            checked += 1
            if checked == 3:
                break
        assert checked, "no bot moved between two of the human's moves"
    finally:
        terminal.close()


def test_repeated_draws_and_deals_fold_into_one_line_per_who_and_only_lines_the_seat_got() -> None:
    lines = [
        LogLine("player 1 draws a card", "chance", CHANCE),
        LogLine("you draw X44 Smoke screen", "chance", CHANCE),
        LogLine("player 1 draws a card", "chance", CHANCE),
        LogLine("you draw X52 B-Dienst", "chance", CHANCE),
        LogLine("Operation 1/22: you turn over O18", "summary", None),
        LogLine("Player 3 draws a card", "chance", CHANCE),
    ]
    assert [line.text for line in fold_lines(lines)] == [
        "player 1 draws a card ×2",
        "you draw X44 Smoke screen, X52 B-Dienst",
        "Operation 1/22: you turn over O18",
        "Player 3 draws a card",
    ]


def test_a_long_move_list_is_grouped_then_shortened_then_paged_within_the_rows_given() -> None:
    labels = [f"deploy A{card:02} (Card {card}) {side}" for card in range(8) for side in ("left", "centre", "right")]
    assert move_rows(labels, 80, None).rows[0] == ["deploy A00 (Card 0): 1 left 2 centre 3 right"]
    grouped = move_rows(labels, 80, 4)
    assert grouped.left_out == 0 and len(grouped.rows) == 4
    assert grouped.rows[0][0].startswith("deploy A00: 1 left 2 centre 3 right")
    paged = move_rows(labels, 80, 2)
    assert len(paged.rows) == 1 and paged.left_out == 24 - 6
