"""The texts a player reads about a game: its guide (rules in brief and a walk-through) and its rulings.

Both ship inside the game's package, so they are there in any install: `GUIDE.md` (the one copy;
docs/games/README.md points at it) and `RULES.md` (the rulings on the rule texts' gaps, one
`## R<n>. title` section each). The command line (`warcards guide`, `warcards rules`, the `play` prompt's
`guide` and `rules`) and the server's "How to play" page read them through here; a game without the file,
or a ruling it does not have, raises `GameTextError`.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from warcards.engine.api import Game
from warcards.engine.errors import GameTextError
from warcards.engine.text import quote

GUIDE_FILE = "GUIDE.md"
"""The guide's file name in a game's package."""

_RULING = re.compile(r"^## (R\d+)\.", re.MULTILINE)


def guide_path(game: Game) -> Path | None:
    """The game's `GUIDE.md`, beside its rules code (the package its `Game` class lives in), if it ships one."""
    package = type(game).__module__.rpartition(".")[0]
    if not package:
        return None
    path = Path(str(resources.files(package) / GUIDE_FILE))
    return path if path.is_file() else None


def guide_text(game: Game) -> str:
    """The game's guide, or `GameTextError` when the game ships none."""
    path = guide_path(game)
    if path is None:
        raise GameTextError(f"{game.game_id} ships no guide ({GUIDE_FILE} in its package)")
    return path.read_text(encoding="utf-8")


def rulings_text(game: Game) -> str:
    """The game's RULES.md, or `GameTextError` when the game ships none."""
    path = game.rulings_path()
    if path is None or not path.is_file():
        raise GameTextError(f"{game.game_id} ships no rulings file (RULES.md)")
    return path.read_text(encoding="utf-8")


def ruling_names(text: str) -> list[str]:
    """The rulings' names in a RULES.md text, in order: R1, R2, …"""
    return _RULING.findall(text)


def one_ruling(game: Game, name: str) -> str:
    """Ruling `name` (`R4`, `r4` or `4`) of the game: its section of RULES.md, up to the next heading of its
    level or above; `GameTextError` naming the rulings there are when it does not exist."""
    text = rulings_text(game)
    wanted = name.strip().upper()
    if wanted.isdecimal():
        wanted = f"R{int(wanted)}"
    for match in _RULING.finditer(text):
        if match.group(1) == wanted:
            rest = text[match.start() :]
            following = re.search(r"^#{1,2} ", rest[3:], re.MULTILINE)
            return rest[: following.start() + 3] if following else rest
    names = ruling_names(text)
    known = f"{names[0]} to {names[-1]}" if names else "none"
    raise GameTextError(f"{game.game_id} has no ruling {quote(name, 20)}; its rulings are {known}")
