"""Every game's RULES.md uses the one ruling format, with stable ids, and every ruling cited exists.

The format (docs/contributing/adding-a-game.md, "Rulings"): each ruling is a heading `## R<n>. <title>`
followed by the bullets `- *Text:*`, `- *Decision:*`, `- *Reason:*` and `- *Tests:*`, in that order; the
ids run R1, R2, ... in document order. Code, tests, scenario files and docs cite a ruling as `R<n>`; every
such citation in a file of a game (a path naming its package or its id) names a ruling of that game.
Checked on every registered game and on the template game `examples/minimal_game`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.examples.template import PACKAGE as TEMPLATE_PACKAGE
from tests.examples.template import ROOT, TEMPLATE, load_minimal_game
from warcards.engine.registry import game_module, games

BULLETS = ("Text", "Decision", "Reason", "Tests")
"""The labelled bullets of a ruling, in order."""
RULING = re.compile(r"^## R(\d+)\. \S")
RULING_ID = re.compile(r"^#+ *R(\d+)\b")
"""A heading that names a ruling, at any level and in any form (the format test says which are wrong)."""
HEADING = re.compile(r"^(#+)\s*(.*)$")
LABEL = re.compile(r"^- \*([^*:]+):\*")
CITATION = re.compile(r"\bR(\d+)\b")
TEXT_SUFFIXES = frozenset({".py", ".md", ".json", ".toml", ".txt", ".sh"})
SEARCHED = ("src", "tests", "docs", "scripts", "examples")
"""The folders of the repository whose files may cite a game's rulings."""
SKIPPED = ("tests/golden/data",)
"""Recorded data, not text that cites anything."""


@dataclass(frozen=True)
class GameRulings:
    """One game: its id, its package's import name and folder, its RULES.md."""

    game_id: str
    package: str
    folder: Path

    @property
    def rules_file(self) -> Path:
        return self.folder / "RULES.md"

    def names(self) -> tuple[str, ...]:
        """What a path of one of the game's files contains: the package's last name or the game id."""
        return (self.package.rpartition(".")[2], self.game_id)

    def files(self) -> list[Path]:
        """The game's own text files: its package, and every file of the repository whose path names it."""
        found = {path for path in self.folder.rglob("*") if path.is_file() and path.suffix in TEXT_SUFFIXES}
        for top in SEARCHED:
            for path in (ROOT / top).rglob("*"):
                relative = path.relative_to(ROOT).as_posix()
                if (path.suffix in TEXT_SUFFIXES and "__pycache__" not in relative
                        and not relative.startswith(SKIPPED)
                        and any(name in relative for name in self.names()) and path.is_file()):
                    found.add(path)
        return sorted(found)


def _games() -> list[GameRulings]:
    found = []
    for game_id in games():
        module = game_module(game_id)
        assert module.__file__ is not None
        found.append(GameRulings(game_id, module.__name__, Path(module.__file__).parent))
    template = load_minimal_game().SPEC.id
    if template not in games():  # installed, it is checked as a registered game
        found.append(GameRulings(template, TEMPLATE_PACKAGE, TEMPLATE))
    return found


GAMES = _games()
IDS = [game.game_id for game in GAMES]


def _sections(text: str) -> list[tuple[int, str, list[str]]]:
    """Each `## R<n>.` ruling: its id, its heading line and its lines up to the next heading of level 1 or 2."""
    sections: list[tuple[int, str, list[str]]] = []
    current: tuple[int, str, list[str]] | None = None
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading and len(heading.group(1)) <= 2:
            current = None
            ruling = RULING.match(line)
            if ruling:
                current = (int(ruling.group(1)), line, [])
                sections.append(current)
        elif current is not None:
            current[2].append(line)
    return sections


def _ruling_ids(game: GameRulings) -> list[int]:
    """The ids of the headings that name a ruling, in document order."""
    text = game.rules_file.read_text(encoding="utf-8")
    return [int(match.group(1)) for line in text.splitlines() if (match := RULING_ID.match(line))]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_ruling_has_the_one_format(game: GameRulings) -> None:
    assert game.rules_file.is_file(), f"{game.game_id} has no RULES.md"
    text = game.rules_file.read_text(encoding="utf-8")
    problems = []
    for line in text.splitlines():
        heading = HEADING.match(line)
        if not heading or RULING.match(line):
            continue
        title = heading.group(2)
        if re.match(r"R\d+\b", title):
            problems.append(f"{line!r} is not a ruling heading '## R<n>. <title>'")
        elif len(heading.group(1)) == 2 and re.match(r"\d+\.", title):
            problems.append(f"{line!r} numbers a section, not a ruling '## R<n>. <title>'")
    sections = _sections(text)
    if not sections:
        problems.append("no ruling '## R<n>. <title>'")
    for _, heading_line, lines in sections:
        labels = [match.group(1) for line in lines if (match := LABEL.match(line))]
        if tuple(labels) != BULLETS:
            problems.append(f"{heading_line!r} has the bullets {labels}, not {list(BULLETS)}")
    assert not problems, f"{game.game_id} RULES.md: {len(problems)} problems: " + "; ".join(problems)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_ruling_ids_are_unique_and_run_from_r1(game: GameRulings) -> None:
    numbers = _ruling_ids(game)
    assert numbers, f"{game.game_id} RULES.md has no ruling heading '## R<n>. <title>'"
    expected = list(range(1, len(numbers) + 1))
    assert numbers == expected, (
        f"{game.game_id} RULES.md: ids in document order are "
        f"{', '.join(f'R{n}' for n in numbers) or 'none'}; expected R1..R{len(numbers)}"
    )


def _shown(path: Path, game: GameRulings) -> str:
    """A file's path for a message: inside the repository from its root, else from the game's folder."""
    base = ROOT if path.is_relative_to(ROOT) else game.folder
    return path.relative_to(base).as_posix()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_cited_ruling_exists(game: GameRulings) -> None:
    known = set(_ruling_ids(game))
    missing = []
    for path in game.files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line_number in {
            (int(match.group(1)), text.count("\n", 0, match.start()) + 1) for match in CITATION.finditer(text)
        }:
            if number not in known:
                missing.append(f"{_shown(path, game)}:{line_number} R{number}")
    assert not missing, f"{game.game_id}: cites rulings its RULES.md does not have: {sorted(missing)}"


def test_the_checks_catch_a_wrong_format_a_gap_in_the_ids_and_a_dangling_citation(tmp_path: Path) -> None:
    folder = tmp_path / "no_such_game_pkg"
    folder.mkdir()
    (folder / "RULES.md").write_text(
        "# Rulings\n\n## R1. Good\n- *Text:* a\n- *Decision:* b\n- *Reason:* c\n- *Tests:* d\n\n"
        "### R2. Too deep\n- *Text:* a\n\n## R4. No reason\n- *Text:* a\n- *Decision:* b\n- *Test:* d\n",
        encoding="utf-8",
    )
    (folder / "rules.py").write_text('"""R1 and R4 exist; R7 does not."""\n', encoding="utf-8")
    game = GameRulings("no-such-game", "no_such_game_pkg", folder)
    with pytest.raises(AssertionError, match=r"'### R2\. Too deep' is not a ruling heading.*'## R4\. No reason' has "
                                             r"the bullets \['Text', 'Decision', 'Test'\]"):
        test_every_ruling_has_the_one_format(game)
    with pytest.raises(AssertionError, match=r"ids in document order are R1, R2, R4; expected R1\.\.R3"):
        test_ruling_ids_are_unique_and_run_from_r1(game)
    with pytest.raises(AssertionError, match=r"rules\.py:1 R7"):
        test_every_cited_ruling_exists(game)
