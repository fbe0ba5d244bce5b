"""Coin: a two-seat test game whose one rule parameter sets the first seat's edge, for the tuner's tests.

One chance node decides the game: seat 0 wins with probability `edge / 10` (`edge` from 0 to 10, the "rule
text" says 9), else seat 1. The even setting is `edge = 5`: a short tuning study must find it. Not registered
in `warcards.games()`: tests build it directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warcards.engine.api import CHANCE, JSON, TERMINAL, Chance, Game, Rng, State, Weighted
from warcards.engine.errors import InvalidActionError, SetupError
from warcards.engine.params import ParamSpec, param_values

EDGE = ParamSpec("edge", 9, 0, 10, "seat 0 wins this many times in ten", "1.1")


class CoinGame(Game):
    game_id = "coin"
    title = "Coin"

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options or {})
        self.edge = param_values([EDGE], self.options)["edge"]

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return 1

    @property
    def max_chance_outcomes(self) -> int:
        return 2

    @property
    def max_game_length(self) -> int:
        return 1

    def new_initial_state(self) -> CoinState:
        return CoinState(self)

    def state_from_setup(self, setup: Mapping[str, Any]) -> State:
        raise SetupError("coin has no scenario setups")

    def seat_names(self) -> list[str]:
        return ["first", "second"]


class CoinState(State):
    game: CoinGame

    def __init__(self, game: CoinGame) -> None:
        super().__init__(game)
        self.winner = -1

    def current_player(self) -> int:
        return CHANCE if self.winner < 0 else TERMINAL

    def _legal_actions(self) -> list[int]:
        return []

    def _chance(self) -> Chance:
        p = self.game.edge / 10
        return Weighted([(seat, q) for seat, q in ((0, p), (1, 1 - p)) if q > 0])

    def _apply(self, action: int) -> None:
        self.winner = action

    def _illegal_reason(self, action: int) -> str:
        return "no moves: the coin decides"

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0 if seat == self.winner else 0.0 for seat in (0, 1)]

    def _copy(self) -> CoinState:
        other = CoinState(self.game)
        other.winner = self.winner
        return other

    def _observe(self, seat: int) -> JSON:
        return {"winner": self.winner}

    def _determinize(self, seat: int, rng: Rng) -> CoinState:
        return self._copy()

    def action_to_string(self, action: int) -> str:
        return f"seat {action} wins"

    def _parse_action(self, text: str) -> int:
        raise InvalidActionError("no moves: the coin decides")

    def zones(self) -> dict[str, list[str]]:
        return {}

    def position(self) -> JSON:
        return {"winner": self.winner}
