"""Protocol v1 over the in-process app: views per seat, acts and their refusals, repeated ids, reconnect."""

from __future__ import annotations

from pathlib import Path

import pytest

from warcards.engine.errors import IllegalActionError

from .client import hub, latest_view, lobby, peer, started_table


def test_each_seat_gets_its_own_observation_and_only_the_seat_to_move_gets_the_legal_actions(
    tmp_path: Path,
) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        state = hub(client, table).state
        mover = state.current_player()
        for seat, token in enumerate(tokens):
            with peer(client, table, token) as connection:
                view = latest_view(connection)
                assert view["view"] == state.observe(seat)
                assert view["to_move"] == mover
                if seat == mover:
                    assert [choice["action"] for choice in view["legal"]] == state.legal_actions()
                else:
                    assert view["legal"] is None


def test_an_accepted_act_is_numbered_acknowledged_and_seen_by_the_other_seat(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        table_hub = hub(client, table)
        mover = table_hub.state.current_player()
        with peer(client, table, tokens[mover]) as me, peer(client, table, tokens[1 - mover]) as other:
            view = latest_view(me)
            before = view["event_no"]
            answer = me.act(before, view["legal"][0]["notation"], "first")
            assert answer == {"protocol": 1, "type": "ack", "id": "first", "event_no": before + 1}
            seen = other.until("event")
            assert seen["event"]["event_no"] == before + 1
            assert seen["event"]["actor"] == mover
            assert seen["legal"] is None or seen["to_move"] == 1 - mover


def test_a_stale_act_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        table_hub = hub(client, table)
        mover = table_hub.state.current_player()
        with peer(client, table, tokens[mover]) as me:
            view = latest_view(me)
            answer = me.act(view["event_no"] - 1, view["legal"][0]["action"], "old")
            assert answer["code"] == "stale"
            assert table_hub.position(mover) == view["event_no"]


def test_a_repeated_message_id_is_answered_again_and_not_applied_twice(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        table_hub = hub(client, table)
        mover = table_hub.state.current_player()
        with peer(client, table, tokens[mover]) as me:
            view = latest_view(me)
            first = me.act(view["event_no"], view["legal"][0]["action"], "once")
            actions = table_hub.state.history()
            again = me.act(view["event_no"], view["legal"][0]["action"], "once")
            assert again == first
            assert table_hub.state.history() == actions


def test_an_illegal_act_is_refused_with_the_engine_message(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        table_hub = hub(client, table)
        state = table_hub.state
        mover = state.current_player()
        illegal = next(a for a in range(state.game.num_distinct_actions) if a not in state.legal_actions())
        with pytest.raises(IllegalActionError) as expected:
            state.clone().apply_action(illegal)
        with peer(client, table, tokens[mover]) as me:
            number = latest_view(me)["event_no"]
            answer = me.act(number, illegal, "bad")
            assert (answer["code"], answer["message"]) == ("illegal_action", str(expected.value))
            words = me.act(number, "fly to the moon", "words")
            assert words["code"] == "invalid_action"
            assert table_hub.position(mover) == number


def test_a_reconnecting_seat_gets_what_it_missed_and_then_the_view_a_fresh_connection_gets(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        table_hub = hub(client, table)
        with peer(client, table, tokens[0]) as first:
            last_seen = latest_view(first)["event_no"]
        moves = 0
        while moves < 6 and not table_hub.finished:
            mover = table_hub.state.current_player()
            with peer(client, table, tokens[mover]) as me:
                view = latest_view(me)
                assert me.act(view["event_no"], view["legal"][-1]["action"], f"m{moves}")["type"] == "ack"
            moves += 1
        with peer(client, table, tokens[0], last_seen=last_seen) as back:
            catchup = back.received[-1]
        with peer(client, table, tokens[0]) as fresh:
            snapshot = fresh.received[-1]
        assert catchup["type"] == "catchup"
        numbers = [event["event_no"] for event in catchup["events"]]
        assert numbers == list(range(last_seen + 1, table_hub.position(0) + 1))
        assert catchup["events"] == [body.model_dump() for body in table_hub.events_seen(0, last_seen)]
        assert catchup["view"] == snapshot


def test_a_spectator_never_gets_legal_actions_or_a_seat_view(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        table_hub = hub(client, table)
        with peer(client, table) as watcher:
            mover = table_hub.state.current_player()
            with peer(client, table, tokens[mover]) as me:
                view = latest_view(me)
                me.act(view["event_no"], view["legal"][0]["action"], "x")
            event = watcher.until("event")
            assert event["event"] == table_hub.events_seen(None)[event["event"]["event_no"] - 1].model_dump()
            while event["event"]["event_no"] < table_hub.position(None):
                assert event["legal"] is None
                event = watcher.until("event")
            assert event["legal"] is None
            assert event["view"] == table_hub.state.public_view()
            for seat in range(2):
                assert event["view"] != table_hub.state.observe(seat)


def test_a_seat_that_runs_out_of_its_move_time_forfeits_and_the_others_win(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table = client.post(
            "/tables",
            json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2,
                  "timer": {"kind": "move", "seconds": 1, "on_timeout": "forfeit"}},
        ).json()["id"]
        tokens = [client.post(f"/tables/{table}/seats/{s}", json={"name": f"p{s}"}).json()["token"] for s in (0, 1)]
        table_hub = hub(client, table)
        mover = table_hub.state.current_player()
        with peer(client, table, tokens[1 - mover]) as other:
            end = other.until("end")
            timeout = next(m for m in other.received if m["type"] == "event" and m["event"]["kind"] == "timeout")
        assert timeout["event"]["actor"] == mover
        assert end["result"]["winners"] == [1 - mover]
        assert "ran out of time" in end["result"]["reason"]


def test_a_move_timer_needs_its_seconds(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        for timer in ({"kind": "move"}, {"kind": "none", "seconds": 5}, {"kind": "move", "seconds": 0}):
            answer = client.post("/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2, "timer": timer})
            assert answer.status_code == 422
