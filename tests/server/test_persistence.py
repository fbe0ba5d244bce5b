"""Persistence against SQLite and a real PostgreSQL server: the migrations, the store, and a restart that
rebuilds every unfinished table from its event log."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from warcards.match import replay
from warcards.server import create_app
from warcards.server.db import EventInfo, Store, token_matches

from .client import hub, latest_view, peer, started_table


def test_the_migrations_create_the_schema_once(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.migrate()
        store.migrate()
        tables = set(inspect(store.engine).get_table_names())
        assert {"tables", "seats", "events", "alembic_version"} <= tables
        with store.engine.connect() as connection:
            assert connection.execute(text("select version_num from alembic_version")).scalar_one() == "0008"
    finally:
        store.close()


def test_migration_0002_adds_the_clock_and_the_stand_ins_to_a_0001_database(database_url: str) -> None:
    from warcards.server.migrate import upgrade

    store = Store(database_url)
    try:
        upgrade(store.engine, "0001")
        with store.engine.begin() as connection:
            connection.execute(text(
                "insert into tables (id, game, options, seed, public, status, created_at) "
                "values ('t1', 'cards-of-war', '{}', 5, true, 'open', '2026-11-26 00:00:00')"
            ))
        store.migrate()
        columns = {table: {c["name"] for c in inspect(store.engine).get_columns(table)} for table in ("events", "seats")}
        assert "clock" in columns["events"] and {"stand_in_hash", "stand_in_event"} <= columns["seats"]
        info = store.table("t1")
        assert info is not None and info.seed == 5
    finally:
        store.close()


def old_database(store: Store, revision: str) -> None:
    """A database at `revision` holding table 't1' with one person seat, then migrated to the newest."""
    from warcards.server.migrate import upgrade

    upgrade(store.engine, revision)
    with store.engine.begin() as connection:
        connection.execute(text(
            "insert into tables (id, game, options, seed, public, status, created_at) "
            "values ('t1', 'cards-of-war', '{}', 5, true, 'open', '2026-11-26 00:00:00')"
        ))
        connection.execute(text("insert into seats (table_id, seat, kind) values ('t1', 0, 'person')"))
    store.migrate()


def test_migration_0004_adds_accounts_sessions_and_ratings_to_a_0003_database(database_url: str) -> None:
    store = Store(database_url)
    try:
        old_database(store, "0003")
        names = set(inspect(store.engine).get_table_names())
        assert {"accounts", "sessions", "ratings", "rating_changes"} <= names
        assert "account_id" in {c["name"] for c in inspect(store.engine).get_columns("seats")}
        with store.engine.begin() as connection:
            assert connection.execute(text("select rated from tables where id = 't1'")).scalar_one() in (False, 0)
        info = store.table("t1")
        assert info is not None and info.seed == 5
    finally:
        store.close()


def test_the_store_keeps_tables_seats_and_events(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.migrate()
        table, bots = store.create_table("cards-of-war", {"a": 1}, 2**62, False, None, [("person", None), ("bot", "random")])
        token = store.take_seat(table, 0, "ann")
        assert token is not None and store.take_seat(table, 0, "bob") is None
        assert store.seat_of_token(table, token) == 0 and store.seat_of_token(table, bots[1]) == 1
        assert store.seat_of_token(table, "forged") is None
        info = store.table(table)
        assert info is not None and info.seed == 2**62 and info.options == {"a": 1} and not info.public
        stamp = 1_800_000_000.25
        store.append_events(
            table, [EventInfo(1, "chance", None, 4, None), EventInfo(2, "action", 0, 7, "c1", stamp, [59.5, 60.0])]
        )
        with pytest.raises(IntegrityError):
            store.append_events(table, [EventInfo(3, "action", 1, 2, None), EventInfo(2, "action", 1, 9, None)])
        assert [item.event_no for item in store.events(table)] == [1, 2]
        assert store.events(table)[1] == EventInfo(2, "action", 0, 7, "c1", None, [59.5, 60.0])
        assert store.events(table)[1].at == stamp  # the commit time comes back as it was given
        renewed = store.new_bot_tokens(table)
        assert store.seat_of_token(table, bots[1]) is None and store.seat_of_token(table, renewed[1]) == 1
        assert not token_matches(token, None)
    finally:
        store.close()


def test_a_group_commit_fails_only_the_tables_whose_event_number_was_taken(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.migrate()
        people = [("person", None), ("person", None)]
        first, second, third = (store.create_table("cards-of-war", {}, n, False, None, people)[0] for n in range(3))
        store.append_events(second, [EventInfo(1, "chance", None, 4, None)])  # another process came first

        async def commit_all() -> list[BaseException | None]:
            async def one(table: str, events: list[EventInfo]) -> BaseException | None:
                try:
                    await store.writer.commit(table, events)
                except IntegrityError as error:
                    return error
                return None

            return await asyncio.gather(
                one(first, [EventInfo(1, "chance", None, 1, None), EventInfo(2, "action", 0, 3, "a")]),
                one(second, [EventInfo(1, "chance", None, 5, None)]),
                one(third, [EventInfo(1, "chance", None, 2, None)]),
            )

        # In a thread of its own: in the whole suite a browser test's Playwright may hold this thread's loop.
        with ThreadPoolExecutor(1) as thread:
            answers = thread.submit(asyncio.run, commit_all()).result()
        assert answers[0] is None and isinstance(answers[1], IntegrityError) and answers[2] is None
        assert [e.action for e in store.events(first)] == [1, 3]
        assert [e.action for e in store.events(second)] == [4]  # unchanged: the lost group wrote nothing
        assert [e.action for e in store.events(third)] == [2]
    finally:
        store.close()


def test_a_restart_rebuilds_an_unfinished_table_and_its_game_goes_on_to_the_end(database_url: str) -> None:
    rng = random.Random(7)
    with TestClient(create_app(database_url)) as client:
        table, tokens = started_table(client)
        first = hub(client, table)
        for step in range(10):
            mover = first.state.current_player()
            with peer(client, table, tokens[mover]) as me:
                view = latest_view(me)
                action = rng.choice(view["legal"])["action"]
                last_ack = me.act(view["event_no"], action, f"m{step}")
                assert last_ack["type"] == "ack"
        before = (first.event_no, first.state.history(), first.streams, first.history)
    with TestClient(create_app(database_url)) as client:
        rebuilt = hub(client, table)
        assert (rebuilt.event_no, rebuilt.state.history(), rebuilt.streams, rebuilt.history) == before
        for seat in range(2):  # the last act before the restart is still answered (by its seat), not applied again
            with peer(client, table, tokens[seat]) as me:
                again = me.act(before[0] - 1, 0, "m9")
                assert again == last_ack if seat == mover else again["code"] in ("stale", "not_your_turn")
                assert rebuilt.event_no == before[0]
        step = 10
        while not rebuilt.finished:
            mover = rebuilt.state.current_player()
            with peer(client, table, tokens[mover]) as me:
                view = latest_view(me)
                action = rng.choice(view["legal"])["action"]
                assert me.act(view["event_no"], action, f"m{step}")["type"] == "ack"
            step += 1
        record = client.get(f"/tables/{table}/record").json()
    assert replay(record).is_terminal()


def test_migration_0007_gives_a_0004_table_chat_and_adds_the_chat_tables(database_url: str) -> None:
    store = Store(database_url)
    try:
        old_database(store, "0004")
        assert {"chat_messages", "chat_mutes"} <= set(inspect(store.engine).get_table_names())
        info = store.table("t1")
        assert info is not None and info.chat is True  # tables made before chat have it
    finally:
        store.close()
