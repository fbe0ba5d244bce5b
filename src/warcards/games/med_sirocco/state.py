"""The Med Sirocco state: plain lists and ints, a cheap `_copy`, the engine's hooks.

The notation, the rules, the views and the log come before this module in the house order: the state class
binds their functions as its engine hooks, each hook the function of the same name.

Card numbers are indices into the deck tables (0..120 the Force-pile cards A01–A59, X01–X55, S01–S07;
121..164 the Operations O01–O44). Cards in play are "entries" held in parallel lists (`entry_card`,
`entry_player`, ...), so a copy slices lists and never deep-copies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, JSON, TERMINAL, Chance, GameResult, LogLine, Rng, SeenAction, State
from warcards.engine.snapshot import BOOL, INT, SnapshotFields, list_of, tuple_of
from warcards.games.med_sirocco import log, notation, rules, views
from warcards.games.med_sirocco.cards import ALL_TYPES, CardTable
from warcards.games.med_sirocco.codes import FIRST_YEAR, Phase, Stage

if TYPE_CHECKING:
    from warcards.games.med_sirocco.game import MedSiroccoGame


class MedSiroccoState(State["MedSiroccoGame"]):
    """One Med Sirocco position: plain ints, bools and lists (the public fields: docs/notation/med-sirocco.md).

    Seats are 0..num_players-1; cards are deck numbers (module docstring); a side is 0 (Allies), 1 (Axis) or
    -1 (none yet); a seat mask has bit p set for seat p; -1 in an int field means "none". An *entry* is one
    card in play in this Engagement: entry e's facts are `entry_card[e]`, `entry_player[e]` and so on.

    Attributes:
        table: the card table (the deck file's cards, by card number), the game's.
        advanced: option 5.0 (Advanced rules: two Operations to choose from, prize cards shared).
        faster: option 6.3 (all Battle cards are played as Convoys).
        historicity: option 6.4 (a Battle's type is the one printed on its card).
        change_sides: option 6.1 (a player may change sides between a Battle's rounds).
        series: option 1.2 series play (games until someone reaches 75 VP).
        operations_total: Operations per game (22, or the `operations` option).
        num_players: how many seats play.
        hands: each seat's hand.
        won: each seat's won Operation cards.
        captured: each seat's captured cards, face down under its Operations (3.4).
        pile: the Force pile, kept sorted (a pile is unordered; each draw is a chance node).
        discard: the face-up discard pile, in discard order.
        operations_pile: the Operations not yet turned over, sorted.
        operations_out: Operations that left the game face up (no combat, 5.0's unchosen card).
        sunk: cards sunk by an Explosion (S03).
        freighters_full: per seat, full freighters won (1.5: +1 hand size each).
        freighters_half: per seat, half freighters won (1.5: +1 hand size per two).
        known_cards: per seat, a card mask of the cards it knows to be in other hands (S02, 2.41).
        any_known: whether any seat knows a card in another hand (skips `known_cards` upkeep until then).
        draw_queue: the seats still to draw one card each, in order (1.3, 1.5, 3.2).
        series_vp: per seat, VP of the games already played in series play.
        series_ops: per seat, Operations won in the games already played in series play.
        game_number: the game of the series being played, from 0.
        operations_done: Operations engaged so far in this game.
        dealer: the seat that dealt this game (1.3).
        first_player: the 1st player of this Operation (1.4 A).
        phase: who acts and on what (`codes.Phase`).
        to_act: the seat to act when `phase` is a player's decision.
        stage: where the procedure is (`codes.Stage`), run on by `rules.advance`.
        chance_kind: what the chance node draws or rolls (`codes.ChanceKind`), -1 when no chance event is pending.
        operation: the Operation card being engaged, -1 between Operations.
        operation_choice: the Operations drawn for the 1st player to choose from (5.0), or the one drawn.
        year: the Operation's year (2.2).
        year_bit: the year as a bit of the cards' year masks.
        is_battle: whether the Operation is a Battle (else a Convoy; 2.1, 6.3).
        operation_type: the declared (or printed, 6.4) type, a mask of AIR | SURFACE | SUB.
        engagement_type: the type in force now (an Admiral's option A makes it combined, 2.46).
        rounds: rounds this Engagement has (2 in a Battle or at two players, else 1).
        round_index: the round being played, from 0.
        turn_index: how many seats of this round's turn order have had their turn.
        cancelled: seat mask of the players cancelled by a Sirocco (2.44).
        sat_out: seat mask of the players who discarded all in a Battle's 1st round and sit out (3.2).
        victims: seat mask of the players whose card a Destiny card destroyed (3.3).
        raid_players: seat mask of the players who played Raid on La Spezia / Romanian Fuel (2.42, 2.43).
        seat_side: per seat, the side it plays in this Engagement (-1 until it plays a sided card).
        entry_card: per entry, its card.
        entry_player: per entry, the seat that played it.
        entry_round: per entry, the round it was played in.
        entry_host: per entry, the Force entry a Bonus card is played on (2.3), else -1.
        entry_alive: per entry, whether it is still in play.
        entry_face_down: per entry, whether it was played face down (a Battle's 2nd round, 3.2).
        entry_side: per entry, the side it fights for (2.3: a Bonus card may join the other side).
        entry_dice: per entry, three die totals (air, surface, sub) rolled for its dice values (3.1).
        entry_values: per entry, its combat value, set when the Engagement is resolved (3.4).
        under_card: cards under the Operation after a draw (3.4), -1 where a card left.
        under_side: per card under the Operation, the side it fought for.
        under_player: per card under the Operation, the seat that played it.
        restrict_by: the seat whose Raid on La Spezia / Romanian Fuel restricts the others (2.42, 2.43).
        restrict_side: the side whose cards the restricted players may still play.
        restrict_round: the round the restriction was played in.
        restrict_card: the restricting card.
        admiral_by: the seat whose Admiral (option A) made the Engagement combined (2.46).
        admiral_entry: the Admiral entry waiting for its option (A or B).
        bomb_entry: the entry Bomb alley is played on (S06).
        bomb_by: the seat that played Bomb alley.
        shallows_by: the seat that played Shallows (S07).
        shallows_round: the round Shallows acts in.
        sirocco_holder: the seat holding a passed Sirocco face up (2.44).
        sirocco_entry: the Sirocco entry about to be rolled.
        sirocco_roller: the seat that rolls its Sirocco once its play ends.
        held_sirocco_user: the seat that uses or discards its held Sirocco once its play ends.
        intel_queue: Intelligence entries whose players play again at the end of the round (2.45).
        explosion_queue: Explosion entries to roll for at the end of the round (S03).
        explosion_entry: the Explosion entry being rolled for.
        explosion_sum: the Explosion's dice total so far.
        explosion_left: dice still to roll for the Explosion.
        target_effect: the effect choosing a target now (Fog, Bomb alley; `cards.E_*`).
        target_entry: the entry that chooses the target.
        lost_player: the seat playing Lost (S02), else -1.
        lost_cards: the cards Lost's player chose to give, in order.
        lost_seats: the two seats Lost's player exchanges with, in order.
        lost_step: how many of the two exchanges are done.
        roll_queue: dice still to roll at the reveal, each coded entry * 3 + value index (3.1).
        resolved: whether this round's combat was resolved (3.4).
        revealed: whether the face-down cards of a Battle's 2nd round were turned over (3.2).
        winning_side: the side that won the Engagement, -1 before or on a draw.
        winner: the seat that won the Engagement (the highest card, 3.4), -1 before.
        supply_queue: winning Supply cards still to pick up (2.41; coded as in `codes.SUPPLY_IN_PLAY`).
        picked: cards already picked up by Supply cards in this Engagement.
        share_pool: the prize cards the winner still gives out (5.0).
        share_eligible: the seats that receive prize cards (5.0).
        share_count: per seat, prize cards received so far.
        turn_forces: Force cards in the current play.
        turn_force_limit: Force cards the current play may hold (2 with an Admiral's option B).
        turn_intel: whether the current play holds an Intelligence card (2.45).
        turn_raid: whether the current play holds Raid on La Spezia / Romanian Fuel.
        turn_first_entry: the first entry of the current play.
        turn_side: the side the current play is on, -1 until a sided card is played.
        turn_mode: 0 for a normal play, 1 for an Intelligence card's extra play (2.45).
        turn_intel_entry: the Intelligence entry whose extra play this is.
        turn_shallows: whether the current play holds Shallows (it acts when the play ends).
        turn_sirocco: the Sirocco entry of the current play, rolled when the play ends, else -1.
        log: this Operation's public events (code, a, b; `codes.EV_*`).
        previous_log: the previous Operation's public events.
    """

    __slots__ = (
        "admiral_by", "admiral_entry", "advanced", "any_known", "bomb_by", "bomb_entry", "cancelled",
        "captured", "chance_kind", "change_sides", "dealer", "discard", "draw_queue", "engagement_type",
        "entry_alive", "entry_card", "entry_dice", "entry_face_down", "entry_host", "entry_player",
        "entry_round", "entry_side", "entry_values", "explosion_entry", "explosion_left", "explosion_queue",
        "explosion_sum", "faster", "first_player", "freighters_full", "freighters_half", "game_number",
        "hands", "held_sirocco_user", "historicity", "intel_queue", "is_battle", "known_cards", "log",
        "lost_cards", "lost_player", "lost_seats", "lost_step", "num_players", "operation",
        "operation_choice", "operation_type", "operations_done", "operations_out", "operations_pile",
        "operations_total", "phase", "picked", "pile", "previous_log", "raid_players", "resolved",
        "restrict_by", "restrict_card", "restrict_round", "restrict_side", "revealed", "roll_queue",
        "round_index", "rounds", "sat_out", "seat_side", "series", "series_ops", "series_vp", "shallows_by",
        "shallows_round", "share_count", "share_eligible", "share_pool", "sirocco_entry", "sirocco_holder",
        "sirocco_roller", "stage", "sunk", "supply_queue", "table", "target_effect", "target_entry", "to_act",
        "turn_first_entry", "turn_force_limit", "turn_forces", "turn_index", "turn_intel", "turn_intel_entry",
        "turn_mode", "turn_raid", "turn_shallows", "turn_side", "turn_sirocco", "under_card", "under_player",
        "under_side", "victims", "winner", "winning_side", "won", "year", "year_bit",
    )
    """Every field `__init__` sets, sorted: the state keeps no instance `__dict__` once the base `State`
    declares its own slots (a native class compiled by mypyc has none)."""

    snapshot_fields = SnapshotFields(
        fixed=("advanced", "change_sides", "faster", "historicity", "num_players", "operations_total", "series", "table"),
        types={
            "entry_alive": list_of(BOOL),
            "entry_face_down": list_of(BOOL),
            "log": list_of(tuple_of(INT)),
            "previous_log": list_of(tuple_of(INT)),
        },
    )
    """The options and the card table are the game's; the entries' flags are bools and the logs' events tuples (`snapshot()`)."""

    table: CardTable

    def __init__(self, game: MedSiroccoGame, *, blank: bool = False) -> None:
        """A position of `game` before the deal (`game.new_initial_state` deals). With `blank`, only the
        contract's fields are set (game, history, legal-action cache), for `_copy` to fill."""
        super().__init__(game)
        if blank:
            return
        o = game.options
        n = game.num_players
        self.table = game.table
        self.num_players = n
        self.advanced = bool(o["advanced"])
        self.faster = bool(o["faster"])
        self.historicity = bool(o["historicity"])
        self.change_sides = bool(o["change_sides"])
        self.series = bool(o["series"])
        self.operations_total = int(o["operations"])
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.captured: list[list[int]] = [[] for _ in range(n)]
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.operations_pile: list[int] = []
        self.operations_out: list[int] = []
        self.sunk: list[int] = []
        self.freighters_full = [0] * n
        self.freighters_half = [0] * n
        self.known_cards = [0] * n
        self.any_known = False
        self.draw_queue: list[int] = []
        self.series_vp = [0] * n
        self.series_ops = [0] * n
        self.game_number = 0
        self.operations_done = 0
        self.dealer = 0
        self.first_player = 0
        self.phase = Phase.CHANCE
        self.to_act = 0
        self.stage = Stage.START_OPERATION
        self.chance_kind = -1
        self.operation = -1
        self.operation_choice: list[int] = []
        self.year = FIRST_YEAR
        self.year_bit = 1
        self.is_battle = False
        self.operation_type = ALL_TYPES
        self.engagement_type = ALL_TYPES
        self.rounds = 1
        self.round_index = 0
        self.turn_index = 0
        self.cancelled = 0
        self.sat_out = 0
        self.victims = 0
        self.raid_players = 0
        self.seat_side = [-1] * n
        self.entry_card: list[int] = []
        self.entry_player: list[int] = []
        self.entry_round: list[int] = []
        self.entry_host: list[int] = []
        self.entry_alive: list[bool] = []
        self.entry_face_down: list[bool] = []
        self.entry_side: list[int] = []
        self.entry_dice: list[int] = []
        self.entry_values: list[int] = []
        self.under_card: list[int] = []
        self.under_side: list[int] = []
        self.under_player: list[int] = []
        self.restrict_by = -1
        self.restrict_side = -1
        self.restrict_round = 0
        self.restrict_card = -1
        self.admiral_by = -1
        self.admiral_entry = -1
        self.bomb_entry = -1
        self.bomb_by = -1
        self.shallows_by = -1
        self.shallows_round = 0
        self.sirocco_holder = -1
        self.sirocco_entry = -1
        self.sirocco_roller = -1
        self.held_sirocco_user = -1
        self.intel_queue: list[int] = []
        self.explosion_queue: list[int] = []
        self.explosion_entry = -1
        self.explosion_sum = 0
        self.explosion_left = 0
        self.target_effect = 0
        self.target_entry = -1
        self.lost_player = -1
        self.lost_cards: list[int] = []
        self.lost_seats: list[int] = []
        self.lost_step = 0
        self.roll_queue: list[int] = []
        self.resolved = False
        self.revealed = False
        self.winning_side = -1
        self.winner = -1
        self.supply_queue: list[int] = []
        self.picked: list[int] = []
        self.share_pool: list[int] = []
        self.share_eligible: list[int] = []
        self.share_count: list[int] = []
        self.turn_forces = 0
        self.turn_force_limit = 1
        self.turn_intel = False
        self.turn_raid = False
        self.turn_first_entry = 0
        self.turn_side = -1
        self.turn_mode = 0
        self.turn_intel_entry = -1
        self.turn_shallows = False
        self.turn_sirocco = -1
        self.log: list[tuple[int, int, int]] = []
        self.previous_log: list[tuple[int, int, int]] = []

    # ----- contract hooks --------------------------------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph == Phase.CHANCE:
            return CHANCE
        if ph == Phase.END:
            return TERMINAL
        return self.to_act

    def is_terminal(self) -> bool:
        """As the base class (`current_player() == TERMINAL`), in one comparison: the driver loop asks it on
        every step, and the base's extra call costs this game about 5% of its random-playout speed."""
        return self.phase == Phase.END

    # The rule book (the rooms before this one): each engine hook calls the function of its name there.
    def _legal_actions(self) -> list[int]:
        return rules.legal_actions(self)

    def _chance(self) -> Chance:
        return rules.chance(self)

    def _apply_chance(self, u: float) -> int:
        return rules.apply_chance(self, u)

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

    def _observe(self, seat: int) -> JSON:
        return views.observe(self, seat)

    def _observe_fields(self, seat: int, fields: frozenset[str]) -> JSON:
        return views.observe_fields(self, seat, fields)

    def _observe_public(self) -> JSON:
        return views.observe_public(self)

    def _determinize(self, seat: int, rng: Rng) -> MedSiroccoState:
        return views.determinize(self, seat, rng)

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        return views.hidden_action_text(self, action, seat)

    def zones(self) -> dict[str, list[str]]:
        return views.zones(self)

    def position(self) -> JSON:
        return views.position(self)

    def _log_lines(self, action: int, after: MedSiroccoState, seat: int | None, seen: SeenAction) -> list[LogLine]:
        return log.log_lines(self, action, after, seat, seen)

    def _action_label(self, action: int) -> str:
        return log.action_label(self, action)

    def _result(self) -> GameResult:
        return log.result(self)

    def _copy(self) -> MedSiroccoState:
        """An independent copy: every field by name (a native class has no `__dict__` to copy), lists sliced,
        hands and won or captured cards sliced per seat, the card table and the options shared; the history
        and the legal-action cache start empty (`clone` and `determinize` set them)."""
        other = MedSiroccoState(self.game, blank=True)
        other.table = self.table
        other.num_players = self.num_players
        other.advanced = self.advanced
        other.faster = self.faster
        other.historicity = self.historicity
        other.change_sides = self.change_sides
        other.series = self.series
        other.operations_total = self.operations_total
        other.hands = [x[:] for x in self.hands]
        other.won = [x[:] for x in self.won]
        other.captured = [x[:] for x in self.captured]
        other.pile = self.pile[:]
        other.discard = self.discard[:]
        other.operations_pile = self.operations_pile[:]
        other.operations_out = self.operations_out[:]
        other.sunk = self.sunk[:]
        other.freighters_full = self.freighters_full[:]
        other.freighters_half = self.freighters_half[:]
        other.known_cards = self.known_cards[:]
        other.any_known = self.any_known
        other.draw_queue = self.draw_queue[:]
        other.series_vp = self.series_vp[:]
        other.series_ops = self.series_ops[:]
        other.game_number = self.game_number
        other.operations_done = self.operations_done
        other.dealer = self.dealer
        other.first_player = self.first_player
        other.phase = self.phase
        other.to_act = self.to_act
        other.stage = self.stage
        other.chance_kind = self.chance_kind
        other.operation = self.operation
        other.operation_choice = self.operation_choice[:]
        other.year = self.year
        other.year_bit = self.year_bit
        other.is_battle = self.is_battle
        other.operation_type = self.operation_type
        other.engagement_type = self.engagement_type
        other.rounds = self.rounds
        other.round_index = self.round_index
        other.turn_index = self.turn_index
        other.cancelled = self.cancelled
        other.sat_out = self.sat_out
        other.victims = self.victims
        other.raid_players = self.raid_players
        other.seat_side = self.seat_side[:]
        other.entry_card = self.entry_card[:]
        other.entry_player = self.entry_player[:]
        other.entry_round = self.entry_round[:]
        other.entry_host = self.entry_host[:]
        other.entry_alive = self.entry_alive[:]
        other.entry_face_down = self.entry_face_down[:]
        other.entry_side = self.entry_side[:]
        other.entry_dice = self.entry_dice[:]
        other.entry_values = self.entry_values[:]
        other.under_card = self.under_card[:]
        other.under_side = self.under_side[:]
        other.under_player = self.under_player[:]
        other.restrict_by = self.restrict_by
        other.restrict_side = self.restrict_side
        other.restrict_round = self.restrict_round
        other.restrict_card = self.restrict_card
        other.admiral_by = self.admiral_by
        other.admiral_entry = self.admiral_entry
        other.bomb_entry = self.bomb_entry
        other.bomb_by = self.bomb_by
        other.shallows_by = self.shallows_by
        other.shallows_round = self.shallows_round
        other.sirocco_holder = self.sirocco_holder
        other.sirocco_entry = self.sirocco_entry
        other.sirocco_roller = self.sirocco_roller
        other.held_sirocco_user = self.held_sirocco_user
        other.intel_queue = self.intel_queue[:]
        other.explosion_queue = self.explosion_queue[:]
        other.explosion_entry = self.explosion_entry
        other.explosion_sum = self.explosion_sum
        other.explosion_left = self.explosion_left
        other.target_effect = self.target_effect
        other.target_entry = self.target_entry
        other.lost_player = self.lost_player
        other.lost_cards = self.lost_cards[:]
        other.lost_seats = self.lost_seats[:]
        other.lost_step = self.lost_step
        other.roll_queue = self.roll_queue[:]
        other.resolved = self.resolved
        other.revealed = self.revealed
        other.winning_side = self.winning_side
        other.winner = self.winner
        other.supply_queue = self.supply_queue[:]
        other.picked = self.picked[:]
        other.share_pool = self.share_pool[:]
        other.share_eligible = self.share_eligible[:]
        other.share_count = self.share_count[:]
        other.turn_forces = self.turn_forces
        other.turn_force_limit = self.turn_force_limit
        other.turn_intel = self.turn_intel
        other.turn_raid = self.turn_raid
        other.turn_first_entry = self.turn_first_entry
        other.turn_side = self.turn_side
        other.turn_mode = self.turn_mode
        other.turn_intel_entry = self.turn_intel_entry
        other.turn_shallows = self.turn_shallows
        other.turn_sirocco = self.turn_sirocco
        other.log = self.log[:]
        other.previous_log = self.previous_log[:]
        return other

__all__ = ["MedSiroccoState"]
