"""The `Game` of the Minimal Game: options resolved, the deck loaded, the action space fixed."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from minimal_game import notation
from minimal_game.cards import CardTable, load_cards
from minimal_game.setup import state_from_setup
from minimal_game.state import MinimalState
from warcards.engine.actions import ActionLayout
from warcards.engine.api import Game
from warcards.engine.cards import card_file_option
from warcards.engine.errors import OptionError


class MinimalGame(Game):
    """The Minimal Game for 2 to 4 players (README.md)."""

    game_id = "minimal-game"
    title = "Minimal Game"

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.table: CardTable = load_cards(card_file_option(self.game_id, self.options["cards"]))
        self.players: int = int(self.options["players"])
        self.hand_size: int = int(self.options["hand"])
        if self.players * self.hand_size > self.table.size:
            raise OptionError(f"minimal-game: {self.players} hands of {self.hand_size} need "
                              f"{self.players * self.hand_size} cards; the deck holds {self.table.size}")
        self.layout: ActionLayout = notation.build_layout(self.table.size)
        self.card_numbers: dict[str, int] = {ident.lower(): card for card, ident in enumerate(self.table.ids)}

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return self.layout.size

    @property
    def max_chance_outcomes(self) -> int:
        return self.table.size

    @property
    def max_game_length(self) -> int:
        """Every card is drawn once and played once at most."""
        return 2 * self.table.size

    def new_initial_state(self) -> MinimalState:
        return MinimalState(self)

    def state_from_setup(self, setup: Mapping[str, Any]) -> MinimalState:
        return state_from_setup(self, setup)

    def rulings_path(self) -> Path | None:
        return Path(__file__).with_name("RULES.md")
