"""The "another account" rows of the authorization matrices (issue 33, "Tests and figures"), on a real
`warcards serve` with real HTTP requests and WebSockets: Mallory, signed in with an account of her own,
cannot read Alice's private data (her settings, her games, her seats' tokens), change Alice's settings,
password or account, claim or leave Alice's seat, act, resign, chat, mute or rematch as Alice, whether
Mallory watches Alice's table or holds the other seat of it. The other identities of each matrix (no
session, a guest's or a bot's token, a spectator) are in test_accounts.py, test_ratings.py and
test_edges.py."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from warcards.server.routes.accounts import COOKIE

from .conftest import ServerProcess

ALICE_PASSWORD = "alice's own passphrase"
MALLORY_PASSWORD = "mallory's passphrase"
ANSWER_SECONDS = 60
"""How long a frame may take to come (the machine may be loaded)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One real server for the module (each test makes its own accounts and tables); sign-ups not limited."""
    folder = tmp_path_factory.mktemp("another-account")
    started = ServerProcess(f"sqlite:///{folder / 'server.sqlite3'}", folder, "--signin-burst", "1000")
    started.start()
    try:
        yield started
    finally:
        started.stop()


def browser(server: ServerProcess) -> httpx.Client:
    """An HTTP client as this server's own page is one: its cookies kept, its Origin sent."""
    return httpx.Client(base_url=server.http, headers={"Origin": server.http}, timeout=30)


@dataclass
class Person:
    """A signed-in account: its name and its browser (the session cookie in it)."""

    name: str
    client: httpx.Client
    tokens: dict[str, str] = field(default_factory=dict)
    """The seat tokens it was given, by table."""

    def join(self, table: str, seat: int) -> str:
        answer = self.client.post(f"/tables/{table}/seats/{seat}", json={"name": self.name})
        assert answer.status_code == 200, answer.text
        self.tokens[table] = answer.json()["token"]
        return self.tokens[table]


def sign_up(server: ServerProcess, name: str, password: str) -> Person:
    client = browser(server)
    answer = client.post("/accounts", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return Person(name, client)


@pytest.fixture
def alice_and_mallory(server: ServerProcess) -> Iterator[tuple[Person, Person]]:
    """Alice (an email set, turn emails on) and Mallory, each signed in in a browser of her own."""
    suffix = secrets.token_hex(3)
    alice = sign_up(server, f"Alice{suffix}", ALICE_PASSWORD)
    mallory = sign_up(server, f"Mallory{suffix}", MALLORY_PASSWORD)
    changed = alice.client.patch("/me", json={"email": "alice@example.org", "notify_turns": True})
    assert changed.status_code == 200, changed.text
    try:
        yield alice, mallory
    finally:
        alice.client.close()
        mallory.client.close()


def new_table(person: Person, seats: list[dict[str, Any]], rated: bool = False) -> str:
    answer = person.client.post(
        "/tables", json={"game": "cards-of-war", "seats": seats, "rated": rated, "public": False}
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def alices_table(alice: Person) -> str:
    """Alice against a bot: a table Mallory has no seat at."""
    table = new_table(alice, [{"kind": "person"}, {"kind": "bot", "level": "random"}])
    alice.join(table, 0)
    return table


def shared_rated_table(alice: Person, mallory: Person) -> str:
    """A rated table, Alice in seat 0 and Mallory in seat 1: started."""
    table = new_table(alice, [{"kind": "person"}] * 2, rated=True)
    alice.join(table, 0)
    mallory.join(table, 1)
    return table


class Socket:
    """One WebSocket connection past its hello; keeps what it received."""

    def __init__(self, socket: ClientConnection, token: str | None) -> None:
        self.socket = socket
        self.received: list[dict[str, Any]] = []
        self.send(type="hello", token=token, last_seen=0, chat=True)
        self.welcome = self.until("welcome", "error")

    def send(self, **message: Any) -> None:
        self.socket.send(json.dumps({"protocol": 1, **message}))

    def receive(self) -> dict[str, Any]:
        message = json.loads(self.socket.recv(timeout=ANSWER_SECONDS))
        self.received.append(message)
        return dict(message)

    def until(self, *kinds: str) -> dict[str, Any]:
        while True:
            message = self.receive()
            if message["type"] in kinds:
                return message

    def answer_to(self, client_id: str) -> dict[str, Any]:
        """The ack or refusal of message `client_id`."""
        while True:
            message = self.receive()
            if message.get("id") == client_id and message["type"] in ("ack", "refused"):
                return message



@contextmanager
def opened(server: ServerProcess, table: str, token: str | None, cookie: str | None = None) -> Iterator[Socket]:
    """A connection as a browser's: its Origin and, given, its session cookie."""
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    with connect(
        f"{server.ws}/tables/{table}/ws", origin=server.http,  # type: ignore[arg-type]
        additional_headers=headers, open_timeout=ANSWER_SECONDS, max_size=None,
    ) as socket:
        yield Socket(socket, token)


def cookie_of(person: Person) -> str:
    return str(person.client.cookies[COOKIE])


def table_state(server: ServerProcess, table: str) -> tuple[str, list[Any], Any]:
    """What a refused message must leave as it was: the status, the seats (who holds each) and the result."""
    info = server.get_json(f"/tables/{table}")
    return info["status"], [(seat["player"], seat["open"]) for seat in info["seats"]], info.get("result")


# ----- REST ---------------------------------------------------------------------------------------------------
def test_another_account_reads_only_its_own_account_and_games(
    server: ServerProcess, alice_and_mallory: tuple[Person, Person]
) -> None:
    alice, mallory = alice_and_mallory
    table = alices_table(alice)
    me = mallory.client.get("/me")
    assert me.status_code == 200 and me.json()["name"] == mallory.name and me.json()["email"] is None
    games = mallory.client.get("/me/games")
    assert games.status_code == 200 and games.json() == {"running": [], "finished": []}
    for answer in (me, games):
        assert alice.name not in answer.text and "alice@example.org" not in answer.text and table not in answer.text
    assert [game["table"] for game in alice.client.get("/me/games").json()["running"]] == [table]


def test_another_account_gets_no_token_of_alices_seat_and_hers_keeps_working(
    server: ServerProcess, alice_and_mallory: tuple[Person, Person]
) -> None:
    alice, mallory = alice_and_mallory
    table = alices_table(alice)
    for body in ({}, {"token": None}, {"token": "x" * 32}):
        answer = mallory.client.post(f"/me/games/{table}/token", json=body)
        assert answer.status_code == 404 and "holds no seat" in answer.json()["detail"]
    shared = shared_rated_table(alice, mallory)
    own = mallory.client.post(f"/me/games/{shared}/token", json={}).json()  # her own seat there, never Alice's
    assert own["seat"] == 1 and own["token"] != alice.tokens[shared]
    for where in (table, shared):
        with opened(server, where, alice.tokens[where]) as connection:
            assert connection.welcome["type"] == "welcome" and connection.welcome["seat"] == 0


def test_another_account_changes_only_its_own_settings_password_and_account(
    server: ServerProcess, alice_and_mallory: tuple[Person, Person]
) -> None:
    alice, mallory = alice_and_mallory
    before = alice.client.get("/me").json()
    changed = mallory.client.patch("/me", json={"email": "mallory@example.org", "notify_turns": False})
    assert changed.status_code == 200 and changed.json()["name"] == mallory.name
    taken = mallory.client.post("/me/password", json={"old_password": ALICE_PASSWORD, "new_password": "taken over!"})
    assert taken.status_code == 403
    deleted = mallory.client.post("/me/delete", json={"password": ALICE_PASSWORD})
    assert deleted.status_code == 403
    assert mallory.client.get("/me").json()["name"] == mallory.name  # Mallory's own account is still there
    assert alice.client.get("/me").json() == before  # Alice's session, email and turn emails as they were
    again = browser(server)
    assert again.post("/session", json={"name": alice.name, "password": ALICE_PASSWORD}).status_code == 200
    again.close()


def test_another_account_cannot_claim_leave_or_read_alices_seat(
    server: ServerProcess, alice_and_mallory: tuple[Person, Person]
) -> None:
    alice, mallory = alice_and_mallory
    table = alices_table(alice)
    shared = shared_rated_table(alice, mallory)
    before = {where: table_state(server, where) for where in (table, shared)}
    for where in (table, shared):
        taken = mallory.client.post(f"/tables/{where}/seats/0", json={"name": alice.name})
        assert taken.status_code == 409 and "not open" in taken.json()["detail"]
    assert mallory.client.post(f"/tables/{table}/leave").status_code == 401  # a session is no seat token
    wrong = mallory.client.post(f"/tables/{table}/leave", headers={"Authorization": f"Bearer {mallory.tokens[shared]}"})
    assert wrong.status_code == 403
    assert mallory.client.get(f"/tables/{table}/record").status_code == 409
    record = mallory.client.get(f"/tables/{table}/record", headers={"Authorization": f"Bearer {mallory.tokens[shared]}"})
    assert record.status_code == 403
    own = mallory.client.get(f"/tables/{shared}/record", headers={"Authorization": f"Bearer {mallory.tokens[shared]}"})
    assert own.status_code == 200 and own.json()["seat"] == 1  # her own seat's record, not Alice's
    # Signing in again "with" Alice's seats (a made-up token, and Mallory's own token offered for seat 0's table)
    # takes over nothing: a seat an account holds is never handed to another.
    offered = [{"table": table, "token": "x" * 32}, {"table": shared, "token": mallory.tokens[shared]}]
    signed = mallory.client.post("/session", json={"name": mallory.name, "password": MALLORY_PASSWORD, "seats": offered})
    assert signed.status_code == 200, signed.text
    assert {where: table_state(server, where) for where in (table, shared)} == before
    assert [game["table"] for game in mallory.client.get("/me/games").json()["running"]] == [shared]


def test_another_accounts_profile_and_leaderboard_reads_are_everyones_and_show_nothing_private(
    server: ServerProcess, alice_and_mallory: tuple[Person, Person]
) -> None:
    alice, mallory = alice_and_mallory
    shared = shared_rated_table(alice, mallory)
    left = mallory.client.post(f"/tables/{shared}/leave", headers={"Authorization": f"Bearer {mallory.tokens[shared]}"})
    assert left.status_code == 200  # Mallory resigns: the rated game ends, both ratings move once
    for path in (f"/players/{alice.name}", "/leaderboard/cards-of-war"):
        signed_in = mallory.client.get(path)
        anonymous = httpx.get(f"{server.http}{path}", timeout=30)
        assert signed_in.status_code == 200 and signed_in.json() == anonymous.json()
        assert "alice@example.org" not in signed_in.text and alice.tokens[shared] not in signed_in.text
    assert mallory.client.get(f"/players/{alice.name}").json()["games"] == 1


# ----- the WebSocket ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["act", "resign", "chat", "mute", "rematch"])
def test_another_account_watching_alices_table_is_a_spectator_whatever_its_cookie(
    server: ServerProcess, alice_and_mallory: tuple[Person, Person], kind: str
) -> None:
    """Mallory's session cookie on Alice's table's WebSocket makes her no seat: a spectator (the table's
    token is the only seat credential), and a token of her own other table is closed at hello."""
    alice, mallory = alice_and_mallory
    table = alices_table(alice)
    shared = shared_rated_table(alice, mallory)
    with opened(server, table, mallory.tokens[shared], cookie_of(mallory)) as closed:
        assert closed.welcome == {**closed.welcome, "type": "error", "code": "bad_token"}
        with pytest.raises(ConnectionClosed):
            closed.receive()
    before = table_state(server, table)
    message = {
        "act": {"type": "act", "id": "m", "answers": 0, "action": 0},
        "resign": {"type": "resign", "id": "m"},
        "chat": {"type": "chat", "id": "m", "text": "hello"},
        "mute": {"type": "mute", "id": "m", "seat": 0, "muted": True},
        "rematch": {"type": "rematch", "id": "m", "accept": True},
    }[kind]
    with opened(server, table, None, cookie_of(mallory)) as watcher:
        assert watcher.welcome["seat"] is None
        watcher.send(**message)
        answer = watcher.answer_to("m")
    assert answer.get("code", answer["type"]) == ("ack" if kind == "chat" else "spectator"), answer
    assert table_state(server, table)[:2] == before[:2] and table_state(server, table)[2] is None
    with opened(server, table, alice.tokens[table]) as seated:  # Alice: her seat, no mute of hers, no chat as her
        chat_log = seated.until("chat_log")
        assert seated.welcome["seat"] == 0 and chat_log["muted"] == []
    assert all(said["from"] is None and said["name"] != alice.name for said in chat_log["messages"])


def test_another_account_at_the_other_seat_acts_chats_mutes_and_rematches_only_as_itself(
    server: ServerProcess, alice_and_mallory: tuple[Person, Person]
) -> None:
    alice, mallory = alice_and_mallory
    shared = shared_rated_table(alice, mallory)
    with opened(server, shared, alice.tokens[shared]) as hers:
        with opened(server, shared, mallory.tokens[shared], cookie_of(mallory)) as mine:
            assert (hers.welcome["seat"], mine.welcome["seat"]) == (0, 1)
            assert server.get_json(f"/tables/{shared}")["status"] == "playing"
            # Mallory's seat plays only seat 1's moves: her own turn's moves pass, a move on Alice's turn is refused.
            refused = None
            for number in range(20):
                own = mallory.client.get(f"/tables/{shared}/record", headers={"Authorization": f"Bearer {mallory.tokens[shared]}"})
                legal, events = own.json()["view"].get("legal"), len(own.json()["events"])
                mine.send(type="act", id=f"move{number}", answers=events, action=legal[0]["action"] if legal else 0)
                answer = mine.answer_to(f"move{number}")
                if not legal:
                    refused = answer
                    break
                assert answer["type"] == "ack", answer
            assert refused is not None and refused["code"] == "not_your_turn", refused
            # Chat: Mallory's message is hers (seat 1, her name); her mute of Alice is her own, not Alice's.
            mine.send(type="chat", id="c1", text="hi from the other seat")
            assert mine.answer_to("c1")["type"] == "ack"
            said = hers.until("chat")
            assert (said["from"], said["name"]) == (1, mallory.name)
            mine.send(type="mute", id="mute-alice", seat=0, muted=True)
            assert mine.answer_to("mute-alice")["type"] == "ack"
        with opened(server, shared, alice.tokens[shared]) as again:
            assert again.until("chat_log")["muted"] == []  # Alice mutes nobody: Mallory's mute is Mallory's

        # After the end, Mallory's "Play again" accepts for seat 1 only: the rematch waits for Alice.
        resigned = mallory.client.post(f"/tables/{shared}/leave", headers={"Authorization": f"Bearer {mallory.tokens[shared]}"})
        assert resigned.status_code == 200 and server.get_json(f"/tables/{shared}")["result"]["winners"] == [0]
        hers.until("end")
        with opened(server, shared, mallory.tokens[shared], cookie_of(mallory)) as mine:
            mine.send(type="rematch", id="again", accept=True)
            assert mine.answer_to("again")["type"] == "ack"
            proposed = hers.until("rematch")
            assert proposed["status"] == "proposed" and proposed["accepted"] == [1] and proposed["waiting"] == [0]
            assert proposed.get("token") is None  # no seat of a rematch handed to Alice's page
