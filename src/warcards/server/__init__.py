"""`warcards serve`: online play over one WebSocket protocol (docs/server.md, docs/protocol.md).

`create_app(database, bot_url, config)` builds the FastAPI application (app.py: one router per resource in `routes/`); `serve(host, port, database)` runs it.
This package needs the `server` extra (`pip install warcards[server]`).
"""

from warcards.server.app import create_app, serve

__all__ = ["create_app", "serve"]
