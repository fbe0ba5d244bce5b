"""Checking command-line entries: bots, `key=value` options, files to read and files to write (a game id
is checked by the engine's `warcards.engine.registry.check_game`, which the server shares).

Every check raises `CommandLineError` (a `WarcardsError`), which the command's error boundary
(`warcards.cli.main`) prints as one line on stderr with exit code 2. Messages quote what was typed with
`quote`, so an entry of any length gives a short message.
"""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer

from warcards.bots import agent_names
from warcards.engine.api import Game
from warcards.engine.errors import WarcardsError
from warcards.engine.options import PATH_QUOTE
from warcards.engine.registry import check_game, load_game
from warcards.engine.text import quote

ParamOpt = Annotated[
    list[str] | None,
    typer.Option("--param", help="A rule parameter NAME=VALUE, or a parameter file FILE.toml (house rules; "
                 "`warcards games GAME` lists them)."),
]


class CommandLineError(WarcardsError):
    """A flag or argument of a `warcards` command is wrong (the message says what is allowed)."""


def check_bot(name: str) -> str:
    """`name` if it is a registered bot."""
    if name not in agent_names():
        raise CommandLineError(f"unknown bot {quote(name)}; bots are: {', '.join(agent_names())}")
    return name


def bot_list(text: str, flag: str) -> list[str]:
    """The bot names of a comma-separated flag such as `--bots heuristic,random` (at least one)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise CommandLineError(f"{flag} needs at least one bot name, e.g. heuristic,random; got {quote(text)}")
    return [check_bot(name) for name in names]


def parse_pairs(pairs: list[str], flag: str = "--option") -> dict[str, Any]:
    """`key=value` pairs from repeated `--option` flags; values are converted by the option's spec."""
    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise CommandLineError(f"{flag} takes key=value, got {quote(pair)}")
        key, value = pair.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def parse_params(entries: list[str]) -> dict[str, Any]:
    """Rule parameters from repeated `--param` flags: `NAME=VALUE`, or a parameter file (`FILE.toml` with a
    `[params]` table, as `warcards tune` writes); later entries win. The game checks names and ranges."""
    params: dict[str, Any] = {}
    for entry in entries:
        if "=" not in entry and entry.strip().lower().endswith(".toml"):
            params.update(_params_file(Path(entry.strip())))
        else:
            params.update(parse_pairs([entry], "--param"))
    return params


def _params_file(path: Path) -> dict[str, Any]:
    input_file(path, "--param")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise CommandLineError(f"--param: {quote(str(path), PATH_QUOTE)} is no TOML parameter file: {error}") from None
    table = data.get("params")
    if not isinstance(table, dict) or set(data) != {"params"}:
        raise CommandLineError(
            f"--param: {quote(str(path), PATH_QUOTE)} must hold one [params] table of NAME = VALUE lines"
        )
    return dict(table)


def game_from_flags(
    game_id: str, variant: str | None, players: int | None, cards: str | None, pairs: list[str],
    params: list[str] | None = None,
) -> Game:
    """Build the game; a bad option or rule parameter raises the engine's `OptionError` (naming it and the
    allowed values)."""
    check_game(game_id)
    options = parse_pairs(pairs)
    if params:
        options["params"] = parse_params(params)
    if variant is not None:
        options["variant"] = variant
    if players is not None:
        options["players"] = players
    if cards is not None:
        options["cards"] = cards
    return load_game(game_id, **options)


def input_file(path: Path, flag: str) -> Path:
    """`path` if it names a regular file (not a folder, a pipe or a missing file) that we may read."""
    if not path.exists():
        raise CommandLineError(f"{flag}: {quote(str(path), PATH_QUOTE)} does not exist")
    if not path.is_file():
        raise CommandLineError(f"{flag}: {quote(str(path), PATH_QUOTE)} is not a regular file")
    return path


def output_file(path: Path, flag: str) -> Path:
    """`path` if a file can be written there: not a folder, and in a folder that exists."""
    if path.is_dir():
        raise CommandLineError(f"{flag}: {quote(str(path), PATH_QUOTE)} is a folder; give a file name")
    if path.exists() and not path.is_file():
        raise CommandLineError(f"{flag}: {quote(str(path), PATH_QUOTE)} is not a regular file")
    parent = path.parent
    if not parent.is_dir():
        raise CommandLineError(f"{flag}: the folder {quote(str(parent), PATH_QUOTE)} does not exist")
    return path


STATS_MODULES = ("scipy", "matplotlib", "openskill")
"""What the `stats` extra brings (tournaments, ratings, balance reports and their plots); playing,
`simulate`, `replay` and `bench` need none of it."""


def require_stats(what: str) -> None:
    """Refuse `what` (a command) in one line naming the extra to install when the `stats` extra is missing."""
    missing = [name for name in STATS_MODULES if not _importable(name)]
    if missing:
        raise CommandLineError(
            f"{what} needs the statistics extra (missing: {', '.join(missing)}): "
            'pip install -e ".[stats]" in the warcards checkout'
        )


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False
