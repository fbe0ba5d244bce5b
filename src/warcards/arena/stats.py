"""Win rates with Wilson intervals, score margins and head-to-head matrices from tournament records.

A game's winners are the seats with the highest return; they share one win (ties split it). A seat's
"even share" is 1/num_players: what it wins on average when every seat is equally strong.

Where the seats are far from equal (Race to Messina's Sicily, where the Axis wins nine games in ten), a win
rate per seat-game says little about the bots: whoever holds the strong seat wins. `duplicate_comparisons`
then compares two agents the way duplicate bridge does: on the same deal and in the same seat (a
tournament replays every deal once per seat rotation), so the seat's own strength cancels out.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from scipy.stats import norm
from scipy.stats import t as student_t

from warcards.match import MatchRecord
from warcards.simulate import wilson_interval, win_shares


def wilson(successes: float, trials: float, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion at `confidence` (successes may be fractional)."""
    return wilson_interval(successes, int(trials), float(norm.ppf(0.5 + confidence / 2)))


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = float(norm.ppf(0.5 + confidence / 2)) * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


@dataclass(frozen=True)
class Rate:
    """A win rate over seat-games with its interval and the share expected when all seats are equal."""

    label: str
    trials: int
    wins: float
    low: float
    high: float
    even: float

    @property
    def rate(self) -> float:
        return self.wins / self.trials if self.trials else 0.0

    @property
    def significant(self) -> str:
        """'above' / 'below' when the interval excludes the even share, else 'even'."""
        if self.low > self.even:
            return "above"
        if self.high < self.even:
            return "below"
        return "even"


def _rate(label: str, trials: int, wins: float, even: float, confidence: float) -> Rate:
    low, high = wilson(wins, trials, confidence)
    return Rate(label, trials, wins, low, high, even)


@dataclass(frozen=True)
class AgentSummary:
    """One agent's results: win rate per seat-game, mean return and margin over the other seats."""

    agent: str
    win: Rate
    mean_return: float
    margin: float
    margin_low: float
    margin_high: float


def agent_summaries(records: Iterable[MatchRecord], confidence: float = 0.95) -> list[AgentSummary]:
    """Per agent, over every seat it held: wins (split ties), mean return, and the score margin."""
    trials: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    returns: dict[str, list[float]] = defaultdict(list)
    margins: dict[str, list[float]] = defaultdict(list)
    seats = 0
    for record in records:
        shares = win_shares(record.returns)
        seats = len(record.returns)
        total = sum(record.returns)
        for seat, agent in enumerate(record.agents):
            trials[agent] += 1
            wins[agent] += shares[seat]
            value = record.returns[seat]
            returns[agent].append(value)
            others = (total - value) / (seats - 1) if seats > 1 else 0.0
            margins[agent].append(value - others)
    result = []
    for agent in trials:
        mean, low, high = mean_interval(margins[agent], confidence)
        result.append(
            AgentSummary(
                agent,
                _rate(agent, trials[agent], wins[agent], 1.0 / max(seats, 1), confidence),
                sum(returns[agent]) / len(returns[agent]),
                mean,
                low,
                high,
            )
        )
    return result


def seat_rates(
    records: Iterable[MatchRecord], seat_names: Sequence[str], confidence: float = 0.95
) -> list[Rate]:
    """Win rate of each seat (whatever agent sat there) against the even share."""
    n = len(seat_names)
    wins = [0.0] * n
    count = 0
    for record in records:
        count += 1
        for seat, share in enumerate(win_shares(record.returns)):
            wins[seat] += share
    return [_rate(seat_names[s], count, wins[s], 1.0 / n, confidence) for s in range(n)]


def head_to_head(records: Iterable[MatchRecord]) -> tuple[list[str], list[list[float | None]]]:
    """Matrix[row][col]: how often row's best seat out-returned col's in games holding both (ties 1/2)."""
    score: dict[tuple[str, str], float] = defaultdict(float)
    games: dict[tuple[str, str], int] = defaultdict(int)
    names: list[str] = []
    for record in records:
        best: dict[str, float] = {}
        for seat, agent in enumerate(record.agents):
            if agent not in names:
                names.append(agent)
            best[agent] = max(best.get(agent, -math.inf), record.returns[seat])
        for a, ra in best.items():
            for b, rb in best.items():
                if a != b:
                    games[a, b] += 1
                    score[a, b] += 1.0 if ra > rb else 0.5 if ra == rb else 0.0
    matrix: list[list[float | None]] = [
        [score[a, b] / games[a, b] if games[a, b] else None for b in names] for a in names
    ]
    return names, matrix


@dataclass(frozen=True)
class DuplicateComparison:
    """`agent` against `other` on duplicate deals: for each deal, the mean over the seats both held of
    `agent`'s win share in the seat minus `other`'s in the same seat; `mean` is its average over the
    deals, with a Student-t interval (deals are independent; the seats of one deal are not)."""

    agent: str
    other: str
    deals: int
    mean: float
    low: float
    high: float

    @property
    def significant(self) -> str:
        """'above' / 'below' when the interval excludes 0 (no difference), else 'even'."""
        if self.low > 0:
            return "above"
        if self.high < 0:
            return "below"
        return "even"


def duplicate_comparisons(
    records: Iterable[MatchRecord],
    confidence: float = 0.95,
    score: Callable[[MatchRecord], Sequence[float]] | None = None,
) -> list[DuplicateComparison]:
    """Every pair of agents (in order of first appearance) compared seat by seat on the deals they both
    played (`DuplicateComparison`); deals are the records' chance seeds, shared by a deal's rotations.
    `score(record)` gives the per-seat value compared (default: the win shares); a game-specific score,
    such as the Progress Tokens a Race to Messina seat ends with, separates bots where one seat wins
    every game."""
    deals: dict[int, dict[tuple[int, str], list[float]]] = defaultdict(lambda: defaultdict(list))
    names: list[str] = []
    for record in records:
        shares = win_shares(record.returns) if score is None else score(record)
        for seat, agent in enumerate(record.agents):
            if agent not in names:
                names.append(agent)
            deals[record.seed][seat, agent].append(shares[seat])
    result = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            diffs = []
            for seat_wins in deals.values():
                seats = {seat for seat, _ in seat_wins}
                gaps = [
                    sum(seat_wins[seat, a]) / len(seat_wins[seat, a])
                    - sum(seat_wins[seat, b]) / len(seat_wins[seat, b])
                    for seat in sorted(seats)
                    if (seat, a) in seat_wins and (seat, b) in seat_wins
                ]
                if gaps:
                    diffs.append(sum(gaps) / len(gaps))
            mean, low, high = _t_interval(diffs, confidence)
            result.append(DuplicateComparison(a, b, len(diffs), mean, low, high))
    return result


def _t_interval(values: Sequence[float], confidence: float) -> tuple[float, float, float]:
    """Mean and its Student-t interval (a single value, or none, gives no width to trust: ±1)."""
    n = len(values)
    if n == 0:
        return (0.0, -1.0, 1.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, -1.0, 1.0)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = float(student_t.ppf(0.5 + confidence / 2, n - 1)) * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)
