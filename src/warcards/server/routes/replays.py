"""A finished game's replay, step by step (`warcards.server.replays` builds it from the stored record)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException

from warcards.server.db import EventInfo, TableInfo
from warcards.server.process import Server
from warcards.server.replays import Replay, ReplayViews, build_replay, build_views, parse_replay_seat
from warcards.server.routes import ServerDep, info_of, refusals

router = APIRouter()


@router.get("/tables/{table_id}/replay", responses=refusals(404, 409, 422))
async def replay(server: ServerDep, table_id: str, seat: str = "all") -> Replay:
    """A finished game step by step (`warcards.server.replays`): who moved and the log lines, as a seat
    (`seat=N` or its name) read them, or as all (`seat=all`): every move in full. Refused (409) before
    the end; the views after a step are `/replay/{step}`."""
    info, events, chosen = await finished_record(server, table_id, seat)
    return await asyncio.to_thread(build_replay, info, events, chosen)


@router.get("/tables/{table_id}/replay/{step}", responses=refusals(404, 409, 422))
async def replay_step(server: ServerDep, table_id: str, step: int, seat: str = "all") -> ReplayViews:
    """The views after one step of a finished game's replay (0: the start): the seat's, or every seat's."""
    info, events, chosen = await finished_record(server, table_id, seat)
    return await asyncio.to_thread(build_views, info, events, chosen, step)


async def finished_record(server: Server, table_id: str, seat: str) -> tuple[TableInfo, list[EventInfo], int | None]:
    info = await info_of(server, table_id)
    if info.status != "finished":
        raise HTTPException(409, f"table {table_id} is not over: its replay is shown after the end")
    chosen = parse_replay_seat(info, seat)
    return info, await asyncio.to_thread(server.store.events, table_id), chosen
