"""How well a game's `evaluate(state) -> list[float]` predicts the returns a game actually ends with.

Search stops rollouts at a horizon and backs up `evaluate(state)` instead of the final returns, so the
evaluator must be an estimate of `state.returns()` at the end of the game, on the same scale. This module
plays seeded games (the game's heuristic in every seat, with a share of uniformly random moves so the
positions vary), evaluates sampled positions, and compares the evaluator's mean squared error with that of
the best constant guess (each seat's average return over the same games), by stage of the game.

    python -m warcards.bots.calibration med-sirocco --players 4 --games 200
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from warcards.engine.agents import Agent, SeatView
from warcards.engine.api import CHANCE, Game, State
from warcards.engine.registry import game_spec, load_game

Evaluator = Callable[[State], list[float]]

STAGES = 4
"""Positions are grouped by how far through their game they are: quarters of the game's length."""


@dataclass
class Calibration:
    """Mean squared error of the evaluator and of the constant baseline, overall and per stage."""

    game: str
    games: int
    positions: int
    mse: float
    baseline_mse: float
    stage_mse: list[float] = field(default_factory=list)
    stage_baseline_mse: list[float] = field(default_factory=list)
    stage_positions: list[int] = field(default_factory=list)

    @property
    def skill(self) -> float:
        """1 - mse / baseline_mse: 0 is no better than a constant, 1 is a perfect prediction."""
        return 1.0 - self.mse / self.baseline_mse if self.baseline_mse > 0 else 0.0

    def table(self) -> str:
        """A plain-text summary, one line per stage."""
        lines = [
            f"{self.game}: {self.games} games, {self.positions} positions; "
            f"MSE {self.mse:.4f} vs constant {self.baseline_mse:.4f} (skill {self.skill:.3f})"
        ]
        for stage in range(STAGES):
            lines.append(
                f"  stage {stage + 1}/{STAGES}: {self.stage_positions[stage]:6d} positions, "
                f"MSE {self.stage_mse[stage]:.4f} vs constant {self.stage_baseline_mse[stage]:.4f}"
            )
        return "\n".join(lines)


def heuristic_seats(game: Game, rng: random.Random) -> list[Agent]:
    """The game's heuristic bot in every seat, each seeded from `rng`."""
    reference = game_spec(game.game_id).heuristic
    if reference is None:
        raise ValueError(f"{game.game_id} declares no heuristic in its GameSpec; calibration needs one")
    heuristic = reference.load()
    return [heuristic(game, seat, rng.randrange(1 << 30)) for seat in range(game.num_players)]


def noisy_move(state: State, agents: Sequence[Agent], rng: random.Random, random_share: float) -> None:
    """Play one move of a calibration game: a chance outcome sampled by its probability; otherwise, with
    probability `random_share`, a uniformly random legal move (so the positions vary), else the seat's
    heuristic. Shared with the evaluation fits in `scripts/fit_evaluate/`."""
    player = state.current_player()
    if player == CHANCE:
        state.apply_chance(rng.random())
    elif rng.random() < random_share:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    else:
        state.apply_action(agents[player].step(SeatView(state, player)))


def calibrate(
    game: Game,
    evaluate: Evaluator | None = None,
    games: int = 200,
    seed: int = 0,
    sample_every: int = 7,
    random_share: float = 0.1,
) -> Calibration:
    """Play `games` seeded games (heuristic bots, each move random with probability `random_share`),
    evaluate every `sample_every`-th position and score the predictions against the final returns."""
    if evaluate is None:
        reference = game_spec(game.game_id).evaluate
        if reference is None:
            raise ValueError(f"{game.game_id} declares no evaluate in its GameSpec; calibration needs one")
        evaluate = reference.load()
    rng = random.Random(seed)
    samples: list[tuple[float, list[float]]] = []
    finals: list[list[float]] = []
    owners: list[int] = []
    for index in range(games):
        agents = heuristic_seats(game, rng)
        state = game.new_initial_state()
        positions: list[tuple[int, list[float]]] = []
        step = 0
        while not state.is_terminal():
            if step % sample_every == 0:
                before = state.clone()
                positions.append((step, list(evaluate(state))))
                if state != before:
                    raise AssertionError(f"{game.game_id}: evaluate changed the state it was given")
            noisy_move(state, agents, rng, random_share)
            step += 1
        returns = state.returns()
        finals.append(returns)
        for at, values in positions:
            samples.append((at / step, values))
            owners.append(index)
    mean = [sum(r[seat] for r in finals) / len(finals) for seat in range(game.num_players)]
    errors = [0.0] * STAGES
    base_errors = [0.0] * STAGES
    counts = [0] * STAGES
    for (progress, values), owner in zip(samples, owners, strict=True):
        final = finals[owner]
        stage = min(STAGES - 1, int(progress * STAGES))
        errors[stage] += sum((v - f) ** 2 for v, f in zip(values, final, strict=True)) / len(final)
        base_errors[stage] += sum((m - f) ** 2 for m, f in zip(mean, final, strict=True)) / len(final)
        counts[stage] += 1
    total = sum(counts)
    return Calibration(
        game=game.game_id,
        games=games,
        positions=total,
        mse=sum(errors) / total,
        baseline_mse=sum(base_errors) / total,
        stage_mse=[e / c if c else 0.0 for e, c in zip(errors, counts, strict=True)],
        stage_baseline_mse=[e / c if c else 0.0 for e, c in zip(base_errors, counts, strict=True)],
        stage_positions=counts,
    )


def main() -> None:
    """`python -m warcards.bots.calibration GAME [--OPTION VALUE ...] [--games N] [--seed S]`."""
    args = sys.argv[1:]
    if not args:
        raise SystemExit(main.__doc__)
    game_id, rest = args[0], args[1:]
    options: dict[str, str] = {}
    games, seed = 200, 0
    for name, value in zip(rest[::2], rest[1::2], strict=False):
        key = name.lstrip("-").replace("-", "_")
        if key == "games":
            games = int(value)
        elif key == "seed":
            seed = int(value)
        else:
            options[key] = value
    game = load_game(game_id, **options)
    print(calibrate(game, games=games, seed=seed).table())


if __name__ == "__main__":
    main()
