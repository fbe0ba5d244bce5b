"""One WebSocket connection's two ends: the bounded queue the hub writes to (`Connection`) and the socket
loops that read client messages and send what is queued (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError

from warcards.match import validation_message
from warcards.server import protocol as p
from warcards.server.metrics import NO_METRICS, Metrics

FELL_BEHIND = 4008
"""The close code of a connection whose send queue outgrew its limit (docs/protocol.md, "Closing")."""
FELL_BEHIND_REASON = "fell behind: reconnect and resync"


@dataclass(eq=False)
class Connection:
    """One WebSocket: its seat (None: a spectator) and the queue its writer task sends from, bounded in
    frames and bytes: a client that does not read what it is sent falls behind and is closed (4008), its
    queued frames let go. It loses nothing: a `hello` with its `last_seen` gets the gap from the log."""

    seat: int | None
    max_frames: int = 1000
    max_bytes: int = 4 * 1024 * 1024
    outbox: asyncio.Queue[tuple[str, int] | None] = field(default_factory=asyncio.Queue)
    queued_bytes: int = 0
    close_code: int = 1000
    closing: bool = False
    """Close asked for (or the connection fell behind): nothing more is queued."""
    writer: asyncio.Task[None] | None = None
    stand_in: bool = False
    """A bot holding a timed-out person's seat (`TableHub.stand_ins`) until the person acts again."""
    sampled: int = -1
    """The event number of this connection's last `sample` made on its own turn (paced, like an act)."""
    metrics: Metrics = NO_METRICS
    """Its table's `Server`'s metrics (set when it attaches): the refusals it is sent are counted."""

    def send(self, message: BaseModel) -> None:
        """Queue `message` (`send_text`)."""
        self.send_text(message.model_dump_json())
        self.metrics.sent(message)

    def send_text(self, text: str) -> None:
        """Queue one frame already serialized (the hub serializes an event once per recipient); past the
        queue's limits the connection falls behind instead (one frame larger than the byte limit, such as a
        long game's catch-up, is queued when nothing else waits)."""
        if self.closing:
            return
        size = len(text.encode())
        if self.outbox.qsize() >= self.max_frames or (self.queued_bytes and self.queued_bytes + size > self.max_bytes):
            self.fall_behind()
            return
        self.queued_bytes += size
        self.outbox.put_nowait((text, size))

    def close(self, code: int) -> None:
        """Close the socket with `code` once everything queued before has been sent."""
        if self.closing:
            return
        self.closing = True
        self.close_code = code
        self.outbox.put_nowait(None)

    def fall_behind(self) -> None:
        """Drop everything queued (its memory goes back), close with 4008 at once: the writer may be stuck
        sending to a peer that does not read, so it is interrupted."""
        self.closing = True
        self.close_code = FELL_BEHIND
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.queued_bytes = 0
        self.outbox.put_nowait(None)
        if self.writer is not None:
            self.writer.cancel()

    @property
    def fell_behind(self) -> bool:
        return self.close_code == FELL_BEHIND


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def too_deep(text: str, max_depth: int) -> bool:
    """Whether the JSON text nests `[` and `{` deeper than `max_depth` (brackets inside strings do not
    count). A scan, not a parse: it cannot recurse, so any depth is answered."""
    if text.count("[") + text.count("{") <= max_depth:
        return False
    depth = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif bracket in "]}":
            depth -= 1
    return False


async def read_message(websocket: WebSocket, max_depth: int = 32) -> Any:
    """The next client message, or an `Error` describing why the frame is not one (never raises for bad
    input; a closed socket raises `WebSocketDisconnect`)."""
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000))
    text = frame.get("text")
    if text is None:
        return p.Error(code="bad_message", message="frames are JSON text, not binary")
    return parse_message(text, max_depth)


def parse_message(text: str, max_depth: int = 32) -> Any:
    """The client message in `text`, or an `Error` saying why it is none (size and depth checked first)."""
    if len(text) > p.MAX_FRAME:
        return p.Error(code="too_large", message=f"a frame is at most {p.MAX_FRAME} characters")
    if too_deep(text, max_depth):
        return p.Error(code="bad_message", message=f"a frame nests [ and {{ at most {max_depth} deep")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return p.Error(code="bad_message", message="a frame is one JSON object")
    try:
        return p.CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        return p.Error(code="bad_message", message=validation_message(error))


async def write_loop(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's queued messages in order; None closes the socket. When the connection falls
    behind it is interrupted and returns at once: its caller lets the connection go, then closes (4008)."""
    try:
        while True:
            item = await connection.outbox.get()
            if item is None:
                break
            text, size = item
            connection.queued_bytes -= size
            await websocket.send_text(text)
    except asyncio.CancelledError:
        if connection.fell_behind:
            return
        raise
    except Exception:  # the peer went away: the reader notices and detaches
        return
    await close(websocket, connection.close_code, "")


async def reject(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    """Refuse a connection before it is attached: one `error` frame, then the close."""
    websocket.app.state.server.metrics.refused(code)
    with contextlib.suppress(Exception):
        await websocket.send_text(p.Error(code=code, message=message).model_dump_json())
    await close(websocket, close_code, code)


async def close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code=code, reason=reason)
