"""Issue 34, docs a newcomer runs: every shell and Python block of README.md and docs/ is run here as a reader
would run it (this checkout's code, in an empty directory), or skipped with its reason written below, so an
example that stops working (docs/rl.md's ImportError, docs/tournaments.md's NameError) fails a test.

A block is Python when fenced ```python; shell when fenced ```sh (bash, shell, console) or unlabelled with
every line a command (`warcards …`, `python3 …`, `pip …`, `bash …`); other blocks (diagrams, TOML, Markdown)
are not programs. A Python page's blocks run in order in one interpreter, as a reader follows the page (a
later block may use an earlier one's names). A shell line runs with `--games` at 2 and `--jobs` at 1: the
flags, the files and the output are checked, not the figures (those are the measurements the page reports).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SHELL_LANGS = {"sh", "bash", "shell", "console"}
COMMAND = re.compile(r"^(warcards|python3?|pip|bash) ")
DEADLINE = 900
"""Seconds a page's Python blocks or a shell line may take (a busy machine included)."""

SKIPS: list[tuple[str, str]] = [
    (r"^(python3 -m )?pip install", "installs packages; the test environment is installed from the same extras"),
    (r"warcards serve", "a server that runs until it is stopped; tests/server runs `warcards serve` for real"),
    (r"^bash scripts/test\.sh", "the whole test suite, of which this test is a part"),
    (r"scripts/bot_ladder\.py", "the bot ladder's measurement: hours of games (docs/bots.md reports them)"),
    (r"scripts/ladder_pairs\.py", "every adjacent pair of the ladder in every game and variant: an hour and more "
     "of `hard`'s games (docs/bots.md reports them)"),
    (r"examples/train_race_to_messina\.py", "trains for minutes and rewrites docs/rl-learning-curve.png"),
    (r"\b(GAME|N|M)\b", "a template: GAME, N and M stand for the reader's values"),
    (r"--backend ray", "needs a Ray cluster"),
    (r"--read reports/", "reads the results of a balance run made before"),
    (r"my-deck\.toml", "my-deck.toml is the reader's own deck file (the format is tested in tests/games)"),
    (r"scripts/strength/same_seat\.py", "reads the records of the tournament runs above"),
    (r"--agents hard,|--agents [a-z,]*openspiel-ismcts", "a strength measurement of docs/bots.md: hours of "
     "search bots' games; the same command runs small in docs/tournaments.md's examples"),
    (r"^warcards tune .*docs/tuning/sicily\.toml", "the worked example's study: 46 minutes of heuristic games "
     "(docs/tuning.md reports it); tests/arena/test_tune.py runs small studies through the same code"),
    (r"--cards best\.cards\.toml", "a tune report's command: best.cards.toml is the file the study wrote into the "
     "report's folder (tests/arena/test_tune.py plays one)"),
    (r"^warcards tune .*docs/tuning/cards-of-war-cards\.toml", "the card-field example's study: minutes of games "
     "(docs/tuning.md reports it); tests/arena/test_tune.py runs card-field studies through the same code"),
    (r"^SPEC = GameSpec\(", "a fragment of a game package's __init__.py: its names come from the package the "
     "page builds"),
]
"""(pattern, reason): a shell line or Python block matching the pattern is not run, for that reason."""


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of `page`, each with the line its fence opens on."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[index])
        if fence is None:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        found.append(Block(page, index + 1, fence.group(1).lower(), "\n".join(lines[index + 1 : end])))
        index = end + 1
    return found


def _commands(block: Block) -> list[str]:
    """A shell block's command lines, comments and blank lines left out."""
    lines = [re.sub(r"\s+#.*$", "", line).strip() for line in block.text.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def _is_shell(block: Block) -> bool:
    if block.lang in SHELL_LANGS:
        return True
    commands = _commands(block)
    return block.lang == "" and bool(commands) and all(COMMAND.match(line) for line in commands)


def _skip_reason(text: str) -> str | None:
    return next((reason for pattern, reason in SKIPS if re.search(pattern, text, re.MULTILINE)), None)


ALL_BLOCKS = [block for page in PAGES for block in blocks(page)]
SHELL_LINES = [(block, command) for block in ALL_BLOCKS if _is_shell(block) for command in _commands(block)]
PYTHON_PAGES = sorted({block.page for block in ALL_BLOCKS if block.lang in ("python", "py")})


def _environment(tmp_path: Path) -> dict[str, str]:
    """This checkout's code first on the path, and `warcards` and `python` that run it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, line in (("warcards", f'exec {sys.executable} -m warcards "$@"'), ("python", f'exec {sys.executable} "$@"'),
                       ("python3", f'exec {sys.executable} "$@"')):
        shim = bin_dir / name
        shim.write_text(f"#!/bin/sh\n{line}\n", encoding="utf-8")
        shim.chmod(0o755)
    env = dict(os.environ)
    env.update(PYTHONPATH=str(ROOT / "src"), PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", COLUMNS="100")
    return env


def _small(command: str) -> str:
    return re.sub(r"--jobs \d+", "--jobs 1", re.sub(r"--games \d+", "--games 2", command))


@pytest.mark.parametrize(("block", "command"), SHELL_LINES, ids=[f"{b.where} {c[:40]}" for b, c in SHELL_LINES])
def test_every_shell_line_of_the_docs_runs(block: Block, command: str, tmp_path: Path) -> None:
    reason = _skip_reason(command)
    if reason is not None:
        pytest.skip(reason)
    done = subprocess.run(
        ["bash", "-c", _small(command)], cwd=tmp_path, env=_environment(tmp_path), capture_output=True, text=True,
        timeout=DEADLINE, check=False,
    )
    assert done.returncode == 0, f"{block.where}: {command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, done.stderr


RUNNER = """
import json, sys, traceback
namespace = {"__name__": "__main__"}
for where, code in json.loads(sys.argv[1]):
    try:
        exec(compile(code, where, "exec"), namespace)
    except BaseException:
        print("FAILED " + where)
        traceback.print_exc()
        sys.exit(1)
"""


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=[str(page.relative_to(ROOT)) for page in PYTHON_PAGES])
def test_every_python_block_of_the_docs_runs(page: Path, tmp_path: Path) -> None:
    run = [(block.where, block.text) for block in blocks(page)
           if block.lang in ("python", "py") and _skip_reason(block.text) is None]
    if not run:
        pytest.skip("; ".join(sorted({_skip_reason(block.text) or "" for block in blocks(page)} - {""})))
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps(run)], cwd=tmp_path, env=_environment(tmp_path),
        capture_output=True, text=True, timeout=DEADLINE, check=False,
    )
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def test_every_skip_has_a_block_it_skips() -> None:
    """A reason left after its example changed would skip nothing: each pattern still matches a block."""
    texts = [command for _, command in SHELL_LINES] + [b.text for b in ALL_BLOCKS if b.lang in ("python", "py")]
    unused = [pattern for pattern, _ in SKIPS if not any(re.search(pattern, text, re.MULTILINE) for text in texts)]
    assert not unused, unused
