"""OpenSkill (Plackett–Luce) ratings from tournament records, multi-player and side aware.

Each game is one rating event. By default every seat is its own side; `sides` (one side id per seat)
groups seats that win or lose together (teams). The seats of one side form an openskill team of the
distinct agents sitting there; a side's result is its best seat's return, and sides are ranked by it
(equal returns tie). When one agent holds several sides of a game (fewer agents than seats), its sides
are merged into one team so no agent is rated against itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from warcards.match import MatchRecord


@dataclass(frozen=True)
class Rating:
    """An agent's skill estimate: mean `mu`, uncertainty `sigma`, and the conservative `ordinal`."""

    agent: str
    mu: float
    sigma: float
    ordinal: float
    games: int


def _merge_agent_sides(agents: Sequence[str], sides: Sequence[int] | None) -> list[int]:
    """The side of each seat, after merging all the sides that one agent holds into one."""
    side = list(sides) if sides is not None else list(range(len(agents)))
    merged = True
    while merged:
        merged = False
        first: dict[str, int] = {}
        for seat, agent in enumerate(agents):
            held = first.setdefault(agent, side[seat])
            if held != side[seat]:
                gone = side[seat]
                side = [held if s == gone else s for s in side]
                merged = True
                break
    return side


def rate(records: Iterable[MatchRecord], sides: Sequence[int] | None = None) -> list[Rating]:
    """Ratings of every agent after the records in order (sorted best `ordinal` first)."""
    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    games: dict[str, int] = {}
    for record in records:
        side_of_seat = _merge_agent_sides(record.agents, sides)
        teams: dict[int, list[str]] = {}
        result: dict[int, float] = {}
        for seat, agent in enumerate(record.agents):
            side = side_of_seat[seat]
            members = teams.setdefault(side, [])
            if agent not in members:
                members.append(agent)
            result[side] = max(result.get(side, float("-inf")), record.returns[seat])
        if len(teams) < 2:
            continue
        order = list(teams)
        for members in teams.values():
            for agent in members:
                if agent not in ratings:
                    ratings[agent] = model.rating(name=agent)
                games[agent] = games.get(agent, 0) + 1
        best = sorted({result[side] for side in order}, reverse=True)
        ranks = [float(best.index(result[side])) for side in order]
        updated = model.rate([[ratings[a] for a in teams[side]] for side in order], ranks=ranks)
        for side, team in zip(order, updated, strict=True):
            for agent, new in zip(teams[side], team, strict=True):
                ratings[agent] = new
    out = [Rating(agent, r.mu, r.sigma, r.ordinal(), games[agent]) for agent, r in ratings.items()]
    return sorted(out, key=lambda r: -r.ordinal)
