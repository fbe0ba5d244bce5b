"""Several `warcards serve` processes on one PostgreSQL (issue 32, findings 5 to 7): two first starts at once
on an empty database both migrate it; a NOTIFY that arrives while a process is still loading the table does
not leave that process's copy behind."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from warcards.match import replay
from warcards.server import protocol as p
from warcards.server.app import check_database
from warcards.server.connection import Connection
from warcards.server.db import EventInfo, Store
from warcards.server.process import Server

from .conftest import SRC, ServerProcess, fresh_postgres_database
from .test_act_path import run
from .test_crash import _actions_of, _wait_for

FIRST_STARTS = 5
BOTS = [{"kind": "bot", "level": "heuristic"}, {"kind": "bot", "level": "random"}]

MIGRATE_ON_GO = """
import sys, time
from pathlib import Path
import httpx
import pytest
from sqlalchemy import text

from warcards.server.app import check_database
from warcards.server.db import Store
go = Path(sys.argv[2])
Path(sys.argv[3]).touch()
while not go.exists():
    time.sleep(0.005)
check_database(sys.argv[1])
"""
"""A first start: imports done, it says so (its ready file) and waits for the go file, so that all open and
migrate the database at once."""


def test_two_first_starts_on_an_empty_postgres_both_succeed(postgres_url: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    database = fresh_postgres_database(postgres_url, "first_starts")
    go = tmp_path / "go"
    starts = [
        subprocess.Popen([sys.executable, "-c", MIGRATE_ON_GO, database, str(go), str(tmp_path / f"ready{n}")],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for n in range(FIRST_STARTS)
    ]
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("ready*"))) < FIRST_STARTS and time.monotonic() < deadline:
        time.sleep(0.01)
    go.touch()
    outputs = [start.communicate(timeout=120)[0].decode(errors="replace") for start in starts]
    assert [start.returncode for start in starts] == [0] * FIRST_STARTS, "\n".join(outputs)
    check_database(database)


def test_a_failed_migration_does_not_blame_the_url(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'newer.sqlite3'}"
    check_database(database)
    store = Store(database)
    with store.session() as session:  # a schema of a revision this version does not know (a newer one)
        session.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    store.close()
    with pytest.raises(ValueError) as raised:
        check_database(database)
    assert "answered, but bringing its schema to this version failed" in str(raised.value)
    assert "9999" in str(raised.value) and "SQLAlchemy URL such as" not in str(raised.value)


RACES = 50


def test_notify_while_loading_does_not_leave_a_copy_behind(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Process A commits an act while process B is inside `hub()`, between reading the table's log and
    registering its hub; B's copy must still reach the act (through the NOTIFY, or on the next attach)."""
    database = fresh_postgres_database(postgres_url, "notify_while_loading")
    run(lambda: _races_while_loading(database, monkeypatch))  # a thread of its own: Playwright may hold this one's loop


async def _races_while_loading(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = Server(database, None), Server(database, None)
    await first.startup()
    await second.startup()
    loop = asyncio.get_running_loop()
    heard: list[tuple[str, int]] = []
    news = threading.Condition()
    forward = second.forward

    async def forward_and_note(table_id: str, event_no: int) -> None:
        with news:
            heard.append((table_id, event_no))
            news.notify_all()
        await forward(table_id, event_no)

    monkeypatch.setattr(second, "forward", forward_and_note)
    read_log = second.store.events

    def log_then_an_act_on_the_first(table_id: str) -> list[EventInfo]:
        """B has read the log: A commits an act now, and B's listener hears of it, before B goes on."""
        found = read_log(table_id)
        number = asyncio.run_coroutine_threadsafe(_act(first, table_id), loop).result(60)
        with news:
            assert news.wait_for(lambda: (table_id, number) in heard, 60)
        return found

    monkeypatch.setattr(second.store, "events", log_then_an_act_on_the_first)
    try:
        for race in range(RACES):
            table_id = await _started_table(first, race)
            copy = await second.hub(table_id)
            assert copy is not None
            await _until(lambda: copy.event_no == first.hubs[table_id].event_no)  # noqa: B023
        monkeypatch.setattr(second.store, "events", read_log)
        # A NOTIFY lost for good (a listener's connection dropped): the next attach catches up from the log.
        monkeypatch.setattr(second, "forward", _ignore)
        copy = await second.hub(table_id)
        assert copy is not None
        number = await _act(first, table_id)
        seat = copy.state.current_player()
        connection = Connection(seat)
        await copy.attach(connection, None)
        assert copy.event_no == number
        welcome, view = (json.loads(queued[0]) for queued in (connection.outbox.get_nowait() for _ in range(2)) if queued)
        assert welcome["event_no"] == view["event_no"] == first.hubs[table_id].position(seat)
    finally:
        await first.shutdown()
        await second.shutdown()


async def _ignore(table_id: str, event_no: int) -> None:
    return None


async def _started_table(server: Server, seed: int) -> str:
    """A Cards of War table of two people, both seated and started, through `server`."""
    table_id, _ = await asyncio.to_thread(
        server.store.create_table, "cards-of-war", {}, seed, True, None, [("person", None)] * 2
    )
    for seat in (0, 1):
        await asyncio.to_thread(server.store.take_seat, table_id, seat, f"p{seat}")
    hub = await server.hub(table_id)
    assert hub is not None
    await server.start_if_full(hub, {})
    return table_id


async def _act(server: Server, table_id: str) -> int:
    """The seat to move plays its first legal action through `server`; the table's event number after it."""
    hub = server.hubs[table_id]
    seat = hub.state.current_player()
    action = hub.state.legal_actions()[0]
    answers = hub.position(seat)
    assert await hub.act(Connection(seat), p.Act(type="act", id=f"a{hub.event_no}", answers=answers, action=action))
    return hub.event_no


async def _until(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the copy stayed behind the log"
        await asyncio.sleep(0.01)


def test_a_bots_clock_starts_when_it_is_connected(tmp_path: Path) -> None:
    """A bot seat's move time (1 s here, forfeit on a timeout) does not run while its bot is not connected
    yet (its cold start, or a process taking its table over): its clock is held; it runs once it is."""
    run(lambda: _bot_clock(f"sqlite:///{tmp_path / 'clock.sqlite3'}"))


async def _bot_clock(database: str) -> None:
    server = Server(database, None)  # no bot process: the test connects the bot seat itself
    await server.startup()
    try:
        timer = {"kind": "move", "seconds": 1, "on_timeout": "forfeit"}
        table_id, tokens = await asyncio.to_thread(
            server.store.create_table, "cards-of-war", {}, 7, True, timer, [("person", None), ("bot", "random")]
        )
        await asyncio.to_thread(server.store.take_seat, table_id, 0, "p0")
        hub = await server.hub(table_id)
        assert hub is not None
        await server.start_if_full(hub, tokens)
        while hub.state.current_player() == 0:
            await _act(server, table_id)
        assert hub.state.current_player() == 1
        clock = hub.clock()
        assert clock is not None and clock.running is None  # held: the bot is not connected
        await asyncio.sleep(3)  # three times its move time
        assert hub.status == "playing" and hub.resigned is None
        bot = Connection(1)
        await hub.attach(bot, None)
        clock = hub.clock()
        assert clock is not None and clock.running == 1
        await _until(lambda: hub.finished)  # it does not move: its move time runs out now
        assert hub.resigned == 1 and hub.timed_out
    finally:
        await server.shutdown()


def test_bots_of_a_killed_process_are_taken_over(postgres_url: str, tmp_path: Path) -> None:
    """Process A plays two tables' bots: a game of bots, and a stand-in holding an away player's seat (a
    move timer). A is killed (`kill -9`, its bot process with it) and stays down: process B takes both
    tables' bot leases over once they expire, bots and stand-in, and plays both games to their end."""
    database = fresh_postgres_database(postgres_url, "taken_over")
    first, second = (ServerProcess(database, tmp_path / name, "--bot-lease-seconds", "2") for name in "ab")
    for server in (first, second):
        server.folder.mkdir()
        server.start()
    store = Store(database)
    try:
        # A `hard` stand-in thinks a while each move, so its game is still on when A is killed.
        timer = {"kind": "move", "seconds": 10, "on_timeout": "bot", "level": "hard"}
        seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
        away = first.post("/tables", {"game": "cards-of-war", "seats": seats, "timer": timer})["id"]
        first.post(f"/tables/{away}/seats/0", {"name": "away"})  # its player never connects
        _wait_for(lambda: _actions_of(store, away, 0) >= 1, first, 180)
        assert set(store.stand_ins(away)) == {0}
        bots = first.post("/tables", {"game": "naval-war", "options": {"players": 2}, "seats": BOTS})["id"]
        _wait_for(lambda: len(store.events(bots)) >= 10, first, 180)
        first.kill()
        going = [table for table in (bots, away) if not _finished(store, table)]
        assert away in going
        played = {table: len(store.events(table)) for table in going}
        stand_in_moves = _actions_of(store, away, 0)
        _wait_for(lambda: _finished(store, bots) and _finished(store, away), second, 300)
        for table in going:
            assert len(store.events(table)) > played[table]
        for table in (bots, away):
            _assert_whole(store, table, second)
        assert _actions_of(store, away, 0) > stand_in_moves
        assert all(item.kind != "timeout" for item in store.events(away))  # the stand-in played on
    finally:
        store.close()
        first.stop()
        second.stop()


def _finished(store: Store, table: str) -> bool:
    info = store.table(table)
    return info is not None and info.status == "finished"


def _assert_whole(store: Store, table: str, server: ServerProcess) -> None:
    """The table's log is whole: numbered 1..n with no gap, no act applied twice (a seat's message id is
    in it once), and its record replays to the end."""
    events = store.events(table)
    assert [item.event_no for item in events] == list(range(1, len(events) + 1))
    acts = [(item.seat, item.client_id) for item in events if item.kind == "action"]
    assert len(acts) == len(set(acts))
    record = httpx.get(f"{server.http}/tables/{table}/record", timeout=30).json()
    assert record["actions"] == [item.action for item in events if item.action is not None]
    assert replay(record).is_terminal()


KILLS = int(os.environ.get("WARCARDS_TWO_PROCESS_KILLS", "20"))
"""`kill -9`s in the two-process kill loop (`WARCARDS_TWO_PROCESS_KILLS=100` for a long run)."""
STALL_SECONDS = 180
"""How long the kill loop waits for any table to move before it fails (no deadline on the whole run: it takes
as long as the machine's load makes it)."""


def test_kill_loop_two_processes_on_postgres(postgres_url: str, tmp_path: Path) -> None:
    """Two processes on one PostgreSQL, each with bot games it created; either is killed (`kill -9`, its bot
    process with it) and restarted, again and again. The other takes the dead one's bots over, and the
    restarted one comes back beside it: every game goes on to its end, no act lost or applied twice."""
    database = fresh_postgres_database(postgres_url, "kill_loop")
    servers = [ServerProcess(database, tmp_path / name, "--bot-lease-seconds", "2") for name in "ab"]
    for server in servers:
        server.folder.mkdir()
        server.start()
    store = Store(database)
    rng = random.Random(32)
    tables: list[str] = []
    try:
        kills = 0
        seen = 0
        played, moved_at = -1, time.monotonic()
        while True:
            unfinished = [table for table in tables if not _finished(store, table)]
            if kills < KILLS and len(unfinished) < 2:  # a game going on each process
                creator = servers[len(tables) % 2]
                game = {"game": "naval-war", "options": {"players": 2}, "seats": BOTS}
                tables.append(creator.post("/tables", game)["id"])
                continue
            if not unfinished:
                break
            now = sum(len(store.events(table)) for table in tables)
            if now != played:
                played, moved_at = now, time.monotonic()
            # A deadline on progress, not on the whole run: a loaded machine plays slower, a stuck table not at all.
            assert time.monotonic() - moved_at < STALL_SECONDS, (
                f"no table moved for {STALL_SECONDS} s after {kills} kills\n"
                + "\n".join(server.log()[-1500:] for server in servers))
            if kills < KILLS and played >= seen + rng.randint(5, 20):
                victim = rng.choice(servers)
                victim.kill()
                kills += 1
                victim.start()
                seen = sum(len(store.events(table)) for table in tables)
            time.sleep(0.05)
        assert kills == KILLS
        for table in tables:
            assert _finished(store, table), "\n".join(server.log()[-1500:] for server in servers)
            _assert_whole(store, table, servers[0])
    finally:
        store.close()
        for server in servers:
            server.stop()


def test_a_bot_whose_server_is_not_up_yet_connects_when_it_is(tmp_path: Path) -> None:
    """A bot's clock waits for its connection, so a bot must not give up when its connection cannot be
    opened (a busy, restarting or not yet listening server): the bot process tries again."""
    database = f"sqlite:///{tmp_path / 'late.sqlite3'}"
    store = Store(database)
    store.migrate()
    table_id, _ = store.create_table("cards-of-war", {}, 5, True, None, [("person", None)] * 2)
    tokens = [store.take_seat(table_id, seat, f"p{seat}") for seat in (0, 1)]
    server = ServerProcess(database, tmp_path)
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    bots = subprocess.Popen([sys.executable, "-m", "warcards.server.botpool", server.ws], stdin=subprocess.PIPE, env=env)
    try:
        assert bots.stdin is not None
        for seat, token in enumerate(tokens):  # two people's seats, played by this bot process
            order = {"table": table_id, "seat": seat, "token": token, "level": "random", "seed": seat}
            bots.stdin.write(json.dumps(order).encode() + b"\n")
        bots.stdin.flush()
        time.sleep(2)  # its first attempts find nothing listening
        server.start()
        _wait_for(lambda: _finished(store, table_id), server)
    finally:
        if bots.stdin is not None:
            bots.stdin.close()
        bots.wait(30)
        store.close()
        server.stop()


def test_a_clean_stop_hands_its_bots_over_at_once(tmp_path: Path) -> None:
    """A process stopped cleanly (Ctrl+C, a deploy) ends its bot leases as it goes, so another process
    takes its tables' bots over at its next look, not after the lease's time."""
    database = f"sqlite:///{tmp_path / 'stop.sqlite3'}"
    server = ServerProcess(database, tmp_path, "--bot-lease-seconds", "600")
    server.start()
    store = Store(database)
    try:
        seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
        table = server.post("/tables", {"game": "cards-of-war", "seats": seats})["id"]
        lease = "SELECT bot_owner, bot_lease_until FROM tables WHERE id = :id"
        with store.session() as session:
            owner, until = session.execute(text(lease), {"id": table}).one()
        assert owner is not None and until > time.time() + 60
        server.stop()
        with store.session() as session:
            assert tuple(session.execute(text(lease), {"id": table}).one()) == (owner, 0.0)
        assert store.tables_without_their_bots(time.time()) == [table]
    finally:
        store.close()
        server.stop()
