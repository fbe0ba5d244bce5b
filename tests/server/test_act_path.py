"""The act path (issue 32, finding 9; docs/server.md "Inside"): an act is checked with `parse_legal`, applied
with its chance draws once through `apply_logged`, committed in one transaction, and only then sent; when
another process took the event number first, the hub goes back to the state before (nobody heard of the
act), catches up and refuses the act as `stale`.

Two hubs of one table on one database play the two server processes (as `test_two_processes.py` does with
real ones); the connections are the hub's own queues, so every frame each recipient got is in hand."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from warcards.engine.api import CHANCE
from warcards.engine.registry import load_game
from warcards.server import protocol as p
from warcards.server.db import EventInfo, Store
from warcards.server.hub import Connection, TableHub


def run(make: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a coroutine in a thread of its own (a browser test's Playwright may hold this thread's loop)."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, make()).result()


def drained(connection: Connection) -> list[dict[str, Any]]:
    frames = []
    while not connection.outbox.empty():
        queued = connection.outbox.get_nowait()
        assert queued is not None
        frames.append(json.loads(queued[0]))
    return frames


async def two_hubs(store: Store, game: str) -> tuple[TableHub, TableHub, dict[int | None, Connection]]:
    """A started table with a connection on every seat and a spectator on hub `a`, and hub `b` (another
    process) rebuilt from the same log."""
    seats = load_game(game).num_players
    table, _ = store.create_table(game, {}, 77, False, None, [("person", None)] * seats)
    for seat in range(seats):
        store.take_seat(table, seat, f"p{seat}")
    info = store.table(table)
    assert info is not None
    a = TableHub(info, store)
    connections: dict[int | None, Connection] = {who: Connection(who) for who in [*range(seats), None]}
    for connection in connections.values():
        await a.attach(connection, 0)
    await a.start()
    info = store.table(table)
    assert info is not None
    b = TableHub(info, store)
    b.replay(store.events(table))
    assert b.state.history() == a.state.history()
    return a, b, connections


def test_a_lost_race_puts_the_act_back_catches_up_and_refuses_it_as_stale(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()

    async def scenario() -> None:
        a, b, connections = await two_hubs(store, "cards-of-war")
        for connection in connections.values():
            drained(connection)
        seat = a.state.current_player()
        legal = a.state.legal_actions()
        theirs, ours = legal[0], legal[-1]
        number = a.position(seat)
        positions = {who: a.position(who) for who in connections}
        assert await b.act(Connection(seat), p.Act(type="act", id="b1", answers=number, action=theirs))
        assert not await a.act(connections[seat], p.Act(type="act", id="a1", answers=number, action=ours))
        # Hub a is where hub b is: the same state, draws, streams and stream contents (its own act forgotten).
        assert a.state.history() == b.state.history()
        assert a.rng.getstate() == b.rng.getstate()
        assert (a.event_no, a.actions, a.streams, a.history) == (b.event_no, b.actions, b.streams, b.history)
        # Each recipient got exactly b's events (from the catch-up), then the mover its refusal.
        for who, connection in connections.items():
            frames = drained(connection)
            if who == seat:
                assert frames[-1] == {"type": "refused", "id": "a1", "code": "stale",
                                      "message": "another event came first; act on the position now",
                                      "protocol": 1}
                frames = frames[:-1]
            events = [frame["event"] for frame in frames if frame["type"] == "event"]
            assert events == [body.model_dump() for body in b.events_seen(who, positions[who])]
            assert events, who
            assert all(frame["type"] in ("event", "view") for frame in frames)
        # The table plays on from the caught-up position.
        seat = a.state.current_player()
        assert await a.act(connections[seat], p.Act(type="act", id="a2", answers=a.position(seat),
                                                   action=a.state.legal_actions()[0]))
        assert [e.action for e in store.events(a.id)] == a.actions

    try:
        run(scenario)
    finally:
        store.close()


def test_an_act_and_its_draws_are_sent_only_after_their_commit(tmp_path: Any) -> None:
    store = Store(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    store.migrate()
    unsent_at_commit: list[list[int]] = []
    commit = store.writer.commit

    async def scenario() -> None:
        a, _, connections = await two_hubs(store, "cards-of-war")
        for connection in connections.values():
            drained(connection)

        async def watched(table: str, events: list[EventInfo]) -> None:
            unsent_at_commit.append([c.outbox.qsize() for c in connections.values()])
            await commit(table, events)

        store.writer.commit = watched  # type: ignore[method-assign]
        dealt = 0
        for step in range(12):
            seat = a.state.current_player()
            before = len(a.actions)
            assert await a.act(connections[seat], p.Act(type="act", id=f"m{step}", answers=a.position(seat),
                                                       action=a.state.legal_actions()[0]))
            dealt += len(a.actions) - before - 1
            for connection in connections.values():
                drained(connection)
        assert all(not any(sizes) for sizes in unsent_at_commit)
        assert len(unsent_at_commit) == 12  # one transaction per act, its draws included
        assert dealt, "some act caused a draw"
        assert a.state.current_player() != CHANCE

    try:
        run(scenario)
    finally:
        store.close()


def test_an_act_applies_itself_and_each_draw_once_with_one_copy_each(tmp_path: Any, monkeypatch: Any) -> None:
    """Issue 32 finding 9: before, each act was applied about twice (a look-ahead copy for the draws, then for
    real, plus a copy to parse an illegal move); now the rules apply each event once and the state is copied
    once per event (the state kept before the act; a draw's log reads the state before it)."""
    store = Store(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    store.migrate()
    calls: dict[str, int] = {"_apply": 0, "clone": 0}

    async def scenario() -> None:
        a, _, connections = await two_hubs(store, "med-sirocco")
        cls = type(a.state)
        for name in calls:
            original = getattr(cls, name)

            def counted(self: Any, *args: Any, _name: str = name, _original: Any = original) -> Any:
                calls[_name] += 1
                return _original(self, *args)

            monkeypatch.setattr(cls, name, counted)
        most = 0
        for step in range(30):
            seat = a.state.current_player()
            before = len(a.actions)
            calls.update({"_apply": 0, "clone": 0})
            assert await a.act(connections[seat], p.Act(type="act", id=f"m{step}", answers=a.position(seat),
                                                       action=a.state.legal_actions()[-1]))
            events = len(a.actions) - before
            assert calls == {"_apply": events, "clone": events}, step
            most = max(most, events)
            for connection in connections.values():
                drained(connection)
        assert most > 1, "some act caused a draw"

    try:
        run(scenario)
    finally:
        store.close()
