"""Naval War state: plain lists of ints, copied by slicing.

Where each card is: `card_position[card]` for the 108 play cards, `ship_position[ship]` for the 54 ships (codes in
`codes.py`). `hands`, `fleets`, `harbor` and `deck_count` mirror those for speed. The draw pile is unordered: a
draw is a chance node over the kinds left in it. `foes` and `fleet_targets` cache who may be attacked (their
inner lists are replaced, never mutated, so copies share them safely); `targets_cache` caches each seat's
targets and starts empty in a copy; `under` mirrors the salvos under each ship (inner tuples, replaced).

The rules, views and notation sit above this module (HOUSE.md); the state reaches them through its game
(`NavalWarGame.rules`, `.views`, `.notation`, typed by the module protocols below), so the hooks are thin:
the rule hooks index the rules' per-phase tables (`LEGAL_ACTIONS`, `CHANCE_OUTCOMES`, `TRANSITIONS`), the
others call one function of views or notation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from typing import TYPE_CHECKING, Protocol

from warcards.engine.api import (
    CHANCE,
    COUNTED_MARGIN,
    COUNTED_MAX,
    JSON,
    TERMINAL,
    GameResult,
    LogLine,
    Rng,
    SeenAction,
    State,
    not_a_chance_node,
    pick_counted,
    pick_uniform,
    pick_weighted,
)
from warcards.engine.snapshot import SnapshotFields
from warcards.games.naval_war.codes import (
    DECK,
    DRAW_PHASES,
    HARBOR,
    NONE,
    PH_DEAL_SHIP,
    PH_END,
    PH_ROLL,
    PH_SHIP,
)

if TYPE_CHECKING:
    from warcards.engine.actions import ActionLayout
    from warcards.games.naval_war.cards import Tables
    from warcards.games.naval_war.game import NavalWarGame
    from warcards.games.naval_war.params import Params

_MUTABLE = (
    "card_position", "ship_position", "deck_count", "draw_kinds", "harbor", "damage", "mine_hits", "mine_last", "smoke",
    "dd_card", "dd_hits", "alive", "scores", "kamikaze_wait", "strikes", "fleet_targets",
)
"""The lists the rules change in place: a copy slices each of them (the others are only ever replaced)."""


def draw_kinds(deck_count: Sequence[int]) -> tuple[int, ...]:
    """The draw pile's kinds, one entry per card, sorted, from the copies of each kind (`draw_kinds`)."""
    return tuple(k for k, copies in enumerate(deck_count) for _ in range(copies))


class RulesModule(Protocol):
    """What the state reads in `rules` (the module is the implementation): each phase's legal actions, chance
    outcomes and transition, indexed by phase number, the round end and the refusals."""

    LEGAL_ACTIONS: tuple[Callable[[NavalWarState], list[int]], ...]
    CHANCE_OUTCOMES: tuple[Callable[[NavalWarState], list[tuple[int, float]]], ...]
    TRANSITIONS: tuple[Callable[[NavalWarState, int], None], ...]

    def end_round(self, state: NavalWarState) -> None: ...
    def illegal_reason(self, state: NavalWarState, action: int) -> str: ...


class ViewsModule(Protocol):
    """What the state calls in `views` (the module is the implementation)."""

    def observe(self, state: NavalWarState, seat: int | None, fields: frozenset[str] | None = None) -> JSON: ...
    def determinize(self, state: NavalWarState, seat: int, rng: Rng) -> NavalWarState: ...
    def hidden_action_text(self, state: NavalWarState, action: int, seat: int | None) -> str | None: ...
    def nothing_to(self, state: NavalWarState, action: int, seat: int | None) -> bool: ...
    def zones(self, state: NavalWarState) -> dict[str, list[str]]: ...
    def snapshot_problem(self, state: NavalWarState) -> str | None: ...
    def position(self, state: NavalWarState, fields: frozenset[str] | None = None) -> JSON: ...


class LogModule(Protocol):
    """What the state calls in `log` (the module is the implementation): the game in player's words."""

    def log_lines(
        self, before: NavalWarState, action: int, after: NavalWarState, seat: int | None, seen: SeenAction
    ) -> list[LogLine]: ...
    def action_label(self, state: NavalWarState, action: int) -> str: ...
    def game_result(self, state: NavalWarState) -> GameResult: ...


class NotationModule(Protocol):
    """What the state calls in `notation` (the module is the implementation)."""

    def action_to_string(self, state: NavalWarState, action: int) -> str: ...
    def parse_action(self, state: NavalWarState, text: str) -> int: ...


class NavalWarState(State):
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
        draw_kinds: the kind of each card left in the draw pile, sorted (`deck_count` written out, one entry
            per card): a draw reads its kind off it by position (`engine.api.pick_counted`).
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
        under: the salvos under each ship, by ship, in the order fired (`card_position` read the other way;
            None until needed, then kept by the rules: `rules.targets.salvos_under`).
    """

    snapshot_fields = SnapshotFields(
        fixed=("layout", "num_players", "params", "table", "team"),
        caches=("fleet_targets", "foes", "targets_cache", "under"),
    )
    """The tables, options and fleets are the game's; who may be attacked and the salvos under each ship are
    recomputed (`snapshot()`)."""

    game: NavalWarGame

    def __init__(self, game: NavalWarGame) -> None:
        super().__init__(game)
        table = game.table
        n = game.params.players
        self.table: Tables = table
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
        self.draw_kinds: list[int] = []
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
        self.phase = PH_DEAL_SHIP
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
        self.under: list[tuple[int, ...]] | None = None

    # ----- the engine's hooks -----------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_act

    def is_terminal(self) -> bool:
        """As the base class (`current_player() == TERMINAL`), in one comparison: the driver loop asks it at
        every step."""
        return self.to_act == TERMINAL

    def _outcome_numbers(self, outcomes: list[tuple[int, float]]) -> list[int] | None:
        """Nothing to cache: `_legal_now` reads a chance node's outcomes off the state more cheaply."""
        return None

    def _legal_now(self) -> list[int]:
        """The legal list `apply_action` tests against: at a die roll or a ship dealt read off the state, uncopied
        (the die's faces, the harbor pile kept in id order); elsewhere the phase's list (`rules.LEGAL_LISTS`)."""
        phase = self.phase
        if self.to_act == CHANCE:
            if phase == PH_ROLL:
                return self.game.die_numbers
            if phase in (PH_DEAL_SHIP, PH_SHIP):
                return self.harbor
        return self.game.legal_lists_of[phase](self)

    def _apply_chance(self, u: float) -> int:
        """The engine's `_apply(_sample_outcome(u))` in one go: a play card's kind read off the draw pile's kinds
        by position (as `_sample_outcome` does) and the rules' `draw_card` told that position; a die face or a
        ship picked as `_sample_outcome` picks it and its phase's transition called directly; a `u` on the edge
        of two positions of the pile by those two hooks' way. Away from a chance node it refuses (`ValueError`)."""
        if self.to_act != CHANCE:
            raise not_a_chance_node()
        game = self.game
        phase = self.phase
        if phase not in DRAW_PHASES:
            outcome = pick_uniform(game.die_numbers if phase == PH_ROLL else self.harbor, u)
            game.transitions[phase](self, outcome)
        else:
            kinds = self.draw_kinds
            n = len(kinds)
            x = u * n
            j = int(x) if 0.0 <= u < 1.0 and n <= COUNTED_MAX else -1
            if j >= 0 and COUNTED_MARGIN < x - j < 1.0 - COUNTED_MARGIN:
                k = kinds[j]
                game.draw_card(self, k, j)
                outcome = game.first_draw_outcome + k
            else:
                outcome = self._sample_outcome(u)
                game.transitions[phase](self, outcome)
        if self.round_over and self.phase != PH_END:
            game.rules.end_round(self)
        return outcome

    def _sample_outcome(self, u: float) -> int:
        """The engine's `sample_outcome` without the (outcome, probability) pairs: a play card's kind read off
        the draw pile's kinds by position (`pick_counted`; `_apply_chance` reads it inline at every draw), or,
        for a `u` on the edge of two positions, by `pick_weighted` over the chances `_chance_outcomes` lists (the same floats
        in the same order); a ship or a die face by `pick_uniform`: the same outcome for every `u`."""
        phase = self.phase
        if phase in DRAW_PHASES:
            game = self.game
            kind = pick_counted(self.draw_kinds, u)
            if kind is not None:
                return game.first_draw_outcome + kind
            counts = self.deck_count
            chances = game.draw_chances[self.deck_size].__getitem__
            return pick_weighted(list(compress(game.draw_outcomes, counts)), map(chances, filter(None, counts)), u)
        if phase == PH_ROLL:
            return pick_uniform(self.game.die_numbers, u)
        return pick_uniform(self.harbor, u)

    def _legal_actions(self) -> list[int]:
        return self.game.legal_actions_of[self.phase](self)

    def _legal_list(self) -> list[int]:
        """The engine's list for `legal_actions`, by phase alone (`rules.LEGAL_LISTS`): no `current_player()`."""
        return self.game.legal_lists_of[self.phase](self)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return self.game.rules.CHANCE_OUTCOMES[self.phase](self)

    def _apply(self, action: int) -> None:
        """The phase's transition (the rules' `TRANSITIONS`, held by the game), then the round end if someone's
        elimination left one side afloat."""
        self.game.transitions[self.phase](self, action)
        if self.round_over and self.phase != PH_END:
            self.game.rules.end_round(self)

    def _illegal_reason(self, action: int) -> str:
        return self.game.rules.illegal_reason(self, action)

    def returns(self) -> list[float]:
        return list(self.final_returns) if self.to_act == TERMINAL else [0.0] * self.num_players

    def _copy(self) -> NavalWarState:
        d = self.__dict__.copy()
        for name in _MUTABLE:
            d[name] = d[name][:]
        d["hands"] = [h[:] for h in self.hands]
        d["fleets"] = [f[:] for f in self.fleets]
        d["known"] = [k[:] for k in self.known]
        if self.under is not None:
            d["under"] = self.under[:]
        d["targets_cache"] = None
        d["_history"] = []
        d["_legal_cache"] = None
        other: NavalWarState = object.__new__(NavalWarState)
        other.__dict__ = d
        return other

    def _observe(self, seat: int) -> JSON:
        return self.game.views.observe(self, seat)

    def _observe_fields(self, seat: int, fields: frozenset[str]) -> JSON:
        return self.game.views.observe(self, seat, fields)

    def _determinize(self, seat: int, rng: Rng) -> NavalWarState:
        return self.game.views.determinize(self, seat, rng)

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        return self.game.views.hidden_action_text(self, action, seat)

    def _nothing_to(self, action: int, seat: int | None) -> bool:
        return self.game.views.nothing_to(self, action, seat)

    def action_to_string(self, action: int) -> str:
        return self.game.notation.action_to_string(self, action)

    def _parse_action(self, text: str) -> int:
        return self.game.notation.parse_action(self, text)

    def zones(self) -> dict[str, list[str]]:
        return self.game.views.zones(self)

    def _snapshot_problem(self) -> str | None:
        return self.game.views.snapshot_problem(self)

    def position(self) -> JSON:
        return self.game.views.position(self)

    def _observe_public(self) -> JSON:
        return self.game.views.observe(self, None)

    def _log_lines(self, action: int, after: State, seat: int | None, seen: SeenAction) -> list[LogLine]:
        assert isinstance(after, NavalWarState)
        return self.game.log.log_lines(self, action, after, seat, seen)

    def _action_label(self, action: int) -> str:
        return self.game.log.action_label(self, action)

    def _result(self) -> GameResult:
        return self.game.log.game_result(self)
