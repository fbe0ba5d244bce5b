"""Naval War state: plain lists of ints, copied by slicing.

Where each card is:
- `cpos[card]` for the 108 play cards: DECK, DISCARD, UNSEEN (a hand discarded unseen at elimination), BOX
  (removed by an option), PLAY (a red card being resolved, or a salvo whose target is being named), HAND+seat, MINES+seat (a minefield before that
  task force), SMOKE+seat, DDC+seat (a Destroyer Squadron in the centre), ON_DD+seat (a salvo on it),
  ON_SHIP+ship (a salvo under a ship), ON_SALVO+card (Additional Damage on that salvo).
- `spos[ship]` for the 54 ships: HARBOR, BOX, FLEET+seat, DEEP+seat (the Deep Six pile of the sinker).
`hands`, `fleets`, `harbor` and `deck_count` mirror those for speed. The draw pile is unordered: a draw is a
chance node over the kinds left in it. `down` is a bitmask of face-down ships (night actions). `foes` and `tgt`
cache who may be attacked (their inner lists are replaced, never mutated, so copies share them safely);
`tcache` caches each seat's targets and starts empty in a copy.

A copy copies the attribute dict and then gives itself its own copy of every list the rules change in place
(`_MUTABLE`); `last_round`, `elig` and `returns_` are only ever replaced, so copies share them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, JSON, TERMINAL, Rng, State
from warcards.games.naval_war import rules, views
from warcards.games.naval_war.codes import DECK, HARBOR, PH_DEAL_SHIP

if TYPE_CHECKING:
    from warcards.games.naval_war.game import NavalWarGame

_MUTABLE = (
    "cpos", "spos", "deck_count", "harbor", "dmg", "mine_hits", "mine_last", "smoke", "ddc", "dd_hits",
    "alive", "scores", "kwait", "strikes", "tgt",
)


class NavalWarState(State):
    """One Naval War position (see the module docstring for the encoding)."""

    game: NavalWarGame

    def __init__(self, game: NavalWarGame) -> None:
        super().__init__(game)
        self.t = game.tables
        self.p = game.params
        self.L = game.layout
        self.n = game.params.players
        self.team: list[int] = game.teams
        self._outcomes: list[tuple[int, float]] | None = None
        n, t = self.n, self.t
        self.cpos: list[int] = [DECK] * t.num_cards
        self.spos: list[int] = [HARBOR] * t.num_ships
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.fleets: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.deck_count: list[int] = [0] * t.num_kinds
        self.harbor: list[int] = []
        self.dmg: list[int] = [0] * t.num_ships
        self.mine_hits: list[int] = [0] * n
        self.mine_last: list[int] = [-1] * n
        self.smoke: list[int] = [-1] * n
        self.ddc: list[int] = [-1] * n
        self.dd_hits: list[int] = [0] * n
        self.alive: list[bool] = [True] * n
        self.scores: list[int] = [0] * n
        self.last_round: list[int] = [0] * n
        self.kwait: list[int] = [0] * t.num_ships
        self.strikes: list[int] = []
        self.elig: list[int] = []
        self.returns_: list[float] = [0.0] * n
        self.deck_size = 0
        self.phase = PH_DEAL_SHIP
        self.cur = CHANCE
        self.turn = 0
        self.dealer = 0
        self.round = 1
        self.turns = 0
        self.deal_left = 0
        self.in_open = False
        self.open_done = 0
        self.mined_open = 0
        self.opened = 0
        self.hidden_nored = 0
        self.pend = -1
        self.pend_target = -1
        self.roll_kind = -1
        self.strike_ptr = 0
        self.strike_i = 0
        self.dd_target = -1
        self.dd_left = 0
        self.swap_card = -1
        self.round_over = False
        self.aim = -1
        self.down = 0
        self.foes: tuple[tuple[int, ...], ...] | None = None
        self.tcache: dict[int, list[int]] | None = None
        self.tgt: list[list[int] | None] = [None] * n

    # ----- contract ---------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.cur

    _legal_actions = rules.legal_actions

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        cached = self._outcomes
        if cached is None:
            cached = self._outcomes = rules.chance_outcomes(self)
        return list(cached)

    _apply = rules.apply

    def _illegal_reason(self, action: int) -> str:
        return rules.illegal_reason(self, action)

    def returns(self) -> list[float]:
        return list(self.returns_) if self.cur == TERMINAL else [0.0] * self.n

    def _copy(self) -> NavalWarState:
        d = self.__dict__.copy()
        for name in _MUTABLE:
            d[name] = d[name][:]
        d["hands"] = [h[:] for h in self.hands]
        d["fleets"] = [f[:] for f in self.fleets]
        d["known"] = [k[:] for k in self.known]
        d["tcache"] = None
        d["_outcomes"] = None
        d["_history"] = []
        d["_legal_cache"] = None
        other: NavalWarState = object.__new__(NavalWarState)
        other.__dict__ = d
        return other

    def _observe(self, seat: int) -> JSON:
        return views.observe(self, seat)

    def _observe_fields(self, seat: int, fields: frozenset[str]) -> JSON:
        return views.observe(self, seat, fields)

    def _determinize(self, seat: int, rng: Rng) -> NavalWarState:
        return views.determinize(self, seat, rng)

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        return views.hidden_action_text(self, action, seat)

    def action_to_string(self, action: int) -> str:
        if self.cur == CHANCE and 0 <= action < self.L.num_outcomes:
            return self.L.outcome_text(action)
        return self.L.action_text(action)

    def _parse_action(self, text: str) -> int:
        return self.L.parse(text, self.cur == CHANCE)

    def zones(self) -> dict[str, list[str]]:
        return views.zones(self)

    def position(self) -> JSON:
        return views.position(self)
