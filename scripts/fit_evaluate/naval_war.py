"""Fit the constants of `warcards.games.naval_war.evaluate` (`CONSTANTS`) and print them.

Plays seeded games the way `warcards.bots.calibration` does (heuristic bots in every seat, each move uniformly
random with probability 0.1, every 7th position sampled; calibration itself uses seed 0, kept out of the fit),
records `evaluate.features` of the sampled positions and the final returns, and minimises the mean squared
error of a vectorised twin of `evaluate.combine` (checked against it before printing), each player count's
error divided by its constant guess's. FIREPOWER is tied to TOUGHNESS (`--free-firepower` unties it): the
games cannot tell a salvo hit in hand from the hit it will take off a ship (tying them costs 0.02% of the
fit's error), and the untied fit (FIREPOWER 1.19, TOUGHNESS 0.43) rates firing a salvo that does not sink
as a loss, which the search then avoided. The games of each (players, seed) pair are cached in `--cache`, so the
collection can be spread over several runs (`--collect-only`; about 20 s per 200 games with 3 players and
80 s with 9). The shipped constants come from:

    for n in 3 4 6 9; do for s in 1000 2000 3000; do
        python3 scripts/fit_evaluate/naval_war.py --players $n --seeds $s --collect-only; done; done
    python3 scripts/fit_evaluate/naval_war.py --players 3 4 6 9 --seeds 1000 2000 3000

and `TWO_PLAYER_CONSTANTS` from the same on 2-player games alone (`--players 2`, after collecting them with
`--players 2 --seeds $s --collect-only` likewise). Both runs also print the shipped `CONSTANTS`' skill.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from warcards.bots.calibration import calibrate
from warcards.engine.api import State
from warcards.engine.registry import load_game
from warcards.games.naval_war.evaluate import CONSTANTS, Features, combine, features
from warcards.games.naval_war.state import NavalWarState

NAMES = ("GAIN", "SHIPS", "TOUGHNESS", "FIREPOWER", "LEADER", "SQUADRON", "ROUND_SPREAD", "RACE_SPREAD")
START = (0.1, 2.7, 0.35, 1.1, -8.0, 19.0, 4.0, 7.7)
Sample = tuple[float, Features, list[float]]


def collect(players: int, games: int, seed: int) -> list[Sample]:
    """(share of the game played, features, final returns) of the positions calibration samples."""
    game = load_game("naval-war", players=players)
    finals: list[NavalWarState] = []
    taken: list[tuple[int, int, Features]] = []

    def record(state: State) -> list[float]:
        assert isinstance(state, NavalWarState)
        if not state.history():
            finals.append(state)  # the same object plays on to the end of its game
        taken.append((len(finals) - 1, len(state.history()), features(state)))
        return [1.0 / players] * players

    calibrate(game, record, games=games, seed=seed)
    return [(step / len(finals[g].history()), f, finals[g].returns()) for g, step, f in taken]


def load(players: int, games: int, seed: int, cache: Path) -> list[Sample]:
    path = cache / f"naval-war-{players}p-{games}g-seed{seed}.pkl"
    if path.exists():
        with path.open("rb") as handle:
            samples: list[Sample] = pickle.load(handle)
        fresh = load_game("naval-war", players=players).new_initial_state()
        assert isinstance(fresh, NavalWarState)
        if samples and len(samples[0][1]) == len(features(fresh)):
            return samples
    samples = collect(players, games, seed)
    cache.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        pickle.dump(samples, handle)
    return samples


def arrays(samples: list[Sample], every: int) -> dict[str, np.ndarray]:
    """The features as arrays (positions x seats), every `every`-th sample; games without fleets only."""
    rows = samples[::every]
    cols = list(zip(*(f for _, f, _ in rows), strict=True))
    names = ("points", "alive", "ships", "tough", "fire", "squadron", "sides", "scores", "turns_left", "share",
             "target")
    out = {name: np.array(col, dtype=float) for name, col in zip(names, cols, strict=True)}
    assert (out["sides"] == np.arange(out["sides"].shape[1])).all(), "the twin fits games without fleets"
    out["returns"] = np.array([r for _, _, r in rows], dtype=float)
    out["progress"] = np.array([p for p, _, _ in rows], dtype=float)
    return out


def predict(a: dict[str, np.ndarray], c: np.ndarray) -> np.ndarray:
    """`evaluate.combine` on arrays (one side per seat)."""
    gain, k_ships, k_tough, k_fire, k_lead, k_dd, round_spread, race_spread = c
    lead = (a["scores"] == a["scores"].max(1, keepdims=True)).astype(float)
    edge = k_ships * a["ships"] + k_tough * a["tough"] + k_fire * a["fire"] + k_lead * lead
    edge -= edge.mean(1, keepdims=True)
    u = a["turns_left"][:, None]
    value = a["points"] + k_dd * a["squadron"] + a["share"][:, None] * edge + gain * u * a["alive"]
    best = value.max(1, keepdims=True)
    gap = np.maximum(0.0, a["target"][:, None] - best)
    spread = np.sqrt(round_spread**2 * u + race_spread**2 * gap + 1e-2)
    w = np.exp((value - best) / spread)
    result: np.ndarray = w / w.sum(1, keepdims=True)
    return result


def skills(a: dict[str, np.ndarray], p: np.ndarray) -> list[float]:
    """Skill (1 - MSE / constant guess's) overall and by quarter of the game."""
    err = ((p - a["returns"]) ** 2).mean(1)
    base = ((a["returns"].mean(0) - a["returns"]) ** 2).mean(1)
    stage = np.minimum(3, (a["progress"] * 4).astype(int))
    return [1 - err.mean() / base.mean()] + [
        1 - err[stage == s].mean() / base[stage == s].mean() for s in range(4)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 6, 9])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1000, 2000, 3000])
    parser.add_argument("--games", type=int, default=200, help="games per player count and seed")
    parser.add_argument("--every", type=int, default=4, help="fit on every N-th sampled position")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/naval_war_fit"))
    parser.add_argument("--collect-only", action="store_true")
    parser.add_argument("--free-firepower", action="store_true", help="fit FIREPOWER apart from TOUGHNESS")
    args = parser.parse_args()
    data: dict[int, dict[str, np.ndarray]] = {}
    raw: dict[int, list[Sample]] = {}
    for players in args.players:
        samples: list[Sample] = []
        for seed in args.seeds:
            samples += load(players, args.games, seed, args.cache)
        raw[players] = samples
        data[players] = arrays(samples, args.every)
    if args.collect_only:
        return
    base = {n: float(((a["returns"].mean(0) - a["returns"]) ** 2).mean()) for n, a in data.items()}

    tied = not args.free_firepower

    def full(c: np.ndarray) -> np.ndarray:
        """All eight constants from the fitted ones (FIREPOWER copied from TOUGHNESS when tied)."""
        return np.insert(c, 3, c[2]) if tied else c

    def loss(c: np.ndarray) -> float:
        return sum(float(((predict(a, full(c)) - a["returns"]) ** 2).mean()) / base[n] for n, a in data.items())

    start = np.delete(np.array(START), 3) if tied else np.array(START)
    fit = minimize(loss, start, method="Powell", options={"maxiter": 4000, "xtol": 1e-2, "ftol": 1e-6})
    constants = tuple(round(float(x), 3) for x in full(fit.x))
    # Signs are free where only squares enter the model: print the positive ones.
    constants = constants[:6] + tuple(abs(x) for x in constants[6:])
    check = random.Random(0)
    for players, samples in raw.items():
        for _, f, _ in check.sample(samples, 50):
            twin = predict(arrays([(0.0, f, [0.0] * players)], 1), np.array(constants))[0]
            assert all(math.isclose(x, y, abs_tol=1e-9) for x, y in zip(combine(f, constants), twin, strict=True))
    for name, value in zip(NAMES, constants, strict=True):
        print(f"{name} = {value}")
    for players, a in data.items():
        shown = " ".join(f"{s:.3f}" for s in skills(a, predict(a, np.array(constants))))
        print(f"{players} players: skill overall, by quarter: {shown}")
    print("shipped:", dict(zip(NAMES, CONSTANTS, strict=True)))
    for players, a in data.items():
        shown = " ".join(f"{s:.3f}" for s in skills(a, predict(a, np.array(CONSTANTS))))
        print(f"{players} players, shipped constants: skill overall, by quarter: {shown}")


if __name__ == "__main__":
    main()
