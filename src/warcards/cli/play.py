"""`warcards play`: a game in the terminal against bots, and `warcards replay --show`.

The human's seat sees exactly its own view (the game's `render` of `observe(seat)`) and its own game log:
every step — the bots', chance's and the human's own — goes through `apply_logged_lines(state, action, [seat])`
and the seat's `LogLine`s are kept for `log`. At each of the human's turns one screen shows the board (its
top rule names the seat and the seed), under it what happened since the human's last move (the bots' whole
turns, draws and deals folded: `screen.fold_lines`) and the legal moves, fitted to the terminal's height
(`screen`: the newest lines and the summaries kept, the moves grouped, cut or paged; `moves` lists them all).
Moves are listed by `action_label` and typed by their number or in the game's notation; the prompt shows
the game's `status` line (`[Axis · turn 3 · 12–9 PT] your move>`). `help`, `moves`, `board`, `log`,
`rules [R<n>]`, `guide`, `undo` and `quit` are always available; Enter plays the only legal move; a bad
entry is explained and asked again — never a crash. Text a user typed is escaped before Rich sees it, and a
line longer than `MAX_ACTION_TEXT` is refused unread. The end screen is the game's `result()`.

A game is a function of its seed and the moves typed: chance is drawn from `chance_rng(seed)` as
`play_match` draws it, and each bot decision comes from a fresh bot seeded by the seed, its seat and the
move number (`bot_seed`), so it depends on nothing but the position. That is what makes a game resumable
(`--resume`: the record's actions are re-applied and the game goes on exactly as it would have) and `undo`
exact (the game is rebuilt from the seed and the shortened list of actions). With `--out` the record (a
`PlayRecord`) is rewritten whenever it is the human's turn, when the human leaves and at the end.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from warcards.bots import make_agent
from warcards.cli.screen import MIN_RECENT, fold_lines, move_rows, recent_lines, rows_of
from warcards.cli.texts import show_text
from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE, Game, GameResult, LogLine, State, apply_logged_lines
from warcards.engine.errors import WarcardsError
from warcards.engine.guides import guide_text, one_ruling, rulings_text
from warcards.engine.registry import game_spec
from warcards.engine.text import MAX_ACTION_TEXT, parse_bare_number, quote
from warcards.match import HUMAN, MatchRecord, PlayRecord, derive_seed, follow, shown_steps

HELP = """Type a move's number from the list, or the move in the game's notation
(`guide` explains it); Enter plays the move when it is the only one. Commands:
  moves   the legal moves again        board   your view of the table again
  log     the whole game log           guide   how to play, with an example
  rules   the rulings on the rules' gaps (`rules R4`: one of them)
  undo    take back your last move and the bots' replies
  quit    leave (a game played with --out FILE is saved there:
          `warcards play --resume FILE` goes on)"""

THINKING_DELAY = 0.3
"""Seconds a bot may think before the "thinking…" line shows (a quick bot shows none)."""


def bot_seed(seed: int, seat: int, ply: int) -> int:
    """The seed of the bot deciding for `seat` at move `ply` (the number of actions before it)."""
    return derive_seed(seed, "agent", seat, ply)


class TerminalGame:
    """One interactive game: a human in `seat`, bots in the other seats (`bot` in each, or `bots` by seat).

    `actions` continues a game from its first actions (a resumed record); `out` is where the record is
    written as the game goes; `status_console` shows the "thinking…" line (stderr, when a terminal)."""

    def __init__(
        self,
        game: Game,
        seat: int,
        bot: str,
        seed: int,
        console: Console,
        read_line: Callable[[str], str],
        *,
        bots: Sequence[str] | None = None,
        actions: Sequence[int] = (),
        out: Path | None = None,
        status_console: Console | None = None,
    ) -> None:
        self.game = game
        self.seat = game.check_seat(seat)
        self.seed = seed
        self.console = console
        self.read_line = read_line
        self.out = out
        self.status_console = status_console
        self.names = game.seat_names()
        self.bot_names = list(bots) if bots is not None else [bot] * game.num_players
        if len(self.bot_names) != game.num_players:
            raise ValueError(f"{game.game_id} here has {game.num_players} seats; {len(self.bot_names)} bots given")
        self.bot_names[self.seat] = HUMAN
        for other, name in enumerate(self.bot_names):
            if other != self.seat:
                make_agent(name, game, other, seed)  # an unknown bot is refused before the game starts
        spec = game_spec(game.game_id)
        if spec.render is None:
            raise ValueError(f"{game.game_id} declares no render in its GameSpec; play needs one")
        self.render = spec.render.load()
        self.status = spec.status.load() if spec.status is not None else None
        self.rebuild(list(actions))

    def rebuild(self, actions: list[int]) -> None:
        """The game after `actions` (checked against the seed): the state, the chance RNG, who took each
        action, and the human's log up to there."""
        followed = follow(self.game, self.seed, actions, [self.seat])
        self.state: State = followed.state
        self.rng = followed.rng
        self.actors: list[int] = followed.actors
        self.log: list[LogLine] = [line for step in followed.steps for line in step[self.seat].lines]
        self.since: list[LogLine] = []
        """The human's log lines since the human's last turn was shown."""

    def run(self) -> GameResult | None:
        """Play to the end; returns the result, or None if the human left."""
        title = self.game.title or self.game.game_id
        self.console.print(
            Panel(escape(f"{title} — you are {self.names[self.seat]}. Type `help` for the commands."))
        )
        self.console.print(f"seed {self.seed} — replay with --seed {self.seed}")
        if self.state.history():
            self.console.print(f"Resumed after move {len(self.state.history())}; `log` shows the game so far.")
            self.since = self.log[-8:]
        while not self.state.is_terminal():
            player = self.state.current_player()
            if player == CHANCE:
                self.play(self.state.sample_outcome(self.rng.random()))
            elif player == self.seat:
                self.save()
                if not self.human_turn():
                    self.save()
                    saved = f" It is saved: warcards play --resume {self.out} goes on." if self.out else ""
                    self.console.print(escape(f"You left the game.{saved}"))
                    return None
            else:
                self.play(self.bot_move(player))
        self.save()
        result = self.state.result()
        end = self.end_items(result)
        board = self.show_view()
        # The end screen takes about a row per seat and eight more; what happened last gets the rest.
        self.show_recent(self.room(board, len(self.names) + 8))
        for item in end:
            self.console.print(item)
        return result

    def bot_move(self, player: int) -> int:
        agent = make_agent(
            self.bot_names[player], self.game, player, bot_seed(self.seed, player, len(self.actors))
        )
        with thinking(self.status_console, f"{self.names[player]} is thinking…"):
            return agent.step(SeatView(self.state, player))

    def play(self, action: int) -> None:
        """Apply `action` (a bot's, chance's or the human's) and keep the human's log lines for it (shown
        under the board at the human's next turn, or at the end)."""
        actor = self.state.current_player()
        lines = apply_logged_lines(self.state, action, [self.seat])[self.seat]
        self.actors.append(actor)
        self.log.extend(lines)
        self.since.extend(lines)

    def print_lines(self, lines: Sequence[LogLine]) -> None:
        for line in lines:
            self.console.print(log_text(line, self.seat))

    def save(self) -> None:
        """Rewrite the record (with `--out`): a whole file at once, so a kill leaves the last one intact."""
        if self.out is None:
            return
        over = self.state.is_terminal()
        record = PlayRecord(
            game=self.game.game_id,
            options=self.game.options,
            seed=self.seed,
            actions=self.state.history(),
            returns=self.state.returns() if over else [],
            agents=self.bot_names,
            humans=[self.seat],
        )
        partial = self.out.with_name(f".{self.out.name}.partial")
        partial.write_text(record.model_dump_json() + "\n", encoding="utf-8")
        os.replace(partial, self.out)

    def show_view(self) -> int:
        """The human's board under a rule naming the seat and the seed; returns the rows it took."""
        # The game's text is shown as it is: no Rich markup, so brackets in it survive.
        # No frame around it: a board drawn for 80 columns gets all 80.
        board = self.render(self.state.observe(self.seat), self.seat)
        self.console.rule(escape(f"{self.names[self.seat]} (you) · seed {self.seed}"), style="dim")
        self.console.print(Text(board))
        return 1 + rows_of(board, self.console.width)

    def room(self, used: int, below: int) -> int | None:
        """The rows left on a terminal's screen after `used` rows and `below` more (None when the output is
        no terminal: then nothing is cut)."""
        if not self.console.is_terminal:
            return None
        return self.console.height - used - below

    def show_recent(self, rows: int | None) -> None:
        """What happened since the human's last turn (folded), in at most `rows` rows (one a line, cut to
        the width); then it is no longer "since"."""
        folded = fold_lines(self.since)
        self.since = []
        kept, left_out = recent_lines(folded, max(rows, 1)) if rows is not None else (folded, 0)
        if left_out:
            self.console.print(Text(f"… {left_out} more line{'s' if left_out != 1 else ''} (`log` shows them)",
                                    style="dim"))
        for line in kept:
            text = log_text(line, self.seat)
            if rows is None:
                self.console.print(text)
            else:
                self.console.print(text, no_wrap=True, overflow="ellipsis", crop=True)

    def show_turn(self, legal: list[int]) -> None:
        """The human's screen: the board, what happened since (`show_recent`) and the moves, fitted to a
        terminal's height with a row left for the prompt."""
        board = self.show_view()
        recent = len(fold_lines(self.since))
        free = self.room(board, 1)
        notes = 1 if len(legal) == 1 else 0
        moves = None if free is None else max(free - min(recent, MIN_RECENT) - notes - 1, 2)
        layout = move_rows([self.state.action_label(a) for a in legal], self.console.width, moves)
        shown = len(layout.rows) + notes + (1 if layout.left_out else 0)
        self.show_recent(None if free is None else free - shown)
        self.print_moves(layout.rows)
        if layout.left_out:
            self.console.print(Text(f"… and {layout.left_out} more moves (`moves` lists them all)", style="dim"))
        if len(legal) == 1:
            self.console.print("(the only move: press Enter to play it)")

    def print_moves(self, rows: list[list[str]]) -> None:
        for row in rows:
            line = Text((" " * 2).join(row).rstrip())
            line.highlight_regex(r"(?:^|(?<=\s))\d+(?= )", "bold")
            self.console.print(line, no_wrap=True, overflow="ellipsis", crop=True)

    def end_items(self, result: GameResult) -> list[Table | Text]:
        """The end screen: scores, the verdict with its reason, the seed and where the record is."""
        items = end_screen(result, self.names, self.seat)
        items.append(Text(f"seed {self.seed} — replay with --seed {self.seed}"))
        if self.out is not None:
            items.append(Text(f"Saved in {self.out} (see it again: warcards replay --show {self.out})"))
        return items

    def show_moves(self, legal: list[int]) -> None:
        """Every legal move (the `moves` command), in as many columns as fit."""
        self.print_moves(move_rows([self.state.action_label(a) for a in legal], self.console.width, None).rows)
        if len(legal) == 1:
            self.console.print("(the only move: press Enter to play it)")

    def prompt(self) -> str:
        status = self.names[self.seat]
        if self.status is not None:
            status = self.status(self.state.observe(self.seat), self.seat)
        # A status line that says "your move" already is not told twice.
        return f"[{status}]> " if "your move" in status.lower() else f"[{status}] your move> "

    def human_turn(self) -> bool:
        """One move of the human's (after any commands, an undo included); False when the human leaves."""
        legal = self.state.legal_actions()
        self.show_turn(legal)
        while True:
            try:
                line = self.read_line(self.prompt())
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
                if len(legal) == 1:
                    self.play(legal[0])
                    return True
                self.console.print(f"Type a move's number (1 to {len(legal)}), a move, or `help`.")
                continue
            if command in ("quit", "exit", "q"):
                return False
            if command == "undo":
                if self.undo():
                    legal = self.state.legal_actions()
                    self.show_turn(legal)
                continue
            if self.command(entry):
                continue
            action = self.parse_entry(entry, legal)
            if action is None:
                continue
            self.play(action)
            return True

    def command(self, entry: str) -> bool:
        """Carry out an information command (help, moves, board, log, guide, rules); False if it is none."""
        command = entry.lower()
        word, _, rest = entry.partition(" ")
        word = word.lower()
        if command in ("help", "?"):
            self.console.print(Text(HELP))
        elif command == "moves":
            self.show_moves(self.state.legal_actions())
        elif command == "board":
            self.show_view()
        elif command == "log":
            self.show_log()
        elif command == "guide":
            show_text(self.console, guide_text(self.game))
        elif word == "rules":
            try:
                text = one_ruling(self.game, rest) if rest.strip() else rulings_text(self.game)
            except WarcardsError as error:
                self.console.print(f"[red]{escape(str(error))}[/red]")
            else:
                show_text(self.console, text)
        else:
            return False
        return True

    def show_log(self) -> None:
        if not self.log:
            self.console.print("(nothing yet)")
            return
        if self.console.is_terminal and len(self.log) > self.console.height:
            with self.console.pager():
                self.print_lines(self.log)
        else:
            self.print_lines(self.log)

    def undo(self) -> bool:
        """Take back the human's last move and every action after it (the bots' replies, chance); the game
        is rebuilt from the seed and the shorter list of actions. False (after saying why) if there is none."""
        mine = [index for index, actor in enumerate(self.actors) if actor == self.seat]
        if not mine:
            self.console.print("There is no move of yours to take back.")
            return False
        cut = mine[-1]
        history = self.state.history()
        replies = sum(1 for actor in self.actors[cut + 1 :] if actor not in (CHANCE, self.seat))
        self.rebuild(history[:cut])
        label = self.state.action_label(history[cut])
        more = f" and {replies} bot move{'s' if replies != 1 else ''} after it" if replies else ""
        self.console.print(escape(f"Took back your move {label}{more}."))
        self.save()
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


def show_record(console: Console, game: Game, record: MatchRecord, seat: int | None) -> None:
    """A checked record (`replay`) step by step: as `seat` read it (its log lines), or with `seat` None —
    only for a finished game — every action in full (`action_label`, hidden cards included) with the
    public summaries. Then, for a finished game, the end screen. Through the pager on a terminal."""
    names = game.seat_names()
    rows: list[Text] = []
    final = game.new_initial_state()
    for number, (step, state) in enumerate(shown_steps(game, record.seed, record.actions, seat), start=1):
        rows += [_numbered(number, log_text(line, seat)) for line in step.lines]
        final = state
    if record.finished():
        end = end_screen(final.result(), names, seat)
    else:
        end = [Text(f"The game is not over: {len(record.actions)} actions so far.")]
    who = f"as {names[seat]} saw it" if seat is not None else "every seat's moves in full"
    header = Text(f"{game.title or game.game_id}, seed {record.seed} — {who}")
    items = [header, *rows, *end]
    if console.is_terminal and len(items) > console.height:
        with console.pager():
            for item in items:
                console.print(item)
    else:
        for item in items:
            console.print(item)


def _numbered(number: int, text: Text) -> Text:
    return Text.assemble((f"{number:>4} ", "dim"), text)


def log_text(line: LogLine, seat: int | None) -> Text:
    """A log line as printed: summaries bold, the seat's own moves dim, chance in italics."""
    if line.kind == "summary":
        style = "bold"
    elif line.kind == "chance":
        style = "italic"
    elif line.actor == seat:
        style = "dim"
    else:
        style = ""
    return Text(line.text, style=style)


def end_screen(result: GameResult, names: Sequence[str], seat: int | None) -> list[Table | Text]:
    """The end of a game as printed: each seat's score (the game's own words) with the winners marked, then
    who won and why as a sentence for the reader (`end_line`)."""
    table = Table(title="Game over")
    for column in ("seat", "score", ""):
        table.add_column(column, justify="right" if column == "score" else "left")
    for index, score in enumerate(result.scores):
        marker = " (you)" if index == seat else ""
        won = "winner" if index in result.winners else ""
        table.add_row(escape(f"{seat_title(names[index])}{marker}"), escape(score), won)
    return [table, Text(end_line(result, names, seat), style="bold")]


def seat_title(name: str) -> str:
    """A seat's name as a sentence names it: "allies" → "Allies", "player 1" → "Player 1"."""
    return name[:1].upper() + name[1:]


YOUR_VERBS = {"wins": "win", "reaches": "reach", "holds": "hold", "has": "have", "is": "are", "takes": "take"}
"""The verbs of the games' reasons that change when their subject becomes "you"."""


def end_line(result: GameResult, names: Sequence[str], seat: int | None) -> str:
    """Who won and why in one sentence for the reader: "You lost: Axis reaches 20 PT: evacuation complete
    (R3)", "You won: you reached 134 points, …", "Won by Player 1: Player 1 wins with 52 VP (…)". The
    reason (`result.reason`) names the reader "you" and every seat with a capital."""
    reason = result.reason
    for index, name in enumerate(names):
        if not name:
            continue
        pattern = re.compile(
            rf"(?<![\w-])(?P<the>the )?{re.escape(name)}(?![\w-])(?: (?P<verb>\w+))?", re.IGNORECASE
        )
        if index == seat:
            reason = pattern.sub(lambda match: _you(match["verb"]), reason)
        else:
            reason = pattern.sub(partial(_titled, title=seat_title(name)), reason)
    return f"{verdict(result, names, seat)}: {reason}"


def _titled(match: re.Match[str], title: str) -> str:
    return (match["the"] or "") + title + (f" {match['verb']}" if match["verb"] else "")


def _you(verb: str | None) -> str:
    if verb is None:
        return "you"
    return f"you {YOUR_VERBS.get(verb.lower(), verb)}"


def verdict(result: GameResult, names: Sequence[str], seat: int | None) -> str:
    """Who won, in a sentence's words: "You won", "You lost", "You share the win with Axis", "Won by Axis"."""
    winners = [seat_title(names[index]) for index in result.winners]
    if seat is not None:
        if seat not in result.winners:
            return "You lost"
        others = [seat_title(names[index]) for index in result.winners if index != seat]
        return f"You share the win with {' and '.join(others)}" if others else "You won"
    if len(winners) == 1:
        return f"Won by {winners[0]}"
    return f"Shared by {', '.join(winners[:-1])} and {winners[-1]}"


@contextmanager
def thinking(console: Console | None, text: str, delay: float = THINKING_DELAY) -> Iterator[None]:
    """A spinner with `text` on `console` (a terminal only) while the body runs, shown only once it has
    run `delay` seconds, so quick bots do not flicker."""
    if console is None or not console.is_terminal:
        yield
        return
    status = console.status(escape(text))
    lock = threading.Lock()
    state = {"done": False, "shown": False}

    def show() -> None:
        with lock:
            if not state["done"]:
                status.start()
                state["shown"] = True

    timer = threading.Timer(delay, show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["done"] = True
            timer.cancel()
            if state["shown"]:
                status.stop()
