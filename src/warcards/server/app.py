"""The FastAPI application of `warcards serve`: the routers (`warcards.server.routes`: the lobby, the
WebSocket, replays, operations), the process's `Server` and its settings, the logs' format, and `serve`
(docs/server.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import signal
import socket
import sys
from collections.abc import AsyncIterator
from types import FrameType
from typing import Any

import uvicorn
from alembic.util.exc import CommandError
from fastapi import FastAPI
from fastapi.requests import Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from warcards import __version__
from warcards.engine.text import quote
from warcards.match import validation_message
from warcards.server import protocol as p
from warcards.server.config import ServerConfig
from warcards.server.db import Store, default_url
from warcards.server.process import Server
from warcards.server.routes import accounts, mail, ops, play, ratings, replays, tables
from warcards.server.web import mount_web

log = logging.getLogger("warcards.server")


def create_app(database: str, bot_url: str | None = None, config: ServerConfig | None = None) -> FastAPI:
    """The application on `database` (a SQLAlchemy URL); `bot_url` is this server's own WebSocket base
    (`ws://127.0.0.1:8000`) for its bot process, None to run no bots (tests with an in-process client);
    `config` the process's limits (the defaults when None)."""
    server = Server(database, bot_url, config)

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

    for router in (ops.router, tables.router, replays.router, play.router, ratings.router, accounts.router, mail.router):
        app.include_router(router)
    mount_web(app)
    return app


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
    URL shown without its password): a database that cannot be reached blames the URL; a migration that
    fails on a database that answered says so, and does not."""
    try:
        shown = quote(make_url(url).render_as_string(hide_password=True), 160)
    except SQLAlchemyError:
        shown = quote(url.split("@")[-1], 160)
    store = None
    try:
        try:
            store = Store(url)
            with store.engine.connect():
                pass
        except (SQLAlchemyError, OSError) as error:
            raise ValueError(
                f"--database {shown} cannot be used: {_first_line(error)} "
                "(a SQLAlchemy URL such as sqlite:///path/file.sqlite3 or postgresql://user@host/db)"
            ) from None
        try:
            store.migrate()
        except (SQLAlchemyError, OSError, CommandError) as error:
            raise ValueError(
                f"--database {shown} answered, but bringing its schema to this version failed: {_first_line(error)}"
            ) from None
    finally:
        if store is not None:
            store.close()


def _first_line(error: BaseException) -> str:
    """What a database error says, on one line (the driver's message when there is one)."""
    return str(getattr(error, "orig", None) or error).strip().splitlines()[0]


def serve(host: str, port: int, database: str | None, config: ServerConfig | None = None) -> None:
    """Run the server (uvicorn) with `config`'s limits until SIGTERM or Ctrl+C, which drain it
    (`Server.drain`) and exit 0; migrations run at startup."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    url = database or default_url()
    check_database(url)
    bot_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    config = config or ServerConfig()
    app = create_app(url, bot_url=f"ws://{bot_host}:{port}", config=config)
    server = draining_server(uvicorn.Config(
        app, host=host, port=port, ws_max_size=p.MAX_FRAME * 4, log_level="info", log_config=None,
        timeout_graceful_shutdown=int(config.drain_seconds) + 5,
        proxy_headers=True, forwarded_allow_ips=config.forwarded_allow_ips,
    ), app.state.server)
    # Everything imported so far (the games' card tables, the libraries) lives as long as the process: out of
    # the garbage collector's generations, each full collection scans only what the tables hold.
    gc.freeze()
    server.run()
    if not server.started:
        sys.exit(3)  # uvicorn's own exit status when it could not start (the port taken, say)


def draining_server(config: Any, state: Server) -> Any:
    """A uvicorn server whose first SIGTERM or SIGINT drains the application (`Server.drain`: readyz 503,
    new WebSockets and tables refused, every WebSocket closed with 1012 once its table's work under way is
    committed) before uvicorn's own shutdown, and exits 0 (uvicorn alone would re-raise the signal after its
    shutdown, so the process would die of it). A second signal during the drain stops at once, as uvicorn does."""
    class Draining(uvicorn.Server):
        loop: asyncio.AbstractEventLoop | None = None
        drain_task: asyncio.Task[None] | None = None

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            self.loop = asyncio.get_running_loop()
            await super().startup(sockets)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.loop is None or state.draining or sig not in (signal.SIGTERM, signal.SIGINT):
                super().handle_exit(sig, frame)
                return
            state.draining = True
            self.loop.call_soon_threadsafe(self.begin_drain)

        def begin_drain(self) -> None:
            self.drain_task = asyncio.ensure_future(self.drain_then_exit())

        async def drain_then_exit(self) -> None:
            try:
                await state.drain()
            finally:
                self.should_exit = True

    return Draining(config)
