"""A heuristic Race to Messina bot: it reads only its seat's observation and the legal actions.

Plan: Strategy discards weak or unusable cards; Deployment commits every usable card (cards kept back are
mostly lost in Recovery, which keeps only 2) unless the hand cannot hope to win, when it holds its two best
cards for the next turn; the Sicily Axis balances its two Sets; the Action phase fires
discard abilities at the strongest target first, then Hube, Progress and Supply (revealing the drawn card
when it may), then Recon; Recovery keeps the two most valuable cards. Every card is valued from the game's own
card table (`game.table`: the shipped cards or the file of the `cards` option).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from warcards.engine.agents import SeatView
from warcards.engine.api import Game
from warcards.games.race_to_messina.cards import DISCARD, GAIN_PT, PROGRESS, RECON, SUPPLY, CardTable
from warcards.games.race_to_messina.notation import (
    K_ACTIVATE,
    K_DEPLOY,
    K_DEPLOY_SECOND,
    K_DISCARD,
    K_DONE,
    K_PASS,
    K_REVEAL,
    K_TARGET,
    decode,
)
from warcards.games.race_to_messina.params import VARIANT_TABLE

if TYPE_CHECKING:
    from warcards.games.race_to_messina.game import RaceToMessinaGame

ABILITY_VALUE = {DISCARD: 2, GAIN_PT: 3, PROGRESS: 2, SUPPLY: 1, RECON: 0}
ACTIVATION_RANK = {GAIN_PT: 0, PROGRESS: 1, SUPPLY: 2, RECON: 3}
HOLD = 2
"""Recovery keeps 2 cards, so a hopeless hand holds back its 2 best for the next turn."""
HOPELESS_SHARE = 0.5
DISCARD_BELOW = 7
"""Strategy: cards valued below this are swapped for a fresh draw (the decks average about 6)."""


def card_value(table: CardTable, card: int) -> int:
    """Force plus a small bonus for a useful ability or a modifier."""
    return table.force[card] + ABILITY_VALUE.get(table.ability[card], 0) + table.mod_bonus[card] * 2


def mean_force(table: CardTable) -> float:
    """The mean force of a card (the printed cards: 5.5, Axis 247/47 and Ally 270/47)."""
    return sum(table.force) / table.size


_FIELDS = frozenset({"variant", "phase", "deploying", "groups", "hand_sizes"})
"""The observation fields the heuristic reads."""

class RaceToMessinaHeuristic:
    """The Race to Messina heuristic (module docstring)."""

    name = "heuristic"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.table: CardTable = cast("RaceToMessinaGame", game).table
        self.mean_force = mean_force(self.table)
        self.values: tuple[int, ...] = tuple(card_value(self.table, card) for card in range(self.table.size))
        """`card_value` of every card, by card number."""

    def usable_value(self, obs: dict[str, object], card: int) -> int:
        """`card_value`, or 0 for a card this seat may never deploy (AA/AB, RULES.md R20)."""
        allowed = VARIANT_TABLE[str(obs["variant"])].allowed_restrictions[self.seat]
        return self.values[card] if allowed >> self.table.restriction[card] & 1 else 0

    def step(self, view: SeatView) -> int:
        """One move from this seat's view (only the fields in `_FIELDS` are read)."""
        legal = view.legal_actions()
        obs = view.observation(_FIELDS)
        decoded = [(action, *decode(self.table, action)) for action in legal]
        kinds = {kind for _, kind, _, _ in decoded}
        phase = obs["phase"]
        if phase == "action":
            return self._action(legal, decoded, kinds)
        if phase == "deployment":
            return self._deploy(obs, legal, decoded)
        if phase == "strategy":
            return self._strategy(obs, legal, decoded)
        return self._recovery(obs, decoded, kinds)

    def _strategy(self, obs: dict[str, object], legal: list[int], decoded: list[tuple[int, int, int, int]]) -> int:
        discards = [(self.usable_value(obs, card), action) for action, kind, card, _ in decoded if kind == K_DISCARD]
        weak = sorted(d for d in discards if d[0] < DISCARD_BELOW)
        if weak:
            return weak[0][1]
        return legal[-1]

    def _deploy(self, obs: dict[str, object], legal: list[int], decoded: list[tuple[int, int, int, int]]) -> int:
        values = self.values
        options = [(values[card], kind, action) for action, kind, card, _ in decoded
                   if kind in (K_DEPLOY, K_DEPLOY_SECOND)]
        if not options:
            return legal[-1]
        if self._hopeless(obs, decoded):
            held = sorted({card for _, kind, card, _ in decoded if kind in (K_DEPLOY, K_DEPLOY_SECOND)},
                          key=values.__getitem__)[-HOLD:]
            options = [(value, kind, action) for value, kind, action in options
                       if decode(self.table, action)[1] not in held]
            if not options:
                return legal[-1]
        best_value = max(value for value, _, _ in options)
        best = [(kind, action) for value, kind, action in options if value == best_value]
        if len(best) == 1:
            return best[0][1]
        deploying = obs["deploying"]
        assert isinstance(deploying, dict)
        sets = list(deploying.values())
        table = self.table
        loads = [sum(table.force[table.by_key[c.lower()]] for c in cards) for cards in sets]
        wanted = K_DEPLOY if len(loads) < 2 or loads[0] <= loads[1] else K_DEPLOY_SECOND
        for kind, action in best:
            if kind == wanted:
                return action
        return best[0][1]

    def _hopeless(self, obs: dict[str, object], decoded: list[tuple[int, int, int, int]]) -> bool:
        """Deployment: even every usable card falls far short of what the opponent's hand could field."""
        groups = obs["groups"]
        hand_sizes = obs["hand_sizes"]
        deploying = obs["deploying"]
        assert isinstance(groups, dict) and isinstance(hand_sizes, dict) and isinstance(deploying, dict)
        if len(deploying) > 1:
            return False
        mine = next(iter(deploying)).replace("deploying:", "table:")
        opponent = groups[groups[mine]["faces"]]["owner"]
        table = self.table
        cards = {card for _, kind, card, _ in decoded if kind == K_DEPLOY}
        cards |= {table.by_key[c.lower()] for pending in deploying.values() for c in pending}
        strength = sum(table.force[c] for c in cards)
        fronts = sum(1 for group in groups.values() if group["owner"] == opponent)
        facing = int(hand_sizes[opponent]) / fronts
        return bool(strength < HOPELESS_SHARE * facing * self.mean_force)

    def _action(self, legal: list[int], decoded: list[tuple[int, int, int, int]], kinds: set[int]) -> int:
        if K_REVEAL in kinds:
            return next(action for action, kind, _, _ in decoded if kind == K_REVEAL)
        table = self.table
        targeted = [(self.values[target], action) for action, kind, _, target in decoded if kind == K_TARGET]
        if targeted:
            top = max(value for value, _ in targeted)
            return self.rng.choice([action for value, action in targeted if value == top])
        plain = [(ACTIVATION_RANK.get(table.ability[card], 9), action) for action, kind, card, _ in decoded
                 if kind == K_ACTIVATE]
        if plain:
            return min(plain)[1]
        if K_PASS in kinds:
            return next(action for action, kind, _, _ in decoded if kind == K_PASS)
        return legal[0]

    def _recovery(self, obs: dict[str, object], decoded: list[tuple[int, int, int, int]], kinds: set[int]) -> int:
        if K_DONE in kinds:
            return next(action for action, kind, _, _ in decoded if kind == K_DONE)
        return min((self.usable_value(obs, card), action) for action, kind, card, _ in decoded
                   if kind == K_DISCARD)[1]


def heuristic_agent(game: Game, seat: int, seed: int) -> RaceToMessinaHeuristic:
    """The registry's builder for the Race to Messina heuristic bot."""
    return RaceToMessinaHeuristic(game, seat, seed)
