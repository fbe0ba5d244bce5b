"""Measure the RL wrappers' overhead: random play through each wrapper next to the raw engine driver loop.

    python examples/bench_rl.py race-to-messina --seconds 5

For one game (default options) it reports, as a Markdown table:
- raw engine: actions/s of the driver loop (current_player / legal_actions / chance_outcomes / apply_action),
  chance and player actions counted alike;
- PettingZoo AEC: env steps/s of the usual `agent_iter` loop (`last()` builds the observation and the mask,
  then a masked random action);
- Gymnasium: env steps/s of seat 0 with the `random` bot in the other seats (each step also plays the
  bots and chance until seat 0 acts again);
- OpenSpiel: actions/s of a random playout through `pyspiel` (chance included), without observations.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import warcards
from warcards.engine import CHANCE
from warcards.rl import gymnasium_env, openspiel, pettingzoo_env


def raw_engine(game_id: str, seconds: float) -> float:
    game = warcards.load_game(game_id)
    rng = random.Random(0)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_chance(rng.random())
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (time.perf_counter() - start)


def pettingzoo(game_id: str, seconds: float) -> float:
    env = pettingzoo_env(game_id)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    episode = 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=episode)
        episode += 1
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def gymnasium(game_id: str, seconds: float) -> float:
    env = gymnasium_env(game_id, 0, "random")
    rng = np.random.default_rng(0)
    steps = 0
    obs, _ = env.reset(seed=0)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if terminated or truncated:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def open_spiel(game_id: str, seconds: float) -> float:
    import pyspiel

    game = pyspiel.load_game(openspiel.register([game_id])[0])
    rng = random.Random(0)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(rng.random())
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    print("| game | raw engine actions/s | PettingZoo steps/s | Gymnasium steps/s | OpenSpiel actions/s |")
    print("|---|---|---|---|---|")
    for game_id in args.games or warcards.games():
        rates = [bench(game_id, args.seconds) for bench in (raw_engine, pettingzoo, gymnasium, open_spiel)]
        print(f"| {game_id} | " + " | ".join(f"{rate:,.0f}" for rate in rates) + " |", flush=True)


if __name__ == "__main__":
    main()
