"""The WebSocket of a table (docs/protocol.md): `hello` authenticates the connection as a seat or a
spectator, then each client message is dispatched to the table's hub until the socket closes."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from warcards.server import protocol as p
from warcards.server.connection import Connection, close, read_message, reject, write_loop
from warcards.server.hub import TableHub
from warcards.server.process import CLOSE_RESTART, RESTARTING, Server
from warcards.server.routes import server_of

router = APIRouter()


@router.websocket("/tables/{table_id}/ws")
async def play(websocket: WebSocket, table_id: str) -> None:
    server = server_of(websocket)
    if not server.origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host")):
        await websocket.close(code=1008, reason="origin not allowed")
        return
    await websocket.accept()
    await serve_connection(server, websocket, table_id)


async def serve_connection(server: Server, websocket: WebSocket, table_id: str) -> None:
    """One connection: `hello` (authenticate), then read client messages until it closes."""
    config = server.config
    try:
        hello = await asyncio.wait_for(read_message(websocket), config.hello_seconds)
    except (TimeoutError, WebSocketDisconnect):
        await close(websocket, 1008, "no hello")
        return
    if not isinstance(hello, p.Hello):
        await reject(websocket, "bad_message", "the first message is a hello", 1008)
        return
    if server.draining:
        await reject(websocket, "restarting", RESTARTING, CLOSE_RESTART)
        return
    hub = await server.hub(table_id)
    if hub is None:
        await reject(websocket, "unknown_table", f"no table {table_id[:40]!r}", 4004)
        return
    seat = None
    stand_in = False
    if hello.token is not None:
        seat = await asyncio.to_thread(server.store.seat_of_token, table_id, hello.token)
        if seat is None:
            seat = hub.stand_in_seat(hello.token)
            stand_in = seat is not None
        if seat is None:
            await reject(websocket, "bad_token", "that token is not a seat of this table", 4001)
            return
    connection = Connection(seat, stand_in=stand_in)
    writer = asyncio.create_task(write_loop(websocket, connection))
    await hub.attach(connection, hello.last_seen)
    bucket = config.burst
    last = time.monotonic()
    try:
        while True:
            message = await read_message(websocket)
            now = time.monotonic()
            bucket = min(config.burst, bucket + (now - last) * config.rate) - 1
            last = now
            if bucket < 0:
                connection.send(p.Error(code="rate_limited", message=f"at most {config.rate:g} messages a second"))
                connection.close(1008)
                break
            if isinstance(message, p.Error):
                connection.send(message)
                if message.code == "too_large":
                    connection.close(1009)
                    break
                continue
            if await dispatch(hub, connection, message):
                bucket += 1  # an accepted act (or its sample) is not flooding: the game's turn order paces it
    except WebSocketDisconnect:
        pass
    finally:
        hub.detach(connection)
        connection.outbox.put_nowait(None)
        await writer
        server.forget_if_idle(hub)


async def dispatch(hub: TableHub, connection: Connection, message: Any) -> bool:
    """Handle one client message; True when it was an accepted act or the sample a seat asks on its turn."""
    if isinstance(message, p.Act):
        return await hub.act(connection, message)
    if isinstance(message, p.Resign):
        await hub.resign(connection, connection.seat, message.id)
    elif isinstance(message, p.Sync):
        async with hub.lock:
            connection.send(hub.catchup(connection.seat, message.last_seen))
            if hub.finished:
                connection.send(hub.end_message(connection.seat))
    elif isinstance(message, p.Reclaim):
        await hub.reclaim(connection, message)
    elif isinstance(message, p.Ping):
        connection.send(p.Pong(id=message.id))
    elif isinstance(message, p.SampleRequest):
        async with hub.lock:
            return hub.sample(connection, message)
    elif isinstance(message, p.Hello):
        connection.send(p.Error(code="bad_message", message="hello is sent once, first"))
    return False
