"""Operating a server (docs/server.md, "Operating it"): tables leave memory when nothing holds them and are
served again from the database; liveness, readiness and Prometheus metrics; the drain on SIGTERM."""

from __future__ import annotations

import functools
import json
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from warcards.cli.main import app
from warcards.match import replay
from warcards.server import create_app
from warcards.server.config import ServerConfig
from warcards.server.process import Server

from .client import hub, latest_view, peer, started_table
from .conftest import ServerProcess, sqlite_server_in

DEADLINE = 60.0


def wait_until(check: Callable[[], bool], what: str, seconds: float = DEADLINE) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@contextmanager
def app_with(folder: Path, **limits: Any) -> Iterator[TestClient]:
    """An in-process server whose sweeper runs every 50 ms, with the given limits."""
    config = ServerConfig(sweep_seconds=0.05, **limits)
    with TestClient(create_app(f"sqlite:///{folder / 'server.sqlite3'}", config=config)) as client:
        yield client


def state_of(client: TestClient) -> Server:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    return server


def finished(server: ServerProcess, table: str) -> bool:
    return bool(server.get_json(f"/tables/{table}")["status"] == "finished")


def let_go(server: Server, table: str) -> bool:
    """The table is not held in the server's memory."""
    return table not in server.hubs


def metric_samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus text page, by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of this test's own: the session's `sqlite_server` also holds other tests' open tables (the
    browser tests' lobbies), which rightly stay in memory, so "nothing held" can only be asked of a server
    nobody else uses (the fresh-clone run at the end of the suite waited 180 s for them in vain)."""
    with sqlite_server_in(tmp_path) as server:
        yield server


def test_finished_tables_leave_memory(own_server: ServerProcess) -> None:
    # Thirty bot games played to their end by the bot process: each table leaves memory when the last bot
    # closes its connection after `end`, and is served again from the database when asked for.
    sqlite_server = own_server
    bots = [{"kind": "bot", "level": "random"}] * 2
    tables = [
        sqlite_server.post("/tables", {"game": "cards-of-war", "seats": bots, "public": False})["id"] for _ in range(30)
    ]
    for table in tables:
        wait_until(functools.partial(finished, sqlite_server, table), f"table {table} to end")
    wait_until(lambda: sqlite_server.get_json("/health")["tables"] == 0, "every finished table to leave memory")
    record = sqlite_server.get_json(f"/tables/{tables[0]}/record")
    assert record["game"] == "cards-of-war" and record["returns"] and record["actions"]
    with connect(f"{sqlite_server.ws}/tables/{tables[0]}/ws") as socket:
        socket.send(json.dumps({"protocol": 1, "type": "hello", "token": None, "last_seen": 0}))
        received = [json.loads(socket.recv(timeout=DEADLINE)) for _ in range(3)]
    assert [message["type"] for message in received] == ["welcome", "catchup", "end"]
    assert received[0]["status"] == "finished" and received[1]["events"]
    assert received[2]["record"] == record
    wait_until(lambda: sqlite_server.get_json("/health")["tables"] == 0, "the watched table to leave again")
    samples = metric_samples(httpx.get(f"{sqlite_server.http}/metrics", timeout=30).text)
    assert samples[("warcards_tables_evicted_total", (("reason", "finished"),))] >= 31


def test_every_way_a_table_ends_lets_it_go(tmp_path: Path) -> None:
    # Not only a table whose last connection closes after `end`: one resigned from the lobby with nobody
    # connected, one forfeited on time with nobody connected, and a finished one rebuilt only to answer
    # GET /record all leave memory too (the sweeper).
    with app_with(tmp_path) as client:
        server = state_of(client)
        people = [{"kind": "person"}] * 2
        resigned, tokens = started_table(client)
        assert client.post(f"/tables/{resigned}/leave", headers={"Authorization": f"Bearer {tokens[0]}"}).is_success
        forfeited = client.post(
            "/tables",
            json={"game": "cards-of-war", "seats": people, "timer": {"kind": "move", "seconds": 1,
                                                                     "on_timeout": "forfeit"}},
        ).json()["id"]
        for seat in (0, 1):
            client.post(f"/tables/{forfeited}/seats/{seat}", json={"name": f"p{seat}"})
        watched, watched_tokens = started_table(client)
        with peer(client, watched) as spectator, peer(client, watched, watched_tokens[1]) as player:
            player.send(type="resign", id="bye")
            spectator.until("end")
        for table in (resigned, forfeited, watched):
            wait_until(functools.partial(let_go, server, table), f"table {table} to leave memory")
            assert client.get(f"/tables/{table}").json()["status"] == "finished"
        assert client.get(f"/tables/{forfeited}/record").json()["resigned"] in (0, 1)
        wait_until(lambda: not server.hubs, "the table rebuilt for its record to leave again")


def test_idle_unfinished_table_is_evicted_and_resumes(tmp_path: Path) -> None:
    # A game nobody is connected to leaves memory after the idle time; each seat reconnecting finds it
    # exactly where it was (its stream, its view) and plays on. A table on the clock stays: its timer's
    # deadline lives only in memory.
    with app_with(tmp_path, idle_minutes=0.005) as client:
        server = state_of(client)
        table, tokens = started_table(client)
        timed = client.post(
            "/tables",
            json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2, "timer": {"kind": "move", "seconds": 600}},
        ).json()["id"]
        for seat in (0, 1):
            client.post(f"/tables/{timed}/seats/{seat}", json={"name": f"p{seat}"})
        before: dict[int, dict[str, Any]] = {}
        seen: dict[int, list[dict[str, Any]]] = {}
        with peer(client, table, tokens[0], last_seen=0) as first, peer(client, table, tokens[1], last_seen=0) as second:
            peers = [first, second]
            mover = hub(client, table).state.current_player()
            for move in range(3):
                peers[mover].send(type="sync", last_seen=None)
                view = peers[mover].until("view")
                assert peers[mover].act(view["event_no"], view["legal"][0]["action"], f"m{move}")["type"] == "ack"
                mover = hub(client, table).state.current_player()
            for seat in (0, 1):
                peers[seat].send(type="sync", last_seen=0)
                catchup = peers[seat].until("catchup")
                before[seat], seen[seat] = catchup["view"], catchup["events"]
        wait_until(functools.partial(let_go, server, table), "the idle table to leave memory")
        assert timed in server.hubs
        for seat in (0, 1):
            with peer(client, table, tokens[seat], last_seen=before[seat]["event_no"]) as back:
                assert back.received[-1] == {"protocol": 1, "type": "catchup", "events": [], "view": before[seat]}
                back.send(type="sync", last_seen=0)
                assert back.until("catchup")["events"] == seen[seat]
        with peer(client, table, tokens[mover], last_seen=before[mover]["event_no"]) as back:
            view = latest_view(back)
            assert back.act(view["event_no"], view["legal"][0]["action"], "after")["type"] == "ack"


def test_idle_minutes_below_one_is_refused_with_the_range() -> None:
    result = CliRunner().invoke(app, ["serve", "--idle-minutes", "0"])
    assert result.exit_code == 2
    assert "--idle-minutes" in result.output and "greater than or equal" in result.output


def test_metrics_are_exposed(tmp_path: Path) -> None:
    with app_with(tmp_path) as client, app_with(tmp_path / "other") as other:
        table, tokens = started_table(client)
        mover = hub(client, table).state.current_player()
        with peer(client, table, tokens[mover]) as me, peer(client, table, tokens[1 - mover]) as waiting, \
                peer(client, table):
            view = latest_view(me)
            assert me.act(view["event_no"], view["legal"][0]["action"], "go")["type"] == "ack"
            assert waiting.act(view["event_no"], 0, "early")["code"] in ("not_your_turn", "stale")
            answer = client.get("/metrics")
            assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
            samples = metric_samples(answer.text)
            assert samples[("warcards_events_total", ())] >= 2  # the deal, the act (and its chance)
            assert samples[("warcards_act_latency_seconds_count", ())] == 1
            assert samples[("warcards_tables_held", (("status", "playing"),))] == 1
            assert samples[("warcards_connections", (("kind", "seat"),))] == 2
            assert samples[("warcards_connections", (("kind", "spectator"),))] == 1
            assert sum(v for (name, labels), v in samples.items() if name == "warcards_refusals_total") == 1
            assert ("warcards_outbox_messages", ()) in samples and ("warcards_outbox_max_messages", ()) in samples
            assert samples[("warcards_draining", ())] == 0
        # another app in the same process counts apart
        untouched = metric_samples(other.get("/metrics").text)
        assert untouched[("warcards_events_total", ())] == 0
        assert untouched[("warcards_act_latency_seconds_count", ())] == 0


def test_readyz_reports_draining(tmp_path: Path) -> None:
    with app_with(tmp_path) as client:
        server = state_of(client)
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/readyz").json() == {"status": "ready", "reason": None}
        engine = server.store.engine
        server.store.engine = create_engine(f"sqlite:///{tmp_path / 'no such folder' / 'x.sqlite3'}")
        answer = client.get("/readyz")
        server.store.engine = engine
        assert answer.status_code == 503
        assert answer.json()["reason"] == "the database is unreachable: unable to open database file"
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as seat:
            assert client.portal is not None
            client.portal.call(server.drain)
            closed = seat.socket.receive()
            assert closed == {"type": "websocket.close", "code": 1012, "reason": ""}
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json() == {"status": "not ready", "reason": "server restarting: reconnect in a moment"}
        assert client.get("/healthz").status_code == 200
        created = client.post("/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2})
        assert created.status_code == 503 and "restarting" in created.json()["detail"]
        with client.websocket_connect(f"/tables/{table}/ws") as socket:
            socket.send_text(json.dumps({"protocol": 1, "type": "hello", "token": tokens[1]}))
            assert socket.receive_json()["code"] == "restarting"
            assert socket.receive() == {"type": "websocket.close", "code": 1012, "reason": "restarting"}


def read_until(socket: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=DEADLINE))
        if message["type"] == kind:
            return message


def act(socket: ClientConnection, view: dict[str, Any], client_id: str) -> None:
    """Play the view's first legal action; returns once it is acknowledged."""
    socket.send(json.dumps({"protocol": 1, "type": "act", "id": client_id, "answers": view["event_no"],
                            "action": view["legal"][0]["action"]}))
    while read_until(socket, "ack")["id"] != client_id:
        pass


def test_sigterm_drains_and_clients_resync(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.sqlite3'}", tmp_path)
    server.start()
    try:
        table = server.post("/tables", {"game": "cards-of-war", "seats": [{"kind": "person"}] * 2})["id"]
        tokens = [server.post(f"/tables/{table}/seats/{seat}", {"name": f"p{seat}"})["token"] for seat in (0, 1)]
        bots = [{"kind": "bot", "level": "random"}] * 2
        playing = [server.post("/tables", {"game": "race-to-messina", "seats": bots})["id"] for _ in range(2)]
        with ExitStack() as stack:
            sockets = [stack.enter_context(connect(f"{server.ws}/tables/{table}/ws")) for _ in tokens]
            views: list[dict[str, Any]] = []
            for socket, token in zip(sockets, tokens, strict=True):
                socket.send(json.dumps({"protocol": 1, "type": "hello", "token": token, "last_seen": None}))
                read_until(socket, "welcome")
                views.append(read_until(socket, "view"))
            for move in range(4):
                mover = next(seat for seat, view in enumerate(views) if view["legal"])
                act(sockets[mover], views[mover], f"m{move}")
                for socket in sockets:
                    socket.send(json.dumps({"protocol": 1, "type": "sync", "last_seen": None}))
                views = [read_until(socket, "view") for socket in sockets]
            assert server.process is not None
            server.process.send_signal(signal.SIGTERM)
            for socket in sockets:
                try:
                    while True:
                        socket.recv(timeout=DEADLINE)
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None and closed.rcvd.code == 1012
        assert server.process.wait(DEADLINE) == 0
        assert "draining" in server.log()
        server.start()
        with ExitStack() as stack:
            sockets = [stack.enter_context(connect(f"{server.ws}/tables/{table}/ws")) for _ in tokens]
            for seat, socket in enumerate(sockets):
                socket.send(json.dumps({"protocol": 1, "type": "hello", "token": tokens[seat],
                                        "last_seen": views[seat]["event_no"]}))
                read_until(socket, "welcome")
                catchup = read_until(socket, "catchup")
                assert catchup["events"] == []
                assert catchup["view"] == views[seat]
            mover = next(seat for seat, view in enumerate(views) if view["legal"])
            act(sockets[mover], views[mover], "after")
        # The bot tables that were playing through the drain play on after the restart; their logs replay.
        for bot_table in playing:
            wait_until(functools.partial(finished, server, bot_table), f"bot table {bot_table} to end")
            record = server.get_json(f"/tables/{bot_table}/record")
            assert replay(record).is_terminal()
    finally:
        server.stop()
