"""Race to Messina state: plain data (lists of ints, bitmasks), a cheap copy, and the rule book's hooks.

The rules live in `rules.py`, the views in `views.py`, the log in `log.py`, the notation in `notation.py`:
they come before this module in the house order, and each engine hook is a method calling the function of
its name there. A copy names every field (`_copy`, from a blank state): the state has `__slots__` and,
compiled, no `__dict__`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.actions import ActionLayout
from warcards.engine.api import (
    CHANCE,
    JSON,
    TERMINAL,
    Chance,
    GameResult,
    LogLine,
    Rng,
    SeenAction,
    State,
    Uniform,
)
from warcards.engine.snapshot import INT, SnapshotFields, list_of, tuple_of
from warcards.games.race_to_messina import log, notation, rules, views
from warcards.games.race_to_messina.cards import CardTable
from warcards.games.race_to_messina.codes import NO_CARD, NO_GROUP, NO_WINNER, Phase
from warcards.games.race_to_messina.params import Variant

if TYPE_CHECKING:
    from warcards.games.race_to_messina.game import RaceToMessinaGame


class RaceToMessinaState(State["RaceToMessinaGame"]):
    """One position. Card numbers index `table`; each zone is a list (tables, hands and decks sorted).

    Attributes:
        variant: The variant's numbers (seats, groups, slots, battles, goals): shared, never changed.
        table: The card table (faction, ability, traits ... per card): shared, never changed.
        layout: The action layout (`notation.action_layout`): shared, never changed.
        card_family: Per card: the deck (family) it belongs to, an index into `variant.family_zone`.
        hands: Per seat: the cards in its hand, sorted.
        decks: Per family: the face-down deck, sorted (decks are unordered; a draw is a chance node).
        discards: Per family: the face-up discard pile, in discard order.
        on_table: Per group: its face-up deployed cards, sorted.
        deploying: Per group: its face-down Deployment choices, revealed together at the end (R31).
        progress_tokens: Per seat: its Progress Tokens (PT).
        recon_known: Per seat: bitmask of cards it saw (Recon) in other hands and has not seen leave them.
        activated: Bitmask of the deployed cards activated this Action phase.
        phase: The phase of the turn (`codes.Phase`).
        turn: The turn number, from 1.
        order_index: Index into `variant.order`: whose part of Logistics, Strategy, Deployment or
            Recovery it is.
        to_draw: Strategy: replacement cards the seat still draws (one chance node each).
        discarded: Strategy: cards the seat has discarded so far (at most `variant.discard_limit`).
        active_slot: Action: index into `variant.slots` of the slot whose owner activates now.
        passed_slots: Action: bitmask of the slots that have passed (a pass is final, R1).
        supply_group: Action: the group whose Supply card is drawing, or `NO_GROUP`.
        supply_draw: Action: a Supply draw is the next chance node.
        supply_card: Action: the card drawn by Supply awaiting 'keep' or 'reveal', or `NO_CARD`.
        winner: `NO_WINNER` while playing; a seat number; or `DRAW` for a drawn Race.
        log: This turn's events, `(kind, ...ints)` tuples (`codes.EV_*`), rendered per viewer by views.py.
        to_act: Whose turn it is: a seat, `CHANCE` or `TERMINAL` (kept up to date by every `_apply`).
        deck_chance: The last chance node's description (`rules.chance`), kept while it holds the very deck
            drawn from now (a copy's deck is another list: it describes its own on its first draw).
        deploy_cache: The Deployment legal list of the seat deploying now, kept up to date by its deployments
            while it has one group without a cap (`rules.deployment_actions`), else None; a copy starts
            without it.
    """

    __slots__ = (
        "activated",
        "active_slot",
        "card_family",
        "deck_chance",
        "decks",
        "deploy_cache",
        "deploying",
        "discarded",
        "discards",
        "hands",
        "layout",
        "log",
        "on_table",
        "order_index",
        "passed_slots",
        "phase",
        "progress_tokens",
        "recon_known",
        "supply_card",
        "supply_draw",
        "supply_group",
        "table",
        "to_act",
        "to_draw",
        "turn",
        "variant",
        "winner",
    )

    snapshot_fields = SnapshotFields(
        fixed=("card_family", "layout", "table", "variant"),
        caches=("deck_chance", "deploy_cache"),
        types={"log": list_of(tuple_of(INT))},
    )
    """The variant and its tables are the game's; the chance description is a cache; the log's events are
    tuples (`snapshot()`)."""

    # The rule book (the rooms before this one): each engine hook calls the function of its name there.
    def _legal_actions(self) -> list[int]:
        return rules.legal_actions(self)

    def _chance(self) -> Chance:
        return rules.chance(self)

    def _apply(self, action: int) -> None:
        rules.apply(self, action)

    def _apply_chance(self, u: float) -> int:
        return rules.apply_chance(self, u)

    def _illegal_reason(self, action: int) -> str:
        return rules.illegal_reason(self, action)

    def returns(self) -> list[float]:
        return rules.returns(self)

    def action_to_string(self, action: int) -> str:
        return notation.action_to_string(self, action)

    def _parse_action(self, text: str) -> int:
        return notation.parse_action(self, text)

    def _observe(self, seat: int) -> JSON:
        return views.observe(self, seat)

    def _observe_fields(self, seat: int, fields: frozenset[str]) -> JSON:
        return views.observe_fields(self, seat, fields)

    def _observe_public(self) -> JSON:
        return views.observe_public(self)

    def _determinize(self, seat: int, rng: Rng) -> RaceToMessinaState:
        return views.determinize(self, seat, rng)

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        return views.hidden_action_text(self, action, seat)

    def _nothing_to(self, action: int, seat: int | None) -> bool | None:
        return views.nothing_to(self, action, seat)

    def _snapshot_problem(self) -> str | None:
        return views.snapshot_problem(self)

    def zones(self) -> dict[str, list[str]]:
        return views.zones(self)

    def position(self) -> JSON:
        return views.position(self)

    def _log_lines(self, action: int, after: RaceToMessinaState, seat: int | None, seen: SeenAction) -> list[LogLine]:
        return log.log_lines(self, action, after, seat, seen)

    def _action_label(self, action: int) -> str:
        return log.action_label(self, action)

    def _result(self) -> GameResult:
        return log.result(self)

    def __init__(self, game: RaceToMessinaGame, *, blank: bool = False) -> None:
        """A new game's state before the first draw; with `blank`, only the contract's fields are set, for
        `_copy` to fill."""
        super().__init__(game)
        if blank:
            return
        variant = game.variant
        self.variant: Variant = variant
        self.table: CardTable = game.table
        self.layout: ActionLayout = game.layout
        self.card_family: tuple[int, ...] = game.card_family
        players = variant.num_players
        groups = len(variant.group_owner)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.decks: list[list[int]] = [[] for _ in variant.family_zone]
        self.deck_chance = Uniform(self.decks[0])
        self.deploy_cache: list[int] | None = None
        self.discards: list[list[int]] = [[] for _ in variant.family_zone]
        self.on_table: list[list[int]] = [[] for _ in range(groups)]
        self.deploying: list[list[int]] = [[] for _ in range(groups)]
        self.progress_tokens: list[int] = [0] * players
        self.recon_known: list[int] = [0] * players
        self.activated = 0
        self.phase = Phase.LOGISTICS
        self.turn = 1
        self.order_index = 0
        self.to_draw = 0
        self.discarded = 0
        self.active_slot = 0
        self.passed_slots = 0
        self.supply_group = NO_GROUP
        self.supply_draw = False
        self.supply_card = NO_CARD
        self.winner = NO_WINNER
        self.log: list[tuple[int, ...]] = []
        self.to_act = CHANCE

    # ----- data -------------------------------------------------------------------------------------------
    def _copy(self) -> RaceToMessinaState:
        """Every field by name, from a blank state (a native class has no `__new__` without `__init__`; a new
        field must be added here: `test_copy_sets_every_field_and_shares_no_list`): the lists sliced, per row
        when nested; the game's tables and `deck_chance` shared; `deploy_cache` reset."""
        other = RaceToMessinaState(self.game, blank=True)
        other.variant = self.variant
        other.table = self.table
        other.layout = self.layout
        other.card_family = self.card_family
        other.hands = [h[:] for h in self.hands]
        other.decks = [d[:] for d in self.decks]
        other.deck_chance = self.deck_chance
        other.deploy_cache = None
        other.discards = [d[:] for d in self.discards]
        other.on_table = [g[:] for g in self.on_table]
        other.deploying = [g[:] for g in self.deploying]
        other.progress_tokens = self.progress_tokens[:]
        other.recon_known = self.recon_known[:]
        other.activated = self.activated
        other.phase = self.phase
        other.turn = self.turn
        other.order_index = self.order_index
        other.to_draw = self.to_draw
        other.discarded = self.discarded
        other.active_slot = self.active_slot
        other.passed_slots = self.passed_slots
        other.supply_group = self.supply_group
        other.supply_draw = self.supply_draw
        other.supply_card = self.supply_card
        other.winner = self.winner
        other.log = self.log[:]
        other.to_act = self.to_act
        return other

    def current_player(self) -> int:
        return self.to_act

    def is_terminal(self) -> bool:
        """Fast path: `to_act` is always up to date, so the answer needs no `current_player()` call."""
        return self.to_act == TERMINAL

    def is_chance_node(self) -> bool:
        """Fast path, as `is_terminal`."""
        return self.to_act == CHANCE
