"""Rematch after the end (docs/protocol.md, "Rematch"): every person accepts, bots at once; the new table has
the same game, options, timer, chat setting, privacy and seats, each person seated in the same seat, and each
connection is sent its own seat's new token only; a decline cancels it and says who."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from .client import Peer, lobby, started_table


@contextmanager
def peer(client: TestClient, table: str, token: str | None = None) -> Iterator[Peer]:
    """A connection that reads chat and rematch frames, past its welcome, its view, its end and its chat_log."""
    with client.websocket_connect(f"/tables/{table}/ws") as socket:
        connection = Peer(socket)
        connection.send(type="hello", token=token, chat=True)
        connection.until("chat_log")
        yield connection


def finish(client: TestClient, table: str, token: str) -> None:
    """End the game: the seat of `token` leaves (resigns)."""
    answer = client.post(f"/tables/{table}/leave", headers={"Authorization": f"Bearer {token}"})
    assert answer.json()["status"] == "finished"


def answer(connection: Peer, accept: bool, client_id: str) -> dict[str, Any]:
    """Send a rematch answer; the rematch frame it causes (read after its ack) or the refusal."""
    connection.send(type="rematch", id=client_id, accept=accept)
    frame: dict[str, Any] = {}
    while True:
        message = connection.receive()
        if message["type"] == "rematch":
            frame = message
        if message.get("id") == client_id and message["type"] == "refused":
            return message
        if message.get("id") == client_id and message["type"] == "ack":
            return frame


def rematch_frame(connection: Peer) -> dict[str, Any]:
    return connection.until("rematch")


def test_every_person_accepts_then_each_is_seated_again_with_its_own_new_token(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        finish(client, table, tokens[1])
        with peer(client, table, tokens[0]) as alice, peer(client, table, tokens[1]) as bob, \
                peer(client, table) as watcher:
            proposed = answer(alice, True, "r1")
            assert (proposed["status"], proposed["accepted"], proposed["waiting"]) == ("proposed", [0], [1])
            assert proposed["message"] == "a rematch is proposed: waiting for p1"
            assert rematch_frame(bob)["status"] == rematch_frame(watcher)["status"] == "proposed"
            ready = {"bob": answer(bob, True, "r2"), "alice": rematch_frame(alice), "watcher": rematch_frame(watcher)}
        assert {frame["status"] for frame in ready.values()} == {"ready"}
        new_table = ready["alice"]["table"]
        assert new_table != table and ready["bob"]["table"] == ready["watcher"]["table"] == new_table
        assert (ready["alice"]["seat"], ready["bob"]["seat"], ready["watcher"]["seat"]) == (0, 1, None)
        assert ready["watcher"]["token"] is None
        assert ready["alice"]["token"] != ready["bob"]["token"]
        for name, other in (("alice", "bob"), ("bob", "alice")):  # never another seat's token
            everything = json.dumps(ready[name])
            assert ready[other]["token"] not in everything
        assert ready["bob"]["token"] not in json.dumps(ready["watcher"])
        info = client.get(f"/tables/{new_table}").json()
        assert info["status"] == "playing" and info["game"] == "cards-of-war"
        assert [seat["player"] for seat in info["seats"]] == ["p0", "p1"]
        with peer(client, new_table, ready["alice"]["token"]) as again:
            assert again.received[0]["type"] == "welcome" and again.received[0]["seat"] == 0


def test_a_decline_cancels_the_rematch_and_says_who_declined(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        finish(client, table, tokens[0])
        with peer(client, table, tokens[0]) as alice, peer(client, table, tokens[1]) as bob:
            answer(alice, True, "r1")
            rematch_frame(bob)
            declined = answer(bob, False, "r2")
            assert (declined["status"], declined["by"], declined["message"]) == ("declined", 1, "p1 declined the rematch")
            assert rematch_frame(alice) == declined
            refused = answer(bob, False, "r3")
            assert refused["code"] == "rematch_refused" and "no rematch is proposed" in refused["message"]
            assert answer(bob, True, "r4")["status"] == "proposed"  # proposing again is allowed
        assert len(client.get("/tables").json()) == 0  # no table was made


def test_bots_accept_at_once_and_keep_their_level(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        created = client.post("/tables", json={
            "game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}],
            "public": False, "chat": False, "timer": {"kind": "move", "seconds": 600, "on_timeout": "forfeit"},
        }).json()
        table = created["id"]
        token = client.post(f"/tables/{table}/seats/0", json={"name": "Alice"}).json()["token"]
        finish(client, table, token)
        with peer(client, table, token) as alice:
            ready = answer(alice, True, "r1")
        assert (ready["status"], ready["accepted"], ready["seat"]) == ("ready", [0, 1], 0)
        info = client.get(f"/tables/{ready['table']}").json()
        assert (info["public"], info["chat"], info["status"]) == (False, False, "playing")
        assert [(s["kind"], s["level"], s["player"]) for s in info["seats"]] == [("person", None, "Alice"), ("bot", "easy", "Bot · easy")]  # names.seat_display_name
        server = client.app.state.server  # type: ignore[attr-defined]
        assert server.store.table(ready["table"]).timer == server.store.table(table).timer


def test_a_seat_that_reconnects_gets_its_own_new_token_again(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table, tokens = started_table(client)
        finish(client, table, tokens[0])
        with peer(client, table, tokens[0]) as alice, peer(client, table, tokens[1]) as bob:
            answer(alice, True, "r1")
            ready = answer(bob, True, "r2")
        with peer(client, table, tokens[1]) as bob:
            again = rematch_frame(bob)
        assert again == ready and again["seat"] == 1


def test_a_rematch_before_the_end_from_a_spectator_or_from_a_bot_is_refused(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table = client.post("/tables", json={
            "game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
        }).json()["id"]
        token = client.post(f"/tables/{table}/seats/0", json={"name": "Alice"}).json()["token"]
        bot_token = client.app.state.server.store.new_bot_tokens(table)[1]  # type: ignore[attr-defined]
        with peer(client, table, token) as alice, peer(client, table) as watcher:
            early = answer(alice, True, "r1")
            assert early["code"] == "rematch_refused" and "the game is not over" in early["message"]
            assert answer(watcher, True, "r2")["code"] == "spectator"
        with client.websocket_connect(f"/tables/{table}/ws") as socket:
            bot = Peer(socket)
            bot.send(type="hello", token=bot_token, chat=True)
            assert answer(bot, True, "r3")["code"] == "rematch_refused"
