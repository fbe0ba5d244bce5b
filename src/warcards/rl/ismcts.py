"""OpenSpiel's own Python ISMCTS as a warcards bot, for comparisons with `hard`: the bot `openspiel-ismcts` of
`make_agent` (docs/bots.md, docs/rl.md).

It plays through the OpenSpiel adapter (`warcards.rl.openspiel`), so it lives in the RL package, above the
bots: `warcards.bots` names its builder by reference and imports this module only when such a bot is built
(it needs the rl extra).
"""

from __future__ import annotations

import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from warcards.bots.ismcts import CanonicalRandom, SearchStats, build, search_positions
from warcards.engine.agents import Agent, SeatView
from warcards.engine.api import Game
from warcards.rl.openspiel import from_game


class OpenSpielISMCTSAgent:
    """OpenSpiel's own Python ISMCTS (`open_spiel.python.algorithms.ismcts.ISMCTSBot`, random rollouts)
    playing through the OpenSpiel adapter (`warcards.rl.openspiel`), for comparisons with `hard`.

    Like our bot it sees only its view: its search starts from `view.determinize(rng)` wrapped as an
    OpenSpiel state, with its own past actions (which it remembers) in the information state."""

    name = "openspiel-ismcts"

    def __init__(self, game: Game, seat: int, seed: int, simulations: int, exploration: float = 2.0) -> None:
        self.seat = seat
        self.rng = CanonicalRandom(seed)
        self.spiel_game = from_game(game)
        random_state = np.random.RandomState(seed % 2**32)
        self.bot = ismcts.ISMCTSBot(
            self.spiel_game,
            mcts.RandomRolloutEvaluator(1, random_state),
            exploration,
            simulations,
            random_state=random_state,
            allow_inconsistent_action_sets=True,
        )
        self.own: list[int] = []
        self.last = SearchStats()

    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            start = time.perf_counter()
            spiel_state = self.spiel_game.new_initial_state()
            spiel_state.holder.state = view.determinize(self.rng)
            spiel_state.holder.own[self.seat] = list(self.own)
            action = int(self.bot.step(spiel_state))
            self.last = SearchStats(self.bot._max_simulations, time.perf_counter() - start, None)
        self.own.append(action)
        return action


# OpenSpiel ISMCTS simulations per move that take as long as one `hard` decision, by game and player count
# (measured side by side on the same positions with `matched_openspiel_simulations`: see docs/bots.md).
OPENSPIEL_SIMULATIONS: dict[tuple[str, int], int] = {
    ("cards-of-war", 2): 110,
    ("race-to-messina", 2): 2,
    ("race-to-messina", 3): 4,
    ("med-sirocco", 2): 21,
    ("med-sirocco", 3): 10,
    ("med-sirocco", 4): 11,
    ("med-sirocco", 5): 9,
    ("med-sirocco", 6): 8,
    ("naval-war", 3): 32,
    ("naval-war", 4): 7,
    ("naval-war", 5): 6,
    ("naval-war", 6): 7,
    ("naval-war", 7): 8,
    ("naval-war", 8): 9,
    ("naval-war", 9): 5,
}
OPENSPIEL_DEFAULT_SIMULATIONS = 10
"""For a game or player count not measured yet (rerun `matched_openspiel_simulations` and add it above)."""


def matched_openspiel_simulations(game: Game, level: str = "hard", decisions: int = 6, seed: int = 0) -> int:
    """How many OpenSpiel ISMCTS simulations take as long as a `level` decision, on the same positions
    (both timed on this machine, one after the other, so load affects both alike)."""
    positions = search_positions(game, decisions, seed)
    ours = 0.0
    for index, position in enumerate(positions):
        seat = position.current_player()
        agent = build(level, game, seat, seed + index)
        agent.step(SeatView(position, seat))
        ours += agent.last.seconds
    probe = 20
    theirs = 0.0
    for index, position in enumerate(positions):
        seat = position.current_player()
        bot = OpenSpielISMCTSAgent(game, seat, seed + index, probe)
        bot.step(SeatView(position, seat))
        theirs += bot.last.seconds
    return max(1, round(probe * ours / theirs))


def make_openspiel_ismcts(game: Game, seat: int, seed: int) -> Agent:
    """The bot `openspiel-ismcts` of `make_agent`: `OpenSpielISMCTSAgent` at the simulations per move that
    take as long as a `hard` decision (`OPENSPIEL_SIMULATIONS`)."""
    simulations = OPENSPIEL_SIMULATIONS.get((game.game_id, game.num_players), OPENSPIEL_DEFAULT_SIMULATIONS)
    return OpenSpielISMCTSAgent(game, seat, seed, simulations)
