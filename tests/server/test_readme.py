"""The README's setup (issue 25, "done when"): its first command installs warcards and starts the server,
its second runs the tests; the tests' screenshots of the tables are shown in the README and, one per game,
in docs/games."""

from __future__ import annotations

import re
from pathlib import Path

import warcards

ROOT = Path(__file__).resolve().parents[2]


def commands(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S)]


def images(path: Path) -> list[Path]:
    return [(path.parent / link).resolve() for link in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", path.read_text())]


def test_the_first_command_installs_warcards_and_starts_the_server_and_the_second_runs_the_tests() -> None:
    first, second = commands((ROOT / "README.md").read_text())[:2]
    assert first == 'python3 -m pip install -e ".[server]" && python3 -m warcards serve'
    assert second == "bash scripts/test.sh"


def test_the_readme_and_the_games_page_show_the_screenshots_one_table_per_game() -> None:
    shown = images(ROOT / "README.md")
    assert shown and all(path.parent == ROOT / "docs/screenshots" and path.exists() for path in shown)
    tables = images(ROOT / "docs/games/README.md")
    assert all(path.exists() for path in tables), [path for path in tables if not path.exists()]
    for game_id in warcards.games():
        assert any(path.name.startswith(game_id) for path in tables), f"docs/games shows no {game_id} table"
