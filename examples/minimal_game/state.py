"""The Minimal Game state: plain lists of card numbers and small ints, copied by slicing.

A card is its number in the card table (`cards.py`). The pile is a sorted list: it is unordered, and each
draw from it is a chance node (rule 2: "The pile is shuffled"), so the state never holds a hidden order.

The state comes after the rules in the house order (codes -> notation -> rules -> views, log -> state ->
setup -> game): it binds the functions that answer the engine's hooks in its class body, and those rooms
import the state for its type only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minimal_game import log, notation, rules, views
from minimal_game.codes import NO_CARD, Phase
from warcards.engine.api import CHANCE, JSON, Chance, GameResult, LogLine, Rng, SeenAction, State
from warcards.engine.snapshot import SnapshotFields

if TYPE_CHECKING:
    from minimal_game.cards import CardTable
    from minimal_game.game import MinimalGame


class MinimalState(State["MinimalGame"]):
    """One position of the Minimal Game.

    Attributes:
        table: the card table (shared by every state of the game, never changed).
        num_players: how many seats play (option `players`).
        phase: where the game is (`Phase`).
        to_act: the seat to act, `CHANCE` at a deal or draw, `TERMINAL` at the end.
        leader: the seat that leads (or led) the current trick.
        drawer: the seat the next chance node deals or draws a card to.
        draws_left: how many cards the current deal or refill still gives.
        pile: the card numbers in the face-down pile, sorted.
        hands: each seat's hand, sorted card numbers.
        trick: each seat's card in the current trick, `NO_CARD` or `FACE_DOWN` (codes.py).
        face_down: each seat's cards discarded face down, in the order it discarded them.
        played: the face-up cards of finished tricks, in the order they were played.
        tricks_won: how many tricks each seat has won.
    """

    __slots__ = (
        "drawer", "draws_left", "face_down", "hands", "leader", "num_players", "phase", "pile", "played",
        "table", "to_act", "trick", "tricks_won",
    )

    snapshot_fields = SnapshotFields(fixed=("num_players", "table"))
    """The card table and the seat count are the game's; every other field is the position (`snapshot()`)."""

    def __init__(self, game: MinimalGame, *, blank: bool = False) -> None:
        """A new game's state before the deal; with `blank`, only the contract's fields are set, for `_copy` to
        fill (a compiled state cannot be made by `__new__`)."""
        super().__init__(game)
        if blank:
            return
        players = game.num_players
        self.table: CardTable = game.table
        self.num_players: int = players
        self.phase: Phase = Phase.DEAL
        self.to_act: int = CHANCE
        self.leader: int = 0
        self.drawer: int = 0
        self.draws_left: int = players * game.hand_size
        self.pile: list[int] = list(range(game.table.size))
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.trick: list[int] = [NO_CARD] * players
        self.face_down: list[list[int]] = [[] for _ in range(players)]
        self.played: list[int] = []
        self.tricks_won: list[int] = [0] * players

    def _copy(self) -> MinimalState:
        """A copy sharing only what never changes (the game, the card table); every list sliced."""
        other = MinimalState(self.game, blank=True)
        other.table = self.table
        other.num_players = self.num_players
        other.phase = self.phase
        other.to_act = self.to_act
        other.leader = self.leader
        other.drawer = self.drawer
        other.draws_left = self.draws_left
        other.pile = self.pile[:]
        other.hands = [hand[:] for hand in self.hands]
        other.trick = self.trick[:]
        other.face_down = [cards[:] for cards in self.face_down]
        other.played = self.played[:]
        other.tricks_won = self.tricks_won[:]
        return other

    # ----- the engine's hooks (engine/api.py): the public methods add the checks and the caching ---------
    # The rule book: each hook calls the function of the same name (without the underscore) in the room that
    # answers it; the rooms before this one import the state for its type only.
    def _legal_actions(self) -> list[int]:
        return rules.legal_actions(self)

    def _chance(self) -> Chance:
        return rules.chance(self)

    def _apply(self, action: int) -> None:
        rules.apply(self, action)

    def _illegal_reason(self, action: int) -> str:
        return rules.illegal_reason(self, action)

    def returns(self) -> list[float]:
        return rules.returns(self)

    def action_to_string(self, action: int) -> str:
        return notation.action_to_string(self, action)

    def _parse_action(self, text: str) -> int:
        return notation.parse_action(self, text)

    def zones(self) -> dict[str, list[str]]:
        return views.zones(self)

    def position(self) -> JSON:
        return views.position(self)

    def _observe(self, seat: int) -> JSON:
        return views.observe(self, seat)

    def _observe_public(self) -> JSON:
        return views.observe_public(self)

    def _determinize(self, seat: int, rng: Rng) -> MinimalState:
        return views.determinize(self, seat, rng)

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        return views.hidden_action_text(self, action, seat)

    def _log_lines(self, action: int, after: MinimalState, seat: int | None, seen: SeenAction) -> list[LogLine]:
        return log.log_lines(self, action, after, seat, seen)

    def _action_label(self, action: int) -> str:
        return log.action_label(self, action)

    def _result(self) -> GameResult:
        return log.result(self)

    def current_player(self) -> int:
        return self.to_act
