"""Issue 21 §2 "People too" and §5: `warcards play` shows every move only as the human's seat sees it
(`seen_action`, and since issue 23 the seat's log lines), and text typed at the prompt never crashes it
(Rich markup, Unicode digits, huge numbers, huge lines)."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

import warcards
from tests.edges.hidden_cases import named_cards, shown_cards
from warcards.cli.play import TerminalGame
from warcards.engine.api import Game

_VICTIM = re.compile(r" -> [AXO]\d\d\)")

TABLES = [
    ("race-to-messina", {"variant": "race"}, 0),
    ("race-to-messina", {"variant": "race"}, 1),
    ("race-to-messina", {"variant": "invasion"}, 0),
    ("race-to-messina", {"variant": "invasion"}, 1),
    ("race-to-messina", {"variant": "sicily"}, 0),
    ("race-to-messina", {"variant": "sicily"}, 2),
    ("med-sirocco", {"players": 3}, 1),
    ("naval-war", {"players": 3}, 0),
    ("naval-war", {"players": 3, "night": True}, 2),
    ("cards-of-war", {}, 0),
    ("cards-of-war", {}, 1),
]


def _console() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, width=400, color_system=None, force_terminal=False, highlight=False), buffer


class _ScriptedHuman:
    """Picks moves by their number at random (and asks for the `log` now and then); after every action
    and at every prompt, scans all newly printed text for card ids the human's seat cannot know yet: the
    cards of its observations so far and of public events (what a spectator sees in full)."""

    def __init__(self, game: Game, seat: int, moves: int) -> None:
        self.game = game
        self.seat = seat
        self.moves = moves
        self.rng = random.Random(seat)
        self.console, self.buffer = _console()
        self.session = TerminalGame(game, seat, "heuristic", 7, self.console, self.read_line)
        self.known = shown_cards(game, self.session.state.observe(seat))
        self.scanned = 0
        self.prompts = 0
        play = self.session.play

        def watched(action: int) -> None:
            # Every step the terminal shows (a bot's, chance's, the human's) goes through `play`.
            state = self.session.state
            public = state.seen_action(action, None)
            if public.action is not None:
                self.known |= named_cards(game, public.text)
            before = state.clone()
            play(action)
            # What a spectator's log names is public (a card turned face up in the middle of a step).
            for line in before.log_lines(action, state, None):
                self.known |= named_cards(game, line.text)
            self.known |= shown_cards(game, state.observe(seat))
            self.scan()

        self.session.play = watched  # type: ignore[method-assign]

    def scan(self) -> None:
        text = self.buffer.getvalue()[self.scanned :]
        self.scanned += len(text)
        # Med Sirocco prints a Destiny card's victim with it ("X23 Decima MAS SLC (... -> A02)"): the card's
        # printed text, which says nothing of where A02 is.
        text = _VICTIM.sub(")", text)
        leaked = named_cards(self.game, text) - self.known
        assert not leaked, f"{self.game.game_id} seat {self.seat} was shown {sorted(leaked)}: {text[-400:]!r}"

    def read_line(self, prompt: str) -> str:
        self.scan()
        self.prompts += 1
        if self.moves <= 0:
            return "quit"
        if self.prompts % 9 == 0:
            return "log"
        self.moves -= 1
        return str(self.rng.randrange(len(self.session.state.legal_actions())) + 1)


@pytest.mark.parametrize(("game_id", "options", "seat"), TABLES, ids=[f"{g}-{o}-seat{s}" for g, o, s in TABLES])
def test_the_terminal_shows_no_card_the_humans_seat_cannot_know(game_id: str, options: dict[str, object], seat: int) -> None:
    """Race to Messina printed the Axis's face-down deployment (`axis deploy X36 Kesserlring`) and Med
    Sirocco the bots' face-down round-2 cards; every printed line, the `log` included, is scanned."""
    human = _ScriptedHuman(warcards.load_game(game_id, **options), seat, moves=80)
    human.session.run()
    human.scan()
    assert human.session.log, "moves were logged"


def test_typed_markup_unicode_digits_huge_numbers_and_huge_lines_get_a_message_not_a_crash() -> None:
    """`[/]` and `[/red]` crashed Rich; `²` and a 5000-digit number crashed the number parser; a 100 kB
    line went to the parser whole. Each gets a message (brackets intact), and the game goes on."""
    entries = iter(["[/]", "[/red]", "²", "9" * 5000, "9" * 150, "x" * 100_000, "0", "quit"])
    console, buffer = _console()
    game = warcards.load_game("race-to-messina")
    session = TerminalGame(game, 0, "random", 1, console, lambda prompt: next(entries))
    assert session.run() is None
    out = buffer.getvalue()
    assert "'[/]'" in out and "'[/red]'" in out
    assert "'²'" in out or "²" in out
    assert "5,000 characters long" in out and "100,000 characters long" in out
    assert out.count("There is no move") == 2
    assert "9" * 100 not in out, "a message quotes a short prefix only"
    assert "You left the game." in out
