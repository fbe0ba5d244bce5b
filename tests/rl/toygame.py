"""Toy Commit: a small game with every feature the RL adapters must handle (not registered).

Rules (numbered so the adapters' tests can cite them):
1. Cards: eight cards `c1`..`c8`; card `cK` has rank ((K - 1) % 4) + 1, so every rank has two copies.
2. Deal: each seat is dealt `hand_size` cards, one chance draw at a time, from the unordered deck.
3. Commit: seats act in order. On its turn a seat commits one card from its hand face down (action = the
   card index), at most two, then ends its turn with `done` (legal once it has committed a card).
4. Roll: when every seat is done, a die is rolled (a chance node, faces 1..6); the last seat adds it.
5. End: totals are the committed ranks (plus the die for the last seat); the highest total wins, ties share.
   Returns are zero-sum: a winner gets 1/k (k winners) minus 1/n, everyone else -1/n.

A seat sees its own hand and commits, how many cards each other seat committed, and after the end
everything committed and the die.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warcards.engine import (
    CHANCE,
    TERMINAL,
    Chance,
    Game,
    IllegalActionError,
    InvalidActionError,
    OptionSpec,
    Rng,
    SetupError,
    State,
    Uniform,
)

NUM_CARDS = 8
CARD_IDS = tuple(f"c{k + 1}" for k in range(NUM_CARDS))
RANKS = tuple((k % 4) + 1 for k in range(NUM_CARDS))
DONE = NUM_CARDS
DIE_BASE = NUM_CARDS  # chance outcomes: cards 0..7, die faces 8..13
MAX_COMMITS = 2

PHASE_DEAL, PHASE_COMMIT, PHASE_ROLL, PHASE_OVER = 0, 1, 2, 3
PHASE_NAMES = ("deal", "commit", "roll", "over")

OPTIONS = [
    OptionSpec("players", 2, "number of seats", allowed=(2, 3)),
    OptionSpec("hand_size", 2, "cards dealt to each seat", allowed=(2, 3)),
]
CONFORMANCE_CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "hand_size": 2},
    {"players": 3, "hand_size": 2},
    {"players": 2, "hand_size": 3},
]


class ToyGame(Game):
    """Toy Commit with resolved options."""

    game_id = "toy-commit"
    title = "Toy Commit"

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.players: int = int(options["players"])
        self.hand_size: int = int(options["hand_size"])

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return NUM_CARDS + 1

    @property
    def max_chance_outcomes(self) -> int:
        return NUM_CARDS + 6

    @property
    def max_game_length(self) -> int:
        return self.players * self.hand_size + self.players * (MAX_COMMITS + 1) + 1

    def new_initial_state(self) -> ToyState:
        return ToyState(self)

    def state_from_setup(self, setup: Mapping[str, Any]) -> ToyState:
        """A state from zones (`deck`, `hand:i`, `committed:i`) and position (`phase`, `to_act`)."""
        state = ToyState(self)
        zones = setup.get("zones", {})
        seen: set[str] = set()
        state.deck = 0
        for name, cards in zones.items():
            for card in cards:
                if card not in CARD_IDS:
                    raise SetupError(f"unknown card {card!r}; cards are {', '.join(CARD_IDS)}")
                if card in seen:
                    raise SetupError(f"card {card} is placed twice")
                seen.add(card)
                index = CARD_IDS.index(card)
                if name == "deck":
                    state.deck |= 1 << index
                elif name.startswith("hand:"):
                    state.hands[int(name[5:])] |= 1 << index
                elif name.startswith("committed:"):
                    state.committed[int(name[10:])].append(index)
                else:
                    raise SetupError(f"unknown zone {name!r}")
        if len(seen) != NUM_CARDS:
            missing = sorted(set(CARD_IDS) - seen)
            raise SetupError(f"cards missing from the setup: {', '.join(missing)}")
        position = setup.get("position", {})
        state.phase = PHASE_NAMES.index(position.get("phase", "commit"))
        state.to_act = int(position.get("to_act", 0))
        return state


def make_game(options: Mapping[str, Any]) -> ToyGame:
    return ToyGame(options)


class ToyState(State):
    """Hands are bitmasks over card indices; commits are lists; the deck is a bitmask (unordered)."""

    game: ToyGame

    def __init__(self, game: ToyGame) -> None:
        super().__init__(game)
        players = game.players
        self.deck = (1 << NUM_CARDS) - 1
        self.hands = [0] * players
        self.committed: list[list[int]] = [[] for _ in range(players)]
        self.phase = PHASE_DEAL
        self.to_act = 0
        self.die = 0

    def current_player(self) -> int:
        phase = self.phase
        if phase == PHASE_COMMIT:
            return self.to_act
        if phase == PHASE_OVER:
            return TERMINAL
        return CHANCE

    def _legal_actions(self) -> list[int]:
        """Rule 3: a card in hand while fewer than two are committed; `done` after a commit."""
        seat = self.to_act
        actions: list[int] = []
        if len(self.committed[seat]) < MAX_COMMITS:
            hand = self.hands[seat]
            actions = [k for k in range(NUM_CARDS) if hand >> k & 1]
        if self.committed[seat]:
            actions.append(DONE)
        return actions

    def _chance(self) -> Chance:
        """Rule 2: a draw from the unordered deck; rule 4: a die."""
        if self.phase == PHASE_DEAL:
            return Uniform([k for k in range(NUM_CARDS) if self.deck >> k & 1])
        return Uniform(range(DIE_BASE, DIE_BASE + 6))

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == PHASE_DEAL:
            self.deck &= ~(1 << action)
            self.hands[self.to_act] |= 1 << action
            if bin(self.hands[self.to_act]).count("1") == self.game.hand_size:
                self.to_act += 1
                if self.to_act == self.game.players:
                    self.to_act = 0
                    self.phase = PHASE_COMMIT
        elif phase == PHASE_COMMIT:
            if action == DONE:
                self.to_act += 1
                if self.to_act == self.game.players:
                    self.phase = PHASE_ROLL
            else:
                self.hands[self.to_act] &= ~(1 << action)
                self.committed[self.to_act].append(action)
        else:
            self.die = action - DIE_BASE + 1
            self.phase = PHASE_OVER

    def _illegal_reason(self, action: int) -> str:
        if action == DONE:
            return "3 Commit: done is legal only after committing a card"
        if len(self.committed[self.to_act]) >= MAX_COMMITS:
            return f"3 Commit: at most {MAX_COMMITS} cards may be committed; only done is legal"
        return f"3 Commit: {CARD_IDS[action]} is not in your hand"

    def totals(self) -> list[int]:
        """Rule 5: committed ranks, plus the die for the last seat."""
        totals = [sum(RANKS[k] for k in cards) for cards in self.committed]
        totals[-1] += self.die
        return totals

    def returns(self) -> list[float]:
        players = self.game.players
        if self.phase != PHASE_OVER:
            return [0.0] * players
        totals = self.totals()
        best = max(totals)
        winners = [seat for seat, total in enumerate(totals) if total == best]
        share = 1.0 / len(winners)
        return [(share if seat in winners else 0.0) - 1.0 / players for seat in range(players)]

    def _copy(self) -> ToyState:
        other = type(self).__new__(type(self))  # a subclass's copy is of the subclass
        State.__init__(other, self.game)
        other.deck = self.deck
        other.hands = self.hands[:]
        other.committed = [cards[:] for cards in self.committed]
        other.phase = self.phase
        other.to_act = self.to_act
        other.die = self.die
        return other

    def _observe(self, seat: int) -> dict[str, Any]:
        over = self.phase == PHASE_OVER
        return {
            "seat": seat,
            "phase": PHASE_NAMES[self.phase],
            "to_act": self.to_act if self.phase == PHASE_COMMIT else None,
            "hand": [CARD_IDS[k] for k in range(NUM_CARDS) if self.hands[seat] >> k & 1],
            "committed": [CARD_IDS[k] for k in self.committed[seat]],
            "committed_counts": [len(cards) for cards in self.committed],
            "hand_counts": [bin(hand).count("1") for hand in self.hands],
            "revealed": [[CARD_IDS[k] for k in cards] for cards in self.committed] if over else None,
            "die": self.die if over else None,
        }

    def _determinize(self, seat: int, rng: Rng) -> ToyState:
        """Others' hands and commits are redrawn from the cards `seat` cannot locate."""
        other = self._copy()
        if self.phase == PHASE_OVER:
            return other
        unknown = [k for k in range(NUM_CARDS) if self.deck >> k & 1]
        for s in range(self.game.players):
            if s != seat:
                unknown += [k for k in range(NUM_CARDS) if self.hands[s] >> k & 1]
                unknown += self.committed[s]
        rng.shuffle(unknown)
        other.deck = 0
        for s in range(self.game.players):
            if s == seat:
                continue
            hand = 0
            for _ in range(bin(self.hands[s]).count("1")):
                hand |= 1 << unknown.pop()
            other.hands[s] = hand
            other.committed[s] = [unknown.pop() for _ in self.committed[s]]
        for k in unknown:
            other.deck |= 1 << k
        return other

    def action_to_string(self, action: int) -> str:
        if not 0 <= action < self.game.max_chance_outcomes:
            raise InvalidActionError(f"{action} is not an action of toy-commit")
        if self.phase == PHASE_DEAL:
            return f"deal {CARD_IDS[action]}"
        if self.phase in (PHASE_ROLL, PHASE_OVER) and action >= DIE_BASE:
            return f"roll {action - DIE_BASE + 1}"
        if action < NUM_CARDS:
            return f"commit {CARD_IDS[action]}"
        return "done" if action == DONE else f"roll {action - DIE_BASE + 1}"

    def _parse_action(self, text: str) -> int:
        words = text.lower().split()
        if words == ["done"]:
            return DONE
        if len(words) == 2 and words[0] in ("commit", "deal") and words[1] in CARD_IDS:
            return CARD_IDS.index(words[1])
        if len(words) == 2 and words[0] == "roll" and words[1] in ("1", "2", "3", "4", "5", "6"):
            return DIE_BASE + int(words[1]) - 1
        if text.isdigit():
            return int(text)
        raise InvalidActionError(f"{text!r} is not an action; write 'commit cK', 'done', 'deal cK' or 'roll N'")

    def zones(self) -> dict[str, list[str]]:
        zones = {"deck": [CARD_IDS[k] for k in range(NUM_CARDS) if self.deck >> k & 1]}
        for seat in range(self.game.players):
            zones[f"hand:{seat}"] = [CARD_IDS[k] for k in range(NUM_CARDS) if self.hands[seat] >> k & 1]
            zones[f"committed:{seat}"] = [CARD_IDS[k] for k in self.committed[seat]]
        return zones

    def position(self) -> dict[str, Any]:
        return {"phase": PHASE_NAMES[self.phase], "to_act": self.to_act, "die": self.die}


__all__ = [
    "CONFORMANCE_CONFIGS",
    "OPTIONS",
    "IllegalActionError",
    "ToyGame",
    "ToyState",
    "make_game",
]
