"""The Cards of War state: plain lists of card numbers and small ints, copied by slicing.

A physical card is `deck * num_kinds + kind` (deck 0 only, unless the 2-deck version gives each seat its
own). Draw piles are sorted lists (unordered multisets; a draw is a chance node); discard piles keep their
order (the top discard matters for Alternative Reinforce); battle piles are bottom-to-top and indexed
`seat * NUM_BATTLES + battle`.

The state binds its rule book in its class body: each engine hook is the function of the same name in `rules`,
`notation`, `views` or `log` (the rooms before this one; they import the state only for type hints).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from warcards.games.cards_of_war import log, notation, rules, views
from warcards.games.cards_of_war.codes import (
    ALL_BATTLES_OPEN,
    NO_BATTLE,
    NO_CARD,
    NO_SEAT,
    NO_THEATRE,
    OPEN,
    Phase,
)
from warcards.games.cards_of_war.params import LENGTHS

if TYPE_CHECKING:
    from warcards.engine.actions import ActionLayout
    from warcards.games.cards_of_war.cards import CardTable
    from warcards.games.cards_of_war.game import CardsOfWarGame


class CardsOfWarState(State["CardsOfWarGame"]):
    """One position of Cards of War.

    Attributes:
        table: the card table (the deck file's cards, by kind).
        num_kinds: how many kinds of card the deck has (the cards of one deck).
        num_decks: 1 (one common deck) or 2 (2 DECK VERSION: one deck each).
        deck_of: the deck each seat draws from and discards to ([0, 0] or [0, 1]).
        deck_offset: per seat, the number of its deck's first physical card (`deck * num_kinds`).
        layout: the player action space (`notation.action_layout`): deploy, joint, top_discard, pass_turn.
        alternative_reinforce: optional rule Alternative Reinforce is in play.
        theatres_of_war: optional rule Theatres of War is in play.
        tactical_advantage: optional rule Tactical advantage is in play.
        strategic_exhaustion: optional rule Strategic exhaustion is in play.
        joint_deployment: optional rule Joint deployment is in play.
        length: the game length, a `Length`.
        hands: per seat, its hand (sorted physical cards).
        draw_piles: per deck, its draw pile (sorted: unordered, a draw is a chance node).
        discards: per deck, its discard pile (bottom to top).
        battle_piles: per `seat * NUM_BATTLES + battle`, the seat's cards in that battle (bottom to top).
        battle_totals: per `seat * NUM_BATTLES + battle`, the seat's points there (WINNING A BATTLE).
        battle_winner: per battle, the seat that won it, `OPEN` or `VOID` (R11).
        battle_theatre: per battle, its theatre (Theatres of War) or `NO_THEATRE`.
        open_battles: bitmask of the unresolved battles (bit b: battle b).
        rounds_won: per seat, the rounds it has won.
        round_results: each finished round's winner, or `NO_SEAT` for a drawn round.
        round_number: the round being played, from 1.
        first_player: the seat that deploys first this round.
        mover: the seat whose turn it is (also while it draws).
        phase: where the game stands, a `Phase`.
        to_act: `current_player()`: the seat to act, `CHANCE` or `TERMINAL`.
        drawer: the seat that draws at a chance node.
        deal_queue: the seats still to be dealt to, in order (SETUP; between rounds).
        pending_reinforce: REINFORCE deployments still owed this turn (R7).
        reinforce_card: the card the REINFORCE draw brought, while it may be deployed, else `NO_CARD`.
        joint_first_kind: the kind of a joint deployment's first card, while its partner is owed, else `NO_CARD`.
        joint_first_battle: the battle of that first card, else `NO_BATTLE`.
        hand_limits: per seat, the hand size it refills to this round.
        base_hand_limits: per seat, its hand size without Tactical advantage (Strategic exhaustion lowers it).
        first_draw: per seat, its card drawn to see who goes first, or `NO_CARD` (SETUP, R1).
        first_draw_tied: the tied first-draw cards set aside until the draw is decided (R1).
        recon_answers: every RECON answer: (round, by seat, air, sea, ground, intel counts) (R8).
        recon_floors: per seat, how many cards of each theatre its hand still provably holds (R8).
        kills: per seat, the cards its KILL abilities removed.
        moves: moves (deployments and passes) this round (R22).
        idle_moves: moves in a row without a card scoring (R11).
        winner: the seat that won the game, or `NO_SEAT`.
        pile_chance: the last chance node's description (`rules.chance`), kept while it holds the very pile
            drawn from now (a copy's is another list: it describes its own on its first draw).
        deploy_table: the game's deploy actions per (open-battle mask, card in hand).
        kind_info: per kind, (theatre, type mask, kill mask, score, RECON, REINFORCE).
    """

    __slots__ = (
        "alternative_reinforce",
        "base_hand_limits",
        "battle_piles",
        "battle_theatre",
        "battle_totals",
        "battle_winner",
        "deal_queue",
        "deck_of",
        "deck_offset",
        "deploy_table",
        "discards",
        "draw_piles",
        "drawer",
        "first_draw",
        "first_draw_tied",
        "first_player",
        "hand_limits",
        "hands",
        "idle_moves",
        "joint_deployment",
        "joint_first_battle",
        "joint_first_kind",
        "kills",
        "kind_info",
        "layout",
        "length",
        "mover",
        "moves",
        "num_decks",
        "num_kinds",
        "open_battles",
        "pending_reinforce",
        "phase",
        "pile_chance",
        "recon_answers",
        "recon_floors",
        "reinforce_card",
        "round_number",
        "round_results",
        "rounds_won",
        "strategic_exhaustion",
        "table",
        "tactical_advantage",
        "theatres_of_war",
        "to_act",
        "winner",
    )

    snapshot_fields = SnapshotFields(
        fixed=(
            "alternative_reinforce", "deck_of", "deck_offset", "deploy_table", "joint_deployment", "kind_info",
            "layout", "length", "num_decks", "num_kinds", "strategic_exhaustion", "table",
            "tactical_advantage", "theatres_of_war",
        ),
        caches=("pile_chance",),
        types={"recon_answers": list_of(tuple_of(INT))},
    )
    """The deck, its tables and the options are the game's; the chance description is a cache; the RECON
    answers are tuples (`snapshot()`)."""

    table: CardTable
    layout: ActionLayout

    def __init__(self, game: CardsOfWarGame, *, blank: bool = False) -> None:
        """A position of `game` before the first draw (SETUP). With `blank`, only the contract's fields are set
        (game, history, legal-action cache), for `_copy` to fill."""
        super().__init__(game)
        if blank:
            return
        table = game.table
        n = table.n
        num_decks = game.decks
        self.table = table
        self.num_kinds = n
        self.num_decks = num_decks
        self.deck_of = [0, 1] if num_decks == 2 else [0, 0]
        self.deck_offset = [0, n] if num_decks == 2 else [0, 0]
        self.layout = game.layout
        options = game.options
        self.alternative_reinforce = bool(options["alternative_reinforce"])
        self.theatres_of_war = bool(options["theatres_of_war"])
        self.tactical_advantage = bool(options["tactical_advantage"])
        self.strategic_exhaustion = bool(options["strategic_exhaustion"])
        self.joint_deployment = bool(options["joint_deployment"])
        self.length = LENGTHS.index(options["length"])
        self.hands: list[list[int]] = [[], []]
        self.draw_piles: list[list[int]] = [list(range(d * n, d * n + n)) for d in range(num_decks)]
        self.pile_chance = Uniform(self.draw_piles[0])
        self.discards: list[list[int]] = [[] for _ in range(num_decks)]
        self.battle_piles: list[list[int]] = [[], [], [], [], [], []]
        self.battle_totals = [0, 0, 0, 0, 0, 0]
        self.battle_winner = [OPEN, OPEN, OPEN]
        self.battle_theatre = [NO_THEATRE, NO_THEATRE, NO_THEATRE]
        self.open_battles = ALL_BATTLES_OPEN
        self.rounds_won = [0, 0]
        self.round_results: list[int] = []
        self.round_number = 1
        self.first_player = 0
        self.mover = 0
        self.phase = Phase.FIRST_DRAW
        self.to_act = CHANCE
        self.drawer = 0
        self.deal_queue: list[int] = []
        self.pending_reinforce = 0
        self.reinforce_card = NO_CARD
        self.joint_first_kind = NO_CARD
        self.joint_first_battle = NO_BATTLE
        self.hand_limits = [game.numbers.hand_size] * 2
        self.base_hand_limits = [game.numbers.hand_size] * 2
        self.first_draw = [NO_CARD, NO_CARD]
        self.first_draw_tied: list[int] = []
        self.recon_answers: list[tuple[int, int, int, int, int, int]] = []
        self.recon_floors = [[0, 0, 0, 0], [0, 0, 0, 0]]
        self.kills = [0, 0]
        self.moves = 0
        self.idle_moves = 0
        self.winner = NO_SEAT
        self.deploy_table = game.deploy_table
        self.kind_info = game.kind_info

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

    def action_to_string(self, action: int) -> str:
        return notation.action_to_string(self, action)

    def _parse_action(self, text: str) -> int:
        return notation.parse_action(self, text)

    def _observe(self, seat: int) -> JSON:
        return views.observe(self, seat)

    def _determinize(self, seat: int, rng: Rng) -> CardsOfWarState:
        return views.determinize(self, seat, rng)

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        return views.hidden_action_text(self, action, seat)

    def _observe_public(self) -> JSON:
        return views.observe_public(self)

    def _snapshot_problem(self) -> str | None:
        return views.snapshot_problem(self)

    def zones(self) -> dict[str, list[str]]:
        return views.zones(self)

    def position(self) -> JSON:
        return views.position(self)

    def _log_lines(self, action: int, after: CardsOfWarState, seat: int | None, seen: SeenAction) -> list[LogLine]:
        return log.log_lines(self, action, after, seat, seen)

    def _action_label(self, action: int) -> str:
        return log.action_label(self, action)

    def _result(self) -> GameResult:
        return log.result(self)

    # ----- hooks of the engine's driver loop ----------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_act

    def is_terminal(self) -> bool:
        """As the contract's, reading the field (the driver loop asks twice per action)."""
        return self.to_act == TERMINAL

    def is_chance_node(self) -> bool:
        """As the contract's, reading the field."""
        return self.to_act == CHANCE

    def returns(self) -> list[float]:
        if self.phase != Phase.OVER or self.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def _copy(self) -> CardsOfWarState:
        """An independent copy: every field by name (a native class cannot be made by `__new__` alone), lists
        sliced, the game's tables, the options and the chance description shared; the history and the
        legal-action cache start empty (`clone` and `determinize` set them)."""
        other = CardsOfWarState(self.game, blank=True)
        other.table = self.table
        other.num_kinds = self.num_kinds
        other.num_decks = self.num_decks
        other.deck_of = self.deck_of
        other.deck_offset = self.deck_offset
        other.layout = self.layout
        other.alternative_reinforce = self.alternative_reinforce
        other.theatres_of_war = self.theatres_of_war
        other.tactical_advantage = self.tactical_advantage
        other.strategic_exhaustion = self.strategic_exhaustion
        other.joint_deployment = self.joint_deployment
        other.length = self.length
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.draw_piles = [p[:] for p in self.draw_piles]
        other.pile_chance = self.pile_chance
        other.discards = [p[:] for p in self.discards]
        other.battle_piles = [p[:] for p in self.battle_piles]
        other.battle_totals = self.battle_totals[:]
        other.battle_winner = self.battle_winner[:]
        other.battle_theatre = self.battle_theatre[:]
        other.open_battles = self.open_battles
        other.rounds_won = self.rounds_won[:]
        other.round_results = self.round_results[:]
        other.round_number = self.round_number
        other.first_player = self.first_player
        other.mover = self.mover
        other.phase = self.phase
        other.to_act = self.to_act
        other.drawer = self.drawer
        other.deal_queue = self.deal_queue[:]
        other.pending_reinforce = self.pending_reinforce
        other.reinforce_card = self.reinforce_card
        other.joint_first_kind = self.joint_first_kind
        other.joint_first_battle = self.joint_first_battle
        other.hand_limits = self.hand_limits[:]
        other.base_hand_limits = self.base_hand_limits[:]
        other.first_draw = self.first_draw[:]
        other.first_draw_tied = self.first_draw_tied[:]
        other.recon_answers = self.recon_answers[:]
        other.recon_floors = [self.recon_floors[0][:], self.recon_floors[1][:]]
        other.kills = self.kills[:]
        other.moves = self.moves
        other.idle_moves = self.idle_moves
        other.winner = self.winner
        other.deploy_table = self.deploy_table
        other.kind_info = self.kind_info
        return other

    def fingerprint(self) -> Any:
        """The contract's fingerprint plus what the position leaves out but play depends on: the REINFORCE
        card, the RECON answers and the theatre floors they prove (R8)."""
        return (
            tuple(self._history),
            repr(sorted(self.zones().items())),
            repr(self.position()),
            self.reinforce_card,
            tuple(self.recon_answers),
            tuple(map(tuple, self.recon_floors)),
        )

    # ----- helpers --------------------------------------------------------------------------------------------
    def card_id(self, card: int) -> str:
        """The stable id of physical card `card` ("G01"; "G01/1" for seat 1's deck in the 2-deck version)."""
        return self.game.card_ids[card]

    def card_label(self, card: int) -> str:
        """The card's id and name ("G01 Pillbox")."""
        return f"{self.card_id(card)} {self.table.names[card % self.num_kinds]}"
