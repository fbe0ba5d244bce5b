"""The `Game` of Cards of War: options resolved, the deck loaded, the action spaces fixed."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from warcards.engine.api import Game
from warcards.engine.cards import card_file_option
from warcards.engine.errors import OptionError
from warcards.games.cards_of_war import notation
from warcards.games.cards_of_war.cards import CardTable, load_cards
from warcards.games.cards_of_war.codes import ALL_BATTLES_OPEN, NUM_BATTLES, SEAT_NAMES
from warcards.games.cards_of_war.params import LONG_GAME_ROUND_CAP, ROUND_ACTION_BOUND, Numbers, numbers_of
from warcards.games.cards_of_war.setup import state_from_setup
from warcards.games.cards_of_war.state import CardsOfWarState


class CardsOfWarGame(Game):
    """Cards of War for two players, with the optional rules chosen in `options`."""

    game_id = "cards-of-war"
    title = "Cards of War"

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        if self.options["strategic_exhaustion"]:
            if self.options["length"] != "long":
                raise OptionError(
                    "cards-of-war: option strategic_exhaustion=True needs length='long' "
                    "(Strategic exhaustion: \"If playing the long game\")"
                )
            if self.options["tactical_advantage"]:
                raise OptionError(
                    "cards-of-war: strategic_exhaustion and tactical_advantage exclude each other "
                    "(Strategic exhaustion: \"rather than using the tactical advantage\")"
                )
        self.numbers: Numbers = numbers_of(self.options)
        """The rule text's numbers, with the rule parameters this game changes (`params.parameters`)."""
        self.table: CardTable = load_cards(card_file_option(self.game_id, self.options["cards"]))
        self.decks: int = int(self.options["decks"])
        n = self.table.n
        self.layout = notation.action_layout(n)
        # The deploy actions of each card in hand, per open-battle bitmask (PLAYING A ROUND).
        self.deploy_table: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(
                tuple((c % n) * NUM_BATTLES + b for b in range(NUM_BATTLES) if mask >> b & 1)
                for c in range(n * self.decks)
            )
            for mask in range(ALL_BATTLES_OPEN + 1)
        )
        t = self.table
        # Per kind: theatre, type mask, kill mask, score, RECON, REINFORCE (read on every deployment).
        self.kind_info: tuple[tuple[int, int, int, int, bool, bool], ...] = tuple(
            (t.theatre[k], t.typemask[k], t.killmask[k], t.score[k], t.recon[k], t.reinforce[k]) for k in range(n)
        )
        ids = self.table.ids
        self.card_ids: tuple[str, ...] = (
            ids if self.decks == 1 else tuple(f"{ident}/{d}" for d in range(2) for ident in ids)
        )

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return self.layout.size

    @property
    def max_chance_outcomes(self) -> int:
        return self.table.n * self.decks

    @property
    def max_game_length(self) -> int:
        rounds = {"short": 1, "normal": self.numbers.normal_rounds, "long": LONG_GAME_ROUND_CAP}[self.options["length"]]
        return 2 * self.table.n * self.decks + rounds * ROUND_ACTION_BOUND

    def new_initial_state(self) -> CardsOfWarState:
        return CardsOfWarState(self)

    def state_from_setup(self, setup: Mapping[str, Any]) -> CardsOfWarState:
        return state_from_setup(self, setup)

    def seat_names(self) -> list[str]:
        return list(SEAT_NAMES)

    def rulings_path(self) -> Path | None:
        return Path(__file__).with_name("RULES.md")
