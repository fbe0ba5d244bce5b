"""The FastAPI application of `warcards serve`: the routers (`warcards.server.routes`: the lobby, the
WebSocket, replays, operations), the process's `Server` and its settings, the logs' format, and `serve`
(docs/server.md).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from fastapi.requests import Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from warcards import __version__
from warcards.match import validation_message
from warcards.server import protocol as p
from warcards.server.config import ServerConfig
from warcards.server.db import Store
from warcards.server.process import Server
from warcards.server.routes import ops, play, replays, tables
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

    for router in (ops.router, tables.router, replays.router, play.router):
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


def serve(host: str, port: int, database: str | None, config: ServerConfig | None = None) -> None:
    """Run the server (uvicorn) until interrupted with the limits of `config`; migrations run at startup."""
    import uvicorn

    from warcards.server.db import default_url

    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    url = database or default_url()
    check_database(url)
    bot_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    config = config or ServerConfig()
    app = create_app(url, bot_url=f"ws://{bot_host}:{port}", config=config)
    uvicorn.run(
        app, host=host, port=port, ws_max_size=p.MAX_FRAME * 4, log_level="info", log_config=None,
        proxy_headers=True, forwarded_allow_ips=config.forwarded_allow_ips,
    )
