"""The Minimal Game heuristic bot: it sees only its seat's view.

Lead the strongest card; follow with the weakest card that wins the trick, or, when none can, discard the
weakest card face down (it could not win, and face down it tells the others nothing).
"""

from __future__ import annotations

from minimal_game.game import MinimalGame
from warcards.engine.agents import SeatView
from warcards.engine.api import Game


class MinimalHeuristic:
    """Greedy bot for the Minimal Game; `MinimalHeuristic(game, seat, seed)` is the spec's heuristic."""

    name = "heuristic"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        if not isinstance(game, MinimalGame):
            raise TypeError(f"the minimal-game heuristic plays minimal-game, not {game.game_id}")
        self.game = game
        self.seat = seat
        self.seed = seed

    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        observation = view.observation(frozenset({"hand", "trick", "leader"}))
        numbers = self.game.card_numbers
        table = self.game.table
        layout = self.game.layout
        hand = sorted((numbers[ident.lower()] for ident in observation["hand"]), key=table.strengths.__getitem__)
        led = observation["trick"][observation["leader"]]
        if led is None:
            return layout.play + hand[-1]
        suit = table.suits[numbers[led.lower()]]
        best = max(table.strengths[numbers[card.lower()]] for card in observation["trick"]
                   if card not in (None, "face down") and table.suits[numbers[card.lower()]] == suit)
        winning = [card for card in hand if table.suits[card] == suit and table.strengths[card] > best]
        if winning:
            return layout.play + winning[0]
        return layout.discard + hand[0]
