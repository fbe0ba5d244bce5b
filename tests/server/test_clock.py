"""The table's clock (docs/protocol.md, "The clock"): every `view` and `event` frame carries it; a chess
clock (`total`) charges only the seat to move, adds its increment after each of its moves, and resumes after
a restart where it was at the last event (the downtime is charged to no one).

The hub reads the time through its module's `time`; these tests hand it a clock they move by hand, so no
assertion depends on how fast the machine is."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from warcards.server import create_app
from warcards.server import hub as hub_module

from .client import hub, latest_view, lobby, peer


class HandClock:
    """Stands in for the `time` module in the hub: `time()` is what the test set; the rest is real."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        return self.now

    def perf_counter(self) -> float:
        return time.perf_counter()


@pytest.fixture
def hand_clock(monkeypatch: pytest.MonkeyPatch) -> HandClock:
    clock = HandClock()
    monkeypatch.setattr(hub_module, "time", clock)
    return clock


def new_table(client: TestClient, timer: dict[str, Any]) -> tuple[str, list[str]]:
    table = client.post(
        "/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2, "timer": timer}
    ).json()["id"]
    tokens = [client.post(f"/tables/{table}/seats/{s}", json={"name": f"p{s}"}).json()["token"] for s in (0, 1)]
    return table, tokens


def fresh_view(client: TestClient, table: str, token: str) -> dict[str, Any]:
    with peer(client, table, token) as connection:
        return connection.received[-1]


def test_a_table_without_a_timer_sends_no_clock(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = new_table(client, {"kind": "none"})
        table_hub = hub(client, table)
        mover = table_hub.state.current_player()
        with peer(client, table, tokens[mover]) as me:
            view = latest_view(me)
            assert view["clock"] is None
            me.act(view["event_no"], view["legal"][0]["action"], "m")
            assert all(m["clock"] is None for m in me.received if m["type"] in ("event", "view"))


def test_a_move_timer_shows_the_running_seats_time_left_on_this_move(tmp_path: Path, hand_clock: HandClock) -> None:
    with lobby(tmp_path) as client:
        table, tokens = new_table(client, {"kind": "move", "seconds": 30, "on_timeout": "forfeit"})
        mover = hub(client, table).state.current_player()
        hand_clock.now += 12
        clock = fresh_view(client, table, tokens[1 - mover])["clock"]
        left: list[float | None] = [None, None]
        left[mover] = 18.0
        assert clock == {"kind": "move", "seconds_left": left, "running": mover, "on_timeout": "forfeit", "stand_ins": []}


def test_a_chess_clock_charges_only_the_seat_to_move_and_adds_its_increment(
    tmp_path: Path, hand_clock: HandClock
) -> None:
    with lobby(tmp_path) as client:
        table, tokens = new_table(client, {"kind": "total", "seconds": 600, "increment": 5})
        table_hub = hub(client, table)
        mover = table_hub.state.current_player()
        with peer(client, table, tokens[mover]) as me:
            view = latest_view(me)
            assert view["clock"] == {
                "kind": "total", "seconds_left": [600.0, 600.0], "running": mover, "on_timeout": "bot", "stand_ins": [],
            }
            hand_clock.now += 30
            assert me.act(view["event_no"], view["legal"][0]["action"], "m")["type"] == "ack"
            event = next(m for m in me.received if m["type"] == "event" and m["event"]["actor"] == mover)
        banks = event["clock"]["seconds_left"]
        assert banks[mover] == 575.0  # 600 - 30 + 5
        assert banks[1 - mover] == 600.0
        running = table_hub.running()
        assert running is not None
        before = list(table_hub.banks)
        hand_clock.now += 7  # only the running seat's time goes down
        clock = fresh_view(client, table, tokens[0])["clock"]
        expected = [*before]
        expected[running] -= 7
        assert clock["seconds_left"] == expected and clock["running"] == running


def test_chance_is_not_charged_to_anyone(tmp_path: Path, hand_clock: HandClock) -> None:
    with lobby(tmp_path) as client:
        table, tokens = new_table(client, {"kind": "total", "seconds": 600})
        table_hub = hub(client, table)
        for step in range(8):
            mover = table_hub.state.current_player()
            with peer(client, table, tokens[mover]) as me:
                view = latest_view(me)
                hand_clock.now += 3
                assert me.act(view["event_no"], view["legal"][0]["action"], f"m{step}")["type"] == "ack"
        events = table_hub.store.events(table)
    assert sum(item.kind == "chance" for item in events) > 1
    banks = [600.0, 600.0]
    for item in events:
        if item.kind == "chance":
            assert item.clock == banks
        banks = item.clock or banks
    assert sum(banks) == 1200.0 - 8 * 3


def test_timer_specs_are_checked_with_clear_messages(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        cases = [
            ({"kind": "move", "seconds": 30, "increment": 5}, "increment is for a total timer (a chess clock) only"),
            ({"kind": "total"}, "a move or total timer needs seconds"),
            ({"kind": "total", "seconds": 60, "increment": 3601}, "increment"),
            ({"kind": "total", "seconds": 60, "increment": -1}, "increment"),
            ({"kind": "none", "increment": 0}, "increment is for a total timer"),
        ]
        for timer, words in cases:
            answer = client.post("/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2, "timer": timer})
            assert answer.status_code == 422, timer
            assert words in str(answer.json()["detail"]), (timer, answer.json())
        made = client.post(
            "/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2, "timer": {"kind": "total", "seconds": 60}}
        )
        assert made.status_code == 201


def test_a_restart_resumes_the_chess_clock_where_it_was_at_the_last_event(
    tmp_path: Path, hand_clock: HandClock
) -> None:
    database = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    with TestClient(create_app(database)) as client:
        table, tokens = new_table(client, {"kind": "total", "seconds": 600, "increment": 2})
        table_hub = hub(client, table)
        for step in range(3):
            mover = table_hub.state.current_player()
            with peer(client, table, tokens[mover]) as me:
                view = latest_view(me)
                hand_clock.now += 10 + step
                assert me.act(view["event_no"], view["legal"][0]["action"], f"m{step}")["type"] == "ack"
        banks, running = list(table_hub.banks), table_hub.running()
        assert running is not None
        hand_clock.now += 20  # the running seat thinks, then the server goes down for an hour
    hand_clock.now += 3600
    with TestClient(create_app(database)) as client:
        rebuilt = hub(client, table)
        assert rebuilt.banks == banks and rebuilt.running() == running
        clock = fresh_view(client, table, tokens[running])["clock"]
        assert clock["seconds_left"] == [round(b, 3) for b in banks]  # neither the 20 s nor the hour is charged
        hand_clock.now += 4
        with peer(client, table, tokens[running]) as me:
            view = latest_view(me)
            assert view["clock"]["seconds_left"][running] == round(banks[running] - 4, 3)
            assert me.act(view["event_no"], view["legal"][0]["action"], "after")["type"] == "ack"
        assert rebuilt.banks[running] == pytest.approx(banks[running] - 4 + 2)
        assert rebuilt.banks[1 - running] == banks[1 - running]


def test_a_seat_whose_bank_runs_out_forfeits_by_the_tables_policy(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = new_table(client, {"kind": "total", "seconds": 1, "on_timeout": "forfeit"})
        mover = hub(client, table).state.current_player()
        with peer(client, table, tokens[1 - mover]) as other:
            end = other.until("end")
            timeout = next(m for m in other.received if m["type"] == "event" and m["event"]["kind"] == "timeout")
        assert timeout["event"]["actor"] == mover
        assert timeout["clock"]["seconds_left"][mover] == 0.0 and timeout["clock"]["running"] is None
        assert end["result"]["winners"] == [1 - mover]
        assert "ran out of time" in end["result"]["reason"]


def test_a_stand_in_and_its_seats_empty_bank_survive_a_restart(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    launched: list[tuple[int, str]] = []

    async def launch(seat: int, token: str, level: str) -> None:
        launched.append((seat, token))

    with TestClient(create_app(database)) as client:
        table, tokens = new_table(client, {"kind": "total", "seconds": 1, "on_timeout": "bot"})
        table_hub = hub(client, table)
        table_hub.launch_stand_in = launch
        assert client.portal is not None
        client.portal.call(table_hub.resume)  # re-arm the timer with the stand-in launcher in place
        mover = table_hub.state.current_player()
        deadline = time.monotonic() + 60
        while not launched:  # the app runs in its own thread: its timer runs out within a second
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert table_hub.banks[mover] == 0.0 and set(table_hub.stand_ins) == {mover}
        number = table_hub.event_no
    with TestClient(create_app(database)) as client:
        rebuilt = hub(client, table)
        assert rebuilt.event_no == number and set(rebuilt.stand_ins) == {mover}
        assert rebuilt.banks[mover] == 0.0  # taken after the last event: no event stored the empty bank
        assert rebuilt.clock() is not None and rebuilt.clock().stand_ins == [mover]  # type: ignore[union-attr]
        with peer(client, table, tokens[mover]) as me:
            me.send(type="reclaim", id="back")
            assert me.until("ack")["id"] == "back"
        assert rebuilt.stand_ins == {} and rebuilt.store.stand_ins(table) == {}
