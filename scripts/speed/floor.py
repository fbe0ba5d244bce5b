"""How fast a game could be through the OpenSpiel-shaped loop if its rules cost nothing: the floor under the
"0.5× hearts" goal (issue 36), measured, not estimated.

    PYTHONPATH=src python3 scripts/speed/floor.py GAME '{"players": 4}' [GAMES] [REPS]

Records GAMES seeded games (seeds 0..GAMES-1) of GAME as `../shared/bench/speed_ratio.py`'s `playout` plays
them: at every node who acts, the chance pairs or the legal list, the action taken. Then times, in CPU time
per action (`time.process_time`, best of REPS, the four alternating in each repetition), the same `playout`
driving:

- `hearts`: OpenSpiel's C++ hearts (as many seeded games as take about as long as the game's);
- `bare`: a replay stub with no engine and no rules — each node's pairs or legal list copied, the action
  tested with `in`: the loop's own cost (its Python sampling over the pairs, `random.choice`, four calls);
- `engine`: a replay stub that is a real `warcards.engine.State`, its hooks answering from the recording (a
  `Uniform` or `Weighted` description per chance node, a copy of each legal list): the loop and the engine's
  contract with no rules;
- `game`: the game itself.

It prints each figure, the ratio to hearts, and what the rules may cost per action at 0.5× hearts
(`2 × hearts − engine`) against what they cost now (`game − engine`). Nothing here asserts a time.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "shared" / "bench"))

from speed_ratio import playout

import warcards
from warcards.engine.api import CHANCE, JSON, TERMINAL, Chance, Game, Rng, State, Uniform, Weighted

Node = tuple[int, list[tuple[int, float]] | None, list[int]]


def record(game: Game, games: int) -> list[list[Node]]:
    """Each seeded game's nodes as `playout` meets them: (who acts, chance pairs or None, legal list)."""
    games_nodes: list[list[Node]] = []
    for seed in range(games):
        rng, state = random.Random(seed), game.new_initial_state()
        nodes: list[Node] = []
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                r, acc, pick = rng.random(), 0.0, outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if r < acc:
                        pick = a
                        break
                nodes.append((CHANCE, outcomes, [a for a, _ in outcomes]))
                state.apply_action(pick)
            else:
                legal = state.legal_actions()
                nodes.append((state.current_player(), None, legal))
                state.apply_action(rng.choice(legal))
        games_nodes.append(nodes)
    return games_nodes


class BareReplay:
    """The loop's own cost: the recorded nodes, no engine, no rules."""

    __slots__ = ("at", "legal", "nodes")

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes, self.at = nodes, 0
        self.legal: list[int] = []

    def is_terminal(self) -> bool:
        return self.at == len(self.nodes)

    def current_player(self) -> int:
        return self.nodes[self.at][0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        _, pairs, self.legal = self.nodes[self.at]
        return list(pairs or ())

    def legal_actions(self) -> list[int]:
        self.legal = self.nodes[self.at][2]
        return self.legal.copy()

    def apply_action(self, action: int) -> None:
        if action not in self.legal:
            raise ValueError(action)
        self.at += 1


def _description(pairs: list[tuple[int, float]]) -> Chance:
    """The cheapest engine description giving exactly these pairs: `Uniform` when all are equally likely."""
    if len({p for _, p in pairs}) == 1:
        return Uniform([a for a, _ in pairs])
    return Weighted(pairs)


class EngineReplay(State):
    """The loop and the engine's contract (`State`'s own `legal_actions`, `chance_outcomes`, `apply_action`),
    with hooks that read the recording: what a game with free rules would cost."""

    def __init__(self, game: Game, nodes: list[Node], described: list[Chance | None]) -> None:
        super().__init__(game)
        self.nodes, self.described, self.at, self.to_act = nodes, described, 0, nodes[0][0]

    def current_player(self) -> int:
        return self.to_act

    def is_terminal(self) -> bool:
        return self.to_act == TERMINAL

    def _legal_actions(self) -> list[int]:
        return self.nodes[self.at][2].copy()

    def _chance(self) -> Chance:
        described = self.described[self.at]
        assert described is not None
        return described

    def _apply(self, action: int) -> None:
        self.at += 1
        self.to_act = self.nodes[self.at][0] if self.at < len(self.nodes) else TERMINAL

    # Never called by the loop: the rest of the contract, refused.
    def _illegal_reason(self, action: int) -> str:
        raise NotImplementedError

    def returns(self) -> list[float]:
        raise NotImplementedError

    def _copy(self) -> State:
        raise NotImplementedError

    def _observe(self, seat: int) -> JSON:
        raise NotImplementedError

    def _determinize(self, seat: int, rng: Rng) -> State:
        raise NotImplementedError

    def action_to_string(self, action: int) -> str:
        raise NotImplementedError

    def _parse_action(self, text: str) -> int:
        raise NotImplementedError

    def zones(self) -> dict[str, list[str]]:
        raise NotImplementedError

    def position(self) -> JSON:
        raise NotImplementedError

def cpu_per_action(run: Callable[[], int]) -> float:
    start = time.process_time()
    actions = run()
    return (time.process_time() - start) / actions * 1e9


def main() -> None:
    import pyspiel

    game = warcards.load_game(sys.argv[1], **json.loads(sys.argv[2]))
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    reps = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    recorded = record(game, games)
    described = [[_description(pairs) if pairs is not None else None for _, pairs, _ in nodes] for nodes in recorded]
    hearts = pyspiel.load_game("hearts")
    hearts_games = 8 * games  # about as long as a Naval War or Med Sirocco workload

    def run_game() -> int:
        return sum(playout(game.new_initial_state(), random.Random(seed), CHANCE) for seed in range(games))

    def run_bare() -> int:
        return sum(playout(BareReplay(nodes), random.Random(seed), CHANCE) for seed, nodes in enumerate(recorded))

    def run_engine() -> int:
        return sum(playout(EngineReplay(game, nodes, described[seed]), random.Random(seed), CHANCE)
                   for seed, nodes in enumerate(recorded))

    def run_hearts() -> int:
        chance = pyspiel.PlayerId.CHANCE
        return sum(playout(hearts.new_initial_state(), random.Random(seed), chance) for seed in range(hearts_games))

    runs = {"hearts": run_hearts, "bare": run_bare, "engine": run_engine, "game": run_game}
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(reps):
        for name, run in runs.items():
            best[name] = min(best[name], cpu_per_action(run))
    h = best["hearts"]
    print(f"{sys.argv[1]} {sys.argv[2]}, {games} games, CPU ns per action (best of {reps}):")
    for name in runs:
        print(f"  {name:7} {best[name]:6.0f} ns   {h / best[name]:.3f}× hearts")
    print(f"  the rules now {best['game'] - best['engine']:.0f} ns an action; at 0.5× hearts they may cost "
          f"{2 * h - best['engine']:.0f} ns (the loop and the engine alone: {h / best['engine']:.2f}× hearts)")


if __name__ == "__main__":
    main()
