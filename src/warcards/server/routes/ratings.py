"""Players' profiles and each game's leaderboard (docs/server.md, "Ratings"): public, read-only, and
carrying nothing private (no account id, email or setting; a private table's id is left out)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Response
from pydantic import BaseModel

from warcards.engine.registry import games
from warcards.server import ratings
from warcards.server.routes import ServerDep, refusals

router = APIRouter()

MAX_PAGE = 200
"""The most standings one `GET /leaderboard/{game}` answer lists."""
RECENT_GAMES = 20
"""The finished games a profile lists (the newest)."""


class LeaderboardOut(BaseModel):
    game: str
    group: str
    groups: list[str]
    total: int
    standings: list[ratings.RankedStanding]


@router.get("/players/{name}", responses=refusals(404))
async def player(server: ServerDep, name: str) -> ratings.Profile:
    """An account's public profile by its user name: its rating in each game and group, its finished games
    (rated or not) and win rate, and its newest finished games with their replays."""
    found = await asyncio.to_thread(_profile, server, name)
    if found is None:
        raise HTTPException(404, "no player of that name (user names are accounts'; guests have no profile)")
    return found


def _profile(server: ServerDep, name: str) -> ratings.Profile | None:
    with server.store.session() as session:
        return ratings.profile(session, name, RECENT_GAMES)


@router.get("/leaderboard/{game}", responses=refusals(404, 422))
async def leaderboard(
    server: ServerDep,
    game: str,
    response: Response,
    group: Annotated[str | None, Query(max_length=16, description="the player-count group; default: the game's first")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description=f"standings in this answer, 1 to {MAX_PAGE}")] = 50,
    offset: Annotated[int, Query(ge=0, le=2**31 - 1, description="standings to skip")] = 0,
) -> LeaderboardOut:
    """A game's standings in one group, best first by the conservative rating (mu − 3σ), `limit` at a time
    from `offset`; when more follow, `Link` names the next page and `X-Next-Offset` its offset."""
    if game not in games():
        raise HTTPException(404, f"no game {game!r}; the games are {', '.join(sorted(games()))}")
    groups = list(ratings.groups_of(game))
    chosen = groups[0] if group is None else group
    if chosen not in groups:
        shown = ", ".join(repr(g) for g in groups)
        raise HTTPException(422, f"{game} has no rating group {chosen!r}; its groups are {shown}")
    standings, total = await asyncio.to_thread(_standings, server, game, chosen, limit, offset)
    if offset + limit < total:
        response.headers["Link"] = f'</leaderboard/{game}?group={chosen}&limit={limit}&offset={offset + limit}>; rel="next"'
        response.headers["X-Next-Offset"] = str(offset + limit)
    return LeaderboardOut(
        game=game, group=chosen, groups=groups, total=total,
        standings=[
            ratings.RankedStanding(rank=offset + i + 1, **s.model_dump()) for i, s in enumerate(standings)
        ],
    )


def _standings(server: ServerDep, game: str, group: str, limit: int, offset: int) -> tuple[list[ratings.Standing], int]:
    with server.store.session() as session:
        return ratings.leaderboard(session, game, group, limit, offset)
