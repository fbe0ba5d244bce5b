"""The bot process of `warcards serve`: plays bot seats as ordinary WebSocket clients (docs/server.md).

Run as `python -m warcards.server.botpool ws://HOST:PORT`; the server writes one JSON line per bot seat on
its standard input (`table`, `seat`, `token`, `level`, `seed`) and closes it to stop the process. Each
seat is one connection that receives exactly what a person in that seat would. The `random` and
`heuristic` levels decide from the seat's observation and legal actions as sent; the search levels
(`beginner`, `easy`, `medium`, `hard`) ask the server for a `sample` — a state determinized from the seat's view alone
— as a position snapshot, and search from it (docs/protocol.md says why a sample and not the true state) in
a pool of worker processes, which rebuild it with the game's `state_from_snapshot` (which checks it): a slow
`hard` decision runs beside the others, on its own core when there is one, and never holds up this
process's connections or another table's bots.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import sys
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, cast

import websockets

from warcards.bots import make_agent
from warcards.engine.agents import SeatView
from warcards.engine.api import JSON, Game, Rng, State
from warcards.server.games import shared_game
from warcards.server.protocol import PROTOCOL

log = logging.getLogger("warcards.botpool")

VIEW_LEVELS = ("random", "heuristic")
"""Levels that decide from the observation and legal actions alone (no sample needed)."""

SEARCH_WORKERS = max(2, 2 * (os.cpu_count() or 1))
"""Worker processes for the search levels' decisions: more than the cores, so that long decisions share
them (the operating system's scheduler) rather than queue behind each other."""


def decide_from_snapshot(level: str, game_id: str, options: dict[str, Any], seat: int, seed: int,
                         snapshot: dict[str, Any]) -> int:
    """A search level's move for `seat` from a sample the server sent (in a worker process): the game's
    own `state_from_snapshot` rebuilds and checks it; the bot is seeded by `seed` alone."""
    game = shared_game(game_id, options)
    sample = game.state_from_snapshot(snapshot)
    return make_agent(level, game, seat, seed).step(SeatView.of_sample(sample, seat))


def decision_seed(seed: int, event_no: int) -> int:
    """The seed of one search decision: the seat's bot seed and the event it answers."""
    return (seed * 1_000_003 + event_no) % 2**63


class RemoteView:
    """A `SeatView` made of the messages a seat receives: its observation and its legal actions."""

    def __init__(self, game: Game, seat: int, observation: JSON, legal: list[dict[str, Any]]) -> None:
        self.game = game
        self.seat = seat
        self._observation = observation
        self._legal = [choice["action"] for choice in legal]
        self._notations = {choice["action"]: choice["notation"] for choice in legal}

    def observation(self, fields: frozenset[str] | None = None) -> JSON:
        if fields is None:
            return dict(self._observation)
        return {key: value for key, value in self._observation.items() if key in fields}

    def legal_actions(self) -> list[int]:
        return list(self._legal)

    def action_to_string(self, action: int) -> str:
        return str(self._notations.get(action, action))

    def determinize(self, rng: Rng) -> State:
        raise NotImplementedError("a remote view has no state: the search levels ask the server for a sample")


async def play_seat(
    url: str, table: str, token: str, level: str, seed: int, search: Executor | None = None
) -> dict[str, Any] | None:
    """Play one seat to the end of its game; returns the `end` message (None if the connection closed).
    The search levels decide in `search` (a process pool; None: a thread of this process)."""
    async with websockets.connect(f"{url}/tables/{table}/ws", max_size=None, compression=None) as socket:
        await socket.send(json.dumps({"protocol": PROTOCOL, "type": "hello", "token": token}))
        game: Game | None = None
        seat = -1
        agent = None
        asked = -1
        async for frame in socket:
            message = json.loads(frame)
            kind = message["type"]
            if kind == "welcome":
                game = shared_game(message["game"], message["options"])
                seat = message["seat"]
                agent = make_agent(level, game, seat, seed)
                continue
            if kind == "end":
                return cast(dict[str, Any], message)
            if kind == "refused" and message["code"] == "stale":
                await socket.send(json.dumps({"protocol": PROTOCOL, "type": "sync"}))
                continue
            view = message.get("view") if kind == "catchup" else message
            if kind == "sample" and agent is not None and game is not None:
                number = message["event_no"]
                decision = (level, game.game_id, game.options, seat, decision_seed(seed, number), message["snapshot"])
                if search is None:
                    action = await asyncio.to_thread(decide_from_snapshot, *decision)
                else:
                    action = await asyncio.get_running_loop().run_in_executor(search, decide_from_snapshot, *decision)
                await send_act(socket, number, action)
                continue
            if kind not in ("view", "event", "catchup") or view is None or agent is None or game is None:
                continue
            number = view["event"]["event_no"] if kind == "event" else view["event_no"]
            if view.get("to_move") != seat or not view.get("legal") or view.get("view") is None:
                continue
            if level in VIEW_LEVELS:
                remote = RemoteView(game, seat, view["view"], view["legal"])
                action = await asyncio.to_thread(agent.step, cast(SeatView, remote))
                await send_act(socket, number, action)
            elif asked != number:
                asked = number
                await socket.send(json.dumps({"protocol": PROTOCOL, "type": "sample", "id": f"s{number}"}))
    return None


async def send_act(socket: Any, number: int, action: int) -> None:
    await socket.send(
        json.dumps({"protocol": PROTOCOL, "type": "act", "id": f"e{number}", "answers": number, "action": action})
    )


RECONNECT_SECONDS = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 30.0)
"""A seat whose connection could not be opened, or dropped, is connected again after these pauses: a bot's
clock does not run while it is not connected (docs/server.md, "Timers"), so a lost connection must not be
the end of it."""

REFUSED = (1008, 4001, 4004)
"""Close codes that end a seat for good: the server refused it (the seat's token is no longer this bot's:
its player reclaimed it, or another process took the table's bots over; an unknown table)."""


async def seat_task(url: str, order: dict[str, Any], search: Executor | None) -> None:
    """Play one seat; reconnect while the connection fails or drops (a busy or restarting server), until
    the game ends or the server refuses the seat."""
    for pause in (*RECONNECT_SECONDS, None):
        try:
            await play_seat(url, order["table"], order["token"], order["level"], order["seed"], search)
            return
        except (OSError, TimeoutError, websockets.exceptions.InvalidHandshake,
                websockets.exceptions.ConnectionClosedError) as error:
            closed = getattr(error, "rcvd", None)
            if pause is None or (closed is not None and closed.code in REFUSED):
                log.warning("bot seat %s of table %s stopped: %s", order.get("seat"), order.get("table"), error)
                return
            await asyncio.sleep(pause)
        except Exception as error:  # one seat's failure must not stop the others
            log.warning("bot seat %s of table %s stopped: %s", order.get("seat"), order.get("table"), error)
            return


async def main(url: str) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tasks: set[asyncio.Task[None]] = set()
    search = ProcessPoolExecutor(SEARCH_WORKERS, mp_context=multiprocessing.get_context("spawn"))
    try:
        while line := await reader.readline():
            task = asyncio.create_task(seat_task(url, json.loads(line), search))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        for task in tasks:
            task.cancel()
    finally:
        search.shutdown(wait=False, cancel_futures=True)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(main(sys.argv[1]))
