"""Tournaments, ratings, statistics, SPRT and balance reports, for every game on the engine contract."""

from warcards.arena.ratings import Rating, rate
from warcards.arena.sprt import SPRTConfig, SPRTResult, ab_scores, sprt
from warcards.arena.stats import (
    AgentSummary,
    DuplicateComparison,
    Rate,
    agent_summaries,
    duplicate_comparisons,
    head_to_head,
    seat_rates,
    wilson,
)
from warcards.arena.tournament import (
    GameTask,
    TournamentRecord,
    TournamentResult,
    TournamentSpec,
    lineups,
    make_backend,
    read_records,
    run_tournament,
    schedule,
)
from warcards.simulate import win_shares

__all__ = [
    "AgentSummary",
    "DuplicateComparison",
    "GameTask",
    "Rate",
    "Rating",
    "SPRTConfig",
    "SPRTResult",
    "TournamentRecord",
    "TournamentResult",
    "TournamentSpec",
    "ab_scores",
    "agent_summaries",
    "duplicate_comparisons",
    "head_to_head",
    "lineups",
    "make_backend",
    "rate",
    "read_records",
    "run_tournament",
    "schedule",
    "seat_rates",
    "sprt",
    "wilson",
    "win_shares",
]
