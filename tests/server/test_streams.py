"""Per-recipient event streams (docs/protocol.md, "Event streams"): an event a recipient sees as nothing is
not in its stream, so another seat cannot count a face-down Race to Messina Deployment (R31)."""

from __future__ import annotations

import functools
import secrets
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from warcards.games.race_to_messina.codes import Phase
from warcards.games.race_to_messina.notation import K_DEPLOY, decode
from warcards.server import process
from warcards.server.config import ServerConfig

from .client import Peer, hub, latest_view, lobby, peer

SEED = 4242


def drain(connection: Peer) -> None:
    """Read every frame the server queued for this connection so far (a ping's pong comes after them)."""
    connection.send(type="ping", id="sync")
    connection.until("pong")
    connection.received.pop()


def play_first_deployment(client: TestClient, deploy: int) -> dict[str, Any]:
    """A Race to Messina (invasion) table: every seat takes its last legal move, except that the first seat
    to deploy deploys `deploy` cards and is done. Returns the frames every recipient received before the
    move that reveals the Deployment, and the deployer's seat."""
    created = client.post(
        "/tables", json={"game": "race-to-messina", "options": {"variant": "invasion"}, "seats": [{"kind": "person"}] * 2}
    ).json()
    table = created["id"]
    tokens = [client.post(f"/tables/{table}/seats/{s}", json={"name": f"p{s}"}).json()["token"] for s in (0, 1)]
    table_hub = hub(client, table)
    with peer(client, table, tokens[0]) as zero, peer(client, table, tokens[1]) as one, peer(client, table) as watcher:
        peers = {0: zero, 1: one, None: watcher}
        deployer = None
        before_reveal: dict[int | None, list[dict[str, Any]]] = {}
        step = 0
        while deployer is None or table_hub.state.phase == Phase.DEPLOYMENT:  # type: ignore[attr-defined]
            for connection in peers.values():
                drain(connection)
            mover = table_hub.state.current_player()
            in_deployment = table_hub.state.phase == Phase.DEPLOYMENT  # type: ignore[attr-defined]
            if in_deployment:
                deployer = mover if deployer is None else deployer
                before_reveal = {who: list(connection.received) for who, connection in peers.items()}
            view = latest_view(peers[mover])
            legal = [choice["action"] for choice in view["legal"]]
            action = legal[-1]
            deployed = sum(1 for b in table_hub.events_seen(mover) if b.kind == "action" and "deploy " in b.text)
            if in_deployment and mover == deployer and deployed < deploy:
                action = next(a for a in legal if decode(table_hub.game.table, a)[0] == K_DEPLOY)  # type: ignore[attr-defined]
            assert peers[mover].act(view["event_no"], action, f"m{step}")["type"] == "ack"
            step += 1
        assert deployer is not None
        return {"frames": before_reveal, "deployer": deployer, "hub": table_hub, "table": table, "tokens": tokens}


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables get the same seed (the lobby draws it with `secrets.randbits`), so two games deal alike; the
    pings `drain` sends are not held to the rate limit."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)
    monkeypatch.setattr(process, "ServerConfig", functools.partial(ServerConfig, burst=10.0**9))


def test_r31_another_seat_and_a_spectator_cannot_count_a_face_down_deployment(tmp_path: Path, fixed_seed: None) -> None:
    with lobby(tmp_path) as client:
        none = play_first_deployment(client, 0)
        three = play_first_deployment(client, 3)
    assert none["deployer"] == three["deployer"]
    deployer = none["deployer"]
    other = 1 - deployer
    for who in (other, None):
        seen_none = [{k: v for k, v in m.items() if k != "table"} for m in none["frames"][who]]
        seen_three = [{k: v for k, v in m.items() if k != "table"} for m in three["frames"][who]]
        assert seen_none == seen_three, f"recipient {who}"  # the same frames, numbers and all (only the id differs)
    own_none = [m for m in none["frames"][deployer] if m["type"] == "event"]
    own_three = [m for m in three["frames"][deployer] if m["type"] == "event"]
    assert len(own_three) == len(own_none) + 3  # the deployer itself sees its three choices


def test_every_stream_numbers_its_events_1_2_3_without_gaps(tmp_path: Path, fixed_seed: None) -> None:
    with lobby(tmp_path) as client:
        played = play_first_deployment(client, 3)
    table_hub = played["hub"]
    for who, frames in played["frames"].items():
        numbers = [m["event"]["event_no"] for m in frames if m["type"] == "event"]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), who
        assert [body.event_no for body in table_hub.events_seen(who)] == list(range(1, table_hub.position(who) + 1))
    deployer = played["deployer"]
    assert table_hub.position(1 - deployer) < table_hub.event_no  # the choices are not in the other's stream


def test_a_reconnect_during_a_hidden_deployment_gets_the_view_of_a_fresh_connection(
    tmp_path: Path, fixed_seed: None
) -> None:
    with lobby(tmp_path) as client:
        played = play_first_deployment(client, 3)
        table_hub, table, tokens = played["hub"], played["table"], played["tokens"]
        for who in (0, 1, None):
            token = None if who is None else tokens[who]
            last_seen = max(0, table_hub.position(who) - 4)
            with peer(client, table, token, last_seen=last_seen) as back:
                catchup = back.received[-1]
            with peer(client, table, token) as fresh:
                snapshot = fresh.received[-1]
            assert catchup["type"] == "catchup"
            assert [e["event_no"] for e in catchup["events"]] == list(range(last_seen + 1, table_hub.position(who) + 1))
            assert catchup["view"] == snapshot
            assert snapshot["event_no"] == table_hub.position(who)


def test_an_act_answering_an_old_number_of_its_own_stream_is_still_stale(tmp_path: Path, fixed_seed: None) -> None:
    with lobby(tmp_path) as client:
        played = play_first_deployment(client, 3)
        table_hub, table, tokens = played["hub"], played["table"], played["tokens"]
        mover = table_hub.state.current_player()
        before = (table_hub.event_no, table_hub.state.history())
        with peer(client, table, tokens[mover]) as me:
            view = latest_view(me)
            answer = me.act(view["event_no"] - 1, view["legal"][0]["action"], "old")
            assert answer["code"] == "stale"
            assert f"your last event is {table_hub.position(mover)}" in answer["message"]
            assert (table_hub.event_no, table_hub.state.history()) == before
            assert me.act(view["event_no"], view["legal"][0]["action"], "now")["type"] == "ack"
