"""The lobby (REST): creating tables with the engine's option checks, listing, joining, leaving,
spectating, health and version; tokens are long, random and stored hashed."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from warcards import __version__
from warcards.engine.errors import OptionError
from warcards.engine.registry import check_game, load_game
from warcards.server import create_app
from warcards.server.db import hash_token

PEOPLE_2 = [{"kind": "person"}, {"kind": "person"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'lobby.sqlite3'}")) as test_client:
        yield test_client


def new_table(client: TestClient, **extra: object) -> dict[str, object]:
    body = {"game": "cards-of-war", "seats": PEOPLE_2, **extra}
    answer = client.post("/tables", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def test_health_and_version_answer(client: TestClient) -> None:
    assert client.get("/health").json()["status"] == "ok"
    assert client.get("/version").json() == {"warcards": __version__, "protocol": 1}


def test_the_lobby_is_in_the_openapi_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/tables", "/tables/{table_id}", "/tables/{table_id}/seats/{seat}", "/tables/{table_id}/leave",
                 "/tables/{table_id}/spectate", "/health", "/version"):
        assert path in paths


def test_an_unknown_game_is_refused_with_the_engine_message(client: TestClient) -> None:
    answer = client.post("/tables", json={"game": "chess", "seats": PEOPLE_2})
    assert answer.status_code == 422
    with pytest.raises(OptionError) as expected:
        check_game("chess")
    assert answer.json()["detail"] == str(expected.value)


def test_a_bad_option_is_refused_with_the_engine_message(client: TestClient) -> None:
    answer = client.post("/tables", json={"game": "naval-war", "options": {"players": 99}, "seats": PEOPLE_2})
    assert answer.status_code == 422
    with pytest.raises(OptionError) as expected:
        load_game("naval-war", players=99)
    assert answer.json()["detail"] == str(expected.value)


@pytest.mark.parametrize("game_id", ["med-sirocco", "naval-war", "cards-of-war", "race-to-messina"])
def test_a_card_file_on_the_server_cannot_be_chosen_by_a_client(client: TestClient, game_id: str) -> None:
    seats = [{"kind": "person"}] * load_game(game_id).num_players
    for path in ("/etc/passwd", "cards.toml", ""):
        answer = client.post("/tables", json={"game": game_id, "options": {"cards": path}, "seats": seats})
        assert answer.status_code == 422
        assert "names a file on the server" in answer.json()["detail"]
        answer = client.post(f"/games/{game_id}/seats", json={"options": {"cards": path}})
        assert answer.status_code == 422
        assert "names a file on the server" in answer.json()["detail"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "cards-of-war", "seats": [{"kind": "person"}]}, "has 2 seats"),
        ({"game": "cards-of-war", "seats": [{"kind": "bot"}, {"kind": "person"}]}, "give its level"),
        ({"game": "cards-of-war", "seats": [{"kind": "bot", "level": "godlike"}, {"kind": "person"}]}, "level"),
        ({"game": "cards-of-war", "seats": PEOPLE_2, "timer": {"kind": "chess_clock"}}, "timer"),
        ({"game": "cards-of-war", "seats": PEOPLE_2, "colour": "red"}, "colour"),
        ({"game": 7, "seats": PEOPLE_2}, "game"),
    ],
)
def test_a_bad_table_request_says_what_is_wrong(client: TestClient, body: dict[str, object], words: str) -> None:
    answer = client.post("/tables", json=body)
    assert answer.status_code == 422
    assert words in str(answer.json()["detail"])


def test_public_tables_with_open_seats_are_listed_and_private_or_full_ones_are_not(client: TestClient) -> None:
    open_public = new_table(client)
    private = new_table(client, public=False)
    full = new_table(client)
    for seat in (0, 1):
        client.post(f"/tables/{full['id']}/seats/{seat}", json={"name": f"p{seat}"})
    listed = [table["id"] for table in client.get("/tables").json()]
    assert open_public["id"] in listed
    assert private["id"] not in listed and full["id"] not in listed
    assert client.get(f"/tables/{private['id']}").status_code == 200  # an invite link still shows it


def test_an_invite_link_names_the_table_and_no_token(client: TestClient) -> None:
    table = new_table(client)
    assert table["invite"] == f"/tables/{table['id']}"
    joined = client.post(f"/tables/{table['id']}/seats/0", json={"name": "ann"}).json()
    assert joined["token"] not in client.get(f"/tables/{table['id']}").text


def test_joining_gives_a_long_random_token_that_is_stored_only_as_its_hash(client: TestClient, tmp_path: Path) -> None:
    table = new_table(client)
    tokens = [client.post(f"/tables/{table['id']}/seats/{s}", json={"name": f"p{s}"}).json()["token"] for s in (0, 1)]
    assert tokens[0] != tokens[1]
    assert all(len(token) >= 22 for token in tokens)  # urlsafe base64 of >= 16 bytes: >= 128 bits
    dump = "\n".join(sqlite3.connect(tmp_path / "lobby.sqlite3").iterdump())
    for token in tokens:
        assert token not in dump
        assert hash_token(token) in dump


def test_a_taken_seat_cannot_be_joined_again(client: TestClient) -> None:
    table = new_table(client)
    assert client.post(f"/tables/{table['id']}/seats/0", json={"name": "ann"}).status_code == 200
    assert client.post(f"/tables/{table['id']}/seats/0", json={"name": "bob"}).status_code == 409
    assert client.post(f"/tables/{table['id']}/seats/5", json={"name": "bob"}).status_code == 404
    assert client.post("/tables/nosuchtable/seats/0", json={"name": "bob"}).status_code == 404


def test_a_display_name_must_be_printable(client: TestClient) -> None:
    table = new_table(client)
    for name in ("", "   ", "a\x00b", "x" * 41):
        assert client.post(f"/tables/{table['id']}/seats/0", json={"name": name}).status_code == 422


def test_leaving_before_the_start_opens_the_seat_again(client: TestClient) -> None:
    table = new_table(client)
    token = client.post(f"/tables/{table['id']}/seats/0", json={"name": "ann"}).json()["token"]
    assert client.post(f"/tables/{table['id']}/leave").status_code == 401
    assert client.post(f"/tables/{table['id']}/leave", headers={"Authorization": "Bearer nope"}).status_code == 403
    answer = client.post(f"/tables/{table['id']}/leave", headers={"Authorization": f"Bearer {token}"})
    assert answer.json()["seats"][0]["open"] is True


def test_leaving_during_the_game_resigns(client: TestClient) -> None:
    table = new_table(client)
    tokens = [client.post(f"/tables/{table['id']}/seats/{s}", json={"name": f"p{s}"}).json()["token"] for s in (0, 1)]
    answer = client.post(f"/tables/{table['id']}/leave", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert answer.json()["status"] == "finished"
    assert answer.json()["result"]["winners"] == [0]
    record = client.get(f"/tables/{table['id']}/record").json()
    assert record["resigned"] == 1


def test_the_record_is_refused_while_the_game_is_on(client: TestClient) -> None:
    table = new_table(client)
    for seat in (0, 1):
        client.post(f"/tables/{table['id']}/seats/{seat}", json={"name": f"p{seat}"})
    assert client.get(f"/tables/{table['id']}/record").status_code == 409


def test_spectate_names_the_websocket(client: TestClient) -> None:
    table = new_table(client)
    assert client.get(f"/tables/{table['id']}/spectate").json()["websocket"] == f"/tables/{table['id']}/ws"


def test_during_the_game_a_seat_downloads_only_what_it_has_seen(client: TestClient) -> None:
    from .client import hub

    table = new_table(client)
    tokens = [client.post(f"/tables/{table['id']}/seats/{s}", json={"name": f"p{s}"}).json()["token"] for s in (0, 1)]
    table_hub = hub(client, str(table["id"]))
    for seat in (0, 1):
        own = client.get(f"/tables/{table['id']}/record", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
        assert "seed" not in own and "actions" not in own
        assert own["events"] == [body.model_dump() for body in table_hub.events_seen(seat)]
        assert own["view"]["view"] == table_hub.state.observe(seat)


def test_a_table_with_house_rules_plays_them_and_refuses_a_parameter_out_of_range(client: TestClient) -> None:
    table = new_table(client, options={"params": {"battle_target": 9, "hand_size": "8"}})
    assert table["options"]["params"] == {"battle_target": 9}  # the rule text's own value is not kept
    record = client.get(f"/tables/{table['id']}")
    assert record.json()["options"]["params"] == {"battle_target": 9}
    answer = client.post("/tables", json={"game": "cards-of-war", "options": {"params": {"battle_target": 99}},
                                          "seats": PEOPLE_2})
    assert answer.status_code == 422 and "from 5 to 40" in answer.json()["detail"]


def test_the_seat_choices_show_each_bot_levels_published_rating(client: TestClient) -> None:
    from warcards.bots.ratings import display, published_rating

    answer = client.post("/games/race-to-messina/seats", json={"options": {"variant": "sicily"}}).json()
    assert answer["bot_ratings"]["hard"] == display(published_rating("race-to-messina", "hard", 3, "sicily"))
    assert answer["bot_ratings"]["heuristic"] == "≈ 1,500" and set(answer["bot_ratings"]) >= {"random", "easy"}


def test_the_lobby_offers_the_beginner_bot_with_its_published_rating_and_seats_it(client: TestClient) -> None:
    """`beginner` (the heuristic with half its moves at random) was missing from the lobby's levels."""
    from warcards.bots.ratings import display, published_rating

    assert "beginner" in client.get("/games").json()["levels"]
    ratings = client.post("/games/cards-of-war/seats", json={"options": {}}).json()["bot_ratings"]
    assert ratings["beginner"] == display(published_rating("cards-of-war", "beginner", 2)) == "≈ 1,019"
    seats = [{"kind": "person"}, {"kind": "bot", "level": "beginner"}]
    created = client.post("/tables", json={"game": "cards-of-war", "seats": seats})
    assert created.status_code == 201, created.text
    assert client.get(f"/tables/{created.json()['id']}").json()["seats"][1]["level"] == "beginner"
