"""Turning command-line flags into `load_game` options."""

from __future__ import annotations

from typing import Any

import typer

from warcards.engine.api import Game
from warcards.engine.errors import WarcardsError
from warcards.engine.registry import load_game


def parse_pairs(pairs: list[str]) -> dict[str, Any]:
    """`key=value` pairs from repeated `--option` flags; values are converted by the option's spec."""
    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise typer.BadParameter(f"--option takes key=value, got {pair!r}")
        key, value = pair.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def game_from_flags(
    game_id: str, variant: str | None, players: int | None, cards: str | None, pairs: list[str]
) -> Game:
    """Build the game or exit with the engine's message (which names the option and allowed values)."""
    options = parse_pairs(pairs)
    try:
        if variant is not None:
            options["variant"] = variant
        if players is not None:
            options["players"] = players
        if cards is not None:
            options["cards"] = cards
        return load_game(game_id, **options)
    except WarcardsError as error:
        raise typer.BadParameter(str(error)) from None
