"""A small imperfect-information card game on the engine contract, for testing bots and the arena.

Toy Tricks: a deck of cards 0..D-1 (rank = number). Each seat is dealt H hidden cards (chance nodes, one
card at a time, round-robin from seat 0). Tricks: the leader plays any card face up, then each other seat
in turn; the highest card wins the trick and leads the next. After a trick each seat, from the winner on,
draws a card while the pile lasts (chance). The game ends when the hands are empty; the seat(s) with most
tricks share a return of 1. It is not registered in `warcards.games()`: tests build it directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warcards.engine.agents import Agent, SeatView
from warcards.engine.api import CHANCE, JSON, TERMINAL, Chance, Game, Rng, State, Uniform
from warcards.engine.errors import InvalidActionError, SetupError


class ToyGame(Game):
    """Toy Tricks with `players` seats (2 or 3), a `deck` of cards and `hand` cards per seat."""

    game_id = "toy-tricks"
    title = "Toy Tricks"

    def __init__(self, players: int = 2, deck: int = 12, hand: int = 3) -> None:
        super().__init__({"players": players, "deck": deck, "hand": hand})
        self.players = players
        self.deck = deck
        self.hand = hand

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return self.deck

    @property
    def max_chance_outcomes(self) -> int:
        return self.deck

    @property
    def max_game_length(self) -> int:
        return 2 * self.deck

    def new_initial_state(self) -> ToyState:
        state = ToyState(self)
        state.pending = [i % self.players for i in range(self.hand * self.players)]
        return state

    def state_from_setup(self, setup: Mapping[str, Any]) -> State:
        raise SetupError("toy-tricks has no scenario setups")

    def seat_names(self) -> list[str]:
        return [f"p{i}" for i in range(self.players)]


class ToyState(State):
    """Hands are bitmasks; the pile is the set of cards in no other zone."""

    game: ToyGame

    def __init__(self, game: ToyGame) -> None:
        super().__init__(game)
        n = game.players
        self.hands = [0] * n
        self.pile = (1 << game.deck) - 1
        self.played = 0
        self.trick = [-1] * n
        self.leader = 0
        self.to_move = 0
        self.tricks = [0] * n
        self.pending: list[int] = []

    def current_player(self) -> int:
        if self.pending:
            return CHANCE
        if not any(self.hands):
            return TERMINAL
        return self.to_move

    def _legal_actions(self) -> list[int]:
        hand = self.hands[self.to_move]
        return [c for c in range(self.game.deck) if hand >> c & 1]

    def _chance(self) -> Chance:
        return Uniform([c for c in range(self.game.deck) if self.pile >> c & 1])

    def _apply(self, action: int) -> None:
        bit = 1 << action
        if self.pending:
            self.pile &= ~bit
            self.hands[self.pending.pop(0)] |= bit
            return
        seat = self.to_move
        n = self.game.players
        self.hands[seat] &= ~bit
        self.trick[seat] = action
        nxt = (seat + 1) % n
        if nxt != self.leader:
            self.to_move = nxt
            return
        winner = max(range(n), key=lambda s: self.trick[s])
        self.tricks[winner] += 1
        for card in self.trick:
            self.played |= 1 << card
        self.trick = [-1] * n
        self.leader = self.to_move = winner
        left = bin(self.pile).count("1")
        self.pending = [(winner + i) % n for i in range(min(n, left))]

    def _illegal_reason(self, action: int) -> str:
        return f"Play: card {action} is not in your hand"

    def returns(self) -> list[float]:
        if self.current_player() != TERMINAL:
            return [0.0] * self.game.players
        best = max(self.tricks)
        winners = [s for s, t in enumerate(self.tricks) if t == best]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(self.game.players)]

    def _copy(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        State.__init__(other, self.game)
        other.hands = self.hands[:]
        other.pile = self.pile
        other.played = self.played
        other.trick = self.trick[:]
        other.leader = self.leader
        other.to_move = self.to_move
        other.tricks = self.tricks[:]
        other.pending = self.pending[:]
        return other

    def _observe(self, seat: int) -> JSON:
        return {
            "hand": [c for c in range(self.game.deck) if self.hands[seat] >> c & 1],
            "hand_sizes": [bin(h).count("1") for h in self.hands],
            "trick": list(self.trick),
            "played": [c for c in range(self.game.deck) if self.played >> c & 1],
            "pile": bin(self.pile).count("1"),
            "tricks": list(self.tricks),
            "leader": self.leader,
            "to_move": self.to_move,
            "pending": list(self.pending),
        }

    def _determinize(self, seat: int, rng: Rng) -> ToyState:
        other = self._copy()
        unseen = [
            c
            for c in range(self.game.deck)
            if not (self.hands[seat] >> c & 1) and not (self.played >> c & 1) and c not in self.trick
        ]
        rng.shuffle(unseen)
        for s in range(self.game.players):
            if s == seat:
                continue
            size = bin(self.hands[s]).count("1")
            other.hands[s] = sum(1 << c for c in unseen[:size])
            unseen = unseen[size:]
        other.pile = sum(1 << c for c in unseen)
        return other

    def action_to_string(self, action: int) -> str:
        return f"deal {action}" if self.pending else f"play {action}"

    def _parse_action(self, text: str) -> int:
        word, _, number = text.partition(" ")
        if word in ("deal", "play") and number.isdigit() and int(number) < self.game.deck:
            return int(number)
        if text.isdigit() and int(text) < self.game.deck:
            return int(text)
        raise InvalidActionError(
            f"{text!r}: actions are 'play N' or 'deal N' with N in 0..{self.game.deck - 1}"
        )

    def zones(self) -> dict[str, list[str]]:
        deck = range(self.game.deck)
        zones = {f"hand:{s}": [str(c) for c in deck if h >> c & 1] for s, h in enumerate(self.hands)}
        zones["pile"] = [str(c) for c in deck if self.pile >> c & 1]
        zones["played"] = [str(c) for c in deck if self.played >> c & 1]
        zones["trick"] = [str(c) for c in self.trick if c >= 0]
        return zones

    def position(self) -> JSON:
        return {"tricks": list(self.tricks), "leader": self.leader, "to_move": self.to_move}


class ToyHeuristic:
    """Follow with the lowest card that beats the table, else the lowest; lead the lowest card."""

    name = "heuristic"

    def __init__(self, seat: int = 0, seed: int = 0) -> None:
        self.seat = seat

    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        trick = view.observation()["trick"]
        best = max(trick)
        if best < 0:
            return legal[0]
        beating = [c for c in legal if c > best]
        return beating[0] if beating else legal[0]


def toy_heuristic(game: Game, seat: int, seed: int) -> ToyHeuristic:
    """The toy game's heuristic, as an agent builder (module level, so process pools can pickle it)."""
    return ToyHeuristic(seat, seed)


def toy_search(game: Game, seat: int, seed: int) -> Agent:
    """A cheap ISMCTS for the toy game (50 determinizations, at most 10,000 actions, exploration 1.0), as an
    agent builder: the search bot the arena and search tests play as `search`."""
    from warcards.bots.ismcts import build

    return build("ismcts", game, seat, seed, iterations=50, action_budget=10_000, exploration=1.0)
