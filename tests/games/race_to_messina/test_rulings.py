"""RULES.md stays in step with the code: every ruling names tests and scenarios that exist."""

from __future__ import annotations

import re
from pathlib import Path

import warcards

HERE = Path(__file__).parent
SCENARIOS = HERE.parent.parent / "scenarios" / "race-to-messina"


def rulings_text() -> str:
    path = warcards.load_game("race-to-messina").rulings_path()
    assert path is not None and path.exists()
    return path.read_text()


def test_every_ruling_names_an_existing_test_or_scenario() -> None:
    text = rulings_text()
    defined = set()
    for file in HERE.glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", file.read_text(), re.MULTILINE))
    sections = re.split(r"\n### ", text)[1:]
    assert len(sections) >= 33
    for section in sections:
        named = re.findall(r"`(test_\w+)`", section)
        files = re.findall(r"`([\w-]+\.json)`", section)
        assert named or files, f"ruling without a test: {section.splitlines()[0]}"
        for name in named:
            assert name in defined, f"{section.splitlines()[0]}: {name} does not exist"
        for file in files:
            assert (SCENARIOS / file).exists(), f"{section.splitlines()[0]}: {file} does not exist"


def test_every_open_question_has_a_ruling() -> None:
    text = rulings_text()
    for number in range(1, 34):
        assert f"(open question {number})" in text, f"open question {number} has no ruling"
