"""The replay of a finished table (`GET /tables/{id}/replay`, `/replay/{step}`; issue 25's replay viewer): as a
seat it is exactly what that seat read and saw during play; as all, every move in full; refused with a clear
status before the end, for an unknown table and for a bad seat or step."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from warcards.engine.registry import load_game

from .client import Peer, hub, lobby, peer, started_table


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with lobby(tmp_path) as test_client:
        yield test_client


def play_to_the_end(client: TestClient, table: str, tokens: list[str]) -> list[Peer]:
    """Both seats connected; each plays its first legal move until the end. Returns the two connections
    (holding every frame they received)."""
    with peer(client, table, tokens[0], 0) as first, peer(client, table, tokens[1], 0) as second:
        peers = [first, second]
        table_hub = hub(client, table)
        while not table_hub.finished:
            seat = table_hub.state.current_player()
            number = table_hub.position(seat)  # its own stream's number (another seat's R31 choices are not in it)
            peers[seat].act(number, table_hub.state.legal_actions()[0], f"m{table_hub.event_no}")
        for connection in peers:
            if not any(message["type"] == "end" for message in connection.received):
                connection.until("end")
    return peers


def seen_live(connection: Peer) -> tuple[list[list[dict[str, Any]]], dict[int, dict[str, Any]]]:
    """The log lines of each event (those before the connection from its catchup) and the view after each
    event received as it happened, by event number, as one seat's connection received them."""
    lines: list[list[dict[str, Any]]] = []
    views: dict[int, dict[str, Any]] = {}
    for message in connection.received:
        if message["type"] == "catchup":
            lines += [event["lines"] for event in message["events"]]
        if message["type"] == "event":
            lines.append(message["event"]["lines"])
            views[message["event"]["event_no"]] = message["view"]
    return lines, views


def test_as_a_seat_the_replay_is_what_that_seat_read_and_saw_during_play(client: TestClient) -> None:
    table, tokens = started_table(client)
    peers = play_to_the_end(client, table, tokens)
    for seat in (0, 1):
        replay = client.get(f"/tables/{table}/replay", params={"seat": seat}).json()
        lines, views = seen_live(peers[seat])
        assert replay["seat"] == seat and replay["seat_names"] == load_game("cards-of-war").seat_names()
        assert replay["steps"][0] == {"number": 0, "actor": None, "lines": []}
        assert [step["lines"] for step in replay["steps"][1:]] == lines
        assert replay["result"] == client.get(f"/tables/{table}").json()["result"]
        numbers = sorted(views)
        assert len(numbers) > 10
        for number in (numbers[0], numbers[len(numbers) // 2], numbers[-1]):
            answer = client.get(f"/tables/{table}/replay/{number}", params={"seat": seat}).json()
            assert answer["views"] == [{"seat": seat, "view": views[number]}]


def test_as_all_every_move_is_shown_in_full_with_every_seats_view(client: TestClient) -> None:
    table, tokens = started_table(client)
    play_to_the_end(client, table, tokens)
    table_hub = hub(client, table)
    replay = client.get(f"/tables/{table}/replay", params={"seat": "all"}).json()
    assert replay["seat"] is None
    assert len(replay["steps"]) == len(table_hub.actions) + 1
    names = replay["seat_names"]
    state = table_hub.game.new_initial_state()
    for step, action in zip(replay["steps"][1:], table_hub.actions, strict=True):
        actor = state.current_player()
        who = "chance" if actor < 0 else names[actor]
        assert step["actor"] == actor
        assert step["lines"][0]["text"] == f"{who}: {state.action_label(action)}"
        assert all(line["kind"] == "summary" for line in step["lines"][1:])
        state.apply_action(action)
    last = client.get(f"/tables/{table}/replay/{len(table_hub.actions)}").json()
    assert last["views"] == [{"seat": seat, "view": table_hub.state.observe(seat)} for seat in (0, 1)]


def test_a_resigned_game_ends_its_replay_with_the_reason(client: TestClient) -> None:
    table, tokens = started_table(client)
    client.post(f"/tables/{table}/leave", headers={"Authorization": f"Bearer {tokens[1]}"})
    replay = client.get(f"/tables/{table}/replay", params={"seat": "0"}).json()
    reason = client.get(f"/tables/{table}").json()["result"]["reason"]
    assert replay["steps"][-1]["lines"] == [{"text": reason, "kind": "summary", "actor": 1}]
    last = len(replay["steps"]) - 1
    assert client.get(f"/tables/{table}/replay/{last}", params={"seat": "0"}).status_code == 200


def test_the_replay_is_refused_before_the_end(client: TestClient) -> None:
    table, _ = started_table(client)
    for path in (f"/tables/{table}/replay", f"/tables/{table}/replay/0"):
        answer = client.get(path)
        assert answer.status_code == 409
        assert answer.json()["detail"] == f"table {table} is not over: its replay is shown after the end"


@pytest.mark.parametrize("table", ["nope", "0" * 32, "..%2F..%2Fetc", "x" * 300])
def test_an_unknown_or_forged_table_id_is_not_found(client: TestClient, table: str) -> None:
    for path in (f"/tables/{table}/replay", f"/tables/{table}/replay/0?seat=0"):
        answer = client.get(path)
        assert answer.status_code == 404, (path, answer.text)


def test_a_bad_seat_or_step_says_what_is_allowed(client: TestClient) -> None:
    table, tokens = started_table(client)
    client.post(f"/tables/{table}/leave", headers={"Authorization": f"Bearer {tokens[1]}"})
    names = load_game("cards-of-war").seat_names()
    for seat in ("7", "-1", "bogus", ""):
        answer = client.get(f"/tables/{table}/replay", params={"seat": seat})
        assert answer.status_code == 422
        assert answer.json()["detail"].startswith("seat: unknown seat")
        assert f"0 ({names[0]})" in answer.json()["detail"] and answer.json()["detail"].endswith("or all (every seat's moves in full)")
    assert client.get(f"/tables/{table}/replay", params={"seat": names[1].upper()}).json()["seat"] == 1
    steps = len(client.get(f"/tables/{table}/replay").json()["steps"])
    answer = client.get(f"/tables/{table}/replay/{steps}")
    assert answer.status_code == 422
    assert answer.json()["detail"] == f"step {steps} is not a step of this replay: its steps are 0 (the start) to {steps - 1}"
    assert client.get(f"/tables/{table}/replay/-1").status_code == 422
    assert client.get(f"/tables/{table}/replay/two").status_code == 422


def test_as_a_seat_the_replay_leaves_out_what_its_stream_left_out_r31(client: TestClient) -> None:
    """Another seat's face-down Deployment choices (R31) were nothing to a seat during play and not in its
    stream: its replay has exactly its stream's events (the engine's `Seen.nothing`, one decision for both)."""
    table, tokens = started_table(client, "race-to-messina")
    play_to_the_end(client, table, tokens)
    table_hub = hub(client, table)
    assert table_hub.position(0) < table_hub.event_no and table_hub.position(1) < table_hub.event_no
    for seat in (0, 1):
        replay = client.get(f"/tables/{table}/replay", params={"seat": seat}).json()
        stream = [[line.model_dump() for line in body.lines] for body in table_hub.events_seen(seat)]
        assert [step["lines"] for step in replay["steps"][1:]] == stream
