"""The server's routes, one router per resource: `tables` (the lobby), `play` (the WebSocket), `replays`,
`ops` (health, version, stats). Each reads the process's `Server` from `app.state.server`."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import Depends, HTTPException
from fastapi.requests import HTTPConnection
from pydantic import BaseModel

from warcards.server.db import TableInfo
from warcards.server.process import Server


class Problem(BaseModel):
    """Why a request was refused, in words: what is wrong and what is allowed."""

    detail: str


class FieldProblem(BaseModel):
    loc: list[str | int]
    msg: str
    type: str


class FieldProblems(BaseModel):
    """FastAPI's own answer to parameters of the wrong type (each field's problem)."""

    detail: list[FieldProblem]


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The `responses` (OpenAPI) of a route that may refuse with `codes`: a `Problem`; a 422 is a `Problem`
    (the engine's or the lobby's check) or `FieldProblems` (a parameter of the wrong type)."""
    return {code: {"model": Problem | FieldProblems if code == 422 else Problem} for code in codes}


def server_of(connection: HTTPConnection) -> Server:
    """The process's `Server` (a dependency of every route; a WebSocket is an `HTTPConnection` too)."""
    server: Server = connection.app.state.server
    return server


ServerDep = Annotated[Server, Depends(server_of)]


def address_of(connection: HTTPConnection) -> str:
    """The client's address (behind a trusted proxy, the one its `X-Forwarded-For` names: uvicorn's
    `forwarded_allow_ips`), the key of the per-address limits."""
    return connection.client.host if connection.client is not None else "unknown"


async def info_of(server: Server, table_id: str) -> TableInfo:
    """The table's stored row and seats, or 404."""
    info = await asyncio.to_thread(server.store.table, table_id)
    if info is None:
        raise HTTPException(404, f"no table {table_id}")
    return info


async def seat_of(server: Server, table_id: str, authorization: str | None) -> int:
    """The seat whose token `Authorization: Bearer TOKEN` carries, or 401 / 403."""
    if not authorization or not authorization.startswith("Bearer "):
        raise HTTPException(401, "give the seat's token as `Authorization: Bearer TOKEN`")
    seat = await asyncio.to_thread(server.store.seat_of_token, table_id, authorization[7:])
    if seat is None:
        raise HTTPException(403, "that token is not a seat of this table")
    return seat
