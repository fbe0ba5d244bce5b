"""The FastAPI application of `warcards serve`: the lobby (REST), one WebSocket per connection, the hubs
and the bot pool (docs/server.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import sys
import threading
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.requests import Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from warcards import __version__
from warcards.match import derive_seed, validation_message
from warcards.server import protocol as p
from warcards.server.db import EventInfo, Store, TableInfo, hash_token
from warcards.server.games import shared_game
from warcards.server.hub import LATENCIES, Connection, TableHub
from warcards.server.lobby import (
    CreateTable,
    Health,
    Joined,
    JoinSeat,
    SeatOut,
    Stats,
    TableOut,
    Version,
    check_name,
    check_table,
)
from warcards.server.replays import Replay, ReplayViews, build_replay, build_views, parse_replay_seat
from warcards.server.web import mount_web

log = logging.getLogger("warcards.server")

RATE = 20.0
"""Client messages per second a connection may send on average ..."""
BURST = 40.0
"""... and at once; past that it gets an `error` and the connection is closed (1008)."""

HELLO_SECONDS = 10.0
"""How long a new connection has to send its `hello`."""


class BotPool:
    """The bot process: one child process (`python -m warcards.server.botpool URL`) that plays every bot
    seat of this server as a WebSocket client. It learns each seat's token on its standard input, so no
    token is on a command line or in a log. None when the server runs without bots (`bot_url` None)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "warcards.server.botpool", self.url, stdin=asyncio.subprocess.PIPE
        )

    async def launch(self, table: str, seat: int, token: str, level: str, seed: int) -> None:
        if self.process is None or self.process.stdin is None:
            return
        line = json.dumps({"table": table, "seat": seat, "token": token, "level": level, "seed": seed})
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()

    async def stop(self) -> None:
        if self.process is None:
            return
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()


class Server:
    """The state of one server process: the store, the hubs of the tables it holds, the bot pool."""

    def __init__(self, database: str, bot_url: str | None, origins: tuple[str, ...] = ()) -> None:
        self.store = Store(database)
        self.hubs: dict[str, TableHub] = {}
        self.loading = asyncio.Lock()
        self.bots = BotPool(bot_url) if bot_url else None
        self.origins = origins
        self.stop_listening = threading.Event()
        self.listener: asyncio.Task[None] | None = None

    async def startup(self) -> None:
        await asyncio.to_thread(self.store.migrate)
        if self.store.engine.dialect.name == "postgresql":
            loop = asyncio.get_running_loop()

            def notified(table_id: str, event_no: int) -> None:
                loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self.forward(table_id, event_no)))

            self.listener = asyncio.create_task(asyncio.to_thread(self.store.listen, self.stop_listening, notified))
        if self.bots is not None:
            await self.bots.start()
        unfinished = [
            *await asyncio.to_thread(self.store.tables, False, "playing"),
            *await asyncio.to_thread(self.store.tables, False, "open"),
        ]
        for info in unfinished:
            hub = await self.hub(info.id)
            assert hub is not None
            await hub.resume()
            await self.launch_bots(hub, await asyncio.to_thread(self.store.new_bot_tokens, info.id))
            await self.relaunch_stand_ins(hub)
        log.info("server ready: %d unfinished tables rebuilt", len(unfinished))

    async def forward(self, table_id: str, event_no: int) -> None:
        """Another process (or this one) committed event `event_no`: bring our hub of that table up to it."""
        hub = self.hubs.get(table_id)
        if hub is None or hub.event_no >= event_no:
            return
        async with hub.lock:
            await hub.catch_up()

    async def shutdown(self) -> None:
        self.stop_listening.set()
        if self.listener is not None:
            await self.listener
        for hub in self.hubs.values():
            hub.stop_timer()
        if self.bots is not None:
            await self.bots.stop()
        self.store.close()

    async def hub(self, table_id: str) -> TableHub | None:
        """The table's hub, rebuilt from its log on first use (None for an unknown table)."""
        hub = self.hubs.get(table_id)
        if hub is not None:
            return hub
        async with self.loading:
            hub = self.hubs.get(table_id)
            if hub is not None:
                return hub
            info = await asyncio.to_thread(self.store.table, table_id)
            if info is None:
                return None
            events = await asyncio.to_thread(self.store.events, table_id)
            hub = TableHub(info, self.store)
            hub.replay(events)
            hub.hold(await asyncio.to_thread(self.store.stand_ins, table_id))
            if self.bots is not None:
                hub.launch_stand_in = functools.partial(self.launch_stand_in, hub)
            self.hubs[table_id] = hub
            return hub

    async def launch_bots(self, hub: TableHub, tokens: dict[int, str]) -> None:
        if self.bots is None or hub.finished:
            return
        for seat, token in tokens.items():
            level = hub.info.seats[seat].level or "random"
            await self.bots.launch(hub.id, seat, token, level, derive_seed(hub.seed, "agent", seat))

    async def relaunch_stand_ins(self, hub: TableHub) -> None:
        """After a restart: the stand-ins that held seats play on, with fresh tokens (only hashes were kept);
        their players can still reclaim the seats."""
        if self.bots is None or hub.finished or not hub.stand_ins:
            return
        tokens = await asyncio.to_thread(self.store.renew_stand_ins, hub.id)
        for seat, token in tokens.items():
            hub.stand_ins[seat] = hash_token(token)
            await self.launch_stand_in(hub, seat, token, hub.stand_in_level)

    def forget_if_idle(self, hub: TableHub) -> None:
        """A finished table nobody watches leaves memory (it is rebuilt from its log if asked for again)."""
        if hub.finished and not hub.connections and self.hubs.get(hub.id) is hub:
            del self.hubs[hub.id]

    async def launch_stand_in(self, hub: TableHub, seat: int, token: str, level: str) -> None:
        if self.bots is not None:
            await self.bots.launch(hub.id, seat, token, level, derive_seed(hub.seed, "stand-in", seat, hub.event_no))

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """A WebSocket from a browser must come from a page of this server (or a configured origin);
        clients that send no Origin (bots, scripts) are not browsers and pass."""
        if origin is None:
            return True
        if origin in self.origins:
            return True
        return host is not None and urlsplit(origin).netloc == host


def table_out(info: TableInfo) -> TableOut:
    names = shared_game(info.game, info.options).seat_names()
    return TableOut(
        id=info.id, game=info.game, options=info.options, public=info.public, status=info.status,
        seats=[
            SeatOut(
                seat=s.seat, seat_name=names[s.seat], kind=s.kind, level=s.level, player=s.name,
                open=s.kind == "person" and not s.taken,
            )
            for s in info.seats
        ],
        invite=f"/tables/{info.id}", websocket=f"/tables/{info.id}/ws", result=info.result,
    )


def create_app(
    database: str, bot_url: str | None = None, origins: tuple[str, ...] = ()
) -> FastAPI:
    """The application on `database` (a SQLAlchemy URL); `bot_url` is this server's own WebSocket base
    (`ws://127.0.0.1:8000`) for its bot process, None to run no bots (tests with an in-process client)."""
    server = Server(database, bot_url, origins)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await server.startup()
        try:
            yield
        finally:
            await server.shutdown()

    app = FastAPI(title="warcards", version=__version__, lifespan=lifespan)
    app.state.server = server

    @app.exception_handler(ValueError)
    async def bad_input(request: Request, error: ValueError) -> JSONResponse:
        message = validation_message(error) if isinstance(error, ValidationError) else str(error)
        return JSONResponse(status_code=422, content={"detail": message})

    @app.get("/health")
    async def health() -> Health:
        return Health(status="ok", tables=len(server.hubs))

    @app.get("/stats")
    async def stats() -> Stats:
        times = sorted(LATENCIES)

        def at(fraction: float) -> float | None:
            return round(times[min(len(times) - 1, int(fraction * len(times)))] * 1000, 3) if times else None

        return Stats(tables=len(server.hubs), acts=len(times), p50_ms=at(0.5), p99_ms=at(0.99))

    @app.get("/version")
    async def version() -> Version:
        return Version(warcards=__version__, protocol=p.PROTOCOL)

    @app.post("/tables", status_code=201)
    async def create_table(request: CreateTable) -> TableOut:
        """A new table: the game and options are checked by the engine, bots take their seats at once, and
        the game starts when every person seat is filled."""
        game = check_table(request)
        seats: list[tuple[str, str | None]] = [(seat.kind, seat.level) for seat in request.seats]
        table_id, tokens = await asyncio.to_thread(
            server.store.create_table, game.game_id, game.options, secrets.randbits(62), request.public,
            request.timer.model_dump(), seats,
        )
        hub = await server.hub(table_id)
        assert hub is not None
        await start_if_full(hub, tokens)
        return table_out(hub.info if hub.status == "open" else await info_of(table_id))

    @app.get("/tables")
    async def list_tables() -> list[TableOut]:
        """Public tables with an open seat."""
        infos = await asyncio.to_thread(server.store.tables, True, "open")
        return [table_out(info) for info in infos]

    @app.get("/tables/{table_id}")
    async def show_table(table_id: str) -> TableOut:
        """A table by its id: what an invite link shows."""
        return table_out(await info_of(table_id))

    @app.post("/tables/{table_id}/seats/{seat}")
    async def join(table_id: str, seat: int, request: JoinSeat) -> Joined:
        """Take an open person seat; the answer carries the seat's token (keep it: it is shown once)."""
        name = check_name(request.name)
        info = await info_of(table_id)
        if not 0 <= seat < len(info.seats):
            raise HTTPException(404, f"table {table_id} has seats 0 to {len(info.seats) - 1}")
        if info.status != "open" or info.seats[seat].kind != "person" or info.seats[seat].taken:
            raise HTTPException(409, f"seat {seat} of table {table_id} is not open")
        token = await asyncio.to_thread(server.store.take_seat, table_id, seat, name)
        if token is None:
            raise HTTPException(409, f"seat {seat} of table {table_id} is not open")
        hub = await server.hub(table_id)
        assert hub is not None
        hub.info = await info_of(table_id)
        await start_if_full(hub, {})
        return Joined(table=table_id, seat=seat, token=token, websocket=f"/tables/{table_id}/ws")

    @app.post("/tables/{table_id}/leave")
    async def leave(table_id: str, authorization: Annotated[str | None, Header()] = None) -> TableOut:
        """Leave a seat (`Authorization: Bearer TOKEN`): before the start the seat opens again; during the
        game leaving is resigning."""
        seat = await seat_of(table_id, authorization)
        hub = await server.hub(table_id)
        assert hub is not None
        if hub.status == "open":
            await asyncio.to_thread(server.store.free_seat, table_id, seat)
            hub.info = await info_of(table_id)
        elif hub.status == "playing":
            await hub.resign(None, seat, f"leave-{secrets.token_hex(8)}")
            server.forget_if_idle(hub)
        return table_out(await info_of(table_id))

    @app.get("/tables/{table_id}/spectate")
    async def spectate(table_id: str) -> TableOut:
        """How to watch a table: connect to its `websocket` with a `hello` that carries no token."""
        return table_out(await info_of(table_id))

    @app.get("/tables/{table_id}/record")
    async def record(table_id: str, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """After the end: the whole record (seed included), in the format `warcards replay` checks. During
        the game, with a seat's token (`Authorization: Bearer TOKEN`): that seat's own record — the events
        as it saw them and its view now; without one, refused."""
        hub = await server.hub(table_id)
        if hub is None:
            raise HTTPException(404, f"no table {table_id}")
        if hub.finished:
            return hub.record()
        if authorization is None:
            raise HTTPException(409, "the whole record is given after the end; a seat's token gets its own")
        seat = await seat_of(table_id, authorization)
        async with hub.lock:
            return {
                "table": hub.id, "game": hub.game.game_id, "options": hub.game.options, "seat": seat,
                "events": [body.model_dump() for body in hub.history[seat]],
                "view": hub.view_of(seat).model_dump(),
            }

    @functools.lru_cache(maxsize=64)
    def facts_of(game_id: str, options: str) -> dict[str, dict[str, Any]]:
        from warcards.engine.registry import game_spec

        return game_spec(game_id).card_facts(shared_game(game_id, json.loads(options)))

    @app.get("/tables/{table_id}/cards")
    async def card_facts(table_id: str) -> dict[str, dict[str, Any]]:
        """Every card of the table's deck (its game and options) with its facts — name, values, traits,
        abilities in words (docs/contributing/log.md, "Card facts"): public knowledge, like a deck list."""
        info = await info_of(table_id)
        return await asyncio.to_thread(facts_of, info.game, json.dumps(info.options, sort_keys=True))

    @app.get("/tables/{table_id}/replay")
    async def replay(table_id: str, seat: str = "all") -> Replay:
        """A finished game step by step (`warcards.server.replays`): who moved and the log lines, as a seat
        (`seat=N` or its name) read them, or as all (`seat=all`): every move in full. Refused (409) before
        the end; the views after a step are `/replay/{step}`."""
        info, events, chosen = await finished_record(table_id, seat)
        return await asyncio.to_thread(build_replay, info, events, chosen)

    @app.get("/tables/{table_id}/replay/{step}")
    async def replay_step(table_id: str, step: int, seat: str = "all") -> ReplayViews:
        """The views after one step of a finished game's replay (0: the start): the seat's, or every seat's."""
        info, events, chosen = await finished_record(table_id, seat)
        return await asyncio.to_thread(build_views, info, events, chosen, step)

    async def finished_record(table_id: str, seat: str) -> tuple[TableInfo, list[EventInfo], int | None]:
        info = await info_of(table_id)
        if info.status != "finished":
            raise HTTPException(409, f"table {table_id} is not over: its replay is shown after the end")
        chosen = parse_replay_seat(info, seat)
        return info, await asyncio.to_thread(server.store.events, table_id), chosen

    async def info_of(table_id: str) -> TableInfo:
        info = await asyncio.to_thread(server.store.table, table_id)
        if info is None:
            raise HTTPException(404, f"no table {table_id}")
        return info

    async def seat_of(table_id: str, authorization: str | None) -> int:
        if not authorization or not authorization.startswith("Bearer "):
            raise HTTPException(401, "give the seat's token as `Authorization: Bearer TOKEN`")
        seat = await asyncio.to_thread(server.store.seat_of_token, table_id, authorization[7:])
        if seat is None:
            raise HTTPException(403, "that token is not a seat of this table")
        return seat

    async def start_if_full(hub: TableHub, tokens: dict[int, str]) -> None:
        if all(s.taken for s in hub.info.seats):
            await hub.start()
        await server.launch_bots(hub, tokens)

    @app.websocket("/tables/{table_id}/ws")
    async def play(websocket: WebSocket, table_id: str) -> None:
        if not server.origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host")):
            await websocket.close(code=1008, reason="origin not allowed")
            return
        await websocket.accept()
        await serve_connection(server, websocket, table_id)

    mount_web(app)
    return app


async def serve_connection(server: Server, websocket: WebSocket, table_id: str) -> None:
    """One connection: `hello` (authenticate), then read client messages until it closes."""
    try:
        hello = await asyncio.wait_for(read_message(websocket), HELLO_SECONDS)
    except (TimeoutError, WebSocketDisconnect):
        await close(websocket, 1008, "no hello")
        return
    if not isinstance(hello, p.Hello):
        await reject(websocket, "bad_message", "the first message is a hello", 1008)
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
    bucket = BURST
    last = time.monotonic()
    try:
        while True:
            message = await read_message(websocket)
            now = time.monotonic()
            bucket = min(BURST, bucket + (now - last) * RATE) - 1
            last = now
            if bucket < 0:
                connection.send(p.Error(code="rate_limited", message=f"at most {RATE:g} messages a second"))
                connection.close_code = 1008
                connection.outbox.put_nowait(None)
                break
            if isinstance(message, p.Error):
                connection.send(message)
                if message.code == "too_large":
                    connection.close_code = 1009
                    connection.outbox.put_nowait(None)
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
    with contextlib.suppress(Exception):
        await websocket.send_text(p.Error(code=code, message=message).model_dump_json())
    await close(websocket, close_code, code)


async def close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code=code, reason=reason)


class JsonLines(logging.Formatter):
    """Structured logs: one JSON object a line (time, level, logger, message, and any `extra` fields).
    Nothing logged carries a token: tokens travel only in `hello` frames and join answers."""

    FIELDS = ("table", "seat", "event_no", "status")

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "at": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"), "level": record.levelname,
            "logger": record.name, "message": record.getMessage(),
        }
        for name in self.FIELDS:
            if hasattr(record, name):
                entry[name] = getattr(record, name)
        return json.dumps(entry)


def check_database(url: str) -> None:
    """Open the database and apply the migrations, or raise `ValueError` saying why it cannot be used (the
    URL shown without its password)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from warcards.engine.text import quote

    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        shown = url.split("@")[-1]
    store = None
    try:
        store = Store(url)
        store.migrate()
    except (SQLAlchemyError, OSError) as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        raise ValueError(
            f"--database {quote(shown, 160)} cannot be used: {reason} "
            "(a SQLAlchemy URL such as sqlite:///path/file.sqlite3 or postgresql://user@host/db)"
        ) from None
    finally:
        if store is not None:
            store.close()


def serve(host: str, port: int, database: str | None, origins: tuple[str, ...] = ()) -> None:
    """Run the server (uvicorn) until interrupted; migrations run at startup."""
    import uvicorn

    from warcards.server.db import default_url

    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    url = database or default_url()
    check_database(url)
    bot_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    app = create_app(url, bot_url=f"ws://{bot_host}:{port}", origins=origins)
    uvicorn.run(app, host=host, port=port, ws_max_size=p.MAX_FRAME * 4, log_level="info", log_config=None)
