"""Train a small agent on Race to Messina with the Gymnasium env and plot that it learns to beat `random`.

The agent is a linear softmax policy over the legal actions (the env's action mask), trained by REINFORCE
with a running-mean baseline, in plain numpy: the observation vector is the game's encoding from
`warcards.rl` (sparse, so each update touches only the active features and the legal actions). It plays
both seats in turn against the `random` bot; every `--eval-every` episodes it plays a fixed
set of seeded games per seat (sampling its moves, so before training it plays uniformly at random), and the plot shows that win rate next to the `random` policy's own on the same games.

Run (needs the `rl` extra: `pip install "warcards[rl]"`):

    python examples/train_race_to_messina.py                        # a few minutes on one core
    python examples/train_race_to_messina.py --episodes 400 --out /tmp/curve.png

It writes the learning curve to `docs/rl-learning-curve.png` and its numbers to the same path with `.json`.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from warcards.rl import gymnasium_env
from warcards.rl.gymnasium_env import WarcardsGymEnv

EnvFactory = Callable[[int], WarcardsGymEnv]


@dataclass
class LinearPolicy:
    """Logits = x · W[:, a] + b[a] over the legal actions a; W is updated only on x's non-zero features."""

    features: int
    actions: int
    learning_rate: float = 0.05
    weights: np.ndarray = field(init=False)
    bias: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.weights = np.zeros((self.features, self.actions), dtype=np.float64)
        self.bias = np.zeros(self.actions, dtype=np.float64)

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Softmax over the legal actions; returns (active feature indices, probabilities)."""
        active = np.flatnonzero(x)
        logits = x[active] @ self.weights[np.ix_(active, legal)] + self.bias[legal]
        logits -= logits.max()
        weights = np.exp(logits)
        return active, weights / weights.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
        """Sample an action (or the greedy one when `rng` is None) and what the update needs."""
        legal = np.flatnonzero(mask)
        active, probs = self.probabilities(x, legal)
        choice = int(np.argmax(probs)) if rng is None else int(rng.choice(len(legal), p=probs))
        return int(legal[choice]), (active, legal, probs, choice)

    def update(self, x: np.ndarray, trace: tuple[np.ndarray, np.ndarray, np.ndarray, int], advantage: float) -> None:
        """One REINFORCE step: grad log pi(a) = x ⊗ (onehot(a) - pi) on the legal columns."""
        active, legal, probs, choice = trace
        direction = -probs
        direction[choice] += 1.0
        step = self.learning_rate * advantage
        self.weights[np.ix_(active, legal)] += step * np.outer(x[active], direction)
        self.bias[legal] += step * direction


def squash(observation: np.ndarray) -> np.ndarray:
    """sign(x) · log(1 + |x|): counts and scores of any size become features of similar scale."""
    return np.sign(observation) * np.log1p(np.abs(observation))


def play_episode(env: WarcardsGymEnv, policy: LinearPolicy | None, seed: int,
                 rng: np.random.Generator | None) -> tuple[float, list[tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray, int]]]]:
    """One game: the policy's (or, for `None`, uniform random) moves; returns (return, trajectory)."""
    obs, _ = env.reset(seed=seed)
    picker = rng if rng is not None else np.random.default_rng(seed)
    trajectory = []
    total = 0.0
    terminated = False
    while not terminated:
        if policy is None:
            action = int(picker.choice(np.flatnonzero(obs["action_mask"])))
        else:
            x = squash(obs["observation"])
            action, trace = policy.act(x, obs["action_mask"], rng)
            trajectory.append((x, trace))
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        terminated = terminated or truncated
    return total, trajectory


def win_rate(envs: list[WarcardsGymEnv], policy: LinearPolicy | None, seeds: list[int]) -> float:
    """Share of wins (return > 0) over `seeds`, in every seat: the policy samples its moves (an untrained one
    plays uniformly at random); `None` is the uniform random policy."""
    wins = 0
    for env in envs:
        for seed in seeds:
            result, _ = play_episode(env, policy, seed, np.random.default_rng(seed))
            wins += result > 0
    return wins / (len(envs) * len(seeds))


def train(make_env: EnvFactory, seats: int, episodes: int, eval_every: int, eval_games: int,
          seed: int = 0, learning_rate: float = 0.05, log: Callable[[str], None] = print) -> dict[str, list[float]]:
    """Train against `random` in every seat in turn; return the learning curve."""
    envs = [make_env(seat) for seat in range(seats)]
    size = int(np.prod(envs[0].observation_space["observation"].shape))
    policy = LinearPolicy(size, int(envs[0].action_space.n), learning_rate)
    rng = np.random.default_rng(seed)
    eval_seeds = [10_000 + index for index in range(eval_games)]
    baseline_rate = win_rate(envs, None, eval_seeds)
    curve: dict[str, list[float]] = {"episodes": [], "win_rate": [], "random_win_rate": [baseline_rate]}
    baseline = 0.0
    start = time.time()
    for episode in range(episodes + 1):
        if episode % eval_every == 0:
            rate = win_rate(envs, policy, eval_seeds)
            curve["episodes"].append(episode)
            curve["win_rate"].append(rate)
            log(f"episode {episode:5d}  win rate {rate:.3f}  (random {baseline_rate:.3f})  {time.time() - start:.0f}s")
        if episode == episodes:
            break
        env = envs[episode % seats]
        result, trajectory = play_episode(env, policy, seed * 1_000_003 + episode, rng)
        advantage = result - baseline
        baseline += 0.05 * (result - baseline)
        for x, trace in trajectory:
            policy.update(x, trace, advantage / max(1, len(trajectory)) ** 0.5)
    return curve


def plot(curve: dict[str, list[float]], out: Path, title: str) -> None:
    """The learning curve: the policy's win rate against `random`, and `random`'s own win rate."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(curve["episodes"], curve["win_rate"], marker="o", label="trained linear policy")
    axes.axhline(curve["random_win_rate"][0], color="grey", linestyle="--", label="random policy")
    axes.set_xlabel("training episodes")
    axes.set_ylabel("win rate against the random bot (both seats)")
    axes.set_ylim(0, 1)
    axes.set_title(title)
    axes.legend(loc="lower right")
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=110)
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="race-to-messina")
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--eval-games", type=int, default=30, help="seeded games per seat at each evaluation")
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("docs/rl-learning-curve.png"))
    args = parser.parse_args()
    seats = gymnasium_env(args.game, 0, "random").game.num_players

    def make_env(seat: int) -> WarcardsGymEnv:
        return gymnasium_env(args.game, seat, "random")

    curve = train(make_env, seats, args.episodes, args.eval_every, args.eval_games, args.seed, args.learning_rate)
    plot(curve, args.out, f"{args.game}: REINFORCE, linear policy, vs random")
    args.out.with_suffix(".json").write_text(json.dumps(curve, indent=1))
    print(f"wrote {args.out} and {args.out.with_suffix('.json')}")


if __name__ == "__main__":
    main()
