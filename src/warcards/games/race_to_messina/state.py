"""Race to Messina game and state: plain data (lists of ints, bitmasks) and a cheap copy.

The rules live in `rules.py`, the views in `views.py`, the notation in `notation.py`; the methods here
delegate to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from warcards.engine.api import CHANCE, JSON, TERMINAL, Game, Rng, State
from warcards.engine.errors import InvalidActionError, OptionError
from warcards.engine.text import quote
from warcards.games.race_to_messina import notation, rules, views
from warcards.games.race_to_messina import setup as scenario_setup
from warcards.games.race_to_messina.cards import ALLY, CardTable, card_table
from warcards.games.race_to_messina.notation import Encoding, encoding
from warcards.games.race_to_messina.params import TURN_ACTION_BOUND, VARIANT_TABLE, Variant
from warcards.games.race_to_messina.rules import ACTION, DEPLOYMENT, LOGISTICS, OVER, STRATEGY


class RaceToMessinaGame(Game):
    """Race to Messina (Sicily 1943) with a resolved variant."""

    game_id = "race-to-messina"
    title = "Race to Messina (Sicily 1943)"

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.variant: Variant = VARIANT_TABLE[self.options["variant"]]
        players = self.options.get("players")
        if players is not None and players != self.variant.num_players:
            raise OptionError(
                f"race-to-messina: option players={players!r} does not fit variant "
                f"{self.variant.name!r}, which has {self.variant.num_players} players; allowed values: "
                f"None or {self.variant.num_players}"
            )
        self.cards: CardTable = card_table()
        self.enc: Encoding = encoding()
        race = self.variant.name == "race"
        self.card_family: tuple[int, ...] = tuple(
            0 if race or faction == ALLY else 1 for faction in self.cards.faction
        )

    @property
    def num_players(self) -> int:
        return self.variant.num_players

    @property
    def num_distinct_actions(self) -> int:
        return self.enc.size

    @property
    def max_chance_outcomes(self) -> int:
        return self.cards.size

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
        for card in range(self.cards.size):
            state.decks[self.card_family[card]].append(card)
        rules.start_turn(state)
        state.refresh_player()
        return state

    def state_from_setup(self, setup: Mapping[str, Any]) -> RaceToMessinaState:
        """A position from a scenario setup (docs/notation/race-to-messina.md); `SetupError` if impossible."""
        state = RaceToMessinaState(self)
        scenario_setup.apply_setup(state, setup)
        state.refresh_player()
        return state


class RaceToMessinaState(State):
    """One position. Card numbers index `game.cards`; each zone is a list (tables, hands and decks sorted)."""

    game: RaceToMessinaGame

    def __init__(self, game: RaceToMessinaGame) -> None:
        super().__init__(game)
        v = game.variant
        self.v = v
        self.t = game.cards
        self.enc = game.enc
        self.family = game.card_family
        players = v.num_players
        groups = len(v.group_owner)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.decks: list[list[int]] = [[] for _ in v.family_zone]
        self.discards: list[list[int]] = [[] for _ in v.family_zone]
        self.tables: list[list[int]] = [[] for _ in range(groups)]
        self.pending: list[list[int]] = [[] for _ in range(groups)]
        self.pt: list[int] = [0] * players
        self.known: list[int] = [0] * players
        """Per seat: bitmask of cards it saw (Recon) in other hands and has not seen leave them."""
        self.activated = 0
        self.phase = LOGISTICS
        self.turn = 1
        self.step = 0
        """Index into `v.order`: whose part of Logistics, Strategy, Deployment or Recovery it is."""
        self.to_draw = 0
        self.discarded = 0
        self.slot = 0
        self.passed = 0
        self.supply_group = -1
        self.supply_draw = False
        self.supply_card = -1
        self.winner = -1
        """-1 while playing; a seat number; or -2 for a drawn Race."""
        self.log: list[tuple[int, ...]] = []
        self._chance_cache: list[tuple[int, float]] | None = None
        self._player = CHANCE

    # ----- data -------------------------------------------------------------------------------------------
    def _copy(self) -> RaceToMessinaState:
        other = RaceToMessinaState.__new__(RaceToMessinaState)
        other.game = self.game
        other._history = []
        other._legal_cache = None
        other.v = self.v
        other.t = self.t
        other.enc = self.enc
        other.family = self.family
        other.hands = [h[:] for h in self.hands]
        other.decks = [d[:] for d in self.decks]
        other.discards = [d[:] for d in self.discards]
        other.tables = [g[:] for g in self.tables]
        other.pending = [g[:] for g in self.pending]
        other.pt = self.pt[:]
        other.known = self.known[:]
        other.activated = self.activated
        other.phase = self.phase
        other.turn = self.turn
        other.step = self.step
        other.to_draw = self.to_draw
        other.discarded = self.discarded
        other.slot = self.slot
        other.passed = self.passed
        other.supply_group = self.supply_group
        other.supply_draw = self.supply_draw
        other.supply_card = self.supply_card
        other.winner = self.winner
        other.log = self.log[:]
        other._chance_cache = self._chance_cache
        other._player = self._player
        return other

    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return self._player == TERMINAL

    def is_chance_node(self) -> bool:
        return self._player == CHANCE

    def refresh_player(self) -> None:
        """Recompute whose turn it is after the data changed (every `_apply`, setup, the first deal)."""
        self._player = self._compute_player()

    def _compute_player(self) -> int:
        phase = self.phase
        if phase == ACTION:
            if self.supply_draw:
                return CHANCE
            if self.supply_card >= 0:
                return self.v.group_owner[self.supply_group]
            return self.v.group_owner[self.v.slots[self.slot]]
        if phase == LOGISTICS:
            return CHANCE
        if phase == STRATEGY and self.to_draw:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self.v.order[self.step]

    def drawing_seat(self) -> int:
        """The seat whose draw the current chance node is."""
        if self.phase == ACTION:
            return self.v.group_owner[self.supply_group]
        return self.v.order[self.step]

    # ----- contract hooks ----------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """As the contract's, with the chance outcomes read straight from the (sorted) deck."""
        cached = self._legal_cache
        if cached is None:
            player = self.current_player()
            if player == CHANCE:
                cached = self.decks[self.v.seat_family[self.drawing_seat()]][:]
            elif player == TERMINAL:
                cached = []
            else:
                cached = rules.legal_actions(self)
            self._legal_cache = cached
        return list(cached)

    def _legal_now(self) -> list[int]:
        """The legal list `apply_action` tests against; at a chance node the drawing deck, uncopied."""
        if self._player == CHANCE:
            return self.decks[self.v.seat_family[self.drawing_seat()]]
        return self.legal_actions()

    def _legal_actions(self) -> list[int]:
        return rules.legal_actions(self)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card left in the drawing seat's deck, equally likely (decks are unordered)."""
        cached = self._chance_cache
        if cached is None:
            deck = self.decks[self.v.seat_family[self.drawing_seat()]]
            p = 1.0 / len(deck)
            cached = self._chance_cache = [(card, p) for card in deck]
        return cached

    def _apply(self, action: int) -> None:
        self._chance_cache = None
        rules.apply(self, action)
        self._player = self._compute_player()

    def _illegal_reason(self, action: int) -> str:
        return rules.illegal_reason(self, action)

    def returns(self) -> list[float]:
        winner = self.winner
        if self.phase != OVER or winner == -2:
            return [0.0] * self.v.num_players
        return [1.0 if seat == winner else -1.0 for seat in range(self.v.num_players)]

    def _observe(self, seat: int) -> JSON:
        return views.observe(self, seat)

    def _observe_fields(self, seat: int, fields: frozenset[str]) -> JSON:
        return views.observe(self, seat, fields)

    def _determinize(self, seat: int, rng: Rng) -> RaceToMessinaState:
        return views.determinize(self, seat, rng)

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        return views.hidden_action_text(self, action, seat)

    def action_to_string(self, action: int) -> str:
        if self.current_player() == CHANCE and 0 <= action < self.t.size:
            return notation.chance_to_string(action)
        return notation.to_string(action, self.sicily_axis_deploying())

    def sicily_axis_deploying(self) -> bool:
        return self.v.set_cap > 0 and self.phase == DEPLOYMENT and self.current_player() == self.v.axis_seat

    def _parse_action(self, text: str) -> int:
        """A draw (`draw CARD`) at a chance node, a player's action elsewhere; the other is refused.
        Bare numbers are the engine's (`State.parse_action`)."""
        chance = self.current_player() == CHANCE
        words = text.split(None, 1)
        is_draw = bool(words) and words[0].lower() == "draw"
        if chance and not is_draw:
            raise InvalidActionError(f"a card is being drawn (chance node): write 'draw CARD', not {quote(text)}")
        if is_draw and not chance:
            raise InvalidActionError(
                f"{quote(text)} is a chance outcome (a draw is the game's event), but a player is to act now"
            )
        return notation.parse(text, self.sicily_axis_deploying())

    def zones(self) -> dict[str, list[str]]:
        return views.zones(self)

    def position(self) -> JSON:
        return views.position(self)
