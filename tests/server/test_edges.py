"""The WebSocket's edges: the authorization matrix, garbage frames, floods, huge frames and the Origin
check. Every refusal leaves the table's state and log unchanged, and the server stays healthy."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from warcards.server.protocol import MAX_FRAME

from .client import TEST_CONFIG, Peer, hub, latest_view, lobby, peer, started_table


def snapshot(client: TestClient, table: str) -> tuple[int, list[int]]:
    table_hub = hub(client, table)
    return table_hub.event_no, table_hub.state.history()


def message_of(kind: str, number: int, action: int) -> dict[str, Any]:
    if kind == "act":
        return {"type": "act", "id": f"{kind}-x", "answers": number, "action": action}
    return {"type": kind, "id": f"{kind}-x"}


def answer_to(connection: Peer, client_id: str) -> dict[str, Any]:
    while True:
        message = connection.receive()
        if message.get("id") == client_id and message["type"] in ("ack", "refused", "sample"):
            return message


@pytest.mark.parametrize("kind", ["act", "resign", "sample"])
@pytest.mark.parametrize("who", ["own seat", "another seat", "spectator", "finished table"])
def test_authorization_matrix(tmp_path: Path, kind: str, who: str) -> None:
    """Each client message from each identity: accepted only from the seat it belongs to; refused
    otherwise with the state and the log unchanged."""
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        mover = hub(client, table).state.current_player()
        token: str | None = {"own seat": tokens[mover], "another seat": tokens[1 - mover], "spectator": None}.get(who)
        if who == "finished table":
            finished, other_tokens = started_table(client)
            client.post(f"/tables/{finished}/leave", headers={"Authorization": f"Bearer {other_tokens[0]}"})
            table, token = finished, other_tokens[1]
        before = snapshot(client, table)
        with peer(client, table, token) as connection:
            view = latest_view(connection)
            action = view["legal"][0]["action"] if view.get("legal") else 0
            connection.send(**message_of(kind, view["event_no"], action))
            answer = answer_to(connection, f"{kind}-x")
        expected = {
            "own seat": {"act": "ack", "resign": "ack", "sample": "sample"}[kind],
            "another seat": {"act": "not_your_turn", "resign": "ack", "sample": "sample"}[kind],
            "spectator": "spectator",
            "finished table": "game_over",
        }[who]
        assert answer.get("code", answer["type"]) == expected
        if expected in ("spectator", "game_over", "not_your_turn", "sample"):
            assert snapshot(client, table) == before


SOCIAL_EXPECTED = {
    #                 chat              mute              rematch
    "own seat":       ("ack",           "ack",            "rematch_refused"),
    "spectator":      ("ack",           "spectator",      "spectator"),
    "bot token":      ("chat_refused",  "chat_refused",   "rematch_refused"),
    "finished seat":  ("ack",           "ack",            "ack"),
    "finished spectator": ("ack",       "spectator",      "spectator"),
    "finished bot":   ("chat_refused",  "chat_refused",   "rematch_refused"),
}
"""The chat, mute and rematch messages from each identity (docs/protocol.md, "Chat", "Rematch"): a bot's
token may do none of them, a spectator only chat (in its own channel), a rematch only after the end."""


@pytest.mark.parametrize("kind", ["chat", "mute", "rematch"])
@pytest.mark.parametrize("who", list(SOCIAL_EXPECTED))
def test_social_authorization_matrix(tmp_path: Path, kind: str, who: str) -> None:
    """Each social message from each identity; a refusal changes neither the game nor the stored chat."""
    with lobby(tmp_path) as client:
        seats = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
        table = client.post("/tables", json={"game": "cards-of-war", "seats": seats}).json()["id"]
        person = client.post(f"/tables/{table}/seats/0", json={"name": "Alice"}).json()["token"]
        bot = client.app.state.server.store.new_bot_tokens(table)[1]  # type: ignore[attr-defined]
        if who.startswith("finished"):
            client.post(f"/tables/{table}/leave", headers={"Authorization": f"Bearer {person}"})
        token = person if who.endswith("seat") else bot if who.endswith("bot") or who == "bot token" else None
        before = snapshot(client, table)
        message = {
            "chat": {"type": "chat", "id": "x", "text": "hello"},
            "mute": {"type": "mute", "id": "x", "seat": 1 if token == person else 0},
            "rematch": {"type": "rematch", "id": "x"},
        }[kind]
        with peer(client, table, token) as connection:
            connection.send(**message)
            answer = answer_to(connection, "x")
        assert answer.get("code", answer["type"]) == SOCIAL_EXPECTED[who][("chat", "mute", "rematch").index(kind)]
        assert snapshot(client, table) == before
        if answer["type"] == "refused":
            with peer(client, table, person) as alice:
                alice.send(type="chat", id="look", text="?")
                assert alice.until("chat_log")["messages"] == []


@pytest.mark.parametrize("token", ["wrong", "", "x" * 200])
def test_a_wrong_token_is_closed_at_hello(tmp_path: Path, token: str) -> None:
    with lobby(tmp_path) as client:
        table, _ = started_table(client)
        before = snapshot(client, table)
        with client.websocket_connect(f"/tables/{table}/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": token}))
            assert socket.receive_json()["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect):
                socket.receive_json()
        assert snapshot(client, table) == before


def test_a_token_of_another_table_is_no_seat_here(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, _ = started_table(client)
        _, others = started_table(client)
        with client.websocket_connect(f"/tables/{table}/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": others[0]}))
            assert socket.receive_json()["code"] == "bad_token"


def test_an_unknown_table_is_refused(tmp_path: Path) -> None:
    with lobby(tmp_path) as client, client.websocket_connect("/tables/nosuch/ws") as socket:
        socket.send_text(json.dumps({"type": "hello"}))
        assert socket.receive_json()["code"] == "unknown_table"


GARBAGE = [
    "not json",
    "[1, 2, 3]",
    "null",
    '{"type": "act"}',
    '{"type": "act", "id": "a", "answers": "1", "action": 3}',
    '{"type": "act", "id": "a", "answers": 1, "action": 3.5}',
    '{"type": "act", "id": "a", "answers": -1, "action": 3}',
    '{"type": "act", "id": "a", "answers": 1, "action": true}',
    '{"type": "act", "id": "", "answers": 1, "action": 3}',
    '{"type": "teleport"}',
    '{"type": "ping", "protocol": 2}',
    '{"type": "ping", "extra": 1}',
    '{"type": "hello"}',
    '{"type": "sync", "last_seen": 1e400}',
]


@pytest.mark.parametrize("frame", GARBAGE)
def test_garbage_gets_an_error_and_changes_nothing(tmp_path: Path, frame: str) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        mover = hub(client, table).state.current_player()
        before = snapshot(client, table)
        with peer(client, table, tokens[mover]) as connection:
            connection.socket.send_text(frame)
            assert connection.receive()["type"] == "error"
            connection.send(type="ping", id="still")
            assert connection.until("pong")["id"] == "still"
        assert snapshot(client, table) == before
        assert client.get("/health").status_code == 200


def test_a_binary_frame_gets_an_error(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as connection:
            connection.socket.send_bytes(b"\x00\x01")
            assert connection.receive()["code"] == "bad_message"


def test_a_huge_frame_is_refused_and_closed(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        before = snapshot(client, table)
        with peer(client, table, tokens[0]) as connection:
            connection.socket.send_text(json.dumps({"type": "ping", "id": "x" * (MAX_FRAME + 1)}))
            assert connection.receive()["code"] == "too_large"
            with pytest.raises(WebSocketDisconnect):
                connection.receive()
        assert snapshot(client, table) == before


def test_a_flood_is_refused_and_closed(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        before = snapshot(client, table)
        with peer(client, table, tokens[0]) as connection:
            for number in range(200):
                connection.send(type="ping", id=str(number))
            codes = []
            with pytest.raises(WebSocketDisconnect):
                while True:
                    codes.append(connection.receive().get("code"))
            assert "rate_limited" in codes
        assert snapshot(client, table) == before
        assert client.get("/health").status_code == 200


def test_a_websocket_from_another_origin_is_refused(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, _ = started_table(client)
        with pytest.raises(WebSocketDisconnect), peer(client, table, origin="https://evil.example"):
            pass
        with peer(client, table, origin="http://testserver") as connection:
            assert latest_view(connection)["type"] == "view"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


RECONNECTING = replace(TEST_CONFIG, seat_rate=1000, seat_burst=1000, address_rate=1000, address_burst=1000)
"""For a test that reconnects one seat for each of its examples: 80 catch-ups in a second or two, past the
per-seat and per-address limits by design (test_limits.py pins those)."""


def test_any_json_message_gets_an_answer_and_no_change_but_an_accepted_one(tmp_path: Path) -> None:
    with lobby(tmp_path, RECONNECTING) as client:
        table, tokens = started_table(client)
        mover = hub(client, table).state.current_player()

        @settings(max_examples=80, deadline=None)
        @given(
            kind=st.sampled_from(["act", "sync", "ping", "sample", "hello", "reclaim", "other"]),
            fields=st.dictionaries(st.sampled_from(["id", "answers", "action", "last_seen", "token", "x"]), json_values),
        )
        def check(kind: str, fields: dict[str, Any]) -> None:
            before = snapshot(client, table)
            with peer(client, table, tokens[1 - mover]) as connection:
                connection.send(type=kind, **fields)
                connection.send(type="ping", id="after")
                connection.until("pong")
            assert snapshot(client, table) == before  # not this seat's turn: nothing it sends changes the game

        check()
        assert client.get("/health").status_code == 200
