"""The Cards of War heuristic bot: it sees only its seat's view.

It scores each legal action by one look ahead: winning a battle (most of all the deciding one), killing
threats (the opponent's top card where the opponent is close to 15), concentrating on the two battles it
leads most, valuing REINFORCE by the follow-up it allows (best on a turn where it wins or kills), and reading
RECON answers (a theatre the opponent holds none of cannot hurt it now) when judging how exposed a card is
to KILL.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from warcards.engine.agents import SeatView
from warcards.engine.api import JSON, Game
from warcards.games.cards_of_war.cards import THEATRES, CardTable
from warcards.games.cards_of_war.codes import NUM_BATTLES
from warcards.games.cards_of_war.game import CardsOfWarGame

WIN = 100.0
ROUND_WIN = 250.0
THREAT = 9  # an opponent total at or above this is a threat worth killing


@dataclass
class Context:
    """Facts shared by every action of one decision."""

    focus: set[int]
    exposure: dict[int, float]
    unseen: int
    won: int
    hand: list[int]


class CardsOfWarHeuristic:
    """Greedy one-ply bot for Cards of War."""

    name = "heuristic"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        if not isinstance(game, CardsOfWarGame):
            raise TypeError(f"the cards-of-war heuristic plays cards-of-war, not {game.game_id}")
        table: CardTable = game.table
        self.t = table
        self.seat = seat
        self.rng = random.Random(seed)
        self.n = table.n
        self.layout = game.layout
        self.kind_of = {ident: k for k, ident in enumerate(table.ids)}
        self.tow = bool(game.options["theatres_of_war"])
        self.target = game.numbers.battle_target
        """WINNING A BATTLE's points (the game's rule parameters are public, like its rules)."""

    def kind(self, ident: str) -> int:
        return self.kind_of[ident.split("/")[0]]

    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        obs = view.observation()
        context = self._context(obs)
        best = legal[0]
        best_value = float("-inf")
        for action in legal:
            value = self._value(action, obs, context) + self.rng.random() * 0.01
            if value > best_value:
                best, best_value = action, value
        return best

    # ----- evaluation ---------------------------------------------------------------------------------------
    def _context(self, obs: JSON) -> Context:
        """Facts shared by every action: focus battles and how likely each type is to be killed."""
        seat = self.seat
        opp = 1 - seat
        battles: list[JSON] = obs["battles"]
        open_b = [b for b in range(3) if battles[b]["winner"] is None]
        lead = {b: battles[b]["totals"][seat] - battles[b]["totals"][opp] for b in open_b}
        focus = set(sorted(open_b, key=lambda b: (-lead[b], b))[:2])
        seen: set[int] = {self.kind(c) for c in obs["hand"]}
        for battle in battles:
            for pile in battle["piles"]:
                seen.update(self.kind(c) for c in pile)
        for pile in obs["discard"]:
            seen.update(self.kind(c) for c in pile)
        unseen = [k for k in range(self.n) if k not in seen]
        theatre_weight = [1.0, 1.0, 1.0, 1.0]
        recon = [r for r in obs["recon"] if r["of"] == opp and r["round"] == obs["round"]]
        if recon:
            counts = recon[-1]["counts"]
            total = sum(counts.values()) or 1
            theatre_weight = [0.3 + 2.0 * counts[t] / total for t in THEATRES]
        exposure: dict[int, float] = {}
        for k in unseen:
            for bit in range(len(self.t.legend)):
                if self.t.killmask[k] >> bit & 1:
                    exposure[bit] = exposure.get(bit, 0.0) + theatre_weight[self.t.theatre[k]]
        won = sum(1 for b in battles if b["winner"] == seat)
        return Context(focus, exposure, max(len(unseen), 1), won, [self.kind(c) for c in obs["hand"]])

    def _place_value(self, kind: int, b: int, obs: JSON, ctx: Context, follow_up: bool) -> float:
        t = self.t
        seat = self.seat
        opp = 1 - seat
        battle: JSON = obs["battles"][b]
        mine: int = battle["totals"][seat]
        theirs: int = battle["totals"][opp]
        theatre = battle["theatre"]
        counts = not self.tow or theatre is None or THEATRES[t.theatre[kind]] == theatre
        gain = t.score[kind] if counts else 0
        value = 0.0
        their_pile = battle["piles"][opp]
        if t.killmask[kind] and their_pile:
            top = self.kind(their_pile[-1])
            if t.typemask[top] & t.killmask[kind]:
                top_counts = not self.tow or THEATRES[t.theatre[top]] == theatre
                killed = t.score[top] if top_counts else 0
                value += killed * (2.0 + (4.0 if theirs >= THREAT else 0.0)) + 1.0
        if mine + gain >= self.target:
            value += WIN + (ROUND_WIN if ctx.won + 1 >= 2 else 0.0)
        weight = 1.0 if b in ctx.focus else 0.25
        value += gain * weight
        if gain == 0 and not value:
            value -= 1.0 + t.score[kind] * 0.5
        risk = sum(ctx.exposure.get(bit, 0.0) for bit in range(len(t.legend)) if t.typemask[kind] >> bit & 1)
        value -= gain * 0.6 * min(1.0, risk / ctx.unseen * 4)
        if t.reinforce[kind] and not follow_up:
            value += self._reinforce_tempo(kind, b, obs, ctx)
        if t.recon[kind]:
            value += 0.5
        value -= t.score[kind] * 0.05
        return value

    def _reinforce_tempo(self, kind: int, b: int, obs: JSON, ctx: Context) -> float:
        """REINFORCE is a free extra deployment: worth most on a turn where the card it allows wins or kills."""
        best = 0.0
        for other in ctx.hand:
            if other == kind:
                continue
            for target in range(3):
                if obs["battles"][target]["winner"] is None:
                    best = max(best, self._place_value(other, target, obs, ctx, follow_up=True))
        return 1.0 + 0.7 * best if best >= 6.0 else 1.0 + 0.3 * best


    def _value(self, action: int, obs: JSON, ctx: Context) -> float:
        block, index = self.layout.decode(action)
        if block == "pass_turn":
            return 0.0
        if block == "top_discard":
            top: str = obs["discard"][0 if len(obs["discard"]) == 1 else self.seat][-1]
            return self._place_value(self.kind(top), index, obs, ctx, follow_up=False)
        if block == "joint":
            kind, b = divmod(index, NUM_BATTLES)
            first = self._place_value(kind, b, obs, ctx, follow_up=False)
            partner = max(
                (self._place_value(other, x, obs, ctx, follow_up=True)
                 for other in ctx.hand if self.t.partners[kind] >> other & 1
                 for x in range(3) if x != b and obs["battles"][x]["winner"] is None),
                default=0.0,
            )
            return first + partner + 1.0
        kind, b = divmod(index, NUM_BATTLES)
        return self._place_value(kind, b, obs, ctx, follow_up=False)


def heuristic_agent(game: Game, seat: int, seed: int) -> CardsOfWarHeuristic:
    """The registry's entry point for the `heuristic` bot."""
    return CardsOfWarHeuristic(game, seat, seed)
