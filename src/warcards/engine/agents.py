"""What a bot is given: its seat's view and its own RNG — never the state itself.

`SeatView` exposes for one seat only what a human in that seat could use: the observation, the legal
actions, the notation, and `determinize` (a sampled full state consistent with the seat's knowledge) for
search; it holds a determinized copy, never the true state. Agents implement `Agent.step(view) -> action`.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from warcards.engine.api import JSON, Game, Rng, State


class SampleRng:
    """The RNG of a `SeatView`'s own sample: cheap and fixed, never the agent's. Its `shuffle` keeps the
    order it is given, and every game sorts a pool of unlocated cards before shuffling it, so the sample
    deals the unlocated cards in their sorted order: a state consistent with the seat's view and a function
    of that view alone (not a random draw, which the view does not need). `random` is a fixed linear
    congruential sequence, so a game that redraws until a constraint holds still moves on.

    Public for whoever hands out the same sample a `SeatView` sees: the server's `sample` answer
    (server/hub.py) gives a bot that plays over the protocol the very state it would search locally."""

    __slots__ = ("_x",)

    def __init__(self) -> None:
        self._x = 1

    def random(self) -> float:
        self._x = (self._x * 1103515245 + 12345) & 0x7FFFFFFF
        return self._x / 2147483648.0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        count = (stop - start + step - 1) // step
        return start + step * int(self.random() * count)

    def shuffle(self, x: list[Any]) -> None:
        return None


class SeatView:
    """The part of a state a seat may use, holding no reference to the true state.

    It holds a state already determinized for the seat (with an RNG of its own, `SampleRng`, never the
    agent's), so nothing reachable from it — attributes, `gc`, `inspect` — is the true state, and every
    card it places where the seat cannot see is a stand-in. The observation and the legal actions of the
    seat to act are the true ones (a determinization keeps them), and `determinize(rng)` gives the same sample as the true state would,
    since each game's `determinize` depends only on the seat's view and `rng` (docs/bots.md, "What an
    in-process bot can reach"). A bad seat raises `SeatError`."""

    __slots__ = ("_sample", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self.seat = state.game.check_seat(seat)
        self._sample = state.determinize(self.seat, SampleRng())
        if state.current_player() == self.seat:
            # The seat's own choices are the same in the sample (the conformance battery checks it): hand
            # them over, a fresh list, rather than compute them a second time.
            self._sample._legal_cache = state.legal_actions()

    @classmethod
    def of_sample(cls, sample: State, seat: int) -> SeatView:
        """A view of a state the caller sampled itself (a search's own determinization, a rollout from
        it), wrapped as it is: it holds nothing the caller does not already know, so it needs no second
        determinization. Never pass a true state here."""
        view = cls.__new__(cls)
        view.seat = sample.game.check_seat(seat)
        view._sample = sample
        return view

    @property
    def game(self) -> Game:
        return self._sample.game

    def observation(self, fields: frozenset[str] | None = None) -> JSON:
        """The seat's observation; with `fields`, only those top-level fields (cheaper in some games)."""
        if fields is None:
            return self._sample.observe(self.seat)
        return self._sample.observe_fields(self.seat, fields)

    def legal_actions(self) -> list[int]:
        return self._sample.legal_actions()

    def action_to_string(self, action: int) -> str:
        return self._sample.action_to_string(action)

    def determinize(self, rng: Rng) -> State:
        """A full state sampled from what this seat knows (for search), with no history."""
        return self._sample.determinize(self.seat, rng)


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
