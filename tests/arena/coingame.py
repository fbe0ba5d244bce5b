"""Coin: a two-seat test game whose one rule parameter sets the first seat's edge, for the tuner's tests.

One chance node decides the game: seat 0 wins with probability `edge / 10` (`edge` from 0 to 10, the "rule
text" says 9), else seat 1. The even setting is `edge = 5`: a short tuning study must find it. Card Coin adds
a card file and a card that decides the game, for the card-field and card-impact tests. Not registered in
`warcards.games()`: tests build them directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from warcards.engine.api import CHANCE, JSON, TERMINAL, Chance, Game, Rng, State, Uniform, Weighted
from warcards.engine.cards import CardFile, check_count, check_tables, load_card_file, rows_of, validate_cards
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


# ----- Card Coin: the same coin, with a card that can decide it -------------------------------------------------
CARD_COIN_CARDS = """# Card Coin's deck: each seat is dealt one card and plays it; a card's power shifts the coin its way.
[[card]]
id = "ACE"
power = 10

[[card]]
id = "K1"
power = 0

[[card]]
id = "K2"
power = 0

[[card]]
id = "K3"
power = 0
"""


class CoinCard(BaseModel):
    """One row of Card Coin's card file."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[A-Z0-9]{1,4}$")
    power: int = Field(ge=0, le=10)


def _coin_cards(file: CardFile) -> dict[str, int]:
    check_tables(file.data, ("card",), file.label, "[[card]] tables")
    cards = validate_cards(CoinCard, rows_of(file.data, "card", file.label), file.label)
    check_count(file.label, "cards", len(cards), 2, 8, "each of two seats is dealt one")
    return {card.id: card.power for card in cards}


class CardCoinGame(CoinGame):
    """Card Coin: chance deals each seat one card of the deck, each seat plays it ("play ACE"), then the coin
    falls for seat 0 with probability `edge / 10 + (power of seat 0's card - power of seat 1's) / 20`. With the
    shipped deck the ACE (power 10) decides the game for whoever is dealt it. Option `cards`: a card file
    (read by the strict loader, like a game's)."""

    game_id = "card-coin"

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        path = self.options.get("cards")
        if path is None:
            raise SetupError("card-coin needs a cards option (tests write CARD_COIN_CARDS to a file)")
        self.powers = load_card_file(path, _coin_cards)
        self.card_ids = sorted(self.powers)

    @property
    def num_distinct_actions(self) -> int:
        return len(self.card_ids)

    @property
    def max_chance_outcomes(self) -> int:
        return len(self.card_ids)

    @property
    def max_game_length(self) -> int:
        return 5

    def new_initial_state(self) -> CardCoinState:
        return CardCoinState(self)


class CardCoinState(CoinState):
    game: CardCoinGame

    def __init__(self, game: CardCoinGame) -> None:
        super().__init__(game)
        self.dealt: list[int] = []
        self.played = 0

    def current_player(self) -> int:
        if self.winner >= 0:
            return TERMINAL
        if len(self.dealt) < 2 or self.played == 2:
            return CHANCE
        return self.played

    def _legal_actions(self) -> list[int]:
        return [self.dealt[self.played]]

    def _chance(self) -> Chance:
        if len(self.dealt) < 2:
            return Uniform([card for card in range(len(self.game.card_ids)) if card not in self.dealt])
        powers = [self.game.powers[self.game.card_ids[card]] for card in self.dealt]
        p = min(1.0, max(0.0, self.game.edge / 10 + (powers[0] - powers[1]) / 20))
        return Weighted([(seat, q) for seat, q in ((0, p), (1, 1 - p)) if q > 0])

    def _apply(self, action: int) -> None:
        if len(self.dealt) < 2:
            self.dealt.append(action)
        elif self.played < 2:
            self.played += 1
        else:
            self.winner = action

    def _copy(self) -> CardCoinState:
        other = CardCoinState(self.game)
        other.winner, other.dealt, other.played = self.winner, list(self.dealt), self.played
        return other

    def _observe(self, seat: int) -> JSON:
        return {"winner": self.winner, "played": self.played}

    def action_to_string(self, action: int) -> str:
        if self.current_player() >= 0:
            return f"play {self.game.card_ids[action]}"
        if len(self.dealt) < 2:
            return f"deal {self.game.card_ids[action]} to seat {len(self.dealt)}"
        return f"seat {action} wins"

    def zones(self) -> dict[str, list[str]]:
        return {f"hand:{seat}": [self.game.card_ids[card]] for seat, card in enumerate(self.dealt)}
