"""What a bot is given: its seat's view and its own RNG — never the state itself.

`SeatView` wraps a state for one seat and exposes only what a human in that seat could use: the
observation, the legal actions, the notation, and `determinize` (a sampled full state consistent with
the seat's knowledge) for search. Agents implement `Agent.step(view) -> action`.
"""

from __future__ import annotations

import random
from typing import Protocol

from warcards.engine.api import JSON, Game, Rng, State


class SeatView:
    """The part of a state a seat may use. The wrapped state is private by convention and by test."""

    __slots__ = ("__state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self.__state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self.__state.game

    def observation(self, fields: frozenset[str] | None = None) -> JSON:
        """The seat's observation; with `fields`, only those top-level fields (cheaper in some games)."""
        if fields is None:
            return self.__state.observe(self.seat)
        return self.__state.observe_fields(self.seat, fields)

    def legal_actions(self) -> list[int]:
        return self.__state.legal_actions()

    def action_to_string(self, action: int) -> str:
        return self.__state.action_to_string(action)

    def determinize(self, rng: Rng) -> State:
        """A full state sampled from what this seat knows (for search); the true state is not exposed."""
        return self.__state.determinize(self.seat, rng)


class Agent(Protocol):
    """A bot: it sees only a `SeatView` and owns its RNG."""

    name: str

    def step(self, view: SeatView) -> int: ...


class RandomAgent:
    """Chooses uniformly among the legal actions with its own seeded RNG."""

    name = "random"

    def __init__(self, seat: int = 0, seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        return legal[self.rng.randrange(len(legal))]
