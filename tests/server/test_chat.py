"""Table chat (docs/protocol.md, "Chat"): who reads which channel, the text's limits, the rate, mutes, a table
without chat, messages stored and caught up after a reconnect and a restart, and never a frame to a bot."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from warcards.server import create_app
from warcards.server.connection import Connection
from warcards.server.social import clean_chat, reads_chat

from .client import TEST_CONFIG, Peer, hub, lobby, started_table
from .conftest import fresh_postgres_database

CHAT_FIELDS = {"protocol", "type", "number", "channel", "from", "name", "text", "at"}


@contextmanager
def peer(client: TestClient, table: str, token: str | None = None) -> Iterator[Peer]:
    """A connection that reads chat (`hello` with `chat: true`), past its welcome and its first view."""
    with client.websocket_connect(f"/tables/{table}/ws") as socket:
        connection = Peer(socket)
        connection.send(type="hello", token=token, chat=True)
        assert connection.receive()["type"] == "welcome"
        connection.receive()
        yield connection


def flush(connection: Peer) -> list[dict[str, Any]]:
    """Everything the server has sent this connection so far: a ping's pong comes after it."""
    connection.send(type="ping", id="flush")
    start = len(connection.received)
    while connection.receive() != {"protocol": 1, "type": "pong", "id": "flush"}:
        pass
    return connection.received[start:-1]


def everything(connection: Peer) -> list[dict[str, Any]]:
    """Every message this connection has received, up to now (`flush`)."""
    flush(connection)
    return connection.received


def say(connection: Peer, text: str, client_id: str, **more: Any) -> dict[str, Any]:
    """Send a chat message; its answer (ack or refused)."""
    connection.send(type="chat", id=client_id, text=text, **more)
    while True:
        message = connection.receive()
        if message["type"] in ("ack", "refused") and message.get("id") == client_id:
            return message


def chats(messages: list[dict[str, Any]]) -> list[str]:
    return [m["text"] for m in messages if m["type"] == "chat"]


def chat_log_name(connection: Peer) -> str:
    """The name the connection's own messages carry, from the chat_log it was sent."""
    return str(next(m for m in connection.received if m["type"] == "chat_log")["name"])


def three_seats(client: Any) -> tuple[str, list[str]]:
    """A started Naval War table of three people."""
    table = client.post(
        "/tables", json={"game": "naval-war", "options": {"players": 3}, "seats": [{"kind": "person"}] * 3}
    ).json()["id"]
    tokens = [client.post(f"/tables/{table}/seats/{s}", json={"name": f"p{s}"}).json()["token"] for s in range(3)]
    return table, tokens


def chat_log(connection: Peer) -> dict[str, Any]:
    """The chat_log sent after this connection's catch-up (`peer` reads the welcome and the catch-up); the
    `players` frames that connections coming and going send (docs/protocol.md, "Players") may come first."""
    message = connection.receive()
    while message["type"] == "players":
        message = connection.receive()
    assert message["type"] == "chat_log", message
    return message


def test_players_read_each_other_and_spectators_read_only_their_own_channel(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as alice, peer(client, table, tokens[1]) as bob, \
                peer(client, table) as watcher:
            for connection in (alice, bob, watcher):
                assert chat_log(connection)["messages"] == []
            assert [chat_log_name(c) for c in (alice, bob, watcher)] == ["p0", "p1", "Spectator 1"]
            assert say(alice, "  good luck  ", "a1")["type"] == "ack"
            assert say(watcher, "go Bob!", "w1")["type"] == "ack"
            seen = {name: everything(c) for name, c in (("alice", alice), ("bob", bob), ("watcher", watcher))}
        assert chats(seen["alice"]) == chats(seen["bob"]) == ["good luck", "go Bob!"]
        assert chats(seen["watcher"]) == ["go Bob!"]
        first = next(m for m in seen["bob"] if m["type"] == "chat")
        assert set(first) == CHAT_FIELDS
        assert (first["number"], first["channel"], first["from"], first["name"]) == (1, "players", 0, "p0")
        second = [m for m in seen["alice"] if m["type"] == "chat"][1]
        assert (second["number"], second["channel"], second["from"], second["name"]) == (2, "spectators", None, "Spectator 1")


def test_a_seat_writes_to_the_players_channel_only_and_a_spectator_to_its_own(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as alice, peer(client, table) as watcher:
            chat_log(alice), chat_log(watcher)
            refused = say(alice, "psst", "a1", channel="spectators")
            assert refused["code"] == "chat_refused" and "players' channel only" in refused["message"]
            refused = say(watcher, "psst", "w1", channel="players")
            assert refused["code"] == "chat_refused" and "spectators' channel only" in refused["message"]
            assert chats(flush(alice)) == chats(flush(watcher)) == []


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  hi  ", "hi"),
        ("line\nbreak\ttab", "line break tab"),
        ("a\u202eevil\u202c b", "aevil b"),
        ("zero\u200bwidth\u2066iso\u2069", "zerowidthiso"),
        ("bell\x07 and nul\x00", "bell and nul"),
        ("family \U0001f468\u200d\U0001f469\u200d\U0001f467", "family \U0001f468\u200d\U0001f469\u200d\U0001f467"),
        ("<script>alert(1)</script> & \"q\"", "<script>alert(1)</script> & \"q\""),
    ],
)
def test_the_text_is_trimmed_and_control_and_bidi_characters_are_taken_out(typed: str, stored: str) -> None:
    assert clean_chat(typed) == stored


def test_a_message_over_300_characters_is_refused_with_its_length_and_300_pass(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as alice:
            chat_log(alice)
            refused = say(alice, "x" * 301, "long")
            assert refused["code"] == "chat_refused"
            assert refused["message"] == "a chat message is at most 300 characters; this one has 301"
            assert say(alice, "  " + "y" * 300 + "\u202e  ", "just")["type"] == "ack"
            empty = say(alice, " \u202e\n ", "empty")
            assert empty["code"] == "chat_refused" and "needs some text" in empty["message"]
            assert chats(everything(alice)) == ["y" * 300]


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "chat", "id": "c", "text": 5},
        {"type": "chat", "id": "c", "text": "hi", "channel": "everyone"},
        {"type": "chat", "id": "c", "text": "x" * 1201},
        {"type": "chat", "id": "c"},
        {"type": "mute", "id": "m", "seat": "1"},
        {"type": "rematch", "id": "r", "accept": "yes"},
    ],
)
def test_a_malformed_chat_mute_or_rematch_gets_bad_message_and_the_connection_stays(
    tmp_path: Path, frame: dict[str, Any]
) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as alice:
            chat_log(alice)
            alice.send(**frame)
            answer = alice.receive()
            while answer["type"] == "players":
                answer = alice.receive()
            assert answer["type"] == "error" and answer["code"] == "bad_message", answer
            assert say(alice, "still here", "ok")["type"] == "ack"


def test_chat_past_the_rate_is_refused_chat_limited_with_the_limit_in_words(tmp_path: Path) -> None:
    config = replace(TEST_CONFIG, chat_rate=0.01, chat_burst=3)
    with lobby(tmp_path, config) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as alice, peer(client, table, tokens[1]) as bob:
            chat_log(alice), chat_log(bob)
            answers = [say(alice, f"m{i}", f"a{i}") for i in range(4)]
            assert [a["type"] for a in answers] == ["ack", "ack", "ack", "refused"]
            assert answers[3]["code"] == "chat_limited"
            assert "at most 0.01 chat messages a second (3 at once) from one seat" in answers[3]["message"]
            assert say(bob, "my own bucket", "b1")["type"] == "ack"  # per seat
            assert chats(everything(bob)) == ["m0", "m1", "m2", "my own bucket"]


def test_a_muted_seat_is_not_sent_to_the_seat_that_muted_it_and_the_mute_is_kept(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = three_seats(client)
        with peer(client, table, tokens[0]) as alice, peer(client, table, tokens[1]) as bob, \
                peer(client, table, tokens[2]) as carol:
            chat_log(alice), chat_log(bob), chat_log(carol)
            assert say(bob, "before", "b0")["type"] == "ack"
            alice.send(type="mute", id="m1", seat=1)
            fresh = alice.until("chat_log")
            assert fresh["muted"] == [1] and fresh["messages"] == []
            assert alice.until("ack")["id"] == "m1"
            assert say(bob, "after", "b1")["type"] == "ack"
            assert chats(flush(alice)) == []
            assert chats(everything(carol)) == ["before", "after"]
        with peer(client, table, tokens[0]) as alice:  # a reconnect: the mute is kept
            log = chat_log(alice)
            assert log["muted"] == [1] and chats(log["messages"]) == []
            alice.send(type="mute", id="m2", seat=1, muted=False)
            assert chats(alice.until("chat_log")["messages"]) == ["before", "after"]
            for wrong, words in ((0, "cannot mute yourself"), (7, "seats 0 to 2")):
                alice.send(type="mute", id=f"w{wrong}", seat=wrong)
                refused = alice.until("refused")
                assert refused["code"] == "chat_refused" and words in refused["message"]


def test_a_table_created_with_chat_off_has_no_chat_at_all(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        created = client.post("/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2, "chat": False})
        assert created.json()["chat"] is False
        table = created.json()["id"]
        tokens = [client.post(f"/tables/{table}/seats/{s}", json={"name": f"p{s}"}).json()["token"] for s in range(2)]
        with peer(client, table, tokens[0]) as alice, peer(client, table) as watcher:
            assert chat_log(alice) == {
                "protocol": 1, "type": "chat_log", "enabled": False, "name": "p0", "messages": [], "muted": [],
            }
            chat_log(watcher)
            refused = say(alice, "hello?", "a1")
            assert refused == {
                "protocol": 1, "type": "refused", "id": "a1", "code": "chat_off",
                "message": "this table was created with chat off: it has no chat",
            }
            assert say(watcher, "hello?", "w1")["code"] == "chat_off"
            alice.send(type="mute", id="m", seat=1)
            assert alice.until("refused")["code"] == "chat_off"
            assert chats(flush(watcher)) == []


def test_chat_is_stored_and_caught_up_after_a_reconnect_and_after_a_server_restart(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as alice, peer(client, table) as watcher:
            chat_log(alice), chat_log(watcher)
            say(alice, "one", "a1"), say(watcher, "two", "w1"), say(alice, "three", "a2")
        with peer(client, table, tokens[1]) as bob:
            assert chats(chat_log(bob)["messages"]) == ["one", "two", "three"]
    with lobby(tmp_path) as client, peer(client, table, tokens[1]) as bob, peer(client, table) as watcher:
        log = chat_log(bob)
        assert chats(log["messages"]) == ["one", "two", "three"]
        assert [m["number"] for m in log["messages"]] == [1, 2, 3]
        assert chats(chat_log(watcher)["messages"]) == ["two"]
        say(bob, "four", "b1")
        assert [m["number"] for m in everything(bob) if m["type"] == "chat"] == [4]


def test_a_repeated_chat_id_is_answered_again_and_not_sent_twice(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as alice, peer(client, table, tokens[1]) as bob:
            chat_log(alice), chat_log(bob)
            first = say(alice, "once", "same")
            assert say(alice, "once", "same") == first
            assert chats(flush(bob)) == ["once"]


def test_chat_never_reaches_a_bot_connection_and_a_bot_cannot_write(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        created = client.post("/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}]})
        table = created.json()["id"]
        token = client.post(f"/tables/{table}/seats/0", json={"name": "Alice"}).json()["token"]
        server = client.app.state.server  # type: ignore[attr-defined]
        bot_token = server.store.new_bot_tokens(table)[1]
        with peer(client, table, token) as alice, peer(client, table, bot_token) as bot, peer(client, table) as watcher:
            chat_log(alice), chat_log(watcher)
            say(alice, "hi bot", "a1"), say(watcher, "hi all", "w1")
            alice.send(type="mute", id="m", seat=1)
            alice.until("ack")
            refused = say(bot, "beep", "b1")
            assert refused["code"] == "chat_refused" and "a bot does not chat" in refused["message"]
            bot.send(type="mute", id="bm", seat=0)
            assert bot.until("refused")["code"] == "chat_refused"
            received = everything(bot)
        assert not [m for m in received if m["type"] in ("chat", "chat_log", "rematch")]
        assert "hi bot" not in json.dumps(received) and "hi all" not in json.dumps(received)


def test_chat_frames_carry_only_what_people_typed(tmp_path: Path) -> None:
    """Hidden information: a chat frame holds the message's fields only (no view, no hand, no seed), and a
    spectator's frames never hold the players' channel."""
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as alice, peer(client, table, tokens[1]) as bob, \
                peer(client, table) as watcher:
            for connection in (alice, bob, watcher):
                chat_log(connection)
            say(alice, "secret plan", "a1"), say(bob, "me too", "b1"), say(watcher, "hello", "w1")
            frames = {name: everything(c) for name, c in (("alice", alice), ("bob", bob), ("watcher", watcher))}
        for received in frames.values():
            for message in received:
                if message["type"] == "chat":
                    assert set(message) == CHAT_FIELDS
                if message["type"] == "chat_log":
                    assert set(message) == {"protocol", "type", "enabled", "name", "messages", "muted"}
                    assert all(set(m) == CHAT_FIELDS for m in message["messages"])
        watcher_text = json.dumps(frames["watcher"])
        assert "secret plan" not in watcher_text and "me too" not in watcher_text


def test_a_client_that_does_not_ask_for_chat_gets_no_chat_frame_until_it_chats(tmp_path: Path) -> None:
    """Protocol v1 clients written before chat (scripts, bots) read the same frames as before."""
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        with peer(client, table, tokens[0]) as alice, client.websocket_connect(f"/tables/{table}/ws") as socket:
            chat_log(alice)
            script = Peer(socket)
            script.send(type="hello", token=tokens[1])
            assert [script.receive()["type"] for _ in range(2)] == ["welcome", "view"]
            say(alice, "anyone?", "a1")
            assert [m["type"] for m in flush(script)] == []
            assert say(script, "me", "s1")["type"] == "ack"
            log, mine, ack = script.received[3:6]
            assert (log["type"], mine["type"], ack["type"]) == ("chat_log", "chat", "ack")
            assert chats(log["messages"]) == ["anyone?"] and mine["text"] == "me"


def test_spectators_on_one_address_share_a_chat_bucket(tmp_path: Path) -> None:
    config = replace(TEST_CONFIG, chat_rate=0.01, chat_burst=2)
    with lobby(tmp_path, config) as client:
        table, _ = started_table(client)
        with peer(client, table) as one, peer(client, table) as two:
            chat_log(one), chat_log(two)
            assert say(one, "a", "1")["type"] == "ack"
            assert say(two, "b", "2")["type"] == "ack"
            refused = say(two, "c", "3")
            assert refused["code"] == "chat_limited" and "spectators of one address" in refused["message"]


def test_a_stand_in_or_a_bot_seat_reads_no_chat_and_a_person_or_a_spectator_does(tmp_path: Path) -> None:
    """A stand-in holds a person's seat after a timeout: it is a bot, and gets no chat frame (the person's
    own connections still do)."""
    with lobby(tmp_path) as client:
        table = client.post("/tables", json={
            "game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
        }).json()["id"]
        held = hub(client, table)
        assert reads_chat(held, Connection(0)) and reads_chat(held, Connection(None))
        assert not reads_chat(held, Connection(0, stand_in=True)) and not reads_chat(held, Connection(1))


def test_two_processes_on_one_database_never_give_two_messages_one_number(tmp_path: Path) -> None:
    """The second process read the chat before the first wrote its message: its own message's number is
    taken, so it reads the log again and takes the next (and its reader's log then holds both)."""
    with lobby(tmp_path) as first, lobby(tmp_path) as second:
        table, tokens = started_table(first)
        with peer(second, table, tokens[1]) as bob:
            chat_log(bob)
            with peer(first, table, tokens[0]) as alice:
                chat_log(alice)
                assert say(alice, "from the first", "a1")["type"] == "ack"
            assert say(bob, "from the second", "b1")["type"] == "ack"
            mine = [m for m in everything(bob) if m["type"] == "chat"]
        assert [(m["number"], m["text"]) for m in mine] == [(2, "from the second")]
        with peer(first, table, tokens[0]) as alice:
            assert [(m["number"], m["text"]) for m in chat_log(alice)["messages"]] == [
                (1, "from the first"), (2, "from the second"),
            ]


def test_a_message_reaches_the_readers_on_another_process_sharing_postgresql(postgres_url: str) -> None:
    """Two server processes on one PostgreSQL (two apps here): a message stored by one is sent at once to the
    other's readers (`NOTIFY warcards_chat`), with its mutes and channels applied there too."""
    url = fresh_postgres_database(postgres_url, "chat_two_processes")
    with TestClient(create_app(url, config=TEST_CONFIG)) as first, TestClient(create_app(url, config=TEST_CONFIG)) as second:
        table, tokens = started_table(first)
        with peer(first, table, tokens[0]) as alice, peer(second, table, tokens[1]) as bob, \
                peer(second, table) as watcher:
            for connection in (alice, bob, watcher):
                chat_log(connection)
            assert say(alice, "across", "a1")["type"] == "ack"
            deadline = time.monotonic() + 60
            while "across" not in chats(bob.received) and time.monotonic() < deadline:
                flush(bob)
                time.sleep(0.05)
            assert chats(bob.received) == ["across"]
            assert say(watcher, "seen", "w1")["type"] == "ack"
            deadline = time.monotonic() + 60
            while "seen" not in chats(alice.received) and time.monotonic() < deadline:
                flush(alice)
                time.sleep(0.05)
            assert chats(alice.received) == ["across", "seen"]
            assert chats(everything(watcher)) == ["seen"]  # the players' channel is not sent there either
