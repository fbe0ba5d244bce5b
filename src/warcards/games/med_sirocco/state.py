"""The Med Sirocco game and state: plain lists and ints, a cheap `_copy`, the contract's methods.

Card numbers are indices into the deck tables (0..120 the Force-pile cards A01–A59, X01–X55, S01–S07;
121..164 the Operations O01–O44). Cards in play are "entries" held in parallel lists (`e_card`,
`e_player`, ...), so a copy slices lists and never deep-copies.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from warcards.engine.api import CHANCE, JSON, TERMINAL, Game, Rng, State
from warcards.engine.cards import card_file_option
from warcards.games.med_sirocco import rules
from warcards.games.med_sirocco.cards import K_BONUS, NEUTRAL, ON_ALLIES, ON_AXIS, Deck, load_deck
from warcards.games.med_sirocco.notation import (
    N_CARDS,
    N_PILE,
    NUM_ACTIONS,
    NUM_CHANCE,
    action_text,
    parse_text,
)
from warcards.games.med_sirocco.rules import PH_CHANCE, PH_END, apply_chance, chance_actions
from warcards.games.med_sirocco.rules import apply_action as rules_apply_action
from warcards.games.med_sirocco.rules import chance_outcomes as rules_chance_outcomes
from warcards.games.med_sirocco.rules import legal_actions as rules_legal_actions


class MedSiroccoGame(Game):
    """Med Sirocco with its options resolved (players, deck file, 5.0, 6.1–6.4, series)."""

    game_id = "med-sirocco"
    title = "Med Sirocco"

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.deck: Deck = load_deck(card_file_option(self.game_id, self.options.get("cards")))
        d = self.deck
        self.ids = d.ids
        self.kind = d.kind
        self.side = d.side
        self.nation = d.nation
        self.frame = d.frame
        self.fixed = d.fixed
        self.dice = d.dice
        self.years = d.years
        self.vp = d.vp
        self.victim = d.victim
        self.solo = d.solo
        self.plays_on = d.plays_on
        self.effect = d.effect
        self.op_battle = d.op_battle
        self.op_year = d.op_year
        self.op_load = d.op_load
        self.op_type = d.op_type
        self.op_air_bonus = d.op_air_bonus
        self.index = d.index
        # The side a card fights for when played (2.3: A53 joins the Axis, X54 the Allies; Storm cards none).
        pside = []
        for c in range(N_CARDS):
            if d.kind[c] == K_BONUS and d.plays_on[c] == ON_ALLIES:
                pside.append(0)
            elif d.kind[c] == K_BONUS and d.plays_on[c] == ON_AXIS:
                pside.append(1)
            else:
                pside.append(d.side[c])
        self.pside = tuple(pside)
        # Per-card facts read on every legality check: (kind, side when played, years bitmask, frame).
        self.info = tuple((d.kind[c], self.pside[c], d.years[c], d.frame[c]) for c in range(N_CARDS))
        self._players = int(self.options["players"])

    def label(self, card: int) -> str:
        return f"{self.ids[card]} {self.deck.names[card]}"

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
        from warcards.games.med_sirocco.views import state_from_setup

        return state_from_setup(self, setup)

    def rulings_path(self) -> Path | None:
        return Path(__file__).with_name("RULES.md")


_LIST_FIELDS = ("pile", "discard", "ops_pile", "ops_out", "sunk", "full", "half", "known", "draw_queue",
                "series_vp", "series_ops", "op_choice", "side", "e_card", "e_player", "e_round", "e_host",
                "e_alive", "e_down", "e_side", "e_roll", "e_val", "u_card", "u_side", "u_player", "intel_queue",
                "expl_queue", "roll_queue", "lost_cards", "lost_seats", "supply_queue", "picked", "share_pool",
                "share_elig", "share_count", "log", "log_prev")
_NESTED_FIELDS = ("hands", "won", "captured")


class MedSiroccoState(State):
    """One Med Sirocco position (fields documented in docs/notation/med-sirocco.md)."""

    def __init__(self, game: MedSiroccoGame) -> None:
        super().__init__(game)
        self.g = game
        o = game.options
        n = game.num_players
        self.n = n
        self.advanced = bool(o["advanced"])
        self.faster = bool(o["faster"])
        self.historicity = bool(o["historicity"])
        self.change_sides = bool(o["change_sides"])
        self.series = bool(o["series"])
        self.ops_total = int(o["operations"])
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.captured: list[list[int]] = [[] for _ in range(n)]
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.ops_pile: list[int] = []
        self.ops_out: list[int] = []
        self.sunk: list[int] = []
        self.full = [0] * n
        self.half = [0] * n
        self.known = [0] * n
        self.any_known = False
        self.draw_queue: list[int] = []
        self.series_vp = [0] * n
        self.series_ops = [0] * n
        self.game_no = 0
        self.ops_done = 0
        self.dealer = 0
        self.first = 0
        self.phase = rules.PH_CHANCE
        self.cur = 0
        self.stage = rules.ST_START_OP
        self.ck = -1
        self.op = -1
        self.op_choice: list[int] = []
        self.year = 1940
        self.year_bit = 1
        self.battle = False
        self.base_type = 7
        self.eng_type = 7
        self.rounds = 1
        self.rnd = 0
        self.turn_idx = 0
        self.cancelled = 0
        self.satout = 0
        self.victims = 0
        self.twin = 0
        self.side = [-1] * n
        self.e_card: list[int] = []
        self.e_player: list[int] = []
        self.e_round: list[int] = []
        self.e_host: list[int] = []
        self.e_alive: list[bool] = []
        self.e_down: list[bool] = []
        self.e_side: list[int] = []
        self.e_roll: list[int] = []
        self.e_val: list[int] = []
        self.u_card: list[int] = []
        self.u_side: list[int] = []
        self.u_player: list[int] = []
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
        self.post_sirocco = -1
        self.post_held = -1
        self.intel_queue: list[int] = []
        self.expl_queue: list[int] = []
        self.expl_entry = -1
        self.expl_sum = 0
        self.expl_left = 0
        self.target_effect = 0
        self.target_entry = -1
        self.lost_player = -1
        self.lost_cards: list[int] = []
        self.lost_seats: list[int] = []
        self.lost_step = 0
        self.roll_queue: list[int] = []
        self.resolved = False
        self.revealed = False
        self.win_side = -1
        self.winner = -1
        self.supply_queue: list[int] = []
        self.picked: list[int] = []
        self.share_pool: list[int] = []
        self.share_elig: list[int] = []
        self.share_count: list[int] = []
        self.t_force = 0
        self.t_fmax = 1
        self.t_intel = False
        self.t_raid = False
        self.t_start = 0
        self.t_side = -1
        self.t_mode = 0
        self.t_intel_entry = -1
        self.t_shallows = False
        self.t_sirocco = -1
        self.log: list[tuple[int, int, int]] = []
        self.log_prev: list[tuple[int, int, int]] = []

    # ----- contract hooks --------------------------------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph == PH_CHANCE:
            return CHANCE
        if ph == PH_END:
            return TERMINAL
        return self.cur

    def legal_actions(self) -> list[int]:
        """As the base class, with a fast path at chance nodes (the pile is kept sorted)."""
        cached = self._legal_cache
        if cached is None:
            phase = self.phase
            if phase == PH_CHANCE:
                cached = chance_actions(self)
            elif phase == PH_END:
                cached = []
            else:
                cached = rules_legal_actions(self)
            self._legal_cache = cached
        return list(cached)

    def _legal_now(self) -> list[int]:
        """The legal list `apply_action` tests against, uncopied (the pile at a chance node)."""
        phase = self.phase
        if phase == PH_CHANCE:
            return chance_actions(self)
        if phase == PH_END:
            return []
        return rules_legal_actions(self)

    def apply_action(self, action: int) -> None:
        """The base class's driver (same checks: only integers, in range, legal; same refusals), with the
        rules called straight: the base's `_apply` hook costs this game one call per action, about 3%."""
        if type(action) is not int:
            action = self._action_number(action)
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_now()
        if action not in legal:
            self._refuse(action)
        if self.phase == PH_CHANCE:
            apply_chance(self, action)
        else:
            rules_apply_action(self, action)
        self._history.append(action)
        self._legal_cache = None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return rules_chance_outcomes(self) if self.phase == PH_CHANCE else []

    def is_terminal(self) -> bool:
        return self.phase == rules.PH_END

    def _legal_actions(self) -> list[int]:
        return rules.legal_actions(self)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return rules.chance_outcomes(self)

    def _apply(self, action: int) -> None:
        if self.phase == PH_CHANCE:
            apply_chance(self, action)
        else:
            rules_apply_action(self, action)

    def _illegal_reason(self, action: int) -> str:
        return rules.illegal_reason(self, action)

    def returns(self) -> list[float]:
        return rules.returns(self)

    def clone(self) -> MedSiroccoState:
        """An equal, independent state (the legal-action cache may alias the pile, so it is not shared)."""
        other = self._copy()
        other._history = list(self._history)
        return other

    def _copy(self) -> MedSiroccoState:
        other = MedSiroccoState.__new__(MedSiroccoState)
        src = self.__dict__
        d = src.copy()
        d["_history"] = []
        d["_legal_cache"] = None
        for name in _LIST_FIELDS:
            d[name] = src[name][:]
        for name in _NESTED_FIELDS:
            d[name] = [x[:] for x in src[name]]
        other.__dict__ = d
        return other

    def _observe(self, seat: int) -> JSON:
        from warcards.games.med_sirocco.views import observe

        return observe(self, seat)

    def _observe_fields(self, seat: int, fields: frozenset[str]) -> JSON:
        from warcards.games.med_sirocco.views import observe

        return observe(self, seat, fields)

    def _determinize(self, seat: int, rng: Rng) -> State:
        from warcards.games.med_sirocco.views import determinize

        return determinize(self, seat, rng)

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        from warcards.games.med_sirocco.views import hidden_action_text

        return hidden_action_text(self, action, seat)

    def action_to_string(self, action: int) -> str:
        chance = self.phase == rules.PH_CHANCE
        try:
            return action_text(action, self.g.ids, chance)
        except ValueError:
            return action_text(action, self.g.ids, not chance)

    def _parse_action(self, text: str) -> int:
        return parse_text(text, self.g.index, self.phase == rules.PH_CHANCE)

    def zones(self) -> dict[str, list[str]]:
        """God view: every card's zone (hands, piles, play, under the Operation, won, captured, sunk)."""
        ids = self.g.ids
        z: dict[str, list[str]] = {}
        for p in range(self.n):
            z[f"hand:{p}"] = [ids[c] for c in self.hands[p]]
            z[f"won:{p}"] = [ids[c] for c in self.won[p]]
            z[f"captured:{p}"] = [ids[c] for c in self.captured[p]]
            z[f"play:{p}"] = [ids[self.e_card[e]] for e in range(len(self.e_card))
                              if self.e_alive[e] and self.e_player[e] == p]
        z["pile"] = [ids[c] for c in self.pile]
        z["discard"] = [ids[c] for c in self.discard]
        z["operations"] = [ids[c] for c in self.ops_pile]
        z["operations:out"] = [ids[c] for c in self.ops_out]
        in_play = self.op >= 0 and (self.stage != rules.ST_SHARE or self.op in self.share_pool)
        z["operation"] = [ids[c] for c in ([self.op] if in_play else []) + self.op_choice]
        z["prizes"] = [ids[c] for c in self.share_pool if c != self.op]
        z["under"] = [ids[c] for c in self.u_card if c >= 0]
        z["sunk"] = [ids[c] for c in self.sunk]
        z["sirocco"] = [ids[self.g.index["S01"]]] if self.sirocco_holder >= 0 else []
        return z

    def position(self) -> JSON:
        """The documented position fields (docs/notation/med-sirocco.md)."""
        g = self.g
        return {
            "phase": rules.PHASE_NAMES[self.phase],
            "stage": rules.STAGE_NAMES[self.stage],
            "first_player": self.first,
            "dealer": self.dealer,
            "operations_done": self.ops_done,
            "operations_total": self.ops_total,
            "operation": g.ids[self.op] if self.op >= 0 else None,
            "kind": None if self.op < 0 else ("battle" if self.battle else "convoy"),
            "engagement_type": _type_name(self.eng_type) if self.op >= 0 else None,
            "round": self.rnd + 1,
            "sides": [None if s < 0 else ("allies", "axis")[s] for s in self.side],
            "cancelled": [bool(self.cancelled >> p & 1) for p in range(self.n)],
            "vp": rules.victory_points(self),
            "operations_won": [len(w) for w in self.won],
            "hand_limits": [rules.hand_limit(self, p) for p in range(self.n)],
            "sirocco_holder": self.sirocco_holder if self.sirocco_holder >= 0 else None,
            "restriction": None if self.restrict_by < 0 else ("allies", "axis")[self.restrict_side],
            "game": self.game_no,
            "series_vp": list(self.series_vp),
        }


def _type_name(mask: int) -> str:
    from warcards.games.med_sirocco.cards import TYPE_NAMES

    return TYPE_NAMES.get(mask, "none")


__all__ = ["NEUTRAL", "N_PILE", "MedSiroccoGame", "MedSiroccoState"]
