"""The Naval War heuristic bot: the designer's tips from the rules, as a one-step action score.

Tips followed (Designer tips): attack the leader (the -10 is an equaliser); a single carrier strike is a
1-in-6 shot (draw instead unless several carriers can fly); wipe out gun-size classes; shoot at Destroyer
Squadrons; soften big (7+) ships with small salvos instead of leaving someone else a cheap kill; use Smoke and
Repair when a ship is threatened. The bot sees only its seat's view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache, cached_property
from typing import Any

from warcards.engine.actions import ActionLayout
from warcards.engine.agents import SeatView
from warcards.engine.api import Game
from warcards.games.naval_war.cards import CardTable
from warcards.games.naval_war.game import NavalWarGame
from warcards.games.naval_war.notation import SEATS, SLOTS


class _Ship:
    """A ship as the seat sees it. `bonus` and `sink` (its class bonus and its worth sunk) are filled in by
    the context on first use: scoring a salvo weighs every target, and they do not depend on the salvo."""

    __slots__ = ("bonus", "carrier", "damage", "gun", "hits", "left", "owner", "sink")

    def __init__(self, owner: int, raw: dict[str, Any]) -> None:
        self.owner = owner
        # A face-down ship (night actions) is valued as an average ship.
        self.hits: int = raw["hits"] if raw["hits"] is not None else 5
        self.damage: int = raw["damage"]
        self.left = self.hits - self.damage
        self.gun: str = raw["gun"] if raw["gun"] is not None else "?"
        self.carrier = raw["gun"] == "carrier"
        self.bonus: float | None = None
        self.sink: float | None = None


_FIELDS = frozenset({"aiming", "carriers_to_name", "phase", "scores", "task_forces", "teams"})
"""The observation fields the heuristic reads (`SeatView.observation(fields)` builds only these)."""


class NavalWarHeuristic:
    """Scores every legal action from the seat's observation and plays the best (ties by its own RNG)."""

    name = "heuristic"

    def __init__(self, game: NavalWarGame, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.layout: ActionLayout = game.layout
        self.table: CardTable = game.table
        self.index = {sid: i for i, sid in enumerate(self.table.ship_ids)}

    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        obs = view.observation(_FIELDS)
        ctx = _Context(obs, self.seat, self.layout, self.table, self.index)
        scorers = _scorers(self.layout)
        best: list[int] = []
        top = float("-inf")
        for a in legal:
            score = scorers[a](ctx, a)
            if score > top + 1e-9:
                top, best = score, [a]
            elif abs(score - top) <= 1e-9:
                best.append(a)
        return best[self.rng.randrange(len(best))]


class _Context:
    """One observation, digested for scoring. What only some actions need (gun sizes, threats, which salvo
    is under which ship) is digested on first use: the heuristic runs at every move of a search's rollouts."""

    def __init__(self, obs: dict[str, Any], seat: int, layout: ActionLayout, table: CardTable,
                 index: dict[str, int]) -> None:
        self.obs = obs
        self.seat = seat
        self.layout = layout
        self.table = table
        self.ships: dict[str, _Ship] = {}
        self.by_target: dict[int, _Ship] = {}
        self.by_owner: list[list[_Ship]] = []
        ships, by_target = self.ships, self.by_target
        for force in obs["task_forces"]:
            j = force["seat"]
            owned: list[_Ship] = []
            slot = 0
            for raw in force["ships"]:
                ship = _Ship(j, raw)
                owned.append(ship)
                ship_id = raw["id"]
                if ship_id is None:
                    by_target[table.num_ships + j * SLOTS + slot] = ship
                else:
                    ships[ship_id] = ship
                    by_target[index[ship_id]] = ship
                if raw["face_down"]:
                    slot += 1
            self.by_owner.append(owned)
        teams = obs["teams"]
        totals: dict[int, int] = {}
        for i, score in enumerate(obs["scores"]):
            key = teams[i] if teams[i] >= 0 else i
            totals[key] = totals.get(key, 0) + score
        side = [totals[teams[i] if teams[i] >= 0 else i] for i in range(len(teams))]
        mine_key = teams[seat] if teams[seat] >= 0 else seat
        foes = [i for i in range(len(teams)) if (teams[i] if teams[i] >= 0 else i) != mine_key]
        leader_score = max((side[i] for i in foes), default=0)
        self.weight = [0.0] * len(teams)
        for i in foes:
            self.weight[i] = 1.5 if side[i] == leader_score else 1.0
        self._fire_by_value: dict[int, float] = {}

    @cached_property
    def my_guns(self) -> set[str]:
        return {s.gun for s in self.by_owner[self.seat]}

    @cached_property
    def threatened(self) -> bool:
        """One of the seat's ships could sink to a small salvo, or an enemy has a Destroyer Squadron out."""
        return any(s.left <= 3 and not s.carrier for s in self.by_owner[self.seat]) or any(
            f["destroyer_squadron"] is not None for f in self.obs["task_forces"] if f["seat"] != self.seat
        )

    @cached_property
    def gun_count(self) -> Counter[tuple[int, str]]:
        return Counter((s.owner, s.gun) for owned in self.by_owner for s in owned)

    @cached_property
    def salvo_ship(self) -> dict[str, str]:
        """The ship each salvo on the table lies under."""
        found: dict[str, str] = {}
        for force in self.obs["task_forces"]:
            for raw in force["ships"]:
                for salvo in raw["salvos"]:
                    found[salvo["card"]] = raw["id"]
        return found

    # ----- helpers ------------------------------------------------------------------------------------------
    def _class_bonus(self, ship: _Ship) -> float:
        """Wipe out gun-size classes: the last ship of a gun size stops that size of salvo."""
        if ship.bonus is None:
            ship.bonus = 1.5 if self.gun_count[ship.owner, ship.gun] == 1 and not ship.carrier else 0.0
        return ship.bonus

    def _sink_value(self, ship: _Ship) -> float:
        if ship.sink is None:
            last = 5.0 if len(self.by_owner[ship.owner]) == 1 else 0.0
            ship.sink = 10.0 + ship.hits * self.weight[ship.owner] + self._class_bonus(ship) + last
        return ship.sink

    def _kind_value(self, code: str) -> int:
        t = self.table
        return t.kind_value[t.kind_codes.index(code)]

    def _salvo_gun(self, code: str) -> str:
        return code[5:].split("x")[0]

    # ----- scoring: one method per block of the action layout (`_scorers` finds it by the action) ----------
    def _draw(self, a: int) -> float:
        return 3.0

    def _nothing(self, a: int) -> float:
        return 0.0

    def _smoke(self, a: int) -> float:
        return 6.0 if self.threatened else 0.3

    def _dd(self, a: int) -> float:
        return 9.0

    def _sweep(self, a: int) -> float:
        return 3.0 + 2.0 * float(self.obs["task_forces"][self.seat]["mine_hits"])

    def _discard_kind(self, a: int) -> float:
        return self._discard(self.table.kind_codes[a - self.layout.discard])

    def _fire_salvo(self, a: int) -> float:
        t = self.table
        return self._best_fire(t.kind_value[t.salvo_kinds[a - self.layout.fire]])

    def _at(self, a: int) -> float:
        return self._fire(self._aim_value(), self.by_target[a - self.layout.at])

    def _at_dd(self, a: int) -> float:
        return self._fire_dd(self._aim_value(), a - self.layout.at_dd)

    def _repair_card(self, a: int) -> float:
        return self._repair(self.table.card_ids[a - self.layout.repair])

    def _swap(self, a: int) -> float:
        t = self.table
        si = (a - self.layout.swap) // SEATS
        gun = self._salvo_gun(t.kind_codes[t.salvo_kinds[si]])
        return 2.5 if gun not in self.my_guns else -1.0

    def _give(self, a: int) -> float:
        t = self.table
        kind = t.salvo_kinds[a - self.layout.give]
        gun = self._salvo_gun(t.kind_codes[kind])
        return 2.0 if gun not in self.my_guns else 1.0 - 0.1 * t.kind_value[kind]

    def _mine_at(self, a: int) -> float:
        mi, j = divmod(a - self.layout.mine, SEATS)
        return self._mine(j, self.table.kind_value[self.table.mine_kinds[mi]])

    def _sub(self, a: int) -> float:
        return self._gamble(self.by_target[a - self.layout.sub], 2 / 6)

    def _torpedo(self, a: int) -> float:
        return self._gamble(self.by_target[a - self.layout.torpedo], 1 / 6)

    def _adddmg(self, a: int) -> float:
        t = self.table
        ai, c = divmod(a - self.layout.adddmg, t.num_cards)
        ship = self.ships[self.salvo_ship[t.card_ids[c]]]
        v = t.kind_value[t.adddmg_kinds[ai]]
        return self._sink_value(ship) if v >= ship.left else v * self.weight[ship.owner]

    def _strike_at(self, a: int) -> float:
        return self._strike(self.by_target[a - self.layout.strike], 1 / 6)

    def _kamikaze(self, a: int) -> float:
        return self._strike(self.by_target[a - self.layout.kamikaze], 2 / 6) - 0.2

    def _dd_target(self, a: int) -> float:
        j = a - self.layout.dd_target
        best = sorted((s.hits for s in self.by_owner[j]), reverse=True)[:3]
        return sum(best) * self.weight[j]

    def _dd_sink(self, a: int) -> float:
        ship = self.by_target[a - self.layout.dd_sink]
        return ship.hits * self.weight[ship.owner] + self._class_bonus(ship)

    def _best_fire(self, v: int) -> float:
        """The best a salvo of `v` hits can do against any target (a ship or a Destroyer Squadron); salvos of
        the same value score alike, so each value is scored once per observation."""
        best = self._fire_by_value.get(v)
        if best is None:
            options = [self._fire(v, ship) for ship in self._targets()]
            options += [self._fire_dd(v, j) for j in self._enemy_dds()]
            best = self._fire_by_value[v] = max(options, default=0.0)
        return best

    def _aim_value(self) -> int:
        return self._kind_value(self.obs["aiming"].rsplit("-", 1)[0])

    def _targets(self) -> list[_Ship]:
        """Enemy ships a salvo may hit: not under Smoke, carriers only when unscreened."""
        out: list[_Ship] = []
        for force in self.obs["task_forces"]:
            j = force["seat"]
            if self.weight[j] == 0.0 or force["smoke"] is not None:
                continue
            ships = self.by_owner[j]
            plain = [s for s in ships if not s.carrier]
            out.extend(plain or ships)
        return out

    def _enemy_dds(self) -> list[int]:
        return [f["seat"] for f in self.obs["task_forces"]
                if self.weight[f["seat"]] > 0.0 and f["destroyer_squadron"] is not None]

    def _fire_dd(self, v: int, j: int) -> float:
        dd = self.obs["task_forces"][j]["destroyer_squadron"]
        return 14.0 if dd is not None and dd["hits"] + v >= 4 else 6.0 + v

    def _fire(self, v: int, ship: _Ship) -> float:
        if v >= ship.left:
            return ship.sink if ship.sink is not None else self._sink_value(ship)
        after = ship.left - v
        bonus = ship.bonus if ship.bonus is not None else self._class_bonus(ship)
        score = 2.0 + self.weight[ship.owner] + 0.2 * v + bonus * 0.5
        if ship.hits >= 7:
            score += (4 - v) * 0.3
        if after <= 2:
            score -= 2.5
        return score

    def _repair(self, card: str) -> float:
        ship = self.ships[self.salvo_ship[card]]
        return 5.0 + 0.3 * ship.hits if ship.left <= 3 else 0.8

    def _discard(self, code: str) -> float:
        if code.startswith("SALVO"):
            return 0.5 if self._salvo_gun(code) not in self.my_guns else 0.1 - 0.05 * self._kind_value(code)
        if code == "DD":
            return -5.0
        return -0.5

    def _mine(self, j: int, v: int) -> float:
        sunk = sum(s.hits for s in self.by_owner[j] if s.left <= v)
        return (sunk * 2 + len(self.by_owner[j]) * v) * self.weight[j]

    def _gamble(self, ship: _Ship, chance: float) -> float:
        return chance * self._sink_value(ship)

    @cached_property
    def strike_weight(self) -> float:
        """A strike's worth against its odds: full when air strikes are on or several carriers can fly, else
        a lone carrier's 1-in-6 shot is discounted (draw instead)."""
        flights = max(1, len(self.obs["carriers_to_name"]))
        return 1.0 if self.obs["phase"] == "air-strike" or flights > 1 else 0.6

    def _strike(self, ship: _Ship, chance: float) -> float:
        return chance * self._sink_value(ship) * self.strike_weight


def heuristic_agent(game: Game, seat: int, seed: int) -> NavalWarHeuristic:
    """The game's heuristic bot for `seat`, with its own RNG."""
    if not isinstance(game, NavalWarGame):
        raise TypeError(f"the naval-war heuristic plays naval-war, not {game.game_id}")
    return NavalWarHeuristic(game, seat, seed)


_BLOCK_SCORERS: dict[str, Callable[[_Context, int], float]] = {
    "draw": _Context._draw, "smoke": _Context._smoke, "dd": _Context._dd, "sweep": _Context._sweep,
    "addship": _Context._nothing, "skip": _Context._nothing, "give_none": _Context._nothing,
    "discard": _Context._discard_kind, "fire": _Context._fire_salvo, "at": _Context._at, "at_dd": _Context._at_dd,
    "repair": _Context._repair_card, "swap": _Context._swap, "give": _Context._give, "mine": _Context._mine_at,
    "sub": _Context._sub, "torpedo": _Context._torpedo, "adddmg": _Context._adddmg, "strike": _Context._strike_at,
    "kamikaze": _Context._kamikaze, "dd_target": _Context._dd_target, "dd_sink": _Context._dd_sink,
}
"""How each block of the action layout (`notation.action_layout`) is scored."""


@cache
def _scorers(layout: ActionLayout) -> list[Callable[[_Context, int], float]]:
    """The scoring method of every action number, looked up once per layout: the heuristic scores every legal
    action at every move of a search's rollouts, and a walk down the blocks' offsets cost it more than the
    scoring itself for the actions at the end of the layout (air strikes, the commonest)."""
    return [_BLOCK_SCORERS[layout.decode(a)[0]] for a in range(layout.size)]
