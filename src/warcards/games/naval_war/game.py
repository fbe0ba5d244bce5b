"""The Naval War game object: options resolved, card table loaded, action layouts fixed."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from warcards.engine.api import Game, Uniform
from warcards.engine.cards import card_error, card_file_option, file_label
from warcards.engine.errors import OptionError
from warcards.games.naval_war import notation, rules, views
from warcards.games.naval_war import setup as scenario_setup
from warcards.games.naval_war.cards import (
    ADDSHIP,
    CARD_FILE,
    DD,
    RED_CATEGORIES,
    REPAIR,
    SMOKE,
    SWEEP,
    load_cards,
)
from warcards.games.naval_war.codes import BOX, DECK, HARBOR, PLAY_REPAIR, PLAY_SWEEP
from warcards.games.naval_war.params import MAX_ROUNDS, MAX_TURNS_PER_ROUND, make_params
from warcards.games.naval_war.state import NavalWarState


class NavalWarGame(Game):
    """Naval War (Avalon Hill 1983) for 2–9 players, with the printed variations as options: the options
    resolved, the card table, the action layouts and the tables precomputed from them (the state binds the
    rules itself)."""

    game_id = "naval-war"
    title = "Naval War"

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        cards = card_file_option(self.game_id, self.options.get("cards"))
        path = CARD_FILE if cards is None else cards
        self.table = table = load_cards(path)
        clash = notation.texts_that_clash(table)
        if clash is not None:
            raise card_error(file_label(path), [f"two actions read {clash!r} in the notation; rename a ship or a code"])
        self.params = p = make_params(self.options, table.num_ships, sum(table.ship_carrier))
        self.layout = layout = notation.action_layout(table)
        """The player actions (`notation.action_layout`)."""
        self.chance_layout = chance = notation.chance_layout(table)
        """The chance outcomes (`notation.chance_layout`)."""
        self.fire_of_kind: tuple[int, ...] = tuple(
            layout.fire + table.salvo_index[k] if table.salvo_index[k] >= 0 else -1 for k in range(table.num_kinds)
        )
        """The `fire` action of each salvo kind (-1 for any other kind)."""
        play_of = {SMOKE: layout.smoke, DD: layout.dd, SWEEP: PLAY_SWEEP, REPAIR: PLAY_REPAIR}
        self.kind_plays: tuple[tuple[int, int, int, int], ...] = tuple(
            (layout.discard + k, self.fire_of_kind[k], table.kind_gunbit[k], play_of.get(table.kind_cat[k], -1))
            for k in range(table.num_kinds)
        )
        """What a card of each kind offers after the draw (`rules.turn.play_actions`): its `discard` action, its
        `fire` action (-1 but for a salvo), its gun bit, and its play: `smoke` or `dd`, `PLAY_SWEEP` or
        `PLAY_REPAIR` (played when the state allows), or -1 (none but the discard and the fire)."""
        self.card_plays: tuple[tuple[int, int, int, int], ...] = tuple(map(self.kind_plays.__getitem__, table.card_kind))
        """`kind_plays` of each play card's kind, by card (read for every card in the hand after the draw)."""
        self.first_draw_outcome = chance.card
        """The chance outcome that draws kind 0 (`chance_layout.card`, read at every draw)."""
        self.kind_first_card: tuple[int, ...] = tuple(cards[0] for cards in table.kind_cards)
        """The lowest-numbered card of each kind (a kind's copies are numbered consecutively, `cards._card_table`)."""
        boxed: set[int] = set()
        if not p.additional_ship:
            boxed.update(c for c in range(table.num_cards) if table.kind_cat[table.card_kind[c]] == ADDSHIP)
        if p.gunnery:
            gone = RED_CATEGORIES | {DD, SWEEP}
            boxed.update(c for c in range(table.num_cards) if table.kind_cat[table.card_kind[c]] in gone)
        self.boxed_cards = frozenset(boxed)
        if p.players * p.deal > table.num_cards - len(boxed):
            raise OptionError(
                f"naval-war: {p.players} players are dealt {p.players * p.deal} play cards (extra_cards="
                f"{p.extra_cards}); the play deck holds only {table.num_cards - len(boxed)} with these options"
            )
        self.round_deck_count: tuple[int, ...] = tuple(
            sum(1 for c in cards if c not in self.boxed_cards) for cards in table.kind_cards
        )
        """The copies of each kind in the draw pile when a round starts (every card not boxed)."""
        self.round_draw_pile: tuple[int, ...] = tuple(rules.draw_pile(table, self.round_deck_count))
        """The draw pile when a round starts, one entry per card, sorted (`NavalWarState.draw_pile`)."""
        kinds, keys = rules.draw_kinds(table, self.round_deck_count)
        self.round_draw_kinds: tuple[int, ...] = tuple(kinds)
        self.round_draw_keys: tuple[int, ...] = tuple(keys)
        """The draw pile's outcomes and pair keys when a round starts (`NavalWarState.draw_kinds`, `draw_keys`)."""
        self.draw_pair_tables: dict[int, list[tuple[int, float]]] = {}
        """Per draw pile size n: the pair `(outcome, (1.0 / n) * copies)` of every kind and count from 1 to its
        copies, at index `kind_first_card[kind] + copies - 1` (one pair per play card: a small table, so the
        gather stays in the cache; `draw_pairs`: made on first use, shared by every state)."""
        self.boxed_ships = frozenset(s for s in range(table.num_ships) if p.gunnery and table.ship_carrier[s])
        self.round_card_position: tuple[int, ...] = tuple(
            BOX if c in self.boxed_cards else DECK for c in range(table.num_cards)
        )
        """Each play card's position when a round starts: in the deck, or in the box (`boxed_cards`)."""
        self.round_ship_position: tuple[int, ...] = tuple(
            BOX if s in self.boxed_ships else HARBOR for s in range(table.num_ships)
        )
        """Each ship's position when a round starts: in the harbor, or in the box (`boxed_ships`)."""
        self.round_harbor: tuple[int, ...] = tuple(s for s in range(table.num_ships) if s not in self.boxed_ships)
        """The harbor pile when a round starts, in id order."""
        self.teams: list[int] = [i % p.num_fleets if p.num_fleets else -1 for i in range(p.players)]
        self.zone_names, self.zone_order = views.zone_tables(table, p.players)
        self.die_numbers: tuple[int, ...] = tuple(range(chance.die, chance.die + 6))
        """The die's outcome numbers."""
        self.die_chance = Uniform(self.die_numbers)
        """A roll's description (`rules.chance`), made once: the die's faces never change."""

    def draw_pairs(self, size: int) -> list[tuple[int, float]]:
        """`draw_pair_tables[size]`, made on first use: a draw's `chance_outcomes()` gathers its pairs from it
        (the floats `Counted.pairs` forms: `1.0 / size` times the copies)."""
        table = self.draw_pair_tables.get(size)
        if table is None:
            share = 1.0 / size
            first, kind_cards = self.first_draw_outcome, self.table.kind_cards
            shares = [share * copies for copies in range(max(map(len, kind_cards)) + 1)]  # one float per count
            table = self.draw_pair_tables[size] = [
                (first + kind, shares[copies]) for kind, cards in enumerate(kind_cards) for copies in range(1, len(cards) + 1)
            ]
        return table

    @property
    def num_players(self) -> int:
        return self.params.players

    @property
    def num_distinct_actions(self) -> int:
        return self.layout.size

    @property
    def max_chance_outcomes(self) -> int:
        return self.chance_layout.size

    @property
    def max_game_length(self) -> int:
        table = self.table
        per_turn = 8 + 10 + 4
        per_round = 2 * table.num_ships + 4 * table.num_cards + MAX_TURNS_PER_ROUND * per_turn
        return MAX_ROUNDS * per_round

    def new_initial_state(self) -> NavalWarState:
        state = NavalWarState(self)
        rules.start_round(state)
        return state

    def state_from_setup(self, setup: Mapping[str, Any]) -> NavalWarState:
        return scenario_setup.state_from_setup(self, setup)

    def seat_names(self) -> list[str]:
        if self.params.num_fleets:
            return [f"player {i} (fleet {'ABCD'[self.teams[i]]})" for i in range(self.num_players)]
        return [f"player {i}" for i in range(self.num_players)]

    def rulings_path(self) -> Path | None:
        return Path(__file__).with_name("RULES.md")
