"""Fit the constants of `warcards.games.cards_of_war.evaluate` and print them.

Plays seeded games of the heuristic bot in every seat, each move uniformly random with probability 0.1
(the positions `warcards.bots.calibration` measures on, from another seed), then:
- BATTLE_WEIGHTS and ROUND_TEMPERATURE: maximum likelihood (BFGS) of "seat 0 wins this round" given the
  round's battles (`evaluate.battle_features`, combined as `evaluate.round_outcome` does), over positions
  sampled every third action inside rounds of the short, normal and long games (default options);
- FIRST_ROUND_LOGIT: the logit of the share of rounds won by the round's first player in those games;
- HAND_SIZE_LOGIT: a logistic regression of the round winner, at the start of each round of long games with
  Strategic exhaustion, on the first player and the base hand-size lead (Newton's method).

    python3 scripts/fit_evaluate/cards_of_war.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import math
import random
from typing import Any

import numpy as np
from scipy.optimize import minimize

from warcards.bots.calibration import heuristic_seats, noisy_move
from warcards.engine.registry import load_game
from warcards.games.cards_of_war.codes import Phase
from warcards.games.cards_of_war.evaluate import BATTLE_WEIGHTS, battle_features
from warcards.games.cards_of_war.state import CardsOfWarState

RANDOM_SHARE = 0.1
SAMPLE_EVERY = 3
LENGTHS = ("short", "normal", "long")

# One sampled position: (battle winners, per-battle features, round winner); one round start: (first player,
# base hand-size lead of seat 0, round winner).
Sample = tuple[list[int], list[tuple[float, ...]], int]
Start = tuple[int, int, int]


def collect(options: dict[str, Any], games: int, seed: int) -> tuple[list[Sample], list[Start]]:
    """Positions inside rounds (with the round's winner) and round starts, from seeded games."""
    game = load_game("cards-of-war", **options)
    rng = random.Random(seed)
    width = len(BATTLE_WEIGHTS)
    samples: list[Sample] = []
    starts: list[Start] = []
    for _ in range(games):
        agents = heuristic_seats(game, rng)
        state = game.new_initial_state()
        assert isinstance(state, CardsOfWarState)
        pending: list[tuple[int, list[int], list[tuple[float, ...]]]] = []
        openings: list[tuple[int, int, int]] = []
        step = 0
        while not state.is_terminal():
            if state.phase == Phase.DEPLOY and state.moves == 0 and (
                not openings or openings[-1][0] != state.round_number
            ):
                openings.append((state.round_number, state.first_player, state.base_hand_limits[0] - state.base_hand_limits[1]))
            if step % SAMPLE_EVERY == 0 and state.phase != Phase.FIRST_DRAW:
                winners: list[int] = []
                features: list[tuple[float, ...]] = []
                for battle in battle_features(state):
                    if isinstance(battle, int):
                        winners.append(battle)
                        features.append((0.0,) * width)
                    else:
                        winners.append(-1)
                        features.append(battle)
                pending.append((state.round_number, winners, features))
            noisy_move(state, agents, rng, RANDOM_SHARE)
            step += 1
        results = state.round_results
        for round_no, winners, features in pending:
            if round_no <= len(results) and results[round_no - 1] >= 0:
                samples.append((winners, features, results[round_no - 1]))
        for round_no, first, lead in openings:
            if round_no <= len(results) and results[round_no - 1] >= 0:
                starts.append((first, lead, results[round_no - 1]))
    return samples, starts


def fit_round(samples: list[Sample]) -> tuple[np.ndarray, float]:
    """Battle weights and round temperature maximising the likelihood of the round winners."""
    winners = np.array([state[0] for state in samples])
    features = np.array([state[1] for state in samples])
    won = np.array([1.0 if state[2] == 0 else 0.0 for state in samples])
    open_ = winners < 0
    fixed = (winners == 0).astype(float)
    k = features.shape[-1]

    def round_probability(theta: np.ndarray) -> np.ndarray:
        p = np.where(open_, 1.0 / (1.0 + np.exp(-(features @ theta[:k]))), fixed)
        a, b, c = p[:, 0], p[:, 1], p[:, 2]
        win = np.clip(a * b + a * c + b * c - 2.0 * a * b * c, 1e-9, 1.0 - 1e-9)
        sharp: np.ndarray = np.clip(1.0 / (1.0 + np.exp(-theta[k] * np.log(win / (1.0 - win)))), 1e-9, 1.0 - 1e-9)
        return sharp

    def loss(theta: np.ndarray) -> float:
        q = round_probability(theta)
        return float(-np.mean(won * np.log(q) + (1.0 - won) * np.log(1.0 - q)))

    result = minimize(loss, np.r_[np.full(k, 0.1), 1.0], method="BFGS")
    q = round_probability(result.x)
    print(f"round model: {len(samples)} positions, log loss {result.fun:.4f}, "
          f"MSE of 2q-1 {np.mean((2 * q - 2 * won) ** 2):.4f} (constant {np.var(2 * won):.4f})")
    weights: np.ndarray = np.array(result.x[:k], dtype=float)
    return weights, float(result.x[k])


def fit_hand_size(starts: list[Start]) -> tuple[float, float]:
    """Logistic regression of seat 0 winning a round on (first player sign, base hand-size lead)."""
    x = np.array([[1.0 if first == 0 else -1.0, float(lead)] for first, lead, _ in starts])
    y = np.array([1.0 if winner == 0 else 0.0 for _, _, winner in starts])
    theta = np.zeros(2)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        gradient = x.T @ (y - p)
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + 1e-6 * np.eye(2)
        theta += np.linalg.solve(hessian, gradient)
    return float(theta[0]), float(theta[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per length")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    samples: list[Sample] = []
    starts: list[Start] = []
    for index, length in enumerate(LENGTHS):
        more, opened = collect({"length": length}, args.games, args.seed * 1000 + index)
        samples += more
        starts += opened
    weights, temperature = fit_round(samples)
    first_share = sum(1 for first, _, winner in starts if winner == first) / len(starts)
    print(f"first player won {first_share:.3f} of {len(starts)} rounds")
    _, exhausted = collect({"length": "long", "strategic_exhaustion": True}, args.games, args.seed * 1000 + 9)
    _, hand_size = fit_hand_size(exhausted)
    print(f"BATTLE_WEIGHTS: tuple[float, ...] = ({', '.join(f'{w:.3f}' for w in weights)})")
    print(f"ROUND_TEMPERATURE = {temperature:.3f}")
    print(f"FIRST_ROUND_LOGIT = {math.log(first_share / (1.0 - first_share)):.3f}")
    print(f"HAND_SIZE_LOGIT = {hand_size:.3f}  ({len(exhausted)} rounds of long games with Strategic exhaustion)")


if __name__ == "__main__":
    main()
