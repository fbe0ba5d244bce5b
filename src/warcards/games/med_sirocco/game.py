"""The Med Sirocco game object: options resolved, the deck's tables loaded, the action spaces fixed."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from warcards.engine.api import Game
from warcards.engine.cards import card_file_option
from warcards.games.med_sirocco import rules
from warcards.games.med_sirocco.cards import (
    ALL_TYPES,
    E_NIGHT,
    K_BONUS,
    K_STORM,
    ON_ALLIES,
    ON_AXIS,
    CardTable,
    load_cards,
)
from warcards.games.med_sirocco.notation import N_CARDS, N_PILE, NUM_ACTIONS, NUM_CHANCE
from warcards.games.med_sirocco.params import Numbers, numbers_of
from warcards.games.med_sirocco.rules.legal import PlayKey, PlaySets, card_groups
from warcards.games.med_sirocco.setup import state_from_setup
from warcards.games.med_sirocco.state import MedSiroccoState


class MedSiroccoGame(Game):
    """Med Sirocco with its options resolved (players, deck file, 5.0, 6.1–6.4, series)."""

    game_id = "med-sirocco"
    title = "Med Sirocco"

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.numbers: Numbers = numbers_of(self.options)
        """The rule text's numbers, with the rule parameters this game changes (`params.parameters`)."""
        self.table: CardTable = load_cards(card_file_option(self.game_id, self.options.get("cards")))
        table = self.table
        # The side a card fights for when played (2.3: A53 joins the Axis, X54 the Allies; Storm cards none).
        pside = []
        for c in range(N_CARDS):
            if table.kind[c] == K_BONUS and table.plays_on[c] == ON_ALLIES:
                pside.append(0)
            elif table.kind[c] == K_BONUS and table.plays_on[c] == ON_AXIS:
                pside.append(1)
            else:
                pside.append(table.side[c])
        self.played_side = tuple(pside)
        # Per-card facts read on every legality check: (kind, side when played, years bitmask, frame).
        self.card_facts = tuple((table.kind[c], self.played_side[c], table.years[c], table.frame[c]) for c in range(N_CARDS))
        # 3.2: the cards that may always be played face down, and the Storm cards (but Night action) that are
        # checked first; per key of the tests a face-up play fixes, the cards they let be played (`rules.legal`).
        self.face_down_free = frozenset(c for c in range(N_CARDS) if table.kind[c] != K_STORM or table.effect[c] == E_NIGHT)
        self.face_down_checked = frozenset(c for c in range(N_CARDS) if c not in self.face_down_free)
        self.play_sets: dict[PlayKey, PlaySets] = {}
        self.card_groups = card_groups(self)
        # 3.4: per Engagement type (a mask of AIR | SURFACE | SUB), each card's printed values summed over its kinds.
        self.fixed_in = {
            et: tuple(sum(f[ti] for ti in range(3) if et >> ti & 1) for f in table.fixed) for et in range(ALL_TYPES + 1)
        }
        # 3.1 / 3.4: likewise each card's dice ('?') counted in each Engagement type.
        self.dice_in = {
            et: tuple(sum(f[ti] for ti in range(3) if et >> ti & 1) for f in table.dice) for et in range(ALL_TYPES + 1)
        }
        # 3.3: the Destiny cards, whose victim is a Force-pile card.
        self.destiny_cards = frozenset(c for c in range(N_CARDS) if 0 <= table.victim[c] < N_PILE)
        self._players = int(self.options["players"])

    @property
    def num_players(self) -> int:
        return self._players

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        return NUM_CHANCE

    @property
    def max_game_length(self) -> int:
        per_game = 60_000
        return per_game * (12 if self.options.get("series") else 1)

    def new_initial_state(self) -> MedSiroccoState:
        state = MedSiroccoState(self)
        rules.new_deal(state, 0)
        rules.advance(state)
        return state

    def state_from_setup(self, setup: Mapping[str, Any]) -> MedSiroccoState:
        return state_from_setup(self, setup)

    def rulings_path(self) -> Path | None:
        return Path(__file__).with_name("RULES.md")


__all__ = ["MedSiroccoGame"]

