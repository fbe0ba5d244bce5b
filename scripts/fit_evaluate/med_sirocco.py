"""Fit the constants of `warcards.games.med_sirocco.evaluate` (`PARAMS`) and print them.

Plays seeded games (seed 1, `--games` per option set) of the heuristic bot in every seat, each move
uniformly random with probability 0.1 (the positions `warcards.bots.calibration` measures on, which uses
seed 0), takes every 7th position's `evaluate.features`, and minimises the mean squared error of
`evaluate.combine` against the final returns, summed over the option sets (2–6 players, 5.0 advanced
with 6.1, 6.3, 6.4, series play), with L-BFGS-B on a vectorised twin of `combine` (checked against it
before it prints). Prints the constants and each option set's skill by quarter of the game.

    python3 scripts/fit_evaluate/med_sirocco.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
from scipy.optimize import minimize

from warcards.bots.calibration import heuristic_seats, noisy_move
from warcards.engine.registry import load_game
from warcards.games.med_sirocco.evaluate import PARAMS, Features, Params, combine, features
from warcards.games.med_sirocco.params import SERIES_TARGET
from warcards.games.med_sirocco.state import MedSiroccoState

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 4, "advanced": True, "change_sides": True},
    {"players": 3, "faster": True, "operations": 10},
    {"players": 2, "historicity": True, "change_sides": True, "operations": 15},
    {"players": 3, "series": True},
    {"players": 6, "series": True, "operations": 10},
]
RANDOM_SHARE = 0.1
SAMPLE_EVERY = 7
SEATS = 6
BOUNDS = {
    "scale": (0.01, 10.0),
    "floor": (0.001, 20.0),
    "tie": (0.0, 3.0),
    "sharp": (0.01, 5.0),
    "split": (0.01, 10.0),
    "reach": (0.0, 5.0),
    "grow": (0.05, 5.0),
    "rate": (0.3, 10.0),
}


def collect(options: dict[str, Any], games: int, seed: int) -> list[tuple[float, Features, list[float]]]:
    """(share of the game played, features, final returns) of every 7th non-terminal position."""
    game = load_game("med-sirocco", **options)
    rng = random.Random(seed)
    out: list[tuple[float, Features, list[float]]] = []
    for _ in range(games):
        agents = heuristic_seats(game, rng)
        state = game.new_initial_state()
        taken: list[tuple[int, Features]] = []
        step = 0
        while not state.is_terminal():
            if step % SAMPLE_EVERY == 0:
                assert isinstance(state, MedSiroccoState)
                taken.append((step, features(state)))
            noisy_move(state, agents, rng, RANDOM_SHARE)
            step += 1
        final = state.returns()
        out.extend((at / step, f, final) for at, f in taken)
    return out


class Batch:
    """One option set's samples as arrays (seats padded to six)."""

    def __init__(self, rows: list[tuple[float, Features, list[float]]]) -> None:
        m = len(rows)
        self.rows = rows
        self.mask = np.zeros((m, SEATS), bool)
        self.y = np.zeros((m, SEATS))
        self.stage = np.zeros(m, int)
        per_seat = ("bank", "ops", "reach", "decided")
        self.seat = {name: np.zeros((m, SEATS)) for name in per_seat}
        self.best = np.full((2, m, SEATS), -1.0)
        scalars = (
            "progress",
            "remaining",
            "series_lead",
            "prize",
            "total0",
            "total1",
            "worth0",
            "worth1",
            "n",
            "won",
        )
        self.one = {name: np.zeros(m) for name in scalars}
        for i, (share, f, final) in enumerate(rows):
            n = len(f.bank)
            self.mask[i, :n] = True
            self.y[i, :n] = final
            self.stage[i] = min(3, int(share * 4))
            for name in per_seat:
                values = getattr(f, name)
                if values:
                    self.seat[name][i, :n] = values
            if f.best[0]:
                self.best[0, i, :n] = f.best[0]
                self.best[1, i, :n] = f.best[1]
            for name in ("progress", "remaining", "series_lead", "prize"):
                self.one[name][i] = getattr(f, name)
            self.one["total0"][i], self.one["total1"][i] = f.totals
            self.one["worth0"][i], self.one["worth1"][i] = f.worth
            self.one["n"][i] = n
            self.one["won"][i] = 1.0 if f.decided else 0.0

    def predict(self, params: Params) -> np.ndarray:
        """`combine` on every sample at once."""
        seat, one, mask = self.seat, self.one, self.mask
        m = len(self.rows)
        remaining = one["remaining"].copy()
        series = one["series_lead"] >= 0
        remaining[series] += (
            np.maximum(0.0, SERIES_TARGET - one["series_lead"][series] - params.rate * remaining[series])
            / params.rate
        )
        base = seat["bank"] + params.tie * seat["ops"] + seat["decided"]
        k = params.scale / np.sqrt(remaining + params.floor)
        n = one["n"]
        prize = one["prize"]
        progress = one["progress"]
        weight = np.where(progress > 0, np.power(np.maximum(progress, 1e-12), params.grow), 0.0)
        active = (prize > 0) & (one["won"] == 0)
        # Outcome slots: the prior's six seats, then side 0's six seats, then side 1's.
        chance = np.zeros((m, 3 * SEATS))
        gain = np.zeros((m, 3 * SEATS))
        margin = one["total0"] - one["total1"]
        found = np.zeros(m, bool)
        for side in (0, 1):
            best = self.best[side]
            top = best.max(1)
            has = top >= 0
            found |= has
            side_chance = weight / (1.0 + np.exp(-params.sharp * (margin if side == 0 else -margin)))
            shares = np.where(best >= 0, np.exp(np.minimum(params.split * (best - top[:, None]), 0.0)), 0.0)
            norm = np.where(has, side_chance / np.maximum(shares.sum(1), 1e-300), 0.0)
            chance[:, SEATS * (side + 1) : SEATS * (side + 2)] = shares * norm[:, None]
            gain[:, SEATS * (side + 1) : SEATS * (side + 2)] = (
                prize + one["worth1" if side == 0 else "worth0"]
            )[:, None]
        reach = np.where(mask, seat["reach"], -1e9)
        prior = np.where(mask, np.exp(params.reach * (reach - reach.max(1, keepdims=True))), 0.0)
        prior /= prior.sum(1, keepdims=True)
        even = np.where(mask & ~found[:, None], (weight / n)[:, None], 0.0)
        chance[:, :SEATS] = prior * (1.0 - weight)[:, None] + even
        gain[:, :SEATS] = (prize + 0.5 * (one["worth0"] + one["worth1"]))[:, None]
        chance[~active] = 0.0
        rest = np.maximum(0.0, 1.0 - chance.sum(1))
        high = np.where(mask, base, -np.inf).max(1, keepdims=True)
        weights = np.where(mask, np.exp(k[:, None] * (base - high)), 0.0)
        total = weights.sum(1)
        slot_seat = np.tile(np.arange(SEATS), 3)
        before = weights[:, slot_seat]
        after = before * np.exp(np.minimum(k[:, None] * gain, 600.0))
        share = chance / (total[:, None] - before + after)
        out: np.ndarray = (share.sum(1) + rest / total)[:, None] * weights
        lift = share * (after - before)
        for block in range(3):
            out += lift[:, block * SEATS : (block + 1) * SEATS]
        return out

    def errors(self, params: Params) -> tuple[np.ndarray, np.ndarray]:
        """Per sample: the squared error of the prediction and of the seats' mean return."""
        count = self.mask.sum(1)
        error = ((self.predict(params) - self.y) ** 2 * self.mask).sum(1) / count
        mean = (self.y * self.mask).sum(0) / np.maximum(1, self.mask.sum(0))
        baseline = ((mean - self.y) ** 2 * self.mask).sum(1) / count
        return error, baseline

    def skill(self, params: Params) -> list[float]:
        """1 - MSE / constant MSE per quarter of the game, then overall."""
        error, baseline = self.errors(params)
        out = [1.0 - error[self.stage == q].mean() / baseline[self.stage == q].mean() for q in range(4)]
        return [*out, 1.0 - error.mean() / baseline.mean()]


def check(batch: Batch, params: Params) -> None:
    """The vectorised twin agrees with `combine`."""
    predicted = batch.predict(params)
    for i in range(0, len(batch.rows), 11):
        f = batch.rows[i][1]
        expected = combine(f, params)
        if not np.allclose(predicted[i, : len(expected)], expected, atol=1e-9):
            raise AssertionError(f"the vectorised combine differs from evaluate.combine at sample {i}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per option set")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    batches = [Batch(collect(options, args.games, args.seed)) for options in OPTION_SETS]
    print(f"{sum(len(b.rows) for b in batches)} positions in {time.perf_counter() - start:.0f} s")
    names = list(Params._fields)

    def loss(x: np.ndarray) -> float:
        params = Params(*(float(v) for v in x))
        return float(sum(b.errors(params)[0].mean() for b in batches))

    fit = minimize(loss, np.array(PARAMS), method="L-BFGS-B", bounds=[BOUNDS[name] for name in names])
    params = Params(*(round(float(v), 4) for v in fit.x))
    for batch in batches:
        check(batch, params)
    print(f"fitted in {time.perf_counter() - start:.0f} s; loss {fit.fun:.5f}")
    print("PARAMS = Params(" + ", ".join(f"{name}={getattr(params, name)}" for name in names) + ")")
    for options, batch in zip(OPTION_SETS, batches, strict=True):
        print(f"  {options}: skill by quarter and overall", [round(float(v), 3) for v in batch.skill(params)])


if __name__ == "__main__":
    main()
