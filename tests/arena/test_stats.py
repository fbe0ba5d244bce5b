"""Wilson intervals, win shares, margins, head-to-head, openskill ratings and the SPRT."""

from __future__ import annotations

import random

import pytest

from warcards.arena import (
    SPRTConfig,
    ab_scores,
    agent_summaries,
    duplicate_comparisons,
    head_to_head,
    rate,
    seat_rates,
    sprt,
    wilson,
)
from warcards.arena.sprt import elo_to_score
from warcards.match import MatchRecord


def _record(agents: list[str], returns: list[float], seed: int = 0) -> MatchRecord:
    return MatchRecord(game="g", options={}, seed=seed, actions=[], returns=returns, agents=agents)


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)
    wide, narrow = wilson(50, 100, 0.99), wilson(50, 100, 0.90)
    assert wide[0] < narrow[0] and wide[1] > narrow[1]


def test_ties_split_the_win_and_margins_compare_with_the_other_seats() -> None:
    records = [
        _record(["a", "b"], [1.0, -1.0]),
        _record(["b", "a"], [0.0, 0.0]),
        _record(["a", "b"], [-1.0, 1.0]),
    ]
    summary = {s.agent: s for s in agent_summaries(records)}
    assert summary["a"].win.wins == 1.5 and summary["a"].win.trials == 3
    assert summary["a"].margin == pytest.approx(0.0)
    assert summary["a"].mean_return == pytest.approx(0.0)
    seats = seat_rates(records, ["north", "south"])
    assert [s.wins for s in seats] == [1.5, 1.5] and seats[0].even == 0.5


def test_verdict_needs_the_interval_to_clear_the_even_share() -> None:
    strong = [_record(["a", "b"], [1.0, 0.0])] * 30 + [_record(["a", "b"], [0.0, 1.0])] * 10
    summary = {s.agent: s for s in agent_summaries(strong)}
    assert summary["a"].win.significant == "above" and summary["b"].win.significant == "below"
    close = [_record(["a", "b"], [1.0, 0.0])] * 11 + [_record(["a", "b"], [0.0, 1.0])] * 9
    assert {s.win.significant for s in agent_summaries(close)} == {"even"}


def test_head_to_head_counts_only_games_holding_both() -> None:
    records = [
        _record(["a", "b", "c"], [3.0, 2.0, 1.0]),
        _record(["b", "a", "c"], [1.0, 1.0, 0.0]),
        _record(["c", "b", "b"], [0.0, 1.0, 2.0]),
    ]
    names, matrix = head_to_head(records)
    index = {n: i for i, n in enumerate(names)}
    assert matrix[index["a"]][index["b"]] == pytest.approx(0.75)
    assert matrix[index["b"]][index["a"]] == pytest.approx(0.25)
    assert matrix[index["b"]][index["c"]] == pytest.approx(1.0)
    assert matrix[index["a"]][index["a"]] is None


def test_duplicate_comparison_cancels_a_seat_that_always_wins() -> None:
    # Seat 2 (think of Sicily's Axis) wins every deal but one, whoever holds it: the win rate per
    # seat-game shows nothing, the same-seat comparison shows the one deal "a" turned round.
    records = []
    for deal in range(20):
        records.append(_record(["a", "b", "a"], [-1.0, -1.0, 1.0], seed=deal))
        turned = [1.0, -1.0, -1.0] if deal == 0 else [-1.0, -1.0, 1.0]
        records.append(_record(["a", "b", "b"], turned, seed=deal))
        records.append(_record(["b", "a", "b"], [-1.0, -1.0, 1.0], seed=deal))
    (comparison,) = duplicate_comparisons(records)
    assert (comparison.agent, comparison.other, comparison.deals) == ("a", "b", 20)
    # Deal 0: in seat 0 "a" won 1 of its 2 games there and "b" none (+1/2); in seat 2 "a" won its
    # game and "b" 1 of 2 (+1/2); seat 1 no difference: the deal scores +1/3, the others 0.
    assert comparison.mean == pytest.approx(1 / 3 / 20)
    assert comparison.low < 0 < comparison.high and comparison.significant == "even"


def test_duplicate_comparison_finds_the_stronger_agent_seat_by_seat() -> None:
    rng = random.Random(3)
    records = []
    for deal in range(40):
        first_wins = rng.random() < 0.8  # seat 0 is strong
        for agents in (["a", "b"], ["b", "a"]):
            a_seat = agents.index("a")
            winner = 0 if first_wins else 1
            if rng.random() < 0.3:  # "a" sometimes wins where the seat alone would lose
                winner = a_seat
            returns = [1.0 if seat == winner else -1.0 for seat in range(2)]
            records.append(_record(agents, returns, seed=deal))
    (comparison,) = duplicate_comparisons(records)
    assert comparison.significant == "above" and comparison.mean > 0
    (reverse,) = duplicate_comparisons(list(reversed(records)))
    assert reverse.agent == "b" and reverse.mean == pytest.approx(-comparison.mean)
    assert reverse.significant == "below"


def test_duplicate_comparison_may_compare_a_game_specific_score() -> None:
    # The same seat wins every game, but "a" ends with more points than "b" did in the same seat.
    points = {1: [3.0, 9.0], 4: [9.0, 2.0]}  # per seat, by the game's tag (its first action)
    records = []
    for deal in range(6):
        records.append(_record(["a", "b"], [-1.0, 1.0], seed=deal * 10 + 1))
        records.append(_record(["b", "a"], [-1.0, 1.0], seed=deal * 10 + 1))
        records[-2].actions, records[-1].actions = [1], [4]
    by_wins = duplicate_comparisons(records)[0]
    assert by_wins.mean == 0.0 and by_wins.significant == "even"
    by_points = duplicate_comparisons(records, score=lambda record: points[record.actions[0]])[0]
    # Seat 0: "a" scored 3 there (first game), "b" 9 (second game): -6. Seat 1: "a" scored 2 (second
    # game), "b" 9 (first game): -7. So "a" trails by 6.5 points a deal, every deal.
    assert by_points.mean == pytest.approx(-6.5) and by_points.significant == "below"


def test_duplicate_comparison_of_equal_play_is_zero_and_a_lone_deal_proves_nothing() -> None:
    same = [_record(["a", "b"], [1.0, -1.0], seed=1), _record(["b", "a"], [1.0, -1.0], seed=1)]
    (comparison,) = duplicate_comparisons(same)
    assert comparison.mean == 0.0 and comparison.significant == "even"
    assert (comparison.low, comparison.high) == (-1.0, 1.0)


def test_ratings_order_agents_by_strength() -> None:
    rng = random.Random(0)
    records = []
    for i in range(120):
        agents = ["strong", "weak", "middle"] if i % 2 else ["middle", "strong", "weak"]
        skill = {"strong": 2.0, "middle": 1.0, "weak": 0.0}
        records.append(_record(agents, [skill[a] + rng.gauss(0, 1) for a in agents]))
    ratings = rate(records)
    assert [r.agent for r in ratings] == ["strong", "middle", "weak"]
    assert all(r.games == 120 for r in ratings)


def test_ratings_merge_an_agents_seats_and_respect_sides() -> None:
    records = [_record(["a", "b", "a"], [1.0, 0.0, 1.0])] * 20
    ratings = {r.agent: r for r in rate(records)}
    assert ratings["a"].mu > ratings["b"].mu
    team = [_record(["a", "b", "c"], [1.0, 1.0, 0.0])] * 20
    sided = {r.agent: r for r in rate(team, sides=[0, 0, 1])}
    assert sided["a"].mu == pytest.approx(sided["b"].mu) and sided["a"].mu > sided["c"].mu


def test_sprt_accepts_the_true_hypothesis() -> None:
    rng = random.Random(1)
    config = SPRTConfig(elo0=0, elo1=50, alpha=0.05, beta=0.05)
    assert elo_to_score(0) == 0.5 and elo_to_score(50) == pytest.approx(0.5715, abs=1e-4)
    better = [1.0 if rng.random() < 0.65 else 0.0 for _ in range(600)]
    worse = [1.0 if rng.random() < 0.40 else 0.0 for _ in range(600)]
    assert sprt(better, config).decision == "H1"
    assert sprt(worse, config).decision == "H0"
    assert sprt(better[:4], config).decision is None
    with pytest.raises(ValueError, match=r"elo0 \(10\) must be below elo1 \(0\)"):
        SPRTConfig(elo0=10, elo1=0)


def test_ab_score_is_centred_on_the_even_share() -> None:
    records = [_record(["a", "b", "a"], [1.0, 0.0, 0.0]), _record(["b", "a", "b"], [0.0, 0.0, 1.0])]
    scores = ab_scores(records, "a")
    assert scores == pytest.approx([1.0 - 2 / 3 + 0.5, 0.0 - 1 / 3 + 0.5])
