"""Every scenario file under tests/scenarios/<game-id>/ is a rule test (format: docs/scenarios.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warcards.testing import run_scenario, scenario_files

ROOT = Path(__file__).parent
FILES = scenario_files(ROOT)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, f"{path.name} ({result.rule}): " + "; ".join(result.failures)
