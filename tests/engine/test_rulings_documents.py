"""Every game ships its rulings, and every test a ruling names exists, so RULES.md cannot drift from the suite."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import warcards

TESTS = Path(__file__).resolve().parents[1]
DEFINED = {
    match
    for path in TESTS.rglob("test_*.py")
    for match in re.findall(r"^\s*def (test_\w+)", path.read_text(), flags=re.MULTILINE)
}


@pytest.mark.parametrize("game_id", warcards.games())
def test_rulings_name_only_tests_that_exist(game_id: str) -> None:
    path = warcards.load_game(game_id).rulings_path()
    assert path is not None and path.exists(), f"{game_id} has no RULES.md"
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", path.read_text()))
    assert named, f"{game_id}: RULES.md names no test"
    missing = sorted(name for name in named if name not in DEFINED)
    assert not missing, f"{game_id}: RULES.md names tests that do not exist: {missing}"
