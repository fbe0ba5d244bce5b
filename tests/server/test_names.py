"""Display names (issue 33, "Names everywhere"): the checks of `warcards.server.names`, and every seat's name
through the protocol — `welcome`, `players`, `end`, the record, the replay — while the engine keeps seat
numbers."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from warcards.match import MatchRecord, parse_record
from warcards.server.names import (
    DELETED_NAME,
    MAX_NAME,
    REFUSED_CATEGORIES,
    NameRefused,
    check_display_name,
    reads_as_bot,
)

from .client import lobby, peer
from .conftest import ServerProcess


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with lobby(tmp_path) as made:
        yield made


def new_table(client: TestClient, seats: list[dict[str, Any]] | None = None) -> str:
    seats = seats or [{"kind": "person"}, {"kind": "person"}]
    answer = client.post("/tables", json={"game": "cards-of-war", "seats": seats})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def join(client: TestClient, table: str, seat: int, name: str) -> str:
    answer = client.post(f"/tables/{table}/seats/{seat}", json={"name": name})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


# ----- the checks ---------------------------------------------------------------------------------------------
@settings(max_examples=400, deadline=None)
@given(st.text(max_size=40))
def test_any_text_is_a_clean_name_or_a_refusal_saying_why_never_a_traceback(text: str) -> None:
    try:
        name = check_display_name(text)
    except NameRefused as refusal:
        assert f"1 to {MAX_NAME} characters" in str(refusal)
        return
    assert 1 <= len(name) <= MAX_NAME
    assert name == unicodedata.normalize("NFC", name) == name.strip(" ")
    assert "  " not in name
    assert not unicodedata.category(name[0]).startswith("M")
    for char in name:
        category = unicodedata.category(char)
        assert category not in REFUSED_CATEGORIES and (category != "Zs" or char == " ")
    assert not reads_as_bot(name)
    assert check_display_name(name) == name  # a stored name passes again unchanged


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(" .·-_0BbOoTt"), min_size=3, max_size=12))
def test_names_built_of_bot_letters_and_look_alikes_never_pass_as_bot(text: str) -> None:
    try:
        name = check_display_name(text)
    except NameRefused:
        return
    squeezed = "".join(c for c in name.casefold().replace("0", "o") if c.isalpha())
    assert squeezed != "bot"


@pytest.mark.parametrize(
    ("given_name", "stored"),
    [("Alice", "Alice"), ("  Zoë \u00a0  Ann ", "Zoë Ann"), ("李小龙", "李小龙"), ("Botond", "Botond"),
     ("Robot 3000", "Robot 3000"), ("<b>x</b>", "<b>x</b>"), ("Guest 4821", "Guest 4821")],
)
def test_a_name_is_normalised_trimmed_and_collapsed(given_name: str, stored: str) -> None:
    assert check_display_name(given_name) == stored


@pytest.mark.parametrize(
    ("given_name", "why"),
    [("", "empty"), ("   ", "empty"), ("x" * (MAX_NAME + 1), "characters long"),
     ("ab\u202ecd", "RIGHT-TO-LEFT OVERRIDE"), ("ab\u2067cd", "format character"),
     ("ab\u200bcd", "ZERO WIDTH SPACE"), ("ab\u200dcd", "format character"), ("a\x00b", "control character"),
     ("a\tb", "control character"), ("\ue000x", "private-use"), ("a\u2028b", "line separator"),
     ("\u3164", "draws nothing"), ("\u0301a", "combining mark"),
     ("Bot", "bot"), ("bot·x", "bot"), ("B0T", "bot"), ("B.O.T.", "bot"), ("Mr Bot", "bot"), ("bot2", "bot"),
     ("Bot · hard", "bot"), ("Вот", "bot"), ("Ｂｏｔ", "bot"), (DELETED_NAME, "deleted"), ("de1eted PLAYER", "deleted")],
)
def test_a_name_that_hides_text_or_impersonates_is_refused_saying_why(given_name: str, why: str) -> None:
    with pytest.raises(NameRefused) as refusal:
        check_display_name(given_name)
    message = str(refusal.value)
    assert why.casefold() in message.casefold()
    assert "letters, marks, numbers, punctuation, symbols" in message


@pytest.mark.parametrize("name", ["ab\u202ecd", "a\u200bb", "Bot", "B0T", "bot·x", "", "x" * 25, DELETED_NAME])
def test_a_refused_name_gets_a_422_in_words_and_the_seat_stays_open(client: TestClient, name: str) -> None:
    table = new_table(client)
    answer = client.post(f"/tables/{table}/seats/0", json={"name": name})
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and f"1 to {MAX_NAME} characters" in detail
    assert client.get(f"/tables/{table}").json()["seats"][0]["open"] is True


# ----- the protocol -------------------------------------------------------------------------------------------
def names_of(players: list[dict[str, Any]]) -> list[str | None]:
    return [player["name"] for player in players]


def test_the_welcome_names_every_seat_and_says_who_is_connected(client: TestClient) -> None:
    table = new_table(client, [{"kind": "person"}, {"kind": "bot", "level": "hard"}])
    with peer(client, table) as spectator:
        welcome = spectator.received[0]
        assert names_of(welcome["players"]) == [None, "Bot · hard"]
        assert [p["kind"] for p in welcome["players"]] == ["person", "bot"]
        assert welcome["players"][1]["level"] == "hard" and welcome["players"][0]["level"] is None
        assert [p["seat_name"] for p in welcome["players"]] == ["player 0", "player 1"]
        assert welcome["watching"] == 1
    assert client.get(f"/tables/{table}").json()["seats"][1]["player"] == "Bot · hard"


def test_a_join_and_each_connection_that_comes_or_goes_reach_every_connection_as_players(client: TestClient) -> None:
    table = new_table(client)
    alice = join(client, table, 0, "  Alice ")
    with peer(client, table) as spectator:
        assert names_of(spectator.received[0]["players"]) == ["Alice", None]
        assert spectator.received[0]["players"][0]["connected"] is False
        with peer(client, table, alice):
            came = spectator.until("players")
            assert came["players"][0]["connected"] is True and came["watching"] == 1
        went = spectator.until("players")
        assert went["players"][0]["connected"] is False
        join(client, table, 1, "Bob")
        joined = spectator.until("players")
        assert names_of(joined["players"]) == ["Alice", "Bob"]
        assert all(player["kind"] == "person" and player["stand_in"] is None for player in joined["players"])


def test_leaving_an_open_seat_takes_its_name_away(client: TestClient) -> None:
    table = new_table(client)
    alice = join(client, table, 0, "Alice")
    with peer(client, table) as spectator:
        client.post(f"/tables/{table}/leave", headers={"Authorization": f"Bearer {alice}"})
        assert names_of(spectator.until("players")["players"]) == [None, None]


def test_the_end_the_record_and_the_replay_carry_the_names(client: TestClient) -> None:
    table = new_table(client)
    tokens = [join(client, table, 0, "Alice"), join(client, table, 1, "<b>Bob</b>")]
    own = client.get(f"/tables/{table}/record", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    assert names_of(own["players"]) == ["Alice", "<b>Bob</b>"]
    with peer(client, table, tokens[0]) as alice:
        alice.send(type="resign", id="r1")
        end = alice.until("end")
    assert names_of(end["players"]) == ["Alice", "<b>Bob</b>"]
    assert end["record"]["names"] == ["Alice", "<b>Bob</b>"]
    record = client.get(f"/tables/{table}/record").json()
    assert record["names"] == ["Alice", "<b>Bob</b>"]
    assert isinstance(parse_record({k: v for k, v in record.items() if k != "resigned"}, "record", MatchRecord),
                      MatchRecord)  # `warcards replay` reads a record that names its players
    replay = client.get(f"/tables/{table}/replay").json()
    assert names_of(replay["players"]) == ["Alice", "<b>Bob</b>"]
    assert replay["result"]["reason"] == "player 0 resigned"  # the engine's words keep seat names


def test_a_stand_in_shows_in_the_players_until_the_seat_is_reclaimed(sqlite_server: ServerProcess) -> None:
    table = sqlite_server.post("/tables", {
        "game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
        "timer": {"kind": "move", "seconds": 3, "on_timeout": "bot", "level": "random"}})["id"]
    token = sqlite_server.post(f"/tables/{table}/seats/0", {"name": "Alice"})["token"]
    with connect(f"{sqlite_server.ws}/tables/{table}/ws", max_size=None) as socket:
        socket.send(json.dumps({"protocol": 1, "type": "hello", "token": token}))

        def players() -> list[dict[str, Any]]:
            while (message := json.loads(socket.recv(timeout=60)))["type"] != "players":
                assert message["type"] != "end"
            return list(message["players"])

        while (held := players())[0]["stand_in"] is None:
            pass
        assert held[0]["stand_in"] == "random" and held[0]["name"] == "Alice" and held[0]["connected"] is True
        assert held[1]["name"] == "Bot · random" and held[1]["kind"] == "bot"
        socket.send(json.dumps({"protocol": 1, "type": "reclaim", "id": "back"}))
        while players()[0]["stand_in"] is not None:
            pass


def test_the_players_frames_carry_only_public_facts_the_same_for_every_recipient(client: TestClient) -> None:
    from warcards.server.db import hash_token

    from .client import hub

    table = new_table(client)
    tokens = [join(client, table, 0, "Alice"), join(client, table, 1, "Bob")]
    seed = str(hub(client, table).seed)
    secrets = [*tokens, *(hash_token(token) for token in tokens)]
    with peer(client, table) as spectator, peer(client, table, tokens[0]) as alice:
        with peer(client, table, tokens[1]) as bob:
            seen = [alice.until("players"), spectator.until("players"), spectator.until("players")]
            bob.send(type="resign", id="r1")
            bob.until("end")
        alice.until("end")
        spectator.until("end")
        seen += [alice.until("players"), spectator.until("players")]  # Bob's connection went
        for connection in (spectator, alice, bob):
            for message in connection.received:
                text = json.dumps(message)
                assert not any(secret in text for secret in secrets), message["type"]
                if message["type"] != "end":
                    assert f'"seed": {seed}' not in text
    keys = {"seat", "seat_name", "name", "kind", "level", "connected", "stand_in"}
    for message in seen:
        assert set(message) == {"protocol", "type", "players", "watching"}
        assert all(set(player) == keys for player in message["players"])
    # what a seat reads of the players is what the spectator reads: nothing in it is per recipient
    assert seen[0]["players"] == seen[2]["players"] and seen[3]["players"] == seen[4]["players"]
