"""A small protocol client over Starlette's TestClient WebSocket, for the in-process tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from warcards.server import create_app
from warcards.server.config import ServerConfig
from warcards.server.hub import TableHub

TEST_CONFIG = ServerConfig(allow_bot_tables=True, max_tables_per_address=0)
"""The in-process tests make bot-only tables and many tables from one client; the rate limits keep their
defaults."""


@contextmanager
def lobby(folder: Path, config: ServerConfig = TEST_CONFIG) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{folder / 'server.sqlite3'}", config=config)) as client:
        yield client


def started_table(client: TestClient, game: str = "cards-of-war", seats: int = 2) -> tuple[str, list[str]]:
    """A table of `seats` people, all joined (so the game has started): its id and the seat tokens."""
    table = client.post("/tables", json={"game": game, "seats": [{"kind": "person"}] * seats}).json()["id"]
    tokens = [
        client.post(f"/tables/{table}/seats/{seat}", json={"name": f"p{seat}"}).json()["token"]
        for seat in range(seats)
    ]
    return table, tokens


def hub(client: TestClient, table: str) -> TableHub:
    """The table's hub in the app (rebuilt from the log when the app let a finished table go)."""
    server = client.app.state.server  # type: ignore[attr-defined]
    found = server.hubs.get(table)
    if found is None:
        assert client.portal is not None
        found = client.portal.call(server.hub, table)
    return found  # type: ignore[no-any-return]


class Peer:
    """One connection: sends messages and keeps every message it received."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        self.received: list[dict[str, Any]] = []
        self.count = 0

    def send(self, **message: Any) -> None:
        self.socket.send_text(json.dumps({"protocol": 1, **message}))

    def receive(self) -> dict[str, Any]:
        message = self.socket.receive_json()
        self.received.append(message)
        return dict(message)

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.receive()
            if message["type"] == kind:
                return message

    def act(self, answers: int, action: int | str, client_id: str) -> dict[str, Any]:
        """Send an act and read up to its answer (ack or refused)."""
        self.send(type="act", id=client_id, answers=answers, action=action)
        while True:
            message = self.receive()
            if message["type"] in ("ack", "refused") and message.get("id") == client_id:
                return message


@contextmanager
def peer(
    client: TestClient, table: str, token: str | None = None, last_seen: int | None = None, **headers: str
) -> Iterator[Peer]:
    """A connection past its hello: the welcome and the first view (or catchup) already read."""
    with client.websocket_connect(f"/tables/{table}/ws", headers=dict(headers)) as socket:
        connection = Peer(socket)
        connection.send(type="hello", token=token, last_seen=last_seen)
        assert connection.receive()["type"] == "welcome"
        connection.receive()
        yield connection


def latest_view(connection: Peer) -> dict[str, Any]:
    """The newest view this connection holds (from a view, an event or a catchup)."""
    for message in reversed(connection.received):
        if message["type"] == "view":
            return message
        if message["type"] == "event":
            return {**message, "event_no": message["event"]["event_no"]}
        if message["type"] == "catchup":
            return dict(message["view"])
    raise AssertionError("no view received")
