"""Naval War state: plain lists of ints, copied by slicing.

Where each card is: `card_position[card]` for the 108 play cards, `ship_position[ship]` for the 54 ships (codes in
`codes.py`). `hands`, `fleets`, `harbor` and `deck_count` mirror those for speed. The draw pile is unordered: a
draw is a chance node over the kinds left in it. `foes` and `fleet_targets` cache who may be attacked (their
inner lists are replaced, never mutated, so copies share them safely); `targets_cache` caches each seat's
targets and starts empty in a copy; `fleet_guns` and `fleet_carriers` cache each task force's gun bits and
carriers until a ship joins or leaves it (`rules.targets.fleet_changed`; all at once: `forget_fleets`);
`draw_chance` keeps a draw's description, which reads the draw pile's lists as they change, until the lists are
replaced (a new round, a copy, a setup, a sampled world); `under` mirrors the salvos under each ship (inner
tuples, replaced).

The rule book is the rooms before this one (`rules`, `views`, `log`, `notation`): each engine hook is a
method calling the function of its name there. A copy names every field (`_copy`, from a blank state): the
state has `__slots__` and, compiled, no `__dict__`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, JSON, TERMINAL, Chance, GameResult, LogLine, Rng, SeenAction, State
from warcards.engine.snapshot import SnapshotFields
from warcards.games.naval_war import log, notation, rules, views
from warcards.games.naval_war.codes import DECK, HARBOR, NONE, Phase

if TYPE_CHECKING:
    from warcards.engine.actions import ActionLayout
    from warcards.games.naval_war.cards import CardTable
    from warcards.games.naval_war.game import NavalWarGame
    from warcards.games.naval_war.params import Params

class NavalWarState(State["NavalWarGame"]):
    """One Naval War position.

    Attributes:
        table: the card table (shared, read-only).
        params: the resolved options and rule numbers (shared, read-only).
        layout: the player-action layout (`notation.action_layout`, shared).
        num_players: the number of seats.
        team: each seat's fleet number (Fleet play), or -1 for every seat without fleets (shared).
        card_position: where each play card is: DECK, DISCARD, UNSEEN (a hand discarded unseen at
            elimination), BOX (removed by an option), PLAY (a red card being resolved, or a salvo whose target
            is being named), HAND+seat, MINES+seat (a minefield before that task force), SMOKE+seat, DDC+seat
            (a Destroyer Squadron in the centre), ON_DD+seat (a salvo on it), ON_SHIP+ship (a salvo under a
            ship), ON_SALVO+card (Additional Damage on that salvo).
        ship_position: where each ship is: HARBOR, BOX, FLEET+seat, DEEP+seat (the Deep Six pile of the sinker).
        hands: each seat's play cards, in the order received.
        fleets: each seat's task force, ships in the order they joined it.
        known: each seat's hand cards every seat knows (received face up in a fleet exchange).
        deck_count: copies of each kind left in the draw pile.
        draw_pile: the chance outcome that draws each card left in the draw pile (`chance_layout.card` + its
            kind), sorted (`deck_count` written out, one entry per card): a draw's `Counted` description, read
            by position (`rules.chance`, `rules.apply_chance`).
        draw_kinds: the chance outcomes of the kinds left in the draw pile, ascending (a draw's legal list).
        draw_keys: for each of `draw_kinds`, the kind's first card + copies left - 1: where its pair lies in the
            game's pairs table for the pile's size (`NavalWarGame.draw_pairs`, `rules.DrawPile`).
        harbor: the ships in the harbor pile, in id order.
        damage: hits from salvos and Additional Damage on each ship.
        mine_hits: hits of the minefields before each task force.
        mine_last: the seat that laid the last minefield before each task force (NONE when none).
        smoke: each seat's Smoke card in play (NONE when none).
        dd_card: each seat's Destroyer Squadron in the centre (NONE when none).
        dd_hits: salvo hits on each seat's Destroyer Squadron.
        alive: whether each seat still has ships this round.
        scores: each seat's score over the rounds played.
        last_round: each seat's points in the last round scored.
        ended_ships: where each ship was when the last round ended (its Deep Six piles; the log reads the ships
            sunk in a round's last step off it, since the next deal clears the table).
        kamikaze_wait: turns each carrier still rests after a Kamikaze strike.
        strikes: the air strikes named this turn, three ints each: carrier, target ship, 1 if Kamikaze.
        carriers_to_name: the carriers that may strike this turn, in the order they are named.
        final_returns: the returns once the game is over.
        deck_size: play cards left in the draw pile.
        phase: the phase of play (`codes.Phase`).
        to_act: the seat to act, CHANCE or TERMINAL.
        turn_player: the seat whose turn (or opening) it is.
        dealer: the seat that dealt this round.
        round_index: the round being played, from 1.
        turn_count: turns taken this round (bounded by `params.MAX_TURNS_PER_ROUND`).
        deal_left: cards (or ships) still to deal in this pass of the deal.
        in_opening: whether the opening (red cards from the hand) is under way.
        opening_count: seats that have finished their opening.
        mined_in_opening: bitmask of the task forces mined in this opening (one minefield each).
        opening_done: bitmask of the seats that have finished their opening.
        unseen_non_red: cards discarded unseen from hands that had finished the opening (so hold no red card).
        pending: the red card being resolved (NONE when none).
        pending_target: the ship a Submarine or Torpedo Boat attacks (NONE when none).
        roll_kind: what the next die roll resolves (`codes.Roll`; NONE before any).
        carrier_index: the next carrier of `carriers_to_name` to name a target for.
        strike_index: the next named strike to roll.
        dd_target: the task force the Destroyer Squadron attacks (NONE when none).
        dd_left: ships the Destroyer Squadron may still sink.
        swap_card: the salvo just given to a fleet-mate (NONE when none).
        round_over: whether one side alone is left afloat (the round is scored next).
        aiming: the salvo whose target is being named (NONE when none).
        face_down: bitmask of the face-down ships (night actions).
        foes: the cached enemies of each seat (None until needed).
        targets_cache: each seat's cached targets by `2 * seat + through_smoke` (None until needed).
        fleet_targets: each task force's cached attackable targets (None until needed).
        fleet_guns: each task force's gun bits (its ships' `ship_gunbit` OR-ed; -1 until needed: `fleet_guns`).
        fleet_carriers: each task force's carriers, in fleet order (None until needed: `fleet_carriers`).
        draw_chance: the draw's description (`rules.DrawPile`) over `draw_pile`, `draw_kinds` and `draw_keys`
            (None until a draw is described; cleared wherever those lists are replaced).
        under: the salvos under each ship, by ship, in the order fired (`card_position` read the other way;
            None until needed, then kept by the rules: `rules.targets.salvos_under`).
    """

    __slots__ = (
        "aiming",
        "alive",
        "card_position",
        "carrier_index",
        "carriers_to_name",
        "damage",
        "dd_card",
        "dd_hits",
        "dd_left",
        "dd_target",
        "deal_left",
        "dealer",
        "deck_count",
        "deck_size",
        "draw_chance",
        "draw_keys",
        "draw_kinds",
        "draw_pile",
        "ended_ships",
        "face_down",
        "final_returns",
        "fleet_carriers",
        "fleet_guns",
        "fleet_targets",
        "fleets",
        "foes",
        "hands",
        "harbor",
        "in_opening",
        "kamikaze_wait",
        "known",
        "last_round",
        "layout",
        "mine_hits",
        "mine_last",
        "mined_in_opening",
        "num_players",
        "opening_count",
        "opening_done",
        "params",
        "pending",
        "pending_target",
        "phase",
        "roll_kind",
        "round_index",
        "round_over",
        "scores",
        "ship_position",
        "smoke",
        "strike_index",
        "strikes",
        "swap_card",
        "table",
        "targets_cache",
        "team",
        "to_act",
        "turn_count",
        "turn_player",
        "under",
        "unseen_non_red",
    )

    snapshot_fields = SnapshotFields(
        fixed=("layout", "num_players", "params", "table", "team"),
        caches=("draw_chance", "fleet_carriers", "fleet_guns", "fleet_targets", "foes", "targets_cache", "under"),
    )
    """The tables, options and fleets are the game's; who may be attacked, each fleet's guns and carriers, the
    draw's description and the salvos under each ship are recomputed (`snapshot()`)."""

    def __init__(self, game: NavalWarGame, *, blank: bool = False) -> None:
        """A new game's state before the deal; with `blank`, only the contract's fields are set, for `_copy` to
        fill."""
        super().__init__(game)
        if blank:
            return
        table = game.table
        n = game.params.players
        self.table: CardTable = table
        self.params: Params = game.params
        self.layout: ActionLayout = game.layout
        self.num_players = n
        self.team: list[int] = game.teams
        self.card_position: list[int] = [DECK] * table.num_cards
        self.ship_position: list[int] = [HARBOR] * table.num_ships
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.fleets: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.deck_count: list[int] = [0] * table.num_kinds
        self.draw_pile: list[int] = []
        self.draw_kinds: list[int] = []
        self.draw_keys: list[int] = []
        self.harbor: list[int] = []
        self.damage: list[int] = [0] * table.num_ships
        self.mine_hits: list[int] = [0] * n
        self.mine_last: list[int] = [NONE] * n
        self.smoke: list[int] = [NONE] * n
        self.dd_card: list[int] = [NONE] * n
        self.dd_hits: list[int] = [0] * n
        self.alive: list[bool] = [True] * n
        self.scores: list[int] = [0] * n
        self.last_round: list[int] = [0] * n
        self.ended_ships: list[int] = []
        self.kamikaze_wait: list[int] = [0] * table.num_ships
        self.strikes: list[int] = []
        self.carriers_to_name: list[int] = []
        self.final_returns: list[float] = [0.0] * n
        self.deck_size = 0
        self.phase = Phase.DEAL_SHIP
        self.to_act = CHANCE
        self.turn_player = 0
        self.dealer = 0
        self.round_index = 1
        self.turn_count = 0
        self.deal_left = 0
        self.in_opening = False
        self.opening_count = 0
        self.mined_in_opening = 0
        self.opening_done = 0
        self.unseen_non_red = 0
        self.pending = NONE
        self.pending_target = NONE
        self.roll_kind = NONE
        self.carrier_index = 0
        self.strike_index = 0
        self.dd_target = NONE
        self.dd_left = 0
        self.swap_card = NONE
        self.round_over = False
        self.aiming = NONE
        self.face_down = 0
        self.foes: tuple[tuple[int, ...], ...] | None = None
        self.targets_cache: dict[int, list[int]] | None = None
        self.fleet_targets: list[list[int] | None] = [None] * n
        self.fleet_guns: list[int] = [-1] * n
        self.fleet_carriers: list[tuple[int, ...] | None] = [None] * n
        self.under: list[tuple[int, ...]] | None = None
        self.draw_chance: rules.DrawPile | None = None

    # ----- the engine's hooks ---------------------------------------------------------------------------
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

    def _determinize(self, seat: int, rng: Rng) -> NavalWarState:
        return views.determinize(self, seat, rng)

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        return views.hidden_action_text(self, action, seat)

    def _nothing_to(self, action: int, seat: int | None) -> bool:
        return views.nothing_to(self, action, seat)

    def zones(self) -> dict[str, list[str]]:
        return views.zones(self)

    def position(self, fields: frozenset[str] | None = None) -> JSON:
        return views.position(self, fields)

    def _snapshot_problem(self) -> str | None:
        return views.snapshot_problem(self)

    def _log_lines(self, action: int, after: NavalWarState, seat: int | None, seen: SeenAction) -> list[LogLine]:
        return log.log_lines(self, action, after, seat, seen)

    def _action_label(self, action: int) -> str:
        return log.action_label(self, action)

    def _result(self) -> GameResult:
        return log.result(self)

    def current_player(self) -> int:
        return self.to_act

    def is_terminal(self) -> bool:
        """As the base class (`current_player() == TERMINAL`), in one comparison: the driver loop asks it at
        every step."""
        return self.to_act == TERMINAL

    def returns(self) -> list[float]:
        return list(self.final_returns) if self.to_act == TERMINAL else [0.0] * self.num_players

    def _copy(self) -> NavalWarState:
        """Every field by name, with no `__dict__` (a native class has none; a new field must be added here:
        `test_copy_sets_every_field_and_shares_no_list`): every list sliced (hands, fleets and known per seat;
        the inner lists and tuples of the caches are replaced, never mutated, so they are shared), the game's
        tables shared, `targets_cache` and `draw_chance` reset."""
        other = NavalWarState(self.game, blank=True)
        other.table = self.table
        other.params = self.params
        other.layout = self.layout
        other.num_players = self.num_players
        other.team = self.team
        other.card_position = self.card_position[:]
        other.ship_position = self.ship_position[:]
        other.hands = [x[:] for x in self.hands]
        other.fleets = [x[:] for x in self.fleets]
        other.known = [x[:] for x in self.known]
        other.deck_count = self.deck_count[:]
        other.draw_pile = self.draw_pile[:]
        other.draw_kinds = self.draw_kinds[:]
        other.draw_keys = self.draw_keys[:]
        other.harbor = self.harbor[:]
        other.damage = self.damage[:]
        other.mine_hits = self.mine_hits[:]
        other.mine_last = self.mine_last[:]
        other.smoke = self.smoke[:]
        other.dd_card = self.dd_card[:]
        other.dd_hits = self.dd_hits[:]
        other.alive = self.alive[:]
        other.scores = self.scores[:]
        other.last_round = self.last_round[:]
        other.ended_ships = self.ended_ships[:]
        other.kamikaze_wait = self.kamikaze_wait[:]
        other.strikes = self.strikes[:]
        other.carriers_to_name = self.carriers_to_name[:]
        other.final_returns = self.final_returns[:]
        other.deck_size = self.deck_size
        other.phase = self.phase
        other.to_act = self.to_act
        other.turn_player = self.turn_player
        other.dealer = self.dealer
        other.round_index = self.round_index
        other.turn_count = self.turn_count
        other.deal_left = self.deal_left
        other.in_opening = self.in_opening
        other.opening_count = self.opening_count
        other.mined_in_opening = self.mined_in_opening
        other.opening_done = self.opening_done
        other.unseen_non_red = self.unseen_non_red
        other.pending = self.pending
        other.pending_target = self.pending_target
        other.roll_kind = self.roll_kind
        other.carrier_index = self.carrier_index
        other.strike_index = self.strike_index
        other.dd_target = self.dd_target
        other.dd_left = self.dd_left
        other.swap_card = self.swap_card
        other.round_over = self.round_over
        other.aiming = self.aiming
        other.face_down = self.face_down
        other.foes = self.foes
        other.targets_cache = None
        other.fleet_targets = self.fleet_targets[:]
        other.fleet_guns = self.fleet_guns[:]
        other.fleet_carriers = self.fleet_carriers[:]
        under = self.under
        other.under = None if under is None else under[:]
        other.draw_chance = None
        return other
