"""The Naval War game object: options resolved, card tables loaded, action layout fixed."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from warcards.engine.api import Game
from warcards.engine.cards import card_file_option
from warcards.engine.errors import OptionError
from warcards.games.naval_war import rules, views
from warcards.games.naval_war.cards import ADDSHIP, CARD_FILE, DD, RED_CATEGORIES, SWEEP, load_tables
from warcards.games.naval_war.notation import Layout
from warcards.games.naval_war.params import MAX_ROUNDS, MAX_TURNS_PER_ROUND, make_params
from warcards.games.naval_war.state import NavalWarState


class NavalWarGame(Game):
    """Naval War (Avalon Hill 1983) for 2–9 players, with the printed variations as options."""

    game_id = "naval-war"
    title = "Naval War"

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        cards = card_file_option(self.game_id, self.options.get("cards"))
        self.tables = t = load_tables(CARD_FILE if cards is None else cards)
        self.params = make_params(self.options, t.num_ships, sum(t.ship_carrier))
        self.layout = Layout(t)
        p = self.params
        boxed: set[int] = set()
        if not p.additional_ship:
            boxed.update(c for c in range(t.num_cards) if t.kind_cat[t.card_kind[c]] == ADDSHIP)
        if p.gunnery:
            gone = RED_CATEGORIES | {DD, SWEEP}
            boxed.update(c for c in range(t.num_cards) if t.kind_cat[t.card_kind[c]] in gone)
        self.boxed_cards = frozenset(boxed)
        if p.players * p.deal > t.num_cards - len(boxed):
            raise OptionError(
                f"naval-war: {p.players} players are dealt {p.players * p.deal} play cards (extra_cards="
                f"{p.extra_cards}); the play deck holds only {t.num_cards - len(boxed)} with these options"
            )
        self.boxed_ships = frozenset(s for s in range(t.num_ships) if p.gunnery and t.ship_carrier[s])
        self.teams: list[int] = [i % p.num_fleets if p.num_fleets else -1 for i in range(p.players)]
        self.zone_names, self.zone_order = views.zone_tables(t, p.players)
        self.die_outcomes: tuple[tuple[int, float], ...] = tuple(
            (self.layout.C_DIE + i, 1 / 6) for i in range(6)
        )

    @property
    def num_players(self) -> int:
        return self.params.players

    @property
    def num_distinct_actions(self) -> int:
        return self.layout.num_actions

    @property
    def max_chance_outcomes(self) -> int:
        return self.layout.num_outcomes

    @property
    def max_game_length(self) -> int:
        t = self.tables
        per_turn = 8 + 10 + 4
        per_round = 2 * t.num_ships + 4 * t.num_cards + MAX_TURNS_PER_ROUND * per_turn
        return MAX_ROUNDS * per_round

    def new_initial_state(self) -> NavalWarState:
        state = NavalWarState(self)
        rules.start_round(state)
        return state

    def state_from_setup(self, setup: Mapping[str, Any]) -> NavalWarState:
        return views.state_from_setup(self, setup)

    def seat_names(self) -> list[str]:
        if self.params.num_fleets:
            return [f"player {i} (fleet {'ABCD'[self.teams[i]]})" for i in range(self.num_players)]
        return [f"player {i}" for i in range(self.num_players)]

    def rulings_path(self) -> Path | None:
        return Path(__file__).with_name("RULES.md")

