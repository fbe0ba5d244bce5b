"""`warcards play`: a game in the terminal against bots.

The human's seat sees exactly its own view (the game's `render` of `observe(seat)`); bots get theirs.
Every move — the bots', chance's and the human's own — is shown and logged only as `seen_action(action,
seat)` gives it to the human's seat (a face-down deployment reads "axis deploys a card face down").
Moves are typed in the game's notation or by their number in the list; `help`, `rules`, `log` and `quit`
are always available, and a bad entry is explained and asked again — never a crash. Text a user typed is
escaped before Rich sees it, and a line longer than `MAX_ACTION_TEXT` is refused unread.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from warcards.bots import make_agent
from warcards.engine.agents import Agent, SeatView
from warcards.engine.api import CHANCE, Game, State, sample_chance
from warcards.engine.registry import game_spec
from warcards.engine.text import MAX_ACTION_TEXT, parse_bare_number, quote
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
                escape(f"{self.game.title or self.game.game_id} — you are {self.names[self.seat]}. Type `help` for help.")
            )
        )
        while not self.state.is_terminal():
            player = self.state.current_player()
            if player == CHANCE:
                self.play(sample_chance(self.state.chance_outcomes(), self.rng.random()))
            elif player == self.seat:
                if not self.human_turn():
                    self.console.print("You left the game.")
                    return None
            else:
                self.play(self.bots[player].step(SeatView(self.state, player)))
        self.show_view()
        returns = self.state.returns()
        table = Table(title="Game over")
        table.add_column("seat")
        table.add_column("result", justify="right")
        for index, value in enumerate(returns):
            marker = " (you)" if index == self.seat else ""
            table.add_row(escape(f"{self.names[index]}{marker}"), f"{value:g}")
        self.console.print(table)
        return returns

    def play(self, action: int) -> None:
        """Apply `action` (a bot's, chance's or the human's), showing and logging it only as the human's
        seat sees it (`seen_action`, ARCHITECTURE.md "What each seat sees")."""
        seen = self.state.seen_action(action, self.seat)
        self.state.apply_action(action)
        if seen.action is None:
            # A redacted phrase names its actor already ("axis deploys a card face down").
            line = seen.text
            self.console.print(Text(line, style="dim" if seen.actor == CHANCE else "cyan"))
        elif seen.actor == CHANCE:
            line = f"chance: {seen.text}"
            self.console.print(Text(line, style="dim"))
        else:
            who = f"{self.names[seen.actor]}" + (" (you)" if seen.actor == self.seat else "")
            line = f"{who}: {seen.text}"
            if seen.actor != self.seat:
                self.console.print(Text.assemble((self.names[seen.actor], "cyan"), " ", seen.text))
        self.log.append(line)

    def show_view(self) -> None:
        # The game's text is shown as it is: no Rich markup, so brackets in it survive.
        view = Text(self.render(self.state.observe(self.seat), self.seat))
        self.console.print(Panel(view, title=escape(self.names[self.seat])))

    def show_moves(self, legal: list[int]) -> None:
        columns = Table.grid(padding=(0, 2))
        for _ in range(3):
            columns.add_column()
        cells = [f"[bold]{i + 1}[/bold] {escape(self.state.action_to_string(a))}" for i, a in enumerate(legal)]
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
                line = self.read_line("your move> ")
            except EOFError:
                return False
            if len(line) > MAX_ACTION_TEXT:
                self.console.print(
                    f"[red]That line is {len(line):,} characters long; a move is at most {MAX_ACTION_TEXT}.[/red]"
                )
                continue
            entry = line.strip()
            command = entry.lower()
            if not command:
                continue
            if command in ("quit", "exit", "q"):
                return False
            if command in ("help", "?"):
                self.console.print(Text(HELP))
                continue
            if command == "moves":
                self.show_moves(legal)
                continue
            if command == "log":
                self.console.print(Text("\n".join(self.log) or "(nothing yet)"))
                continue
            if command == "rules":
                path = self.game.rulings_path()
                self.console.print(Markdown(path.read_text()) if path else "No rulings file for this game.")
                continue
            action = self.parse_entry(entry, legal)
            if action is None:
                continue
            self.play(action)
            return True

    def parse_entry(self, entry: str, legal: list[int]) -> int | None:
        """The action for a typed entry (a move's number in the list, or notation), or None after saying why."""
        try:
            number = parse_bare_number(entry, len(legal) + 1)
        except ValueError:
            number = 0
        if number is not None:
            if 1 <= number <= len(legal):
                return legal[number - 1]
            shown = entry if len(entry) <= 20 else quote(entry, 20)
            self.console.print(f"[red]There is no move {escape(shown)}; choose 1 to {len(legal)}.[/red]")
            return None
        try:
            action = self.state.parse_action(entry)
        except ValueError as error:
            self.console.print(f"[red]{escape(str(error))}[/red] (type `moves` for the legal moves)")
            return None
        if action not in legal:
            try:
                self.state.clone().apply_action(action)
            except ValueError as error:
                self.console.print(f"[red]Not legal now: {escape(str(error))}[/red]")
                return None
        return action
