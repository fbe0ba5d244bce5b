"""Naval War action numbering and notation (docs/notation/naval-war.md).

Player actions (fixed space for the card tables; seats are numbered up to 9 whatever the player count):

| range | action | text |
|---|---|---|
| DRAW | draw instead of launching air strikes | `draw` |
| SMOKE, DD, SWEEP | play Smoke / a Destroyer Squadron / a Minesweeper | `smoke`, `dd`, `sweep` |
| ADDSHIP | play an Additional Ship (in the opening) | `addship` |
| SKIP | a carrier does not strike | `skip` |
| GIVE_NONE | a fleet-mate with no salvo returns nothing | `give none` |
| DISCARD + kind | discard a card of that kind | `discard SALVO16x2` |
| FIRE + salvo | fire a salvo (its target follows) | `fire SALVO16x2` |
| AT + target | the target of the salvo being fired | `at NELSON`, `at 2/1` |
| AT_DD + seat | a seat's Destroyer Squadron as that target | `at dd 3` |
| REPAIR + card | repair: remove that salvo (and its Additional Damage) | `repair SALVO16x2-1` |
| SWAP + salvo*9 + mate | give a salvo to a fleet-mate in exchange | `swap SALVO14x1 with 2` |
| GIVE + salvo | the mate's salvo given back | `give SALVO14x1` |
| MINE + mine*9 + seat | lay a minefield before a task force | `MINE2 at 1` |
| SUB + target, TORPEDO + target | submarine / torpedo boat attack | `sub at NELSON`, `torpedo at NELSON` |
| ADDDMG + kind*108 + card | Additional Damage on a salvo | `ADDDMG1 on SALVO16x2-1` |
| STRIKE + target, KAMIKAZE + target | a carrier's air strike | `strike NELSON`, `kamikaze NELSON` |
| DD_TARGET + seat | the task force a Destroyer Squadron attacks | `dd target 2` |
| DD_SINK + target | a ship the Destroyer Squadron sinks | `dd sink NELSON` |

A target is a ship id (0..53), or, with night actions, 54 + seat*16 + slot for the slot-th face-down ship of
that seat's task force (in the order the ships joined it), written `SEAT/N` (N from 1).

Chance outcomes: a ship id (a ship dealt or drawn from the harbor, `ship NELSON`), a play-card kind (the
next card drawn, `draw SALVO16x2`), or a die face (`roll 5`).
"""

from __future__ import annotations

from functools import cached_property

from warcards.engine.errors import InvalidActionError
from warcards.engine.text import quote
from warcards.games.naval_war.cards import Tables

SEATS = 9
SLOTS = 16
"""Face-down ships (night actions) are targeted by seat and slot: the k-th face-down ship of a task force."""


class Layout:
    """Offsets of every action range for one set of card tables."""

    def __init__(self, t: Tables) -> None:
        self.t = t
        ns, nc, nk = t.num_ships, t.num_cards, t.num_kinds
        nsk, nak, nmk = len(t.salvo_kinds), len(t.adddmg_kinds), len(t.mine_kinds)
        self.ns, self.nc, self.nk, self.nsk = ns, nc, nk, nsk
        # Targets: a ship by id (0..ns-1), or a face-down ship by seat and slot (ns + seat*SLOTS + slot).
        nt = self.nt = ns + SEATS * SLOTS
        self.DRAW, self.SMOKE, self.DD, self.SWEEP, self.ADDSHIP, self.SKIP, self.GIVE_NONE = range(7)
        self.DISCARD = 7
        self.FIRE = self.DISCARD + nk
        self.AT = self.FIRE + nsk
        self.AT_DD = self.AT + nt
        self.REPAIR = self.AT_DD + SEATS
        self.SWAP = self.REPAIR + nc
        self.GIVE = self.SWAP + nsk * SEATS
        self.MINE = self.GIVE + nsk
        self.SUB = self.MINE + nmk * SEATS
        self.TORPEDO = self.SUB + nt
        self.ADDDMG = self.TORPEDO + nt
        self.STRIKE = self.ADDDMG + nak * nc
        self.KAMIKAZE = self.STRIKE + nt
        self.DD_TARGET = self.KAMIKAZE + nt
        self.DD_SINK = self.DD_TARGET + SEATS
        self.num_actions = self.DD_SINK + nt
        # Chance outcomes.
        self.C_KIND = ns
        self.C_DIE = ns + nk
        self.num_outcomes = self.C_DIE + 6
        self.kind_outcomes = tuple(range(self.C_KIND, self.C_DIE))
        self.salvo_index = {k: i for i, k in enumerate(t.salvo_kinds)}
        self.fire_of_kind = tuple(self.FIRE + self.salvo_index[k] if k in self.salvo_index else -1
                                  for k in range(nk))
        self.adddmg_index = {k: i for i, k in enumerate(t.adddmg_kinds)}
        self.mine_index = {k: i for i, k in enumerate(t.mine_kinds)}

    # ----- text ------------------------------------------------------------------------------------------
    def action_text(self, a: int) -> str:
        """The notation of player action `a` (context-free)."""
        t = self.t
        if not 0 <= a < self.num_actions:
            raise InvalidActionError(f"{a} is not a naval-war action: actions are 0..{self.num_actions - 1}")
        simple = ("draw", "smoke", "dd", "sweep", "addship", "skip", "give none")
        if a < self.DISCARD:
            return simple[a]
        if a < self.FIRE:
            return f"discard {t.kind_codes[a - self.DISCARD]}"
        if a < self.AT:
            return f"fire {t.kind_codes[t.salvo_kinds[a - self.FIRE]]}"
        if a < self.AT_DD:
            return f"at {self.target_text(a - self.AT)}"
        if a < self.REPAIR:
            return f"at dd {a - self.AT_DD}"
        if a < self.SWAP:
            return f"repair {t.card_ids[a - self.REPAIR]}"
        if a < self.GIVE:
            si, j = divmod(a - self.SWAP, SEATS)
            return f"swap {t.kind_codes[t.salvo_kinds[si]]} with {j}"
        if a < self.MINE:
            return f"give {t.kind_codes[t.salvo_kinds[a - self.GIVE]]}"
        if a < self.SUB:
            mi, j = divmod(a - self.MINE, SEATS)
            return f"{t.kind_codes[t.mine_kinds[mi]]} at {j}"
        if a < self.TORPEDO:
            return f"sub at {self.target_text(a - self.SUB)}"
        if a < self.ADDDMG:
            return f"torpedo at {self.target_text(a - self.TORPEDO)}"
        if a < self.STRIKE:
            ai, c = divmod(a - self.ADDDMG, self.nc)
            return f"{t.kind_codes[t.adddmg_kinds[ai]]} on {t.card_ids[c]}"
        if a < self.KAMIKAZE:
            return f"strike {self.target_text(a - self.STRIKE)}"
        if a < self.DD_TARGET:
            return f"kamikaze {self.target_text(a - self.KAMIKAZE)}"
        if a < self.DD_SINK:
            return f"dd target {a - self.DD_TARGET}"
        return f"dd sink {self.target_text(a - self.DD_SINK)}"

    def target_text(self, target: int) -> str:
        """A target: a ship id, or `SEAT/N` for the N-th face-down ship of a task force (night actions)."""
        if target < self.ns:
            return self.t.ship_ids[target]
        seat, slot = divmod(target - self.ns, SLOTS)
        return f"{seat}/{slot + 1}"

    def outcome_text(self, o: int) -> str:
        """The notation of chance outcome `o`."""
        if not 0 <= o < self.num_outcomes:
            raise InvalidActionError(f"{o} is not a naval-war chance outcome: outcomes are 0..{self.num_outcomes - 1}")
        if o < self.C_KIND:
            return f"ship {self.t.ship_ids[o]}"
        if o < self.C_DIE:
            return f"draw {self.t.kind_codes[o - self.C_KIND]}"
        return f"roll {o - self.C_DIE + 1}"

    @cached_property
    def _action_by_text(self) -> dict[str, int]:
        return {normalize(self.action_text(a)): a for a in range(self.num_actions)}

    @cached_property
    def _outcome_by_text(self) -> dict[str, int]:
        return {normalize(self.outcome_text(o)): o for o in range(self.num_outcomes)}

    def parse(self, text: str, chance: bool) -> int:
        """The action (or chance outcome when `chance`) for `text`, or `InvalidActionError`.

        Bare numbers are the engine's (`State.parse_action`). A chance outcome written at a player's turn,
        or a player's action written at a chance node, is refused with a message saying so. Linear in the
        length of `text` (`normalize`, then one dictionary look-up per table)."""
        key = normalize(text)
        table = self._outcome_by_text if chance else self._action_by_text
        found = table.get(key)
        if found is not None:
            return found
        if chance and key in self._action_by_text:
            raise InvalidActionError(f"{quote(text)} is a player's action, but the game is dealing, drawing or "
                                     f"rolling now (a chance node); chance outcomes are: {_CHANCE_FORMS}")
        if not chance and key in self._outcome_by_text:
            raise InvalidActionError(f"{quote(text)} is a chance outcome: dealing a ship, drawing a card or "
                                     f"rolling a die is the game's event, not a player's move")
        if chance:
            raise InvalidActionError(f"{quote(text)} is not a naval-war chance outcome (a chance node); forms "
                                     f"are: {_CHANCE_FORMS} (see docs/notation/naval-war.md)")
        raise InvalidActionError(f"{quote(text)} is not naval-war notation here; forms are: {_PLAYER_FORMS} "
                                 f"(see docs/notation/naval-war.md)")


_CHANCE_FORMS = "ship SHIP, draw KIND, roll N"
_PLAYER_FORMS = (
    "draw, discard KIND, fire KIND, at SHIP, at dd SEAT, repair CARD, smoke, dd, sweep, swap KIND with SEAT, "
    "give KIND, give none, MINE1 at SEAT, sub at SHIP, torpedo at SHIP, ADDDMG1 on CARD, addship, strike SHIP, "
    "kamikaze SHIP, skip, dd target SEAT, dd sink SHIP"
)


def normalize(text: str) -> str:
    """Case-, underscore- and spacing-insensitive form of an action text (linear: `str.split`)."""
    return " ".join(text.replace("_", " ").lower().split())
