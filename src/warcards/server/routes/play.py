"""The WebSocket of a table (docs/protocol.md): `hello` authenticates the connection as a seat or a
spectator, then each client message is dispatched to the table's hub until the socket closes. Client
messages are rate-limited per connection, per seat (over all its connections) and per client address."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from warcards.server import protocol as p
from warcards.server import social
from warcards.server.connection import (
    FELL_BEHIND,
    FELL_BEHIND_REASON,
    Connection,
    close,
    read_message,
    reject,
    write_loop,
)
from warcards.server.hub import TableHub
from warcards.server.process import CLOSE_RESTART, RESTARTING, Server
from warcards.server.routes import address_of, server_of

router = APIRouter()


@router.websocket("/tables/{table_id}/ws")
async def play(websocket: WebSocket, table_id: str) -> None:
    server = server_of(websocket)
    if not server.origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host")):
        await websocket.close(code=1008, reason="origin not allowed")
        return
    await websocket.accept()
    await serve_connection(server, websocket, table_id)


def seat_limit(server: Server) -> str:
    return f"at most {server.config.seat_rate:g} messages a second from one seat over all its connections"


def address_limit(server: Server) -> str:
    return f"at most {server.config.address_rate:g} messages a second from one address over all its connections"


async def serve_connection(server: Server, websocket: WebSocket, table_id: str) -> None:
    """One connection: `hello` (authenticate), then read client messages until it closes (or falls behind:
    its send queue outgrew the limits)."""
    config = server.config
    address = address_of(websocket)
    try:
        hello = await asyncio.wait_for(read_message(websocket, config.max_depth), config.hello_seconds)
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
    own_bot = stand_in or (seat is not None and hub.info.seats[seat].kind == "bot")
    # the server's own bot process is not a client to limit: it shares no address's bucket
    if not own_bot and not server.address_buckets.take(address):
        await reject(websocket, "rate_limited", address_limit(server), 1008)
        return
    if seat is not None and not server.seat_buckets.take((table_id, seat)):
        await reject(websocket, "rate_limited", seat_limit(server), 1008)
        return
    connection = Connection(seat, config.send_queue_frames, config.send_queue_bytes, stand_in=stand_in)
    writer = connection.writer = asyncio.create_task(write_loop(websocket, connection))
    await hub.attach(connection, hello.last_seen)
    await social.attached(hub, connection, hello.chat)
    reading = asyncio.create_task(read_loop(server, hub, websocket, connection, None if own_bot else address))
    try:
        await asyncio.wait({reading, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        reading.cancel()  # waiting for a frame (a message being handled is shielded)
        hub.detach(connection)
        social.detached(hub, connection)
        server.forget_if_idle(hub)
        connection.close(connection.close_code)
        if connection.fell_behind:
            await close(websocket, FELL_BEHIND, FELL_BEHIND_REASON)
        elif not (await asyncio.wait({writer}, timeout=config.hello_seconds))[0]:
            writer.cancel()  # a peer that reads nothing cannot hold the handler
    if reading.done() and not reading.cancelled():
        reading.result()  # a fault of the server's own shows in its log


async def read_loop(
    server: Server, hub: TableHub, websocket: WebSocket, connection: Connection, address: str | None
) -> None:
    """Read and dispatch client messages until the socket closes or a limit closes it. `address`: the client
    address whose shared rate limit applies (None for the server's own bots)."""
    config = server.config
    seat_key = None if connection.seat is None else (hub.id, connection.seat)
    bucket = config.burst
    last = time.monotonic()
    try:
        while True:
            message = await read_message(websocket, config.max_depth)
            now = time.monotonic()
            bucket = min(config.burst, bucket + (now - last) * config.rate) - 1
            last = now
            limit = None
            if bucket < 0:
                limit = f"at most {config.rate:g} messages a second"
            elif seat_key is not None and not server.seat_buckets.take(seat_key, now):
                limit = seat_limit(server)
            elif address is not None and not server.address_buckets.take(address, now):
                limit = address_limit(server)
            if limit is not None:
                connection.send(p.Error(code="rate_limited", message=limit))
                connection.close(1008)
                return
            if isinstance(message, p.Error):
                connection.send(message)
                if message.code == "too_large":
                    connection.close(1009)
                    return
                continue
            if isinstance(message, social.SOCIAL_MESSAGES):
                await asyncio.shield(social.handle(server, hub, connection, message, address or ""))
                continue
            if await asyncio.shield(dispatch(hub, connection, message)):
                # an accepted act (or its sample) is not flooding: the game's turn order paces it
                bucket += 1
                if seat_key is not None:
                    server.seat_buckets.refund(seat_key)
                if address is not None:
                    server.address_buckets.refund(address)
    except WebSocketDisconnect:
        return


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
