"""Scenario files as rule tests: find a game's files and run them (format: docs/scenarios.md)."""

from __future__ import annotations

from pathlib import Path

from warcards.engine.registry import games
from warcards.scenario import ScenarioResult, run_scenario


def scenario_files(root: Path | str, game_ids: list[str] | None = None) -> list[Path]:
    """Every scenario file `<root>/<game-id>/*.json` of the registered games (or of `game_ids`), sorted."""
    wanted = set(games() if game_ids is None else game_ids)
    return sorted(path for path in Path(root).glob("*/*.json") if path.parent.name in wanted)


def failed_scenarios(root: Path | str, game_ids: list[str] | None = None) -> list[str]:
    """Run every scenario file under `root` (see `scenario_files`); one line per file that fails."""
    problems: list[str] = []
    for path in scenario_files(root, game_ids):
        result = run_scenario(path)
        if not result.passed:
            problems.append(f"{path.parent.name}/{path.name} ({result.rule}): " + "; ".join(result.failures))
    return problems


__all__ = ["ScenarioResult", "failed_scenarios", "run_scenario", "scenario_files"]
