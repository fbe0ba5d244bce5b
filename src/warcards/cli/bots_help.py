"""The bot ladder and each game's seat names, as `play --help` and `warcards games` show them.

The ladder comes from `warcards.bots.LADDER` (the one list of levels). Seat names need the games loaded,
about a tenth of a second for all four, so `play` builds that part of its help only when the help is shown
(`PlayCommand`), not at every start of the command.
"""

from __future__ import annotations

from typer._click import Context, HelpFormatter
from typer.core import TyperCommand

from warcards.bots.ladder import ALIASES, LADDER, STUDY_BOTS
from warcards.engine.registry import game_spec, games, load_game

VS_HELP = (
    "The bot in every other seat, weakest first: "
    + ", ".join(rung.name for rung in LADDER)
    + "; "
    + ", ".join(f"{alias} is {name}" for alias, name in ALIASES.items())
    + " (notes below)."
)
"""The help of `play --vs`: the ladder's names in order."""


def ladder_lines() -> list[str]:
    """One line per bot a player can name: the ladder weakest first, then the other names and study bots."""
    lines = [f"{rung.name} — {rung.note}" for rung in LADDER]
    lines += [f"{alias} — the same bot as {name}" for alias, name in ALIASES.items()]
    lines += [f"{name} — {note}" for name, note in STUDY_BOTS.items()]
    return lines


def _names(names: list[str]) -> str:
    """Seat names, or `player 0, player 1, …` when the seats have no names but their numbers."""
    if names == [f"player {seat}" for seat in range(len(names))]:
        return "player 0, player 1, … (or the seat number)"
    return ", ".join(names)


def seats_text(game_id: str) -> str:
    """The seat names `--seat` accepts in `game_id`: per variant where the game has variants (they differ)."""
    spec = game_spec(game_id)
    variants = next((o.allowed for o in spec.options if o.name == "variant" and o.allowed), None)
    if not variants:
        return _names(load_game(game_id).seat_names())
    return "; ".join(f"{variant}: {_names(load_game(game_id, variant=variant).seat_names())}" for variant in variants)


def play_epilog() -> str:
    """`play --help`'s closing text: the bots with their strength notes, and each game's seat names."""
    bots = ["Bots for --vs, weakest first (docs/bots.md has the measurements):", *ladder_lines()]
    seats = ["Seats for --seat:", *(f"{game_id}: {seats_text(game_id)}" for game_id in games())]
    return "\n\n".join([*bots, *seats])


class PlayCommand(TyperCommand):
    """`warcards play`: its help ends with the ladder and the seat names, built when the help is shown."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        self.epilog = play_epilog()
        super().format_help(ctx, formatter)
