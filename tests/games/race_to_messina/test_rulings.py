"""RULES.md stays in step with the code: every ruling names tests and scenarios that exist."""

from __future__ import annotations

import re
from pathlib import Path

import warcards

HERE = Path(__file__).parent
PACKAGE = Path(warcards.__file__).parent / "games" / "race_to_messina"
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
    sections = re.split(r"\n(?=## R\d+\. )", text)[1:]
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


def test_every_ruling_has_the_common_format_and_ids_run_r1_upwards() -> None:
    """`## R<n>. title` then the bullets Text, Decision, Reason, Tests in that order (the house format)."""
    text = rulings_text()
    sections = re.split(r"\n(?=## R\d+\. )", text)[1:]
    ids = [int(re.match(r"## R(\d+)\. \S", section).group(1)) for section in sections]  # type: ignore[union-attr]
    assert ids == list(range(1, len(ids) + 1))
    for section in sections:
        bullets = re.findall(r"^- \*(\w+):\*", section, re.MULTILINE)
        assert bullets == ["Text", "Decision", "Reason", "Tests"], f"{section.splitlines()[0]}: {bullets}"


def test_every_ruling_cited_in_the_code_exists() -> None:
    defined = set(re.findall(r"^## (R\d+)\. ", rulings_text(), re.MULTILINE))
    for file in [*PACKAGE.glob("*.py"), *HERE.glob("*.py")]:
        for cited in re.findall(r"\bR\d+\b", file.read_text()):
            assert cited in defined, f"{file.name} cites {cited}, which RULES.md does not define"
