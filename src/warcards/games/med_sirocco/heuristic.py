"""A heuristic Med Sirocco bot: it sees only its seat's view and the (public) card tables.

It picks the side it can win with and take the trick, declares the engagement type its hand is strongest
in, plays the cheapest card that does the job (saving strong cards), adds Bonus cards and Bomb alley to its
own card, uses Fog and Sirocco against the other side, and discards its weakest card when it cannot win.
"""

from __future__ import annotations

import random
from typing import Any

from warcards.engine.agents import SeatView
from warcards.engine.api import Game
from warcards.games.med_sirocco.cards import (
    E_ADMIRAL,
    E_BOMB,
    E_EXPLOSION,
    E_FOG,
    E_FUEL,
    E_LOST,
    E_NIGHT,
    E_RAID,
    E_SIROCCO,
    K_BONUS,
    K_FORCE,
    K_SPECIAL,
    K_STORM,
    K_SUPPLY,
    NEUTRAL,
)
from warcards.games.med_sirocco.game import MedSiroccoGame
from warcards.games.med_sirocco.notation import (
    ADMIRAL_A,
    ADMIRAL_B,
    DISCARD,
    DISCARD_ALL,
    DONE,
    N_PILE,
    PASS,
    PLAY,
    SEAT,
    SELECT,
    TYPE,
    TYPE_MASKS,
    USE,
)

TYPE_BY_NAME = {"air": 1, "surface": 2, "sub": 4, "combined": 7, "air & surface": 3, "air & sub": 5,
                "surface & sub": 6}


_FIELDS = frozenset({"engagement_type", "hand", "kind", "operation", "phase", "plays", "round", "share_counts",
                     "share_pool", "sides", "won_vp"})
"""The observation fields the heuristic reads."""

def _items(obs: dict[str, object], key: str) -> list[Any]:
    """The list field `key` of an observation (a hand, the plays, the prize cards)."""
    value = obs[key]
    assert isinstance(value, list)
    return value


class MedSiroccoHeuristic:
    """The `heuristic` bot for Med Sirocco."""

    name = "heuristic"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        assert isinstance(game, MedSiroccoGame)
        self.game = game
        self.table = game.table
        self.seat = seat
        self.rng = random.Random(seed)
        # `value` and `keep_value` per card, filled as asked (the search's rollouts ask them on every move).
        self._values: dict[int, float] = {}
        self._keep_values: dict[int, float] = {}

    # ----- card estimates ---------------------------------------------------------------------------------
    def value(self, c: int, mask: int) -> float:
        """Expected combat value of a card in an engagement type ('?' counts 3.5)."""
        key = c << 3 | mask
        known = self._values.get(key)
        if known is None:
            table = self.table
            fixed = table.fixed[c]
            dice = table.dice[c]
            known = self._values[key] = sum(fixed[i] + 3.5 * dice[i] for i in range(3) if mask >> i & 1)
        return known

    def keep_value(self, c: int, year: int) -> float:
        """How much a card in hand is worth keeping (low: discard it first)."""
        key = c << 12 | year
        known = self._keep_values.get(key)
        if known is None:
            known = self._keep_values[key] = self._keep_value(c, year)
        return known

    def _keep_value(self, c: int, year: int) -> float:
        table = self.table
        k = table.kind[c]
        if k == K_FORCE:
            if not any(table.years[c] >> (y - 1940) & 1 for y in range(year, 1944)):
                return 0.0
            return self.value(c, 7) + table.vp[c] * 0.5
        if k == K_BONUS:
            return 1.5
        if k == K_STORM and table.effect[c] in (E_LOST, E_NIGHT):
            return 0.5
        return 2.5

    # ----- the decision -------------------------------------------------------------------------------------
    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        obs = view.observation(_FIELDS)
        phase = obs["phase"]
        table = self.table
        if phase == "declare-type":
            return self.declare(obs, legal)
        if phase == "choose-operation":
            return max(legal, key=lambda a: table.vp[a - SELECT])
        if phase == "admiral":
            return self.admiral(obs, legal)
        if phase == "target":
            return self.target(obs, legal)
        if phase == "sirocco-target":
            return self.sirocco_target(obs, legal)
        if phase == "held-sirocco":
            return USE
        if phase == "lost-card":
            year = self.year(obs)
            return min(legal, key=lambda a: self.keep_value(a - SELECT, year))
        if phase == "lost-seat":
            return legal[0]
        if phase == "supply":
            picks = [a for a in legal if a != PASS]
            return max(picks, key=lambda a: self.value(a - SELECT, 7) + table.vp[a - SELECT]) if picks else PASS
        if phase == "share":
            return self.share(obs, legal)
        if phase == "play":
            return self.build(obs, legal)
        return self.turn(obs, legal)

    def year(self, obs: dict[str, object]) -> int:
        op = obs.get("operation")
        return self.table.op_year[self.table.index[op]] if isinstance(op, str) else 1940

    def mask(self, obs: dict[str, object]) -> int:
        et = obs.get("engagement_type")
        return TYPE_BY_NAME.get(et, 7) if isinstance(et, str) else 7

    def declare(self, obs: dict[str, object], legal: list[int]) -> int:
        """3.1: announce the type in which the hand's best playable card is strongest (relative to 7's spread)."""
        table = self.table
        year = self.year(obs)
        hand = [table.index[c] for c in _items(obs, "hand")]
        best = TYPE
        best_score = -1.0
        for i, mask in enumerate(TYPE_MASKS):
            vals = [self.value(c, mask) for c in hand if table.kind[c] == K_FORCE and table.years[c] >> (year - 1940) & 1]
            score = max(vals, default=0.0) * (0.75 if mask == 7 else 1.0)
            if score > best_score:
                best_score, best = score, TYPE + i
        return best

    def board(self, obs: dict[str, object]) -> tuple[list[float], list[float]]:
        """Visible side totals and each side's highest single card."""
        g = self.game
        table = self.table
        mask = self.mask(obs)
        totals = [0.0, 0.0]
        top = [0.0, 0.0]
        per_card: dict[str, float] = {}
        plays = obs["plays"]
        assert isinstance(plays, list)
        for play in plays:
            cid = play["card"]
            if cid is None:
                continue
            c = table.index[cid]
            side = g.played_side[c]
            if side == NEUTRAL or table.kind[c] not in (K_FORCE, K_BONUS):
                continue
            v = self.value(c, mask)
            totals[side] += v
            host = play["on"]
            key = host if host is not None else cid
            per_card[key] = per_card.get(key, 0.0) + v
            top[side] = max(top[side], per_card[key])
        hidden = sum(1 for play in plays if play["card"] is None)
        for side in (0, 1):
            totals[side] += hidden * 1.0
        return totals, top

    def turn(self, obs: dict[str, object], legal: list[int]) -> int:
        """1.4 C: play a winning card if one exists; else play the cheapest compulsory card or discard."""
        g = self.game
        table = self.table
        mask = self.mask(obs)
        year = self.year(obs)
        plays = [a for a in legal if PLAY <= a < DISCARD]
        sides = obs["sides"]
        assert isinstance(sides, list)
        my_side = sides[self.seat]
        face_down = obs["kind"] == "battle" and obs["round"] == 2
        forces = [a - PLAY for a in plays if table.kind[a - PLAY] == K_FORCE]
        if face_down:
            good = [c for c in forces if table.years[c] >> (year - 1940) & 1
                    and (my_side is None or g.played_side[c] == ("allies", "axis").index(my_side))]
            if good:
                return PLAY + max(good, key=lambda c: self.value(c, mask))
            return min(plays, key=lambda a: self.keep_value(a - PLAY, year)) if plays else legal[0]
        totals, top = self.board(obs)
        best_action = -1
        best_score = 0.0
        vp = table.vp[table.index[obs["operation"]]] if isinstance(obs["operation"], str) else 1
        visible = {play["card"] for play in _items(obs, "plays") if play["card"] is not None}
        op = obs["operation"]
        for c in forces:
            side = g.played_side[c]
            v = self.value(c, mask)
            victim = table.victim[c]
            if victim >= 0 and isinstance(op, str) and table.ids[victim] == op:
                v *= 2  # 3.3: a Destiny card's value doubles in its victim Operation
            other = totals[1 - side]
            if victim >= 0 and table.ids[victim] in visible and g.played_side[victim] != side:
                other -= self.value(victim, mask)  # 3.3: its victim is destroyed
                v += 2.0
            wins = totals[side] + v > other + 0.5
            takes = v > top[side]
            if wins and takes:
                score = vp + 2.0 - 0.3 * self.keep_value(c, year)
            elif wins:
                score = 0.5 - 0.2 * self.keep_value(c, year)
            else:
                score = -1.0
            if score > best_score:
                best_score, best_action = score, PLAY + c
        if best_action >= 0:
            return best_action
        for a in plays:
            c = a - PLAY
            if table.kind[c] == K_STORM and table.effect[c] == E_SIROCCO:
                return a
        if forces and (DISCARD_ALL not in legal or obs["kind"] == "battle"):
            return PLAY + min(forces, key=lambda c: self.keep_value(c, year))
        discards = [a for a in legal if DISCARD <= a < SELECT]
        if discards:
            return min(discards, key=lambda a: self.keep_value(a - DISCARD, year))
        if plays:
            return min(plays, key=lambda a: self.keep_value(a - PLAY, year))
        return legal[0]

    def build(self, obs: dict[str, object], legal: list[int]) -> int:
        """Add the cards that help this play: Bonus cards, Bomb alley, Fog, Supply, the Admiral; then done."""
        table = self.table
        mask = self.mask(obs)
        face_down = obs["kind"] == "battle" and obs["round"] == 2
        for a in legal:
            if not PLAY <= a < DISCARD:
                continue
            c = a - PLAY
            k = table.kind[c]
            if face_down and k == K_BONUS:
                continue
            if k == K_BONUS and self.value(c, mask) > 0:
                return a
            if k == K_SUPPLY:
                return a
            if k == K_SPECIAL and table.effect[c] in (E_ADMIRAL, E_RAID, E_FUEL) and not face_down:
                return a
            if k == K_STORM and table.effect[c] in (E_SIROCCO, E_FOG, E_EXPLOSION):
                return a
            if k == K_STORM and table.effect[c] == E_BOMB and mask & 1:
                return a
        return DONE if DONE in legal else legal[0]

    def admiral(self, obs: dict[str, object], legal: list[int]) -> int:
        mask = self.mask(obs)
        table = self.table
        mine = [table.index[p["card"]] for p in _items(obs, "plays")
                if p["seat"] == self.seat and p["card"] is not None and table.kind[table.index[p["card"]]] == K_FORCE]
        if mine and self.value(mine[-1], 7) > self.value(mine[-1], mask) + 1:
            return ADMIRAL_A
        return ADMIRAL_B

    def target(self, obs: dict[str, object], legal: list[int]) -> int:
        """Fog on the other side's Bonus; Bomb alley on my own (or my side's) card."""
        g = self.game
        table = self.table
        sides = obs["sides"]
        assert isinstance(sides, list)
        mine = sides[self.seat]
        my_side = ("allies", "axis").index(mine) if mine else -1
        bomb = obs["phase"] == "target" and any(
            p["card"] is not None and table.kind[table.index[p["card"]]] == K_STORM
            and table.effect[table.index[p["card"]]] == E_BOMB and p["seat"] == self.seat
            for p in _items(obs, "plays")
        )
        cards = [a - SELECT for a in legal]
        if bomb:
            own = [c for c in cards if g.played_side[c] == my_side]
            return SELECT + max(own or cards, key=lambda c: self.value(c, 1))
        enemy = [c for c in cards if g.played_side[c] != my_side]
        return SELECT + (enemy or cards)[0]

    def sirocco_target(self, obs: dict[str, object], legal: list[int]) -> int:
        """2.44: cancel the other side's player with the strongest visible cards."""
        table = self.table
        mask = self.mask(obs)
        sides = obs["sides"]
        assert isinstance(sides, list)
        mine = sides[self.seat]
        strength = {a: 0.0 for a in legal}
        for p in _items(obs, "plays"):
            a = SEAT + p["seat"]
            if a in strength and p["card"] is not None and table.kind[table.index[p["card"]]] in (K_FORCE, K_BONUS):
                strength[a] += self.value(table.index[p["card"]], mask) * (1 if sides[p["seat"]] != mine else -1)
        return max(legal, key=lambda a: strength[a])

    def prize_worth(self, c: int) -> float:
        """A prize card's worth to its receiver: its VP, and a freighter's hand size (1.5) for an Operation."""
        table = self.table
        return table.vp[c] + (0.5 * table.op_load[c] if c >= N_PILE else 0.0)

    def share(self, obs: dict[str, object], legal: list[int]) -> int:
        """5.0: keep the most valuable prize cards (as many as the split lets him have) and give the others
        to the player with the fewest VP from Operations won, filling those below their due first."""
        table = self.table
        pool = [table.index[c] for c in _items(obs, "share_pool")]
        counts = obs["share_counts"]
        assert isinstance(counts, list)
        # The eligible players: those who may receive this card and those who have received one (5.0).
        elig = {a - SEAT for a in legal} | {q for q, k in enumerate(counts) if k > 0}
        base, extra = divmod(len(pool) + sum(counts[q] for q in elig), len(elig))
        above = sum(1 for q in elig if counts[q] > base)
        mine = counts[self.seat]
        due = base + (1 if mine > base or above < extra else 0) - mine
        me = SEAT + self.seat
        if me in legal:
            ranked = sorted(range(len(pool)), key=lambda i: (-self.prize_worth(pool[i]), i))
            if ranked.index(0) < due or len(legal) == 1:
                return me
        won_vp = obs["won_vp"]
        assert isinstance(won_vp, list)
        others = [a for a in legal if a != me]
        return min(others, key=lambda a: (counts[a - SEAT] >= base, won_vp[a - SEAT], a))


def heuristic_agent(game: Game, seat: int, seed: int) -> MedSiroccoHeuristic:
    """The game's heuristic bot for `seat`."""
    return MedSiroccoHeuristic(game, seat, seed)


__all__ = ["MedSiroccoHeuristic", "heuristic_agent"]
