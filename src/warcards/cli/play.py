"""`warcards play`: a game in the terminal against bots.

The human's seat sees exactly its own view (the game's `render` of `observe(seat)`); bots get theirs.
Moves are typed in the game's notation or by their number in the list; `help`, `rules`, `log` and `quit`
are always available, and a bad entry is explained and asked again — never a crash.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from warcards.bots import make_agent
from warcards.engine.agents import Agent, SeatView
from warcards.engine.api import CHANCE, Game, State, sample_chance
from warcards.engine.registry import game_spec
from warcards.match import chance_rng, derive_seed

HELP = """Type a move's number from the list, or the move in the game's notation (see `warcards rules GAME`
and docs/notation). Commands: `help` (this), `moves` (list the legal moves again), `log` (the whole log),
`rules` (the rulings for this game), `quit` (leave the game)."""


class TerminalGame:
    """One interactive game: a human in `seat`, bots in the other seats."""

    def __init__(
        self,
        game: Game,
        seat: int,
        bot: str,
        seed: int,
        console: Console,
        read_line: Callable[[str], str],
    ) -> None:
        self.game = game
        self.seat = seat
        self.console = console
        self.read_line = read_line
        self.state: State = game.new_initial_state()
        self.rng: random.Random = chance_rng(seed)
        self.bots: dict[int, Agent] = {
            other: make_agent(bot, game, other, derive_seed(seed, "agent", other))
            for other in range(game.num_players)
            if other != seat
        }
        self.log: list[str] = []
        renderer = game_spec(game.game_id).render
        if renderer is None:
            raise ValueError(f"{game.game_id} declares no render in its GameSpec; play needs one")
        self.render = renderer.load()
        self.names = game.seat_names()

    def run(self) -> list[float] | None:
        """Play to the end; returns the returns, or None if the human quit."""
        self.console.print(
            Panel(
                f"{self.game.title or self.game.game_id} — you are {self.names[self.seat]}. Type `help` for help."
            )
        )
        while not self.state.is_terminal():
            player = self.state.current_player()
            if player == CHANCE:
                self.state.apply_action(sample_chance(self.state.chance_outcomes(), self.rng.random()))
            elif player == self.seat:
                if not self.human_turn():
                    self.console.print("You left the game.")
                    return None
            else:
                action = self.bots[player].step(SeatView(self.state, player))
                text = self.state.action_to_string(action)
                self.state.apply_action(action)
                self.log.append(f"{self.names[player]}: {text}")
                self.console.print(f"[cyan]{self.names[player]}[/cyan] {text}")
        self.show_view()
        returns = self.state.returns()
        table = Table(title="Game over")
        table.add_column("seat")
        table.add_column("result", justify="right")
        for index, value in enumerate(returns):
            marker = " (you)" if index == self.seat else ""
            table.add_row(f"{self.names[index]}{marker}", f"{value:g}")
        self.console.print(table)
        return returns

    def show_view(self) -> None:
        # The game's text is shown as it is: no Rich markup, so brackets in it survive.
        view = Text(self.render(self.state.observe(self.seat), self.seat))
        self.console.print(Panel(view, title=self.names[self.seat]))

    def show_moves(self, legal: list[int]) -> None:
        columns = Table.grid(padding=(0, 2))
        for _ in range(3):
            columns.add_column()
        cells = [f"[bold]{i + 1}[/bold] {self.state.action_to_string(a)}" for i, a in enumerate(legal)]
        for start in range(0, len(cells), 3):
            row = cells[start : start + 3]
            columns.add_row(*(row + [""] * (3 - len(row))))
        self.console.print(columns)

    def human_turn(self) -> bool:
        legal = self.state.legal_actions()
        self.show_view()
        self.show_moves(legal)
        while True:
            try:
                entry = self.read_line("your move> ").strip()
            except EOFError:
                return False
            command = entry.lower()
            if not command:
                continue
            if command in ("quit", "exit", "q"):
                return False
            if command in ("help", "?"):
                self.console.print(HELP)
                continue
            if command == "moves":
                self.show_moves(legal)
                continue
            if command == "log":
                self.console.print("\n".join(self.log) or "(nothing yet)")
                continue
            if command == "rules":
                path = self.game.rulings_path()
                self.console.print(Markdown(path.read_text()) if path else "No rulings file for this game.")
                continue
            action = self.parse_entry(entry, legal)
            if action is None:
                continue
            text = self.state.action_to_string(action)
            self.state.apply_action(action)
            self.log.append(f"{self.names[self.seat]} (you): {text}")
            return True

    def parse_entry(self, entry: str, legal: list[int]) -> int | None:
        if entry.isdigit():
            number = int(entry)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.console.print(f"[red]There is no move {number}; choose 1 to {len(legal)}.[/red]")
            return None
        try:
            action = self.state.parse_action(entry)
        except ValueError as error:
            self.console.print(f"[red]{error}[/red] (type `moves` for the legal moves)")
            return None
        if action not in legal:
            try:
                self.state.clone().apply_action(action)
            except ValueError as error:
                self.console.print(f"[red]Not legal now: {error}[/red]")
                return None
        return action
