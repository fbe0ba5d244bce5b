"""Issue 23, "the rules in the game": every game ships its guide (GUIDE.md) and rulings (RULES.md) inside its
package, `docs/games/README.md` points at each guide, and `warcards guide` / `warcards rules GAME [R<n>]`
print them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import warcards
from warcards.cli.main import app
from warcards.engine.guides import guide_path, ruling_names, rulings_text

ROOT = Path(__file__).resolve().parents[2]
GAMES = warcards.games()
runner = CliRunner()


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_ships_its_guide_in_its_package_and_docs_point_at_it(game_id: str) -> None:
    game = warcards.load_game(game_id)
    path = guide_path(game)
    assert path is not None and path.parent == game.rulings_path().parent  # type: ignore[union-attr]
    index = (ROOT / "docs/games/README.md").read_text(encoding="utf-8")
    links = {(ROOT / "docs/games" / link).resolve() for link in re.findall(r"\]\(([^)]+GUIDE\.md)\)", index)}
    assert path.resolve() in links, f"docs/games/README.md has no link to {path}"
    assert not (ROOT / f"docs/games/{game_id}.md").exists(), "one copy: the guide lives in the package"


def test_the_package_data_ships_markdown() -> None:
    """A non-editable install carries GUIDE.md and RULES.md (setuptools' package data)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "*.md" in config["tool"]["setuptools"]["package-data"]["*"]


@pytest.mark.parametrize("game_id", GAMES)
def test_guide_prints_the_guide(game_id: str) -> None:
    result = runner.invoke(app, ["guide", game_id])
    path = guide_path(warcards.load_game(game_id))
    assert path is not None
    title = path.read_text(encoding="utf-8").splitlines()[0].lstrip("# ").strip()
    assert result.exit_code == 0 and title in result.output


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_with_a_ruling_prints_that_ruling_only(game_id: str) -> None:
    names = ruling_names(rulings_text(warcards.load_game(game_id)))
    assert names[:2] == ["R1", "R2"]
    result = runner.invoke(app, ["rules", game_id, "r1"])
    assert result.exit_code == 0 and "R1." in result.output and "R2." not in result.output
    last = runner.invoke(app, ["rules", game_id, names[-1].lower()])
    assert last.exit_code == 0 and f"{names[-1]}." in last.output


def test_rules_names_the_rulings_there_are_for_an_unknown_one() -> None:
    result = runner.invoke(app, ["rules", "naval-war", "R9999"])
    assert result.exit_code == 2 and "no ruling 'R9999'; its rulings are R1 to R" in result.output
    assert runner.invoke(app, ["guide", "chess"]).exit_code == 2
