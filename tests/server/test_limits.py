"""The server's limits against an attacker (issue 32): a client that never reads, deep JSON, one address
making a thousand tables, bot-only tables, a long list of tables, and many connections of one seat or one
address sharing one rate limit (docs/server.md, "Limits")."""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from warcards.server import create_app
from warcards.server.config import ServerConfig
from warcards.server.connection import FELL_BEHIND, Connection, parse_message
from warcards.server.pgcluster import free_port
from warcards.server.process import Server
from warcards.server.protocol import MAX_FRAME, Act, Error, Hello, Ping, Reclaim, Resign, SampleRequest, Sync

from .client import TEST_CONFIG, hub, latest_view, lobby, peer, started_table

DEADLINE = 120.0
PERSON_TABLE = {"game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "person"}]}


# ----- finding 1: a client that never reads ------------------------------------------------------------------
@contextmanager
def served(config: ServerConfig, folder: Path) -> Iterator[tuple[Server, str]]:
    """`create_app` under a real uvicorn on a free loopback port, in a thread of this process (so the test
    can look at the server's queues), with its bot process: the `Server` and the base WebSocket URL."""
    port = free_port()
    app = create_app(f"sqlite:///{folder / 'server.sqlite3'}", bot_url=f"ws://127.0.0.1:{port}", config=config)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # the kernel's send buffer of each connection (autotuned up to net.ipv4.tcp_wmem's largest, megabytes)
    # kept small, so what a client does not read piles up in the server process, where the limits act
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
    listening.bind(("127.0.0.1", port))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + DEADLINE
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield app.state.server, f"ws://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(DEADLINE)
        listening.close()


def spectators(server: Server, table: str) -> list[Connection]:
    found = server.hubs.get(table)
    return [] if found is None else [c for c in list(found.connections) if c.seat is None]


def silent_spectator(port: int, table: str) -> socket.socket:
    """A WebSocket spectator that sends its `hello` and then reads nothing at all (a plain socket with a
    small receive buffer: the server's frames pile up on its side)."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.settimeout(DEADLINE)
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        f"GET /tables/{table}/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):
        answer += raw.recv(1)  # a byte at a time: no frame is read with the headers
    assert answer.startswith(b"HTTP/1.1 101"), answer
    hello = json.dumps({"protocol": 1, "type": "hello"}).encode()
    mask = os.urandom(4)
    raw.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(hello)))
    return raw


def close_code_at_the_end(raw: socket.socket) -> int | None:
    """Read the stream up to its close frame: its code (None: the stream ended without one)."""
    data = bytearray()
    at = 0
    while chunk := raw.recv(1 << 16):
        data += chunk
        while True:  # every whole frame received so far
            if at + 2 > len(data):
                break
            opcode, length, start = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
            if length >= 126:
                width = 2 if length == 126 else 8
                if start + width > len(data):
                    break
                length, start = int.from_bytes(data[start:start + width], "big"), start + width
            if start + length > len(data):
                break
            if opcode == 0x8:
                return int.from_bytes(data[start:start + 2], "big")
            at = start + length
    return None


def play_until(ws: Any, done: Any) -> None:
    """Play a seat over `ws` (its first legal action each time it is to move) until `done()` or the end."""
    while not done():
        frame = json.loads(ws.recv(timeout=DEADLINE))
        if frame["type"] == "end":
            return
        view = frame["view"] if frame["type"] == "catchup" else frame
        if frame["type"] in ("view", "event", "catchup") and view.get("legal"):
            number = frame["event"]["event_no"] if frame["type"] == "event" else view["event_no"]
            ws.send(json.dumps({
                "protocol": 1, "type": "act", "id": f"a{number}", "answers": number,
                "action": view["legal"][0]["action"],
            }))


def test_slow_reader_is_disconnected_and_its_queue_released(tmp_path: Path) -> None:
    """A spectator that never reads a game (the test plays one seat, bots the others): its queue never
    holds more than the limits, it is closed with 4008 once it falls behind, and the frames queued for it
    are let go."""
    config = ServerConfig(send_queue_bytes=512 * 1024)  # above the bursts of the connections that read
    with served(config, tmp_path) as (server, base):
        http = base.replace("ws://", "http://")
        table = httpx.post(f"{http}/tables", json={
            "game": "naval-war", "options": {"players": 4},
            "seats": [{"kind": "person"}, *[{"kind": "bot", "level": "random"}] * 3],
        }).json()["id"]
        raw = silent_spectator(int(base.rsplit(":", 1)[1]), table)
        deadline = time.monotonic() + DEADLINE
        while not spectators(server, table):
            assert time.monotonic() < deadline, "the spectator was never attached"
            time.sleep(0.01)
        watched = spectators(server, table)[0]
        peak = [0, 0]

        def let_go() -> bool:
            peak[0] = max(peak[0], watched.outbox.qsize())
            peak[1] = max(peak[1], watched.queued_bytes)
            return watched not in spectators(server, table)

        token = httpx.post(f"{http}/tables/{table}/seats/0", json={"name": "me"}).json()["token"]
        with connect(f"{base}/tables/{table}/ws", max_size=None) as me:
            me.send(json.dumps({"protocol": 1, "type": "hello", "token": token}))
            play_until(me, let_go)
        assert let_go(), f"the game ended before the spectator that reads nothing fell behind (peak {peak})"
        assert peak[0] <= config.send_queue_frames + 1 and peak[1] <= config.send_queue_bytes
        assert watched.close_code == FELL_BEHIND
        assert watched.outbox.qsize() <= 1 and watched.queued_bytes == 0  # at most the close is left
        assert close_code_at_the_end(raw) == FELL_BEHIND
        raw.close()


def test_a_client_that_fell_behind_resyncs_with_nothing_lost(tmp_path: Path) -> None:
    """The 4008 close loses nothing: a new connection with `last_seen` gets the gap from the log."""
    small = replace(TEST_CONFIG, send_queue_frames=3)
    with lobby(tmp_path, small) as client:
        table, tokens = started_table(client)
        table_hub = hub(client, table)
        with peer(client, table, tokens[0]) as connection:
            seen = latest_view(connection)["event_no"]
            behind = next(c for c in table_hub.connections if c.seat == 0)

            def flood() -> None:  # the hub queues faster than the socket sends: here, by hand
                for _ in range(4):
                    behind.send(Error(code="x", message="filler"))

            assert client.portal is not None
            client.portal.call(flood)
            assert behind.close_code == FELL_BEHIND and behind.queued_bytes == 0
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    connection.receive()
            assert closed.value.code == FELL_BEHIND
        with peer(client, table, tokens[0], last_seen=seen) as again:
            assert latest_view(again)["event_no"] == table_hub.position(0)


# ----- finding 2: deep JSON ----------------------------------------------------------------------------------
def nested(depth: int, inner: str = "0") -> str:
    return "[" * depth + inner + "]" * depth


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (nested(1_000), "bad_message"),
        ('{"a":' * 1_000 + "1" + "}" * 1_000, "bad_message"),
        (json.dumps({"protocol": 1, "type": "act", "id": "a", "answers": 0, "action": 0})[:-1]
         + ', "x": ' + nested(1_000) + "}", "bad_message"),
        ('{"protocol": 1, "type": "act", "id": "a", "answers": 0, "action": ' + nested(5_000) + "}", "bad_message"),
        (nested(100_000), "too_large"),
    ],
    ids=["list-1000", "object-1000", "act-with-a-deep-field", "act-action-5000", "list-100000"],
)
def test_nested_json_gets_bad_message_not_a_traceback(tmp_path: Path, frame: str, code: str) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        table_hub = hub(client, table)
        before = (table_hub.event_no, table_hub.state.history())
        with peer(client, table, tokens[0]) as connection:
            connection.socket.send_text(frame)
            answer = connection.receive()
            assert (answer["type"], answer["code"]) == ("error", code)
            if code == "too_large":  # the documented close (1009)
                with pytest.raises(WebSocketDisconnect) as closed:
                    connection.receive()
                assert closed.value.code == 1009
            else:
                assert "32 deep" in answer["message"]
                connection.send(type="ping", id="alive")
                assert connection.until("pong")["id"] == "alive"
        assert (table_hub.event_no, table_hub.state.history()) == before


def test_brackets_inside_strings_are_not_nesting(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as connection:
            connection.send(type="ping", id="[[[[[[[[[[{{{{{{{{{{[[[[[[[[[[{{{{{{{{{{")
            assert connection.until("pong")["id"].startswith("[[[")


MODELS = (Hello, Act, Resign, Sync, Ping, Reclaim, SampleRequest)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=40,
)
client_fields = st.dictionaries(
    st.sampled_from(["protocol", "type", "id", "answers", "action", "last_seen", "token", "x"]), json_values
)


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(["hello", "act", "resign", "sync", "ping", "reclaim", "sample", "other"]),
    fields=client_fields,
    depth=st.integers(0, 200),
)
def test_any_frame_parses_to_a_message_or_an_error_never_an_exception(
    kind: str, fields: dict[str, Any], depth: int
) -> None:
    """Over the client models' fields with arbitrary JSON values, wrapped `depth` deep: a message or an
    `Error`; nothing deeper than the limit parses."""
    for text in (json.dumps({"protocol": 1, "type": kind, **fields}), nested(depth, json.dumps(fields))):
        parsed = parse_message(text)
        assert isinstance(parsed, (Error, *MODELS))
    if depth > 32:
        assert isinstance(parse_message(nested(depth, json.dumps(fields))), Error)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet='[]{}"\\,:0a ', max_size=400))
def test_any_bracket_soup_parses_to_a_message_or_an_error(text: str) -> None:
    assert isinstance(parse_message(text), (Error, *MODELS))


def test_a_deep_act_over_the_socket_changes_nothing_for_any_depth(tmp_path: Path) -> None:
    unlimited = replace(
        TEST_CONFIG, rate=10_000, burst=10_000, seat_rate=10_000, seat_burst=10_000, address_rate=10_000,
        address_burst=10_000,
    )
    with lobby(tmp_path, unlimited) as client:
        table, tokens = started_table(client)
        table_hub = hub(client, table)
        mover = table_hub.state.current_player()
        before = (table_hub.event_no, table_hub.state.history())
        with peer(client, table, tokens[mover]) as connection:
            answers = latest_view(connection)["event_no"]

            @settings(max_examples=60, deadline=None)
            @given(depth=st.integers(33, MAX_FRAME // 2 - 60), field=st.sampled_from(["action", "answers", "id"]))
            def check(depth: int, field: str) -> None:
                message: dict[str, Any] = {"protocol": 1, "type": "act", "id": "d", "answers": answers, "action": 0}
                text = json.dumps({**message, field: "HOLE"}).replace('"HOLE"', nested(depth))
                connection.socket.send_text(text)
                assert connection.receive()["code"] == "bad_message"

            check()
            connection.send(type="ping", id="alive")
            assert connection.until("pong")["id"] == "alive"
        assert (table_hub.event_no, table_hub.state.history()) == before


def another_address(client: TestClient) -> TestClient:
    """A client of the same running app (its event loop) from another address."""
    other = TestClient(client.app, client=("203.0.113.9", 5000))
    other.portal = client.portal
    return other


# ----- finding 3: tables ------------------------------------------------------------------------------------
def test_one_address_cannot_make_a_thousand_tables(tmp_path: Path) -> None:
    limit = ServerConfig().max_tables_per_address
    with lobby(tmp_path, ServerConfig()) as client:
        made = []
        for _ in range(1_000):
            answer = client.post("/tables", json=PERSON_TABLE)
            if answer.status_code != 201:
                break
            made.append(answer.json()["id"])
        assert len(made) == limit
        assert answer.status_code == 429
        assert "--max-tables-per-address" in answer.json()["detail"]
        assert "finish or leave" in answer.json()["detail"]
        # another address is not held back by this one
        other = another_address(client)
        assert other.post("/tables", json=PERSON_TABLE).status_code == 201
        # a table that ends gives its place back
        tokens = [client.post(f"/tables/{made[0]}/seats/{seat}", json={"name": f"p{seat}"}).json()["token"]
                  for seat in range(2)]
        client.post(f"/tables/{made[0]}/leave", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert client.post("/tables", json=PERSON_TABLE).status_code == 201
        assert client.post("/tables", json=PERSON_TABLE).status_code == 429


def test_the_process_holds_at_most_its_open_tables(tmp_path: Path) -> None:
    with lobby(tmp_path, ServerConfig(max_open_tables=5, max_tables_per_address=0)) as client:
        for _ in range(5):
            assert client.post("/tables", json=PERSON_TABLE).status_code == 201
        answer = client.post("/tables", json=PERSON_TABLE)
        assert answer.status_code == 503
        assert "--max-open-tables" in answer.json()["detail"]
        assert answer.headers["Retry-After"]


def test_bot_only_tables_need_the_operator_setting(tmp_path: Path) -> None:
    bots = {"game": "cards-of-war", "seats": [{"kind": "bot", "level": "random"}] * 2}
    with lobby(tmp_path, ServerConfig()) as client:
        answer = client.post("/tables", json=bots)
        assert answer.status_code == 403
        assert "--allow-bot-tables" in answer.json()["detail"]
        assert "person" in answer.json()["detail"]
        against_bots = {"game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}]}
        assert client.post("/tables", json=against_bots).status_code == 201
    with lobby(tmp_path, ServerConfig(allow_bot_tables=True)) as client:
        assert client.post("/tables", json=bots).status_code == 201


def test_list_of_tables_is_paginated(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        made = [client.post("/tables", json=PERSON_TABLE).json()["id"] for _ in range(7)]
        assert [t["id"] for t in client.get("/tables").json()] == made  # the default page holds them all
        listed: list[str] = []
        path: str | None = "/tables?limit=3"
        while path is not None:
            answer = client.get(path)
            page = answer.json()
            assert isinstance(page, list) and len(page) <= 3
            listed += [t["id"] for t in page]
            link = answer.headers.get("Link")
            path = link[1:link.index(">")] if link else None
            if link:
                assert 'rel="next"' in link and answer.headers["X-Next-Offset"] == str(len(listed))
        assert listed == made
        assert client.get("/tables?limit=201").status_code == 422
        assert client.get("/tables?limit=0").status_code == 422
        assert client.get("/tables?offset=-1").status_code == 422
        assert client.get("/tables?offset=100").json() == []


# ----- finding 4: rate limits across connections ---------------------------------------------------------------
def catchups_of(client: TestClient, table: str, token: str | None, syncs: int) -> tuple[int, list[str]]:
    """One connection: hello, `syncs` syncs, a ping; the catch-ups it got (the hello's included) and the
    error codes, until the pong or the close."""
    got, codes = 0, []
    with client.websocket_connect(f"/tables/{table}/ws") as socket:
        socket.send_text(json.dumps({"protocol": 1, "type": "hello", "token": token, "last_seen": 0}))
        for _ in range(syncs):
            socket.send_text(json.dumps({"protocol": 1, "type": "sync", "last_seen": 0}))
        socket.send_text(json.dumps({"protocol": 1, "type": "ping", "id": "end"}))
        try:
            while True:
                message = socket.receive_json()
                got += message["type"] in ("catchup", "view")
                if message["type"] == "error":
                    codes.append(message["code"])
                if message["type"] == "pong":
                    break
        except WebSocketDisconnect:
            pass
    return got, codes


def test_twenty_connections_of_one_seat_share_one_rate_limit(tmp_path: Path) -> None:
    config = replace(TEST_CONFIG, seat_rate=0.01, seat_burst=30)
    with lobby(tmp_path, config) as client:
        table, tokens = started_table(client)
        results = [catchups_of(client, table, tokens[0], syncs=10) for _ in range(20)]
        total = sum(got for got, _ in results)
        assert total <= config.seat_burst + 1  # 20 x 11 asked; the burst and a trickle served
        assert any("rate_limited" in codes for _, codes in results)
        refused = next(codes for _, codes in results if "rate_limited" in codes)
        assert refused == ["rate_limited"]
        # the other seat has a bucket of its own
        assert catchups_of(client, table, tokens[1], syncs=2)[0] == 3


def test_many_connections_from_one_address_share_one_rate_limit(tmp_path: Path) -> None:
    config = replace(TEST_CONFIG, address_rate=0.01, address_burst=50)
    with lobby(tmp_path, config) as client:
        table, _ = started_table(client)
        results = [catchups_of(client, table, None, syncs=10) for _ in range(20)]
        assert sum(got for got, _ in results) <= config.address_burst + 1
        assert any("rate_limited" in codes for _, codes in results)
        other = another_address(client)
        assert catchups_of(other, table, None, syncs=2)[0] == 3


def test_an_accepted_act_does_not_count_against_the_shared_limits(tmp_path: Path) -> None:
    config = replace(TEST_CONFIG, seat_rate=0.01, seat_burst=5, address_rate=0.01, address_burst=8)
    with lobby(tmp_path, config) as client:
        table, tokens = started_table(client)
        table_hub = hub(client, table)
        with peer(client, table, tokens[0]) as zero, peer(client, table, tokens[1]) as one:
            seats = {0: zero, 1: one}
            for number in range(12):
                if table_hub.finished:
                    break
                mover = table_hub.state.current_player()
                connection = seats[mover]
                view = latest_view(connection)
                while view["event_no"] != table_hub.position(mover) or not view.get("legal"):
                    connection.receive()
                    view = latest_view(connection)
                assert connection.act(view["event_no"], view["legal"][0]["action"], f"a{number}")["type"] == "ack"


# ----- every limit: a field, a flag with the same default, a row in the docs --------------------------------------
FLAG_OF = {"origins": "--allow-origin"}


def test_every_limit_has_a_flag_with_its_default_and_a_row_in_the_docs() -> None:
    import dataclasses

    import typer

    from warcards.cli.main import app

    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    flags = {option: param for param in serve.params for option in param.opts}
    docs = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text()
    for limit in dataclasses.fields(ServerConfig):
        flag = FLAG_OF.get(limit.name, "--" + limit.name.replace("_", "-"))
        assert flag in flags, f"ServerConfig.{limit.name} has no `warcards serve {flag}`"
        assert f"`{flag}" in docs, f"docs/server.md does not name {flag}"
        if limit.name != "origins":
            assert flags[flag].default == limit.default, f"{flag} defaults to {flags[flag].default}"


def test_the_shared_buckets_refill_and_forget_the_keys_nobody_uses() -> None:
    from warcards.server.limits import PRUNE_EVERY, Buckets

    buckets = Buckets(rate=2.0, burst=3.0)
    assert [buckets.take("a", now=0.0) for _ in range(4)] == [True, True, True, False]
    assert buckets.take("a", now=0.5)  # one token back after half a second
    assert not buckets.take("a", now=0.5)
    buckets.refund("a")
    assert buckets.take("a", now=0.5)
    for number in range(PRUNE_EVERY + 1):  # a crowd of keys, all in use: all kept
        buckets.take(number, now=1.0)
    assert len(buckets.buckets) == PRUNE_EVERY + 2
    buckets.take("late", now=100.0)  # long after: every bucket is full again, and let go
    assert list(buckets.buckets) == ["late"]
