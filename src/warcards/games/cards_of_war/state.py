"""The Cards of War state: plain lists of card numbers and small ints, copied by slicing.

A physical card is `deck * n + kind` (deck 0 only, unless the 2-deck version gives each seat its own).
Draw piles are sorted lists (unordered multisets; a draw is a chance node); discard piles keep their order
(the top discard matters for Alternative Reinforce); battle piles are bottom-to-top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warcards.engine.api import CHANCE, JSON, TERMINAL, Rng, State
from warcards.games.cards_of_war import notation, rules, views
from warcards.games.cards_of_war.params import HAND_SIZE, LENGTHS

if TYPE_CHECKING:
    from warcards.games.cards_of_war.game import CowGame


class CowState(State):
    """One position of Cards of War."""

    game: CowGame

    def __init__(self, game: CowGame) -> None:
        super().__init__(game)
        tbl = game.table
        n = tbl.n
        nd = game.decks
        self.tbl = tbl
        self.n = n
        self.nd = nd
        self.deck = [0, 1] if nd == 2 else [0, 0]
        self.off = [0, n] if nd == 2 else [0, 0]
        self.jbase = 3 * n
        self.tbase = 6 * n
        self.pass_action = 6 * n + 3
        options = game.options
        self.alt = bool(options["alternative_reinforce"])
        self.tow = bool(options["theatres_of_war"])
        self.tactical = bool(options["tactical_advantage"])
        self.exhaustion = bool(options["strategic_exhaustion"])
        self.joint = bool(options["joint_deployment"])
        self.length = LENGTHS.index(options["length"])
        self.hands: list[list[int]] = [[], []]
        self.piles: list[list[int]] = [list(range(d * n, d * n + n)) for d in range(nd)]
        self.discards: list[list[int]] = [[] for _ in range(nd)]
        self.bat: list[list[int]] = [[], [], [], [], [], []]
        self.tot = [0, 0, 0, 0, 0, 0]
        self.bwin = [-1, -1, -1]
        self.theatre = [-1, -1, -1]
        self.rounds_won = [0, 0]
        self.results: list[int] = []
        self.round_no = 1
        self.first = 0
        self.player = 0
        self.phase = rules.FIRST_DRAW
        self.cp = CHANCE
        self.drawer = 0
        self.queue: list[int] = []
        self.pending = 0
        self.reinf_card = -1
        self.joint_kind = -1
        self.joint_battle = -1
        self.limits = [HAND_SIZE, HAND_SIZE]
        self.base = [HAND_SIZE, HAND_SIZE]
        self.fd = [-1, -1]
        self.fd_tied: list[int] = []
        self.recon: list[tuple[int, int, int, int, int, int]] = []
        self.floors = [[0, 0, 0, 0], [0, 0, 0, 0]]
        self.kills = [0, 0]
        self.moves = 0
        self.idle = 0
        self.winner = -1
        self.omask = 7
        self.deploy_table = game.deploy_table
        self.info = game.info

    # ----- contract hooks ---------------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.cp

    def is_terminal(self) -> bool:
        return self.cp == TERMINAL

    def is_chance_node(self) -> bool:
        return self.cp == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """As the contract's: the outcomes become the legal list `apply_action` tests against next, here the
        pile itself (uncopied; `clone` leaves the cache behind and `legal_actions` hands out copies)."""
        if self.cp != CHANCE:
            return []
        self._legal_cache = self.piles[self.deck[self.drawer]]
        return rules.chance_outcomes(self)

    def legal_actions(self) -> list[int]:
        """As the contract's, with the chance node's outcomes read straight off the (sorted) pile."""
        cached = self._legal_cache
        if cached is None:
            cp = self.cp
            if cp == CHANCE:
                cached = self.piles[self.deck[self.drawer]][:]
            elif cp == TERMINAL:
                cached = []
            else:
                cached = rules.legal_actions(self)
            self._legal_cache = cached
        return cached[:]

    def _legal_now(self) -> list[int]:
        """The legal list `apply_action` tests against; at a chance node the pile itself, uncopied."""
        legal: list[int] = self.piles[self.deck[self.drawer]] if self.cp == CHANCE else self.legal_actions()
        return legal

    def _legal_actions(self) -> list[int]:
        return rules.legal_actions(self)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return rules.chance_outcomes(self)

    _apply = rules.apply

    def _illegal_reason(self, action: int) -> str:
        return rules.illegal_reason(self, action)

    def returns(self) -> list[float]:
        if self.phase != rules.OVER or self.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def clone(self) -> CowState:
        """An equal, independent state; `_copy` copies the history and leaves the legal-action cache empty
        (it may alias the pile)."""
        return self._copy()

    def _copy(self) -> CowState:
        other = CowState.__new__(CowState)
        d = other.__dict__
        d.update(self.__dict__)
        d["hands"] = [self.hands[0][:], self.hands[1][:]]
        d["piles"] = [p[:] for p in self.piles]
        d["discards"] = [p[:] for p in self.discards]
        d["bat"] = [p[:] for p in self.bat]
        d["tot"] = self.tot[:]
        d["bwin"] = self.bwin[:]
        d["theatre"] = self.theatre[:]
        d["rounds_won"] = self.rounds_won[:]
        d["results"] = self.results[:]
        d["queue"] = self.queue[:]
        d["limits"] = self.limits[:]
        d["base"] = self.base[:]
        d["fd"] = self.fd[:]
        d["fd_tied"] = self.fd_tied[:]
        d["recon"] = self.recon[:]
        d["floors"] = [self.floors[0][:], self.floors[1][:]]
        d["kills"] = self.kills[:]
        d["_legal_cache"] = None
        d["_history"] = self._history[:]
        return other

    def _observe(self, seat: int) -> JSON:
        return views.observe(self, seat)

    def _determinize(self, seat: int, rng: Rng) -> CowState:
        return views.determinize(self, seat, rng)

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        return views.hidden_action_text(self, action, seat)

    def action_to_string(self, action: int) -> str:
        return notation.action_to_string(self, action)

    def _parse_action(self, text: str) -> int:
        return notation.parse_action(self, text)

    def zones(self) -> dict[str, list[str]]:
        return views.zones(self)

    def position(self) -> JSON:
        return views.position(self)

    # ----- helpers --------------------------------------------------------------------------------------------
    def card_id(self, card: int) -> str:
        """The stable id of physical card `card` ("G01"; "G01/1" for seat 1's deck in the 2-deck version)."""
        return self.game.card_ids[card]

    def card_label(self, card: int) -> str:
        return f"{self.card_id(card)} {self.tbl.names[card % self.n]}"

    def fingerprint(self) -> Any:
        return (
            tuple(self._history),
            repr(sorted(self.zones().items())),
            repr(self.position()),
            self.reinf_card,
            tuple(self.recon),
            tuple(map(tuple, self.floors)),
        )
