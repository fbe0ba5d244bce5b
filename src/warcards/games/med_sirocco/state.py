"""The Med Sirocco state: plain lists and ints, a cheap `_copy`, the engine's hooks.

Card numbers are indices into the deck tables (0..120 the Force-pile cards A01–A59, X01–X55, S01–S07;
121..164 the Operations O01–O44). Cards in play are "entries" held in parallel lists (`entry_card`,
`entry_player`, ...), so a copy slices lists and never deep-copies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, JSON, TERMINAL, State
from warcards.games.med_sirocco import codes, rules, views
from warcards.games.med_sirocco.cards import TYPE_NAMES
from warcards.games.med_sirocco.codes import PH_CHANCE, PH_END
from warcards.games.med_sirocco.notation import action_text, parse_text

if TYPE_CHECKING:
    from warcards.games.med_sirocco.game import MedSiroccoGame


_LIST_FIELDS = ("pile", "discard", "operations_pile", "operations_out", "sunk", "freighters_full", "freighters_half", "known_cards", "draw_queue",
                "series_vp", "series_ops", "operation_choice", "side", "entry_card", "entry_player", "entry_round", "entry_host",
                "entry_alive", "entry_face_down", "entry_side", "entry_dice", "entry_values", "under_card", "under_side", "under_player", "intel_queue",
                "explosion_queue", "roll_queue", "lost_cards", "lost_seats", "supply_queue", "picked", "share_pool",
                "share_eligible", "share_count", "log", "previous_log")
_NESTED_FIELDS = ("hands", "won", "captured")


class MedSiroccoState(State):
    """One Med Sirocco position (fields documented in docs/notation/med-sirocco.md)."""

    game: MedSiroccoGame

    def __init__(self, game: MedSiroccoGame) -> None:
        super().__init__(game)
        o = game.options
        n = game.num_players
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
        self.phase = PH_CHANCE
        self.to_act = 0
        self.stage = codes.ST_START_OP
        self.chance_kind = -1
        self.operation = -1
        self.operation_choice: list[int] = []
        self.year = 1940
        self.year_bit = 1
        self.is_battle = False
        self.operation_type = 7
        self.engagement_type = 7
        self.rounds = 1
        self.round_index = 0
        self.turn_index = 0
        self.cancelled = 0
        self.sat_out = 0
        self.victims = 0
        self.raid_players = 0
        self.side = [-1] * n
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
        if ph == PH_CHANCE:
            return CHANCE
        if ph == PH_END:
            return TERMINAL
        return self.to_act

    # The hooks that are rule functions taking (state, ...) are those functions: no extra call per action.
    _legal_now = rules.legal_now
    _legal_actions = rules.legal_actions
    _chance_outcomes = rules.chance_outcomes
    _apply = rules.apply
    _illegal_reason = rules.illegal_reason
    returns = rules.returns
    _hidden_action_text = views.hidden_action_text
    _determinize = views.determinize

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
        return views.observe(self, seat)

    def _observe_fields(self, seat: int, fields: frozenset[str]) -> JSON:
        return views.observe(self, seat, fields)

    def action_to_string(self, action: int) -> str:
        chance = self.phase == PH_CHANCE
        try:
            return action_text(action, self.game.ids, chance)
        except ValueError:
            return action_text(action, self.game.ids, not chance)

    def _parse_action(self, text: str) -> int:
        return parse_text(text, self.game.index, self.phase == PH_CHANCE)

    def zones(self) -> dict[str, list[str]]:
        """God view: every card's zone (hands, piles, play, under the Operation, won, captured, sunk)."""
        ids = self.game.ids
        z: dict[str, list[str]] = {}
        for p in range(self.num_players):
            z[f"hand:{p}"] = [ids[c] for c in self.hands[p]]
            z[f"won:{p}"] = [ids[c] for c in self.won[p]]
            z[f"captured:{p}"] = [ids[c] for c in self.captured[p]]
            z[f"play:{p}"] = [ids[self.entry_card[e]] for e in range(len(self.entry_card))
                              if self.entry_alive[e] and self.entry_player[e] == p]
        z["pile"] = [ids[c] for c in self.pile]
        z["discard"] = [ids[c] for c in self.discard]
        z["operations"] = [ids[c] for c in self.operations_pile]
        z["operations:out"] = [ids[c] for c in self.operations_out]
        in_play = self.operation >= 0 and (self.stage != codes.ST_SHARE or self.operation in self.share_pool)
        z["operation"] = [ids[c] for c in ([self.operation] if in_play else []) + self.operation_choice]
        z["prizes"] = [ids[c] for c in self.share_pool if c != self.operation]
        z["under"] = [ids[c] for c in self.under_card if c >= 0]
        z["sunk"] = [ids[c] for c in self.sunk]
        z["sirocco"] = [ids[self.game.index["S01"]]] if self.sirocco_holder >= 0 else []
        return z

    def position(self) -> JSON:
        """The documented position fields (docs/notation/med-sirocco.md)."""
        g = self.game
        return {
            "phase": codes.PHASE_NAMES[self.phase],
            "stage": codes.STAGE_NAMES[self.stage],
            "first_player": self.first_player,
            "dealer": self.dealer,
            "operations_done": self.operations_done,
            "operations_total": self.operations_total,
            "operation": g.ids[self.operation] if self.operation >= 0 else None,
            "kind": None if self.operation < 0 else ("battle" if self.is_battle else "convoy"),
            "engagement_type": _type_name(self.engagement_type) if self.operation >= 0 else None,
            "round": self.round_index + 1,
            "sides": [None if s < 0 else ("allies", "axis")[s] for s in self.side],
            "cancelled": [bool(self.cancelled >> p & 1) for p in range(self.num_players)],
            "vp": rules.victory_points(self),
            "operations_won": [len(w) for w in self.won],
            "hand_limits": [rules.hand_limit(self, p) for p in range(self.num_players)],
            "sirocco_holder": self.sirocco_holder if self.sirocco_holder >= 0 else None,
            "restriction": None if self.restrict_by < 0 else ("allies", "axis")[self.restrict_side],
            "game": self.game_number,
            "series_vp": list(self.series_vp),
        }


def _type_name(mask: int) -> str:
    return TYPE_NAMES.get(mask, "none")


__all__ = ["MedSiroccoState"]
