"""One WebSocket connection's two ends: the queue the hub writes to (`Connection`) and the socket loops that
read client messages and send what is queued (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError

from warcards.match import validation_message
from warcards.server import protocol as p
from warcards.server.metrics import NO_METRICS, Metrics


@dataclass(eq=False)
class Connection:
    """One WebSocket: its seat (None: a spectator) and the queue its writer task sends from."""

    seat: int | None
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    close_code: int = 1000
    stand_in: bool = False
    """A bot holding a timed-out person's seat (`TableHub.stand_ins`) until the person acts again."""
    sampled: int = -1
    """The event number of this connection's last `sample` made on its own turn (paced, like an act)."""
    metrics: Metrics = NO_METRICS
    """Its table's `Server`'s metrics (set when it attaches): the refusals it is sent are counted."""

    def send(self, message: BaseModel) -> None:
        self.send_text(message.model_dump_json())
        self.metrics.sent(message)

    def send_text(self, text: str) -> None:
        """Queue one frame already serialized (the hub serializes an event once per recipient)."""
        self.outbox.put_nowait(text)

    def close(self, code: int) -> None:
        """Close the socket with `code` once everything queued before has been sent."""
        self.close_code = code
        self.outbox.put_nowait(None)


async def read_message(websocket: WebSocket) -> Any:
    """The next client message, or an `Error` describing why the frame is not one (never raises for bad
    input; a closed socket raises `WebSocketDisconnect`)."""
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000))
    text = frame.get("text")
    if text is None:
        return p.Error(code="bad_message", message="frames are JSON text, not binary")
    if len(text) > p.MAX_FRAME:
        return p.Error(code="too_large", message=f"a frame is at most {p.MAX_FRAME} characters")
    try:
        data = json.loads(text)
    except ValueError:
        return p.Error(code="bad_message", message="a frame is one JSON object")
    try:
        return p.CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        return p.Error(code="bad_message", message=validation_message(error))


async def write_loop(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's queued messages in order; None closes the socket."""
    try:
        while True:
            text = await connection.outbox.get()
            if text is None:
                await close(websocket, connection.close_code, "")
                return
            await websocket.send_text(text)
    except Exception:  # the peer went away: the reader notices and detaches
        return


async def reject(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    """Refuse a connection before it is attached: one `error` frame, then the close."""
    websocket.app.state.server.metrics.refused(code)
    with contextlib.suppress(Exception):
        await websocket.send_text(p.Error(code=code, message=message).model_dump_json())
    await close(websocket, close_code, code)


async def close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code=code, reason=reason)
