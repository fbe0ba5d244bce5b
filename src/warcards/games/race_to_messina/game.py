"""The Race to Messina game object: options resolved, card table loaded, action layout fixed (the state binds
the rule book itself, `state.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from warcards.engine.actions import ActionLayout
from warcards.engine.api import Game
from warcards.engine.cards import card_file_option
from warcards.engine.errors import OptionError
from warcards.games.race_to_messina import notation, rules
from warcards.games.race_to_messina import setup as scenario_setup
from warcards.games.race_to_messina.cards import ALLY, CardTable, load_cards
from warcards.games.race_to_messina.params import TURN_ACTION_BOUND, Variant, variant_with
from warcards.games.race_to_messina.state import RaceToMessinaState


class RaceToMessinaGame(Game):
    """Race to Messina (Sicily 1943) with a resolved variant."""

    game_id = "race-to-messina"
    title = "Race to Messina (Sicily 1943)"

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.variant: Variant = variant_with(self.options["variant"], self.options.get("params"))
        """The variant's numbers, with the rule parameters this game changes (`params.parameters`)."""
        players = self.options.get("players")
        if players is not None and players != self.variant.num_players:
            raise OptionError(
                f"race-to-messina: option players={players!r} does not fit variant "
                f"{self.variant.name!r}, which has {self.variant.num_players} players; allowed values: "
                f"None or {self.variant.num_players}"
            )
        self.table: CardTable = load_cards(card_file_option(self.game_id, self.options.get("cards")))
        """The cards played: the shipped `cards.toml`, or the file of the `cards` option."""
        self.layout: ActionLayout = notation.action_layout(self.table)
        race = self.variant.name == "race"
        self.card_family: tuple[int, ...] = tuple(
            0 if race or faction == ALLY else 1 for faction in self.table.faction
        )

    @property
    def num_players(self) -> int:
        return self.variant.num_players

    @property
    def num_distinct_actions(self) -> int:
        return self.layout.size

    @property
    def max_chance_outcomes(self) -> int:
        return self.table.size

    @property
    def max_game_length(self) -> int:
        return self.variant.turn_limit * TURN_ACTION_BOUND

    def seat_names(self) -> list[str]:
        return list(self.variant.seats)

    def rulings_path(self) -> Path | None:
        return Path(__file__).with_name("RULES.md")

    def new_initial_state(self) -> RaceToMessinaState:
        """Decks shuffled (unordered), hands empty: the first Logistics draw is a chance node."""
        state = RaceToMessinaState(self)
        for card in range(self.table.size):
            state.decks[self.card_family[card]].append(card)
        rules.start_turn(state)
        state.to_act = rules.player_to_act(state)
        return state

    def state_from_setup(self, setup: Mapping[str, Any]) -> RaceToMessinaState:
        """A position from a scenario setup (docs/notation/race-to-messina.md); `SetupError` if impossible."""
        return scenario_setup.state_from_setup(self, setup)
