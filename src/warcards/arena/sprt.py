"""Sequential probability ratio test for an A/B match (`--until-significant`).

Each game gives agent A a score in [0, 1]: its seats' share of the win, shifted so that 0.5 is what A
would get against an equal opponent in the same seats. The test weighs H0 "A's expected score is s0"
against H1 "it is s1" (s = 1 / (1 + 10^(-elo/400)) for `elo0`, `elo1`) with the Bernoulli log-likelihood
ratio, a draw or a shared win counting as its fraction: LLR = sum x ln(s1/s0) + (1 - x) ln((1 - s1)/(1 - s0)).
Wald's test stops when the LLR leaves [log(beta / (1 - alpha)), log((1 - beta) / alpha)]. With
`elo0 = -elo1` it answers "which is stronger".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from warcards.match import MatchRecord
from warcards.simulate import win_shares


def elo_to_score(elo: float) -> float:
    """The expected score of a player `elo` points stronger."""
    return float(1.0 / (1.0 + 10.0 ** (-elo / 400.0)))


@dataclass(frozen=True)
class SPRTConfig:
    """Hypotheses (Elo of A over B) and error rates."""

    elo0: float = -20.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"sprt: elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise ValueError(f"sprt: {name} must be in (0, 0.5), got {value}")


@dataclass(frozen=True)
class SPRTResult:
    """The log-likelihood ratio, its stopping bounds, and the decision ('H1', 'H0' or None: continue)."""

    games: int
    mean: float
    llr: float
    lower: float
    upper: float
    decision: str | None


def sprt(scores: Sequence[float], config: SPRTConfig) -> SPRTResult:
    """Test A's per-game scores against the hypotheses of `config`."""
    lower = math.log(config.beta / (1 - config.alpha))
    upper = math.log((1 - config.beta) / config.alpha)
    n = len(scores)
    total = sum(scores)
    s0, s1 = elo_to_score(config.elo0), elo_to_score(config.elo1)
    llr = total * math.log(s1 / s0) + (n - total) * math.log((1 - s1) / (1 - s0))
    mean = total / n if n else 0.5
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SPRTResult(n, mean, llr, lower, upper, decision)


def ab_scores(records: Sequence[MatchRecord], agent: str) -> list[float]:
    """Agent A's score per game: its seats' win share minus its even share, plus one half."""
    scores = []
    for record in records:
        shares = win_shares(record.returns)
        seats = [s for s, name in enumerate(record.agents) if name == agent]
        won = sum(shares[s] for s in seats)
        even = len(seats) / len(record.agents)
        scores.append(min(1.0, max(0.0, won - even + 0.5)))
    return scores
