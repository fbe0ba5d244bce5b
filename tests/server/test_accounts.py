"""Optional accounts (docs/server.md, "Players and accounts"): sign-up, sign-in and out, the session cookie's
attributes, the Origin check of signed-in changes, sign-in throttling per address and per account, deletion
that keeps the games, guest seats taken over at sign-up, "My games", and passwords and their hashes that never
reach a log or a response."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from warcards.server.accounts import DELETED_NAME, FREE_FAILURES, AccountError, lock_seconds
from warcards.server.config import ServerConfig
from warcards.server.db import AccountRow, SeatRow, SessionRow

from .client import TEST_CONFIG, hub, lobby, peer, started_table
from .conftest import ServerProcess

OWN = {"Origin": "http://testserver"}
"""The in-process client's own page (its requests go to http://testserver)."""
PASSWORD = "correct horse battery"
CONFIG = replace(TEST_CONFIG, signin_burst=1000.0)
"""The per-address sign-in limit out of the way (its own test sets it low)."""


@contextmanager
def accounts(folder: Path, config: ServerConfig = CONFIG) -> Iterator[TestClient]:
    with lobby(folder, config) as client:
        yield client


def sign_up(client: TestClient, name: str, password: str = PASSWORD, **more: Any) -> httpx.Response:
    answer = client.post("/accounts", json={"name": name, "password": password, **more}, headers=OWN)
    assert answer.status_code == 201, answer.text
    return answer


def sign_in(client: TestClient, name: str, password: str = PASSWORD, **more: Any) -> httpx.Response:
    return client.post("/session", json={"name": name, "password": password, **more}, headers=OWN)


def store_of(client: TestClient) -> Any:
    return client.app.state.server.store  # type: ignore[attr-defined]


def account_row(client: TestClient, name_key: str) -> AccountRow:
    with store_of(client).session() as session:
        row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key))
        assert row is not None
        return row  # type: ignore[no-any-return]


def test_sign_up_sets_an_httponly_lax_session_cookie_and_me_names_the_account(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        answer = sign_up(client, "Alice")
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith("warcards_session=")
        attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
        assert {"httponly", "path", "samesite", "max-age"} <= attributes and "secure" not in attributes
        assert "samesite=lax" in cookie.lower() and "path=/" in cookie.lower()
        assert f"max-age={30 * 86400}" in cookie.lower()
        assert client.get("/me").json() == {"name": "Alice", "email": None, "notify_turns": False}
        with store_of(client).session() as session:  # the row holds the key's SHA-256, not the key
            stored = session.scalars(select(SessionRow.key_hash)).all()
        key = client.cookies["warcards_session"]
        assert len(stored) == 1 and stored[0] != key and len(stored[0]) == 64


def test_the_stored_password_is_an_argon2_hash(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        row = account_row(client, "alice")
        assert row.password_hash is not None and row.password_hash.startswith("$argon2id$")
        assert PASSWORD not in row.password_hash


def test_a_name_taken_in_another_case_is_refused(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        answer = client.post("/accounts", json={"name": "ALICE", "password": PASSWORD}, headers=OWN)
        assert answer.status_code == 409 and "taken" in answer.json()["detail"]


@pytest.mark.parametrize("password", ["short", "x" * 1025])
def test_a_password_of_the_wrong_length_gets_a_422_that_does_not_echo_it(tmp_path: Path, password: str) -> None:
    with accounts(tmp_path) as client:
        answer = client.post("/accounts", json={"name": "Bob", "password": password}, headers=OWN)
        assert answer.status_code == 422
        assert "8 to 1,024" in answer.json()["detail"] or "1024" in answer.json()["detail"]
        assert password not in answer.text


@pytest.mark.parametrize("name", ["x" * 41, "   ", "tab\there"])
def test_a_user_name_outside_the_display_name_rules_is_refused_with_a_sentence(tmp_path: Path, name: str) -> None:
    with accounts(tmp_path) as client:
        answer = client.post("/accounts", json={"name": name, "password": PASSWORD}, headers=OWN)
        assert answer.status_code == 422 and "display name" in answer.json()["detail"]
        assert client.get("/me").status_code == 401


@pytest.mark.parametrize(
    "body",
    [{"name": "Bob"}, {"name": "Bob", "password": PASSWORD, "admin": True}, {"name": 3, "password": PASSWORD},
     {"name": "Bob", "password": PASSWORD, "seats": "all"}],
)
def test_a_malformed_body_gets_a_sentence_not_an_echo(tmp_path: Path, body: dict[str, Any]) -> None:
    with accounts(tmp_path) as client:
        answer = client.post("/accounts", json=body, headers=OWN)
        assert answer.status_code == 422 and isinstance(answer.json()["detail"], str)
        assert PASSWORD not in answer.text


def test_sign_out_ends_the_session_and_its_cookie_no_longer_signs_in(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        key = client.cookies["warcards_session"]
        assert client.delete("/session", headers=OWN).status_code == 204
        assert client.get("/me").status_code == 401
        client.cookies.clear()
        client.cookies.set("warcards_session", key)
        assert client.get("/me").status_code == 401
        client.cookies.clear()
        answer = sign_in(client, "alice")
        assert answer.status_code == 200 and client.get("/me").json()["name"] == "Alice"


def test_signing_in_again_ends_the_browsers_previous_session(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        sign_up(client, "Bob")  # the same browser: Alice's session ends, Bob's begins
        assert client.get("/me").json()["name"] == "Bob"
        with store_of(client).session() as session:
            assert len(session.scalars(select(SessionRow)).all()) == 1


def test_a_wrong_password_and_an_unknown_name_get_the_same_refusal(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        client.cookies.clear()
        wrong = sign_in(client, "Alice", "not the password")
        unknown = sign_in(client, "Nobody", "not the password")
        assert wrong.status_code == unknown.status_code == 403
        assert wrong.json() == unknown.json()
        assert "warcards_session" not in client.cookies


def test_a_session_expires(tmp_path: Path) -> None:
    with accounts(tmp_path, replace(CONFIG, session_days=1 / 86400)) as client:  # one second
        sign_up(client, "Alice")
        assert client.get("/me").status_code == 200
        deadline = time.monotonic() + 30
        while client.get("/me").status_code == 200:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert client.get("/me").status_code == 401
        # The cookie can lapse in the client a moment before its row does on the server (Max-Age counts from
        # the answer's arrival): wait out the row's second too, so the sign-in finds it expired.
        time.sleep(1.1)
        assert sign_in(client, "Alice").status_code == 200
        with store_of(client).session() as session:  # the expired row went
            assert len(session.scalars(select(SessionRow)).all()) == 1


def test_the_account_flow_on_sqlite_and_postgresql(database_url: str) -> None:
    """Sign-up with a guest seat, My games, the expiry comparison, settings, deletion: on both databases."""
    from warcards.server import create_app

    with TestClient(create_app(database_url, config=CONFIG)) as client:
        table, tokens = started_table(client)
        sign_up(client, "Ålice", seats=[{"table": table, "token": tokens[1]}])
        assert client.post("/accounts", json={"name": "ÅLICE", "password": PASSWORD}, headers=OWN).status_code == 409
        assert [g["seat"] for g in client.get("/me/games").json()["running"]] == [1]
        assert client.patch("/me", json={"email": "a@example.org", "notify_turns": True}, headers=OWN).is_success
        client.cookies.clear()
        assert sign_in(client, "ålice").status_code == 200  # a second session; the first expires in 30 days
        assert client.get("/me").json() == {"name": "Ålice", "email": "a@example.org", "notify_turns": True}
        assert client.post("/me/delete", json={"password": PASSWORD}, headers=OWN).status_code == 204
        assert [s["player"] for s in client.get(f"/tables/{table}").json()["seats"]] == ["p0", DELETED_NAME]
        with store_of(client).session() as session:
            assert session.scalars(select(SessionRow)).all() == []


# ----- CSRF: the Origin check ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path", "body"),
    [("PATCH", "/me", {"notify_turns": True}), ("POST", "/me/password", {"old_password": PASSWORD,
     "new_password": "another password"}), ("POST", "/me/delete", {"password": PASSWORD}), ("DELETE", "/session", None)],
)
@pytest.mark.parametrize("origin", [None, "https://evil.example", "null"])
def test_a_signed_in_change_from_another_page_or_none_is_refused(
    tmp_path: Path, method: str, path: str, body: dict[str, Any] | None, origin: str | None
) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        headers = {"Origin": origin} if origin else {}
        answer = client.request(method, path, json=body, headers=headers)
        assert answer.status_code == 403
        assert "this server's own page" in answer.json()["detail"]
        assert client.get("/me").json() == {"name": "Alice", "email": None, "notify_turns": False}
        assert sign_in(client, "Alice").status_code == 200  # password unchanged, account still there


def test_a_signed_in_change_from_its_own_page_passes_by_origin_or_referer(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        assert client.patch("/me", json={"notify_turns": True}, headers=OWN).json()["notify_turns"] is True
        referer = {"Referer": "http://testserver/#/me"}
        answer = client.patch("/me", json={"email": "alice@example.org"}, headers=referer)
        assert answer.json() == {"name": "Alice", "email": "alice@example.org", "notify_turns": True}
        assert client.patch("/me", json={"email": "not an address"}, headers=OWN).status_code == 422


def test_sign_in_from_another_site_is_refused_and_from_a_script_passes(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        client.cookies.clear()
        body = {"name": "Alice", "password": PASSWORD}
        assert client.post("/session", json=body, headers={"Origin": "https://evil.example"}).status_code == 403
        assert client.post("/session", json=body).status_code == 200  # no Origin: a script, not a browser


def test_joining_while_signed_in_from_another_site_is_refused(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        table = client.post("/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2}).json()["id"]
        answer = client.post(f"/tables/{table}/seats/0", json={"name": "x"}, headers={"Origin": "https://evil.example"})
        assert answer.status_code == 403
        assert client.get(f"/tables/{table}").json()["seats"][0]["open"] is True


# ----- passwords, deletion ----------------------------------------------------------------------------------------
def test_changing_the_password_needs_the_old_one_and_ends_the_other_sessions(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        first = client.cookies["warcards_session"]
        client.cookies.clear()
        sign_in(client, "Alice")
        wrong = client.post("/me/password", json={"old_password": "guess guess", "new_password": "x" * 9}, headers=OWN)
        assert wrong.status_code == 403
        answer = client.post(
            "/me/password", json={"old_password": PASSWORD, "new_password": "a new passphrase"}, headers=OWN
        )
        assert answer.status_code == 204
        assert client.get("/me").status_code == 200  # this browser stays signed in
        client.cookies.clear()
        client.cookies.set("warcards_session", first)
        assert client.get("/me").status_code == 401  # the other one does not
        client.cookies.clear()
        assert sign_in(client, "Alice").status_code == 403
        assert sign_in(client, "Alice", "a new passphrase").status_code == 200


def test_deleting_an_account_keeps_its_games_under_a_neutral_name(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        table = client.post("/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2}).json()["id"]
        client.post(f"/tables/{table}/seats/1", json={"name": "p1"})
        sign_up(client, "Alice")
        client.post(f"/tables/{table}/seats/0", json={"name": "Alice"}, headers=OWN)
        assert client.get(f"/tables/{table}").json()["seats"][0]["player"] == "Alice"
        assert client.post("/me/delete", json={"password": "wrong password"}, headers=OWN).status_code == 403
        assert client.post("/me/delete", json={"password": PASSWORD}, headers=OWN).status_code == 204
        assert client.get("/me").status_code == 401
        assert client.get(f"/tables/{table}").json()["seats"][0]["player"] == DELETED_NAME
        assert [s["player"] for s in client.get(f"/tables/{table}").json()["seats"]] == [DELETED_NAME, "p1"]
        with store_of(client).session() as session:
            row = session.scalar(select(AccountRow))
            assert row is not None and row.name == DELETED_NAME and row.deleted_at is not None
            assert row.password_hash is None and row.email is None and row.unsubscribe_hash is None
            assert session.scalars(select(SessionRow)).all() == []
            assert session.scalar(select(SeatRow.account_id).where(SeatRow.seat == 0)) == row.id
        client.cookies.clear()
        assert sign_in(client, "Alice").status_code == 403
        sign_up(client, "Alice")  # the name is free again


# ----- seats ------------------------------------------------------------------------------------------------------
def test_joining_while_signed_in_seats_the_account_under_its_name(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        table = client.post("/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2}).json()["id"]
        joined = client.post(f"/tables/{table}/seats/1", json={"name": "typed"}, headers=OWN).json()
        assert client.get(f"/tables/{table}").json()["seats"][1]["player"] == "Alice"
        with store_of(client).session() as session:
            assert session.scalar(select(SeatRow.account_id).where(SeatRow.seat == 1)) is not None
        with peer(client, table, joined["token"]):  # the seat token keeps working (bots, scripts)
            pass


def test_a_guest_who_signs_up_keeps_the_seats_they_hold_and_only_those(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        mine, tokens = started_table(client)
        other, other_tokens = started_table(client)
        sign_up(client, "Bob")
        client.cookies.clear()
        answer = sign_up(client, "Alice", seats=[
            {"table": mine, "token": tokens[0]},  # her own seat
            {"table": mine, "token": "forged"},  # no seat's token
            {"table": mine, "token": other_tokens[1]},  # a token of another table's seat
            {"table": other, "token": tokens[0]},  # her token, with a table it is no seat of
            {"table": "nosuchtable", "token": tokens[0]},
        ])
        assert answer.json()["seats_taken"] == [{"table": mine, "seat": 0}]
        assert [s["player"] for s in client.get(f"/tables/{mine}").json()["seats"]] == ["Alice", "p1"]
        client.cookies.clear()
        sign_in(client, "Bob", seats=[{"table": mine, "token": tokens[0]}])  # held by Alice's account now
        with store_of(client).session() as session:
            holders = dict(session.execute(select(SeatRow.seat, SeatRow.account_id).where(SeatRow.table_id == mine)).all())
        assert holders[0] == account_row(client, "alice").id and holders[1] is None
        assert client.get("/me/games").json()["running"] == []
        with peer(client, mine, tokens[0]):  # the guest's token still plays the seat
            pass


def test_my_games_lists_your_turn_first_then_finished_games_with_their_replay(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        tables = [started_table(client) for _ in range(3)]
        held = []
        for table, tokens in tables:  # the seat NOT to move in the first table, the seat to move in the others
            mover = hub(client, table).state.current_player()
            seat = 1 - mover if table == tables[0][0] else mover
            held.append({"table": table, "token": tokens[seat]})
        sign_up(client, "Alice", seats=held)
        finished, finished_tokens = tables[2]
        client.post(f"/tables/{finished}/leave", headers={"Authorization": f"Bearer {finished_tokens[0]}"})
        games = client.get("/me/games").json()
        assert [g["table"] for g in games["running"]][-1] == tables[0][0]
        assert [g["your_turn"] for g in games["running"]] == [True, False]
        assert games["running"][0]["players"][games["running"][0]["seat"]] == "Alice"
        assert games["running"][0]["link"] == f"#/table/{tables[1][0]}"
        [done] = games["finished"]
        assert done["table"] == finished and done["status"] == "finished" and done["result"]["reason"]
        assert done["link"] == f"#/replay/{finished}/{done['seat']}" and done["won"] is (done["seat"] == 1)
        client.cookies.clear()  # another browser, signed in: the same games
        assert client.get("/me/games").status_code == 401
        sign_in(client, "Alice")
        assert client.get("/me/games").json() == games


def test_another_browser_signed_in_gets_a_token_that_plays_the_accounts_seat(tmp_path: Path) -> None:
    with accounts(tmp_path) as client:
        table, tokens = started_table(client)
        other, _ = started_table(client)
        sign_up(client, "Alice", seats=[{"table": table, "token": tokens[0]}])
        kept = client.post(f"/me/games/{table}/token", json={"token": tokens[0]}, headers=OWN).json()
        assert kept["seat"] == 0 and kept["token"] == tokens[0]  # still the seat's: kept, nothing replaced
        client.cookies.clear()
        sign_in(client, "Alice")  # a second browser: no token
        fresh = client.post(f"/me/games/{table}/token", json={}, headers=OWN).json()
        assert fresh["seat"] == 0 and fresh["token"] != tokens[0]
        with peer(client, table, fresh["token"]) as connection:
            assert connection.received[0]["seat"] == 0
        with client.websocket_connect(f"/tables/{table}/ws") as socket:  # the replaced token: no longer the seat
            socket.send_text(json.dumps({"type": "hello", "token": tokens[0]}))
            assert socket.receive_json()["code"] == "bad_token"
        refused = client.post(f"/me/games/{other}/token", json={}, headers=OWN)
        assert refused.status_code == 404 and "holds no seat" in refused.json()["detail"]


# ----- throttling -------------------------------------------------------------------------------------------------
def test_failed_sign_ins_lock_the_account_for_a_growing_while(tmp_path: Path) -> None:
    """Measured: FREE_FAILURES failures in a row cost nothing; then each locks the account's sign-in for
    1 s, 2 s, 4 s … up to 15 minutes (asserted loosely), even the right password waits the lock out, tries
    during it are not counted, and a success clears the count."""
    with accounts(tmp_path) as client:
        sign_up(client, "Alice")
        client.cookies.clear()

        def locked_until() -> float | None:
            return account_row(client, "alice").locked_until

        for _ in range(FREE_FAILURES):
            assert sign_in(client, "Alice", "wrong password").status_code == 403
            assert locked_until() is None
        deadline = time.monotonic() + 120
        locks = []
        for _ in range(2):  # the 5th and the 6th failure in a row: locked 1 s, then 2 s from their answer
            while True:
                sent = time.time()
                answer = sign_in(client, "Alice", "wrong password")
                if answer.status_code != 429:  # a try during the lock is refused and not counted
                    break
                assert time.monotonic() < deadline and "try again in" in answer.json()["detail"]
                time.sleep(0.1)
            assert answer.status_code == 403
            until = locked_until()
            assert until is not None
            locks.append(until - sent)  # at least the lock; at most the lock and the request's own time
        assert locks[0] >= 1.0 and locks[1] >= 2.0 and locks[1] - 2.0 < 30
        assert account_row(client, "alice").failed_signins == FREE_FAILURES + 2
        server = client.app.state.server  # type: ignore[attr-defined]
        with pytest.raises(AccountError) as refused:  # during the lock even the right password waits
            server.accounts.sign_in("Alice", PASSWORD, given_at=until - 0.5)
        assert refused.value.status == 429 and refused.value.retry_after == pytest.approx(0.5)
        while (answer := sign_in(client, "Alice", PASSWORD)).status_code == 429:
            assert time.monotonic() < deadline and 1 <= int(answer.headers["Retry-After"]) <= 2
            time.sleep(0.1)
        assert answer.status_code == 200
        assert account_row(client, "alice").failed_signins == 0 and locked_until() is None
        assert [lock_seconds(n) for n in range(FREE_FAILURES + 1, FREE_FAILURES + 5)] == [1.0, 2.0, 4.0, 8.0]
        assert lock_seconds(FREE_FAILURES + 11) == 15 * 60 and lock_seconds(10**6) == 15 * 60


def test_sign_ins_from_one_address_are_limited(tmp_path: Path) -> None:
    with accounts(tmp_path, replace(CONFIG, signin_burst=3.0, signin_rate=0.001)) as client:
        answers = [sign_in(client, f"nobody{n}", "whatever pass").status_code for n in range(4)]
        assert answers == [403, 403, 403, 429]
        refused = client.post("/accounts", json={"name": "Carol", "password": PASSWORD}, headers=OWN)
        assert refused.status_code == 429 and "--signin-rate" in refused.json()["detail"]
        assert "Retry-After" in refused.headers


# ----- the authorization matrix of the account routes ------------------------------------------------------------
ROUTES = [
    ("GET", "/me", None), ("PATCH", "/me", {"email": "x@example.org"}), ("GET", "/me/games", None),
    ("POST", "/me/password", {"old_password": PASSWORD, "new_password": "taken over"}),
    ("POST", "/me/delete", {"password": PASSWORD}), ("POST", "/me/games/TABLE/token", {}),
]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES)
@pytest.mark.parametrize("who", ["no session", "another account", "guest seat token", "bot token", "spectator"])
def test_authorization_matrix_of_the_account_routes(
    tmp_path: Path, method: str, path: str, body: dict[str, Any] | None, who: str
) -> None:
    """Nobody reads another account's data, changes its settings or password, or deletes it: without a
    session every account route is 401; with another account's session it acts on that account only."""
    with accounts(tmp_path) as client:
        table, tokens = started_table(client)
        sign_up(client, "Alice", seats=[{"table": table, "token": tokens[0]}])
        client.patch("/me", json={"email": "alice@example.org"}, headers=OWN)
        client.cookies.clear()
        headers = dict(OWN)
        if who == "another account":
            sign_up(client, "Mallory")
        elif who == "guest seat token":
            headers["Authorization"] = f"Bearer {tokens[1]}"
        elif who == "bot token":
            bots = client.post("/tables", json={"game": "cards-of-war", "seats": [{"kind": "bot", "level": "random"}] * 2})
            bot_tokens = client.app.state.server.store.new_bot_tokens(bots.json()["id"])  # type: ignore[attr-defined]
            headers["Authorization"] = f"Bearer {bot_tokens[0]}"
        answer = client.request(method, path.replace("TABLE", table), json=body, headers=headers)
        if who == "another account":
            assert "alice" not in answer.text.lower()
            assert answer.status_code == 404 or "TABLE" not in path  # no token of Alice's seat
        else:
            assert answer.status_code == 401 and "sign in first" in answer.json()["detail"]
        client.cookies.clear()
        assert sign_in(client, "Alice").status_code == 200
        assert client.get("/me").json()["email"] == "alice@example.org"
        assert client.get("/me/games").json()["running"][0]["table"] == table
        with peer(client, table, tokens[0]) as connection:  # Alice's seat token was not replaced
            assert connection.received[0]["seat"] == 0


# ----- a real server: nothing leaks into its log or its answers, Secure over https ---------------------------------
def test_the_password_and_its_hash_are_never_in_the_log_or_an_answer(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.sqlite3'}", tmp_path)
    server.start()
    answers: list[httpx.Response] = []
    new_password = "a second secret phrase"
    try:
        with httpx.Client(base_url=server.http, headers={"Origin": server.http}, timeout=30) as client:
            def call(method: str, path: str, body: Any = None) -> httpx.Response:
                answers.append(client.request(method, path, json=body))
                return answers[-1]

            table = call("POST", "/tables", {"game": "cards-of-war", "seats": [{"kind": "person"}] * 2}).json()["id"]
            call("POST", "/accounts", {"name": "Alice", "password": PASSWORD})
            call("POST", "/accounts", {"name": "Bob", "password": "x" * 1025})
            call("POST", f"/tables/{table}/seats/0", {"name": "Alice"})
            call("GET", "/me")
            call("GET", "/me/games")
            call("DELETE", "/session")
            call("POST", "/session", {"name": "Alice", "password": PASSWORD + "!"})
            call("POST", "/session", {"name": "Alice", "password": PASSWORD})
            call("POST", "/me/password", {"old_password": PASSWORD, "new_password": new_password})
            with httpx.Client() as raw:
                secure = raw.post(
                    f"{server.http}/session", json={"name": "Alice", "password": new_password},
                    headers={"X-Forwarded-Proto": "https", "Origin": server.http},
                )
            answers.append(secure)
            from warcards.server.db import Store

            store = Store(server.database)
            with store.session() as session:
                hashes = [h for h in session.scalars(select(AccountRow.password_hash)).all() if h]
            store.close()
            call("POST", "/me/delete", {"password": new_password})
    finally:
        server.stop()
    assert secure.status_code == 200 and "secure" in secure.headers["set-cookie"].lower()
    assert "secure" not in answers[1].headers["set-cookie"].lower()  # plain http: no Secure
    assert [a.status_code for a in answers[:3]] == [201, 201, 422]
    assert hashes and all(h.startswith("$argon2id$") for h in hashes)
    log = server.log()
    assert "/accounts" in log and "/me/password" in log  # the requests were logged
    for secret in [PASSWORD, new_password, "x" * 1025, *hashes, *[h.split("$")[-1] for h in hashes]]:
        assert secret not in log
        for answer in answers:
            assert secret not in answer.text and secret not in str(answer.headers)
