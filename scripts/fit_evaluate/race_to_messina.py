"""Fit the constants of `warcards.games.race_to_messina.evaluate` (`DT_WEIGHT`, `SUPPLY_WEIGHT` and `FITS`)
and print them.

Plays seeded games (600 per variant, seeds 1943-1945) of the heuristic bot in every seat, each move
uniformly random with probability 0.1 (the kind of positions `warcards.bots.calibration` measures on,
which uses seed 0), samples every other position, and:
- `DT_WEIGHT`, `SUPPLY_WEIGHT`: fits, for each variant's Deployment and Action phases, a logistic
  regression of "the attacker wins this battle at this turn's Resolution" on the three terms of
  `evaluate.battle_terms` (the force edge, the discard swing, the Supply term), and averages the
  swing's and the Supply term's coefficients over the edge's;
- per variant and phase (Logistics, Strategy, Deployment, Action): the same regression on the single
  edge `force edge + DT_WEIGHT * swing + SUPPLY_WEIGHT * supply`, one slope per phase and one intercept
  per battle (Newton's method);
- counts how often each pattern of battles won occurs, and the turn's PT gains (hands, Progress and
  Hube, without the Axis end-of-turn PT) given the pattern; gains seen in under 0.5% of a pattern's turns
  are dropped and the rest renormalised.

    python3 scripts/fit_evaluate/race_to_messina.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

import numpy as np

from warcards.bots.calibration import heuristic_seats, noisy_move
from warcards.engine.registry import load_game
from warcards.games.race_to_messina import codes
from warcards.games.race_to_messina.evaluate import battle_terms
from warcards.games.race_to_messina.state import RaceToMessinaState

PHASES = (codes.Phase.LOGISTICS, codes.Phase.STRATEGY, codes.Phase.DEPLOYMENT, codes.Phase.ACTION)
RANDOM_SHARE = 0.1
SAMPLE_EVERY = 2
MIN_SHARE = 0.005


Sample = tuple[int, int, tuple[float, float, float], int]
Turn = tuple[int, tuple[int, ...]]


def collect(variant: str, games: int, seed: int) -> tuple[list[Sample], list[Turn]]:
    """Battle samples (phase, battle, (edge, swing), won) and turns (pattern, gains) from seeded games."""
    game = load_game("race-to-messina", variant=variant)
    rng = random.Random(seed)
    samples: list[Sample] = []
    turns: list[Turn] = []
    for _ in range(games):
        agents = heuristic_seats(game, rng)
        state = game.new_initial_state()
        assert isinstance(state, RaceToMessinaState)
        start = tuple(state.progress_tokens)
        turn = state.turn
        pending: list[tuple[int, list[tuple[float, float, float]]]] = []
        step = 0
        while not state.is_terminal():
            if state.turn != turn:
                turn, start, pending = state.turn, tuple(state.progress_tokens), []
            if state.phase in PHASES and step % SAMPLE_EVERY == 0:
                pending.append((state.phase, battle_terms(state)))
            before = state.phase
            noisy_move(state, agents, rng, RANDOM_SHARE)
            step += 1
            if before == codes.Phase.ACTION and state.phase != codes.Phase.ACTION:
                hands = [event[5] for event in state.log if event[0] == codes.EV_HAND]
                if not hands:
                    break
                pattern = sum(won << b for b, won in enumerate(hands))
                turns.append((pattern, tuple(a - b for a, b in zip(state.progress_tokens, start, strict=True))))
                for phase, edges in pending:
                    for b, terms in enumerate(edges):
                        samples.append((phase, b, terms, hands[b]))
                pending = []
    return samples, turns


def logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Maximum-likelihood logistic regression coefficients (Newton's method, a tiny ridge for safety)."""
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-x @ beta))
        gradient = x.T @ (y - p) - 1e-6 * beta
        hessian = (x * (p * (1 - p))[:, None]).T @ x + 1e-6 * np.eye(x.shape[1])
        delta = np.linalg.solve(hessian, gradient)
        beta += delta
        if np.abs(delta).max() < 1e-10:
            break
    return beta


def design(
    samples: list[Sample], phase: int, battles: int, weights: tuple[float, float] | None
) -> tuple[np.ndarray, np.ndarray]:
    """The regression of one phase: the three terms (or the edge plus `weights` times the swing and the
    Supply term), one intercept column per battle."""
    rows = [(b, terms, won) for ph, b, terms, won in samples if ph == phase]
    width = (1 if weights is not None else 3) + battles
    x = np.zeros((len(rows), width))
    y = np.zeros(len(rows))
    for i, (b, (edge, swing, supply), won) in enumerate(rows):
        if weights is None:
            x[i, 0], x[i, 1], x[i, 2] = edge, swing, supply
        else:
            x[i, 0] = edge + weights[0] * swing + weights[1] * supply
        x[i, width - battles + b] = 1.0
        y[i] = won
    return x, y


def term_weights(data: dict[str, tuple[list[Sample], list[Turn]]]) -> tuple[float, float]:
    """The swing's and the Supply term's coefficients over the edge's, averaged over the variants'
    Deployment and Action fits."""
    ratios = []
    for samples, _ in data.values():
        battles = max(b for _, b, _, _ in samples) + 1
        for phase in (codes.Phase.DEPLOYMENT, codes.Phase.ACTION):
            beta = logistic(*design(samples, phase, battles, None))
            ratios.append((beta[1] / beta[0], beta[2] / beta[0]))
    dt, supply = np.mean(ratios, axis=0)
    return round(float(dt), 2), round(float(supply), 2)


def fit(variant: str, samples: list[Sample], turns: list[Turn], weight: tuple[float, float]) -> str:
    battles = max(b for _, b, _, _ in samples) + 1
    slopes: list[float] = []
    biases: list[tuple[float, ...]] = []
    for phase in PHASES:
        beta = logistic(*design(samples, phase, battles, weight))
        slopes.append(round(float(beta[0]), 4))
        biases.append(tuple(round(float(c), 3) for c in beta[1:]))
    patterns = Counter(w for w, _ in turns)
    rates = tuple(round(patterns[w] / len(turns), 4) for w in range(1 << battles))
    gains: list[tuple[tuple[float, tuple[int, ...]], ...]] = []
    for w in range(1 << battles):
        seen = Counter(g for pw, g in turns if pw == w)
        total = sum(seen.values())
        kept = {g: n for g, n in seen.items() if n >= MIN_SHARE * total}
        norm = sum(kept.values())
        gains.append(
            tuple((round(n / norm, 4), g) for g, n in sorted(kept.items(), key=lambda item: -item[1]))
        )
    return (
        f'    "{variant}": Fit(\n'
        f"        slope={tuple(slopes)},\n"
        f"        bias={tuple(biases)},\n"
        f"        pattern={rates},\n"
        f"        gains={tuple(gains)},\n"
        f"    ),  # {len(turns)} turns, {len(samples)} battle samples"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1943)
    args = parser.parse_args()
    variants = ("invasion", "race", "sicily")
    data = {
        variant: collect(variant, args.games, args.seed + index) for index, variant in enumerate(variants)
    }
    weight = term_weights(data)
    print(f"DT_WEIGHT = {weight[0]}")
    print(f"SUPPLY_WEIGHT = {weight[1]}")
    print("FITS: dict[str, Fit] = {")
    for variant in variants:
        print(fit(variant, *data[variant], weight))
    print("}")


if __name__ == "__main__":
    main()
