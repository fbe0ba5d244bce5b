"""The load client of `warcards bench --server`: many person seats played over WebSockets by one asyncio process.

Run as `python -m warcards.server.loadclient ws://HOST:PORT [--think MIN MAX] [--seed N] [--until-stop]`. Standard input
takes one JSON line per seat (`table`, `seat`, `token`), then `{"command": "go"}` (no more seats), later
`{"command": "play"}` (the seats start acting and the measured window opens) and `{"command": "stop"}` (or
the end of the input). Standard output gets `{"ready": SEATS}` once every seat has its `welcome`, then one
`{"result": {...}}` line when every seat's game has ended (not with `--until-stop`) or on `stop`.

Each seat is one connection speaking docs/protocol.md as a person's client would: `hello` with its token,
then, whenever a frame says the seat is to move, an `act` with a seeded random choice among `legal`,
`answers` the stream position of that frame and an `id` unique to the seat — at once (`--think 0 0`) or
after a uniform random think time in [MIN, MAX] seconds (a newer frame before it is sent replaces it). The
figure it exists for is the act → ack latency: from sending an `act` to reading the `ack` with its `id`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import websockets

from warcards.server.protocol import PROTOCOL

CONNECTING_AT_ONCE = 50
"""Handshakes in flight at once: a thousand seats connect in waves rather than in one burst."""

OPEN_TIMEOUT = 120.0
"""Seconds a connection may take to open on a loaded machine before the seat counts as failed."""

FAILURES_KEPT = 10
"""How many failure messages the result carries (all are counted)."""


@dataclass
class Tally:
    """What one client process measured, over the window since `play`."""

    window_start: float = field(default_factory=time.monotonic)
    cpu_start: float = field(default_factory=time.process_time)
    latencies_ms: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)
    """When each timed act was sent (`time.monotonic()`, one clock for every process of the machine)."""
    acts_sent: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    tables_ended: list[str] = field(default_factory=list)
    welcomed: int = 0
    failures: list[str] = field(default_factory=list)
    playing: asyncio.Event = field(default_factory=asyncio.Event)
    """Set by `play`: no seat acts before (every seat connects first, then every table plays at once)."""

    def play(self) -> None:
        """The seats may act from now on, and the measured window opens."""
        self.playing.set()
        self.window_start = time.monotonic()
        self.cpu_start = time.process_time()
        self.latencies_ms.clear()
        self.sent_at.clear()
        self.acts_sent = 0
        self.refused.clear()

    def sent(self) -> float:
        """An act leaves now; returns its send time."""
        now = time.monotonic()
        if now >= self.window_start:
            self.acts_sent += 1
        return now

    def acked(self, sent_at: float) -> None:
        if sent_at >= self.window_start:
            self.latencies_ms.append(round((time.monotonic() - sent_at) * 1000, 3))
            self.sent_at.append(round(sent_at, 3))

    def result(self) -> dict[str, Any]:
        return {
            "latencies_ms": self.latencies_ms,
            "sent_at": self.sent_at,
            "acts_sent": self.acts_sent,
            "refused": dict(self.refused),
            "tables_ended": self.tables_ended,
            "failures": len(self.failures),
            "failure_messages": self.failures[:FAILURES_KEPT],
            "window_s": time.monotonic() - self.window_start,
            "cpu_s": time.process_time() - self.cpu_start,
        }


def frame_position(message: dict[str, Any]) -> tuple[dict[str, Any], int] | None:
    """The position part of a `view`, `event` or `catchup` frame and its stream number (None for others)."""
    kind = message["type"]
    if kind == "event":
        return message, int(message["event"]["event_no"])
    if kind == "view":
        return message, int(message["event_no"])
    if kind == "catchup" and message.get("view") is not None:
        return message["view"], int(message["view"]["event_no"])
    return None


class Seat:
    """One person seat: its connection, its pending act and its acts awaiting their `ack`."""

    def __init__(self, socket: Any, order: dict[str, Any], think: tuple[float, float], seed: int, tally: Tally) -> None:
        self.socket = socket
        self.seat = int(order["seat"])
        self.think = think
        self.rng = random.Random(f"{seed}:{order['table']}:{self.seat}")
        self.tally = tally
        self.awaiting: dict[str, float] = {}
        self.count = 0
        self.pending: asyncio.Task[None] | None = None

    async def act(self, answers: int, action: int, delay: float) -> None:
        await self.tally.playing.wait()
        if delay > 0:
            await asyncio.sleep(delay)
        self.count += 1
        act_id = f"a{self.count}"
        self.awaiting[act_id] = self.tally.sent()
        message = {"protocol": PROTOCOL, "type": "act", "id": act_id, "answers": answers, "action": action}
        await self.socket.send(json.dumps(message))

    async def on_position(self, position: dict[str, Any], number: int) -> None:
        """A new position: drop a pending act (it answers an older one); if the seat is to move, choose."""
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None
        legal = position.get("legal")
        if position.get("to_move") != self.seat or not legal:
            return
        action = int(self.rng.choice(legal)["action"])
        low, high = self.think
        if high <= 0:
            await self.act(number, action, 0.0)
        else:
            self.pending = asyncio.create_task(self.act(number, action, self.rng.uniform(low, high)))

    async def on_answer(self, message: dict[str, Any]) -> None:
        sent_at = self.awaiting.pop(str(message.get("id")), None)
        if message["type"] == "ack":
            if sent_at is not None:
                self.tally.acked(sent_at)
            return
        if sent_at is not None and sent_at >= self.tally.window_start:
            self.tally.refused[str(message["code"])] += 1
        if message["code"] == "stale":
            await self.socket.send(json.dumps({"protocol": PROTOCOL, "type": "sync"}))


async def play_seat(url: str, order: dict[str, Any], think: tuple[float, float], seed: int, tally: Tally,
                    connecting: asyncio.Semaphore) -> None:
    """Play one seat until its game ends (or the task is cancelled)."""
    async with connecting:
        socket = await websockets.connect(
            f"{url}/tables/{order['table']}/ws", max_size=None, compression=None, open_timeout=OPEN_TIMEOUT
        )
    async with socket:
        await socket.send(json.dumps({"protocol": PROTOCOL, "type": "hello", "token": order["token"]}))
        seat = Seat(socket, order, think, seed, tally)
        ended = False
        try:
            async for frame in socket:
                message = json.loads(frame)
                kind = message["type"]
                if kind == "welcome":
                    tally.welcomed += 1
                elif kind in ("ack", "refused"):
                    await seat.on_answer(message)
                elif kind == "end":
                    ended = True
                    tally.tables_ended.append(str(order["table"]))
                elif (found := frame_position(message)) is not None:
                    await seat.on_position(*found)
                if ended and not seat.awaiting:  # the last act's ack comes after the `end` it caused
                    return
            if not ended:
                raise ConnectionError(f"the server closed the connection before the game ended ({socket.close_code})")
        finally:
            if seat.pending is not None:
                seat.pending.cancel()


async def seat_task(url: str, order: dict[str, Any], think: tuple[float, float], seed: int, tally: Tally,
                    connecting: asyncio.Semaphore) -> None:
    try:
        await play_seat(url, order, think, seed, tally, connecting)
    except asyncio.CancelledError:
        raise
    except Exception as error:  # one seat's failure is counted and reported; the others play on
        tally.failures.append(f"table {order.get('table')} seat {order.get('seat')}: {type(error).__name__}: {error}")


def emit(line: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


async def commands(reader: asyncio.StreamReader, url: str, think: tuple[float, float], seed: int, tally: Tally,
                   tasks: list[asyncio.Task[None]], all_given: asyncio.Event) -> None:
    """Read seats and commands until `stop` or the end of the input."""
    connecting = asyncio.Semaphore(CONNECTING_AT_ONCE)
    while line := await reader.readline():
        message = json.loads(line)
        command = message.get("command")
        if command is None:
            tasks.append(asyncio.create_task(seat_task(url, message, think, seed, tally, connecting)))
        elif command == "go":
            all_given.set()
        elif command == "play":
            tally.play()
        elif command == "stop":
            return


async def games(tally: Tally, tasks: list[asyncio.Task[None]], all_given: asyncio.Event, until_stop: bool) -> None:
    """Say `ready` once every seat is welcomed (or failed), then wait for every game to end (and, with
    `until_stop`, for `stop`: the result covers the measured window even when every game ended before it)."""
    await all_given.wait()
    while tally.welcomed + len(tally.failures) < len(tasks):
        await asyncio.sleep(0.05)
    emit({"ready": tally.welcomed})
    gc.collect()
    gc.freeze()  # its connections' objects out of the collector's sight: no full collection stalls the clients
    await asyncio.gather(*tasks)
    if until_stop:
        await asyncio.Event().wait()


async def main(url: str, think: tuple[float, float], seed: int, until_stop: bool) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tally = Tally()
    tasks: list[asyncio.Task[None]] = []
    all_given = asyncio.Event()
    waiting = {
        asyncio.create_task(commands(reader, url, think, seed, tally, tasks, all_given)),
        asyncio.create_task(games(tally, tasks, all_given, until_stop)),
    }
    await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    result = tally.result()
    for task in (*waiting, *tasks):
        task.cancel()
    await asyncio.gather(*waiting, *tasks, return_exceptions=True)
    emit({"result": result})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("url", help="ws://HOST:PORT of the server")
    parser.add_argument("--think", type=float, nargs=2, default=(0.0, 0.0), metavar=("MIN", "MAX"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--until-stop", action="store_true", help="report on `stop` only, not when the games end")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.url, (arguments.think[0], arguments.think[1]), arguments.seed, arguments.until_stop))
