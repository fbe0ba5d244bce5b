"""Turn notices by email through a real server and a real SMTP server in process (`aiosmtpd`): one email per
turn for an opted-in account at a correspondence table, none twice (reconnects, restarts, two processes
racing), none for an account that did not opt in or without `--smtp`, a link that opens the table, a one-click
unsubscribe that stops them, and an SMTP server that hangs never delaying an act."""

from __future__ import annotations

import asyncio
import contextlib
import email
import json
import re
import secrets
import socket
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select, update
from websockets.sync.client import connect

from warcards.server.accounts import HASHER
from warcards.server.db import AccountRow, SeatRow, Store, now
from warcards.server.mail import (
    Mailer,
    MailSettings,
    mail_settings,
    parse_smtp_url,
)
from warcards.server.notices import NoticeRow, claim_notices, queue_notice, unsubscribe
from warcards.server.pgcluster import free_port

from .conftest import ServerProcess

DAY_A_MOVE = {"kind": "move", "seconds": 86400, "on_timeout": "forfeit"}
DEADLINE = 60.0
"""Seconds to wait for something that should happen at once (a loaded machine may be slow)."""


# ----- the pieces: an inbox, accounts, moves --------------------------------------------------------------------
class Inbox:
    """What an in-process SMTP server (aiosmtpd) received, each message parsed."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.original_content or envelope.content, policy=policy.default)
        with self.lock:
            self.messages.append(message)  # type: ignore[arg-type]
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if address in str(m["To"])]

    def wait_for(self, address: str, count: int) -> list[EmailMessage]:
        """The messages to `address` once there are `count` (fails after `DEADLINE` seconds)."""
        deadline = time.monotonic() + DEADLINE
        while len(self.to(address)) < count:
            assert time.monotonic() < deadline, f"{len(self.to(address))} emails to {address}, not {count}"
            time.sleep(0.05)
        return self.to(address)


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server on a free loopback port (its own thread and event loop), and its port."""
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def add_account(store: Store, name: str, address: str | None, notify: bool) -> str:
    """An account as the accounts' settings route leaves it (set directly in the store)."""
    account_id = secrets.token_hex(8)
    with store.session() as session:
        session.add(AccountRow(
            id=account_id, name=name, name_key=name.lower(), email=address, notify_turns=notify,
            failed_signins=0, created_at=now(), password_hash=PASSWORD_HASH,
        ))
    return account_id


PASSWORD = "correct horse battery staple"
PASSWORD_HASH = HASHER.hash(PASSWORD)
"""Every test account's password (its argon2 hash made once): a seat is joined signed in, as a player would."""


def join_signed_in(server: ServerProcess, store: Store, table: str, seat: int, account_id: str) -> str:
    """Join `seat` as the account (sign in, then take the seat with the session cookie): its token."""
    with store.session() as session:
        name = session.scalar(select(AccountRow.name).where(AccountRow.id == account_id))
    with httpx.Client(base_url=server.http, headers={"Origin": server.http}, timeout=60) as client:
        signed = client.post("/session", json={"name": name, "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        joined = client.post(f"/tables/{table}/seats/{seat}", json={"name": "ignored when signed in"})
        assert joined.status_code == 200, joined.text
        return str(joined.json()["token"])


def hold_seat(store: Store, table: str, seat: int, account_id: str) -> None:
    with store.session() as session:
        session.execute(
            update(SeatRow).where(SeatRow.table_id == table, SeatRow.seat == seat).values(account_id=account_id)
        )


def set_notify(store: Store, account_id: str, notify: bool) -> None:
    with store.session() as session:
        session.execute(update(AccountRow).where(AccountRow.id == account_id).values(notify_turns=notify))


def notify_turns(store: Store, account_id: str) -> bool:
    with store.session() as session:
        return bool(session.scalar(select(AccountRow.notify_turns).where(AccountRow.id == account_id)))


def notices(store: Store, table: str) -> list[tuple[int, int, str]]:
    """The table's notices: (seat, turn event, status)."""
    with store.session() as session:
        rows = session.execute(
            select(NoticeRow.seat, NoticeRow.event_no, NoticeRow.status)
            .where(NoticeRow.table_id == table).order_by(NoticeRow.event_no)
        ).all()
    return [(seat, event_no, status) for seat, event_no, status in rows]


def view_of(server: ServerProcess, table: str, token: str) -> dict[str, Any]:
    """A fresh connection's view of the table (a reconnect: hello, the welcome, the view; then closed)."""
    with connect(f"{server.ws}/tables/{table}/ws", max_size=None) as socket_:
        socket_.send(json.dumps({"protocol": 1, "type": "hello", "token": token}))
        while True:
            message = dict(json.loads(socket_.recv(timeout=DEADLINE)))
            if message["type"] == "view":
                return message


def move(server: ServerProcess, table: str, tokens: list[str]) -> tuple[int, int | None, float]:
    """The seat to move makes its first legal move over a connection of its own: (that seat, the seat to move
    after it, the seconds from sending the act to its ack)."""
    view = view_of(server, table, tokens[0])
    seat = view["to_move"]
    assert seat is not None, "the game is over"
    with connect(f"{server.ws}/tables/{table}/ws", max_size=None) as socket_:
        socket_.send(json.dumps({"protocol": 1, "type": "hello", "token": tokens[seat]}))
        while (message := json.loads(socket_.recv(timeout=DEADLINE)))["type"] != "view":
            pass
        sent = time.monotonic()
        socket_.send(json.dumps({
            "protocol": 1, "type": "act", "id": f"m{message['event_no']}", "answers": message["event_no"],
            "action": message["legal"][0]["action"],
        }))
        next_seat = None
        while True:
            answer = json.loads(socket_.recv(timeout=DEADLINE))
            if answer["type"] == "event":
                next_seat = answer["to_move"]
            if answer["type"] in ("ack", "refused"):
                assert answer["type"] == "ack", answer
                return seat, next_seat, time.monotonic() - sent


def move_until_turn_of(server: ServerProcess, table: str, tokens: list[str], seat: int) -> None:
    """Moves until a move of another seat makes it `seat`'s turn (a new turn: not its own turn going on)."""
    for _ in range(200):
        mover, after, _ = move(server, table, tokens)
        if mover != seat and after == seat:
            return
    raise AssertionError(f"seat {seat}'s turn never came")


def first_turn_of(server: ServerProcess, table: str, tokens: list[str], seat: int) -> None:
    """Until `seat`'s first turn: the game's first (its first seat to act), or the first that a move makes."""
    if view_of(server, table, tokens[0])["to_move"] != seat:
        move_until_turn_of(server, table, tokens, seat)


def correspondence_table(server: ServerProcess, store: Store, accounts: list[str]) -> tuple[str, list[str]]:
    """A two-person Cards of War table at a day a move, each seat held by an account, both joined (started)."""
    table = server.post("/tables", {
        "game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "person"}], "timer": DAY_A_MOVE,
    })["id"]
    tokens = [join_signed_in(server, store, table, seat, account_id) for seat, account_id in enumerate(accounts)]
    return table, tokens


@contextlib.contextmanager
def served_with_smtp(folder: Path, smtp: str, *flags: str) -> Iterator[tuple[ServerProcess, Store]]:
    """A real server on its own SQLite file sending through `smtp`, and a store on the same file."""
    database = f"sqlite:///{folder / 'mail.sqlite3'}"
    server = ServerProcess(database, folder)
    server.args = ("--smtp", smtp, "--public-url", server.http, *flags)
    server.start()
    store = Store(database)
    try:
        yield server, store
    finally:
        store.close()
        server.stop()


@pytest.fixture
def mail_server(tmp_path: Path, inbox: tuple[Inbox, int]) -> Iterator[tuple[ServerProcess, Store, Inbox]]:
    """A real server sending through the in-process SMTP server."""
    handler, port = inbox
    with served_with_smtp(tmp_path, f"smtp://127.0.0.1:{port}", "--mail-from", "turns@example.org") as (server, store):
        yield server, store, handler


def wait_until(condition: Callable[[], bool], shown: Callable[[], object] = lambda: "") -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"it never happened: {shown()}"
        time.sleep(0.05)


def link_in(message: EmailMessage, pattern: str) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    found = re.search(pattern, body.get_content())
    assert found is not None, body.get_content()
    return found.group(0)


# ----- through a real server -------------------------------------------------------------------------------------
def test_a_move_emails_the_opted_in_player_whose_turn_it_became_once_per_turn(
    mail_server: tuple[ServerProcess, Store, Inbox],
) -> None:
    server, store, inbox = mail_server
    quiet = add_account(store, "Quiet", "quiet@example.org", notify=False)
    keen = add_account(store, "Keen", "keen@example.org", notify=True)
    table, tokens = correspondence_table(server, store, [quiet, keen])

    first_turn_of(server, table, tokens, 1)
    [first] = inbox.wait_for("keen@example.org", 1)
    assert first["Subject"] == "Your turn in cards-of-war"
    assert first["From"].addresses[0].addr_spec == "turns@example.org"
    link = link_in(first, r"http://\S+/#/table/\S+")
    assert link == f"{server.http}/#/table/{table}"
    page = httpx.get(link, timeout=30)  # the page (the fragment routes it to the table) and the table it names
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert httpx.get(f"{server.http}/tables/{link.rsplit('/', 1)[1]}", timeout=30).json()["id"] == table

    # A reconnect and a restart (which resumes the table, asking for the turn's notice again) send nothing more:
    # the next email is the next turn's.
    view_of(server, table, tokens[1])
    server.stop()
    server.start()
    move_until_turn_of(server, table, tokens, 1)
    second = inbox.wait_for("keen@example.org", 2)[1]
    assert len(inbox.to("keen@example.org")) == 2 and inbox.to("quiet@example.org") == []
    wait_until(
        lambda: [(seat, status) for seat, _, status in notices(store, table)] == [(1, "sent"), (1, "sent")],
        lambda: notices(store, table),
    )

    # One click on the newest email's link (the first's works as well) stops them.
    leave = link_in(second, r"http://\S+/unsubscribe/\S+")
    assert str(second["List-Unsubscribe"]).strip() == f"<{leave}>"  # (folded: the link is long)
    assert second["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    opened = httpx.get(leave, timeout=30)  # what a mail scanner does: nothing changes
    assert opened.status_code == 200 and "Unsubscribe</button>" in opened.text and notify_turns(store, keen)
    answer = httpx.post(leave, content="List-Unsubscribe=One-Click", timeout=30,
                        headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 200 and "unsubscribed" in answer.text
    assert not notify_turns(store, keen)

    # Quiet opts in: Quiet's turns are emailed, Keen's turn between them sends nothing.
    set_notify(store, quiet, True)
    move_until_turn_of(server, table, tokens, 0)
    inbox.wait_for("quiet@example.org", 1)  # (before Quiet moves: a notice whose turn has passed is skipped)
    move_until_turn_of(server, table, tokens, 1)
    move_until_turn_of(server, table, tokens, 0)
    inbox.wait_for("quiet@example.org", 2)
    assert len(inbox.to("keen@example.org")) == 2
    assert [seat for seat, _, _ in notices(store, table)] == [1, 1, 0, 0]


def test_no_email_and_the_features_say_so_without_smtp(sqlite_server: ServerProcess) -> None:
    features = sqlite_server.get_json("/features")
    assert features["turn_emails"] is False and "sends no email" in features["turn_emails_note"]
    store = Store(sqlite_server.database)
    try:
        keen = add_account(store, f"Keen {secrets.token_hex(3)}", "keen@example.org", notify=True)
        quiet = add_account(store, f"Quiet {secrets.token_hex(3)}", "quiet@example.org", notify=True)
        table, tokens = correspondence_table(sqlite_server, store, [quiet, keen])
        move_until_turn_of(sqlite_server, table, tokens, 1)
        move_until_turn_of(sqlite_server, table, tokens, 0)
        assert notices(store, table) == []
    finally:
        store.close()


def test_the_features_say_turn_emails_are_sent_with_smtp(mail_server: tuple[ServerProcess, Store, Inbox]) -> None:
    features = mail_server[0].get_json("/features")
    assert features["turn_emails"] is True and features["correspondence_seconds"] == 86400


def test_a_table_with_a_short_timer_sends_no_email(mail_server: tuple[ServerProcess, Store, Inbox]) -> None:
    """Only correspondence tables (a day or more a move) are notified: a live game's player is at the table."""
    server, store, inbox = mail_server
    keen = add_account(store, "Keen", "keen@example.org", notify=True)
    other = add_account(store, "Other", "other@example.org", notify=True)
    table = server.post("/tables", {
        "game": "cards-of-war", "seats": [{"kind": "person"}, {"kind": "person"}],
        "timer": {"kind": "move", "seconds": 3600, "on_timeout": "forfeit"},
    })["id"]
    hold_seat(store, table, 0, other)
    hold_seat(store, table, 1, keen)
    tokens = [server.post(f"/tables/{table}/seats/{seat}", {"name": f"p{seat}"})["token"] for seat in range(2)]
    move_until_turn_of(server, table, tokens, 1)
    # The correspondence table made after it gets its email; by then the short one's would have come first.
    table2, tokens2 = correspondence_table(server, store, [other, keen])
    first_turn_of(server, table2, tokens2, 1)
    [message] = inbox.wait_for("keen@example.org", 1)
    assert table2 in link_in(message, r"http://\S+/#/table/\S+") and notices(store, table) == []


class Silent:
    """A TCP server that accepts connections and never says a word (an SMTP server that hangs)."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        try:
            while True:
                connection, _ = self.socket.accept()
                self.held.append(connection)
        except OSError:
            return

    def close(self) -> None:
        self.socket.close()
        for connection in self.held:
            connection.close()


def test_an_smtp_server_that_hangs_never_delays_an_act(tmp_path: Path) -> None:
    silent = Silent()
    try:
        with served_with_smtp(tmp_path, f"smtp://turns:s3cret-pw@127.0.0.1:{silent.port}") as (server, store):
            hang_and_act(server, store)
    finally:
        silent.close()


def hang_and_act(server: ServerProcess, store: Store) -> None:
    """Acts go on, promptly, while the SMTP server hangs; the failure is logged (no password, no address)."""
    from warcards.server.mail import SMTP_TIMEOUT

    keen = add_account(store, "Keen", "keen@example.org", notify=True)
    other = add_account(store, "Other", "other@example.org", notify=True)
    table, tokens = correspondence_table(server, store, [other, keen])
    slowest = 0.0
    for _ in range(6):  # each move queues a notice the hung server holds up; the acts go on regardless
        _, _, seconds = move(server, table, tokens)
        slowest = max(slowest, seconds)
    assert slowest < SMTP_TIMEOUT / 2, f"an act took {slowest:.1f} s with the SMTP server hanging"
    deadline = time.monotonic() + DEADLINE + SMTP_TIMEOUT
    while "will try again" not in server.log():  # the failure is logged, the notice kept for a retry
        assert time.monotonic() < deadline, server.log()[-2000:]
        time.sleep(0.2)
    assert "pending" in {status for _, _, status in notices(store, table)}
    assert "s3cret-pw" not in server.log() and "keen@example.org" not in server.log()


def test_two_processes_on_one_postgresql_send_each_turn_once(
    postgres_url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    """Both processes hear every turn (the one that committed it, the other by NOTIFY) and both send mail:
    each turn's email arrives once."""
    from .conftest import fresh_postgres_database

    handler, port = inbox
    database = fresh_postgres_database(postgres_url, "mail_two_processes")
    servers = [ServerProcess(database, tmp_path / name) for name in ("a", "b")]
    for server in servers:
        server.folder.mkdir()
        server.args = ("--smtp", f"smtp://127.0.0.1:{port}", "--public-url", servers[0].http)
        server.start()
    store = Store(database)
    try:
        accounts = [add_account(store, f"P{seat}", f"p{seat}@example.org", notify=True) for seat in range(2)]
        table, tokens = correspondence_table(servers[0], store, accounts)
        turns = [0, 0]
        to_move = view_of(servers[0], table, tokens[0])["to_move"]
        turns[to_move] += 1  # the game's first turn
        handler.wait_for(f"p{to_move}@example.org", turns[to_move])
        for number in range(8):  # the moves go to one process and the other in turn
            mover, after, _ = move(servers[number % 2], table, tokens)
            if after is not None and after != mover:
                turns[after] += 1
                # Each turn's email before its seat moves (a notice whose turn has passed is skipped).
                handler.wait_for(f"p{after}@example.org", turns[after])
        wait_until(lambda: [status for _, _, status in notices(store, table)] == ["sent"] * sum(turns),
                   lambda: notices(store, table))
        time.sleep(1)  # (a duplicate would be on its way by now; its absence cannot make this test fail wrongly)
        assert [len(handler.to(f"p{seat}@example.org")) for seat in range(2)] == turns
    finally:
        store.close()
        for server in servers:
            server.stop()


# ----- the mailer and its queries, in process ----------------------------------------------------------------------
def run(make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run a coroutine in a thread of its own (a browser test's Playwright may hold this thread's loop)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, make()).result()


def stored_turn(store: Store, notify: bool = True) -> tuple[str, str]:
    """A correspondence table in the store whose seat 0 an account holds (`notify`: opted in); (table, account)."""
    store.migrate()
    table, _ = store.create_table("cards-of-war", {}, 7, True, DAY_A_MOVE, [("person", None), ("person", None)])
    store.set_status(table, "playing")
    account = add_account(store, f"Keen {secrets.token_hex(3)}", "keen@example.org", notify)
    hold_seat(store, table, 0, account)
    return table, account


def settings_for(port: int) -> MailSettings:
    return MailSettings(target=parse_smtp_url(f"smtp://127.0.0.1:{port}"), public_url="http://x", sender="w@x.org")


def test_a_turn_is_queued_once_and_two_processes_racing_cannot_both_claim_it(database_url: str) -> None:
    """The notices' key and the conditional claim: of two processes on one database (PostgreSQL too), one
    queues the turn and one claims it to send."""
    store = Store(database_url)
    try:
        table, _ = stored_turn(store)
        with ThreadPoolExecutor(2) as threads:
            queued = list(threads.map(lambda _: queue_notice(store, table, 0, 5), range(2)))
            assert sorted(queued) == [False, True]
            claims = list(threads.map(lambda owner: claim_notices(store, owner, time.time(), 300.0), ["a", "b"]))
        assert sorted(len(claim) for claim in claims) == [0, 1]
        assert claim_notices(store, "c", time.time(), 300.0) == []  # claimed: nobody else sends it meanwhile
        assert len(claim_notices(store, "c", time.time() + 301, 300.0)) == 1  # its process died: another may
    finally:
        store.close()


def test_a_notice_not_wanted_is_not_queued_and_one_whose_turn_passed_is_skipped(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    try:
        table, account = stored_turn(store, notify=False)
        assert not queue_notice(store, table, 0, 5)  # not opted in
        assert not queue_notice(store, table, 1, 5)  # no account holds seat 1
        set_notify(store, account, True)
        assert queue_notice(store, table, 0, 5)
        from warcards.server.db import EventInfo

        store.append_events(table, [EventInfo(6, "action", 0, 0, "m")])  # the seat moved before the email went
        assert claim_notices(store, "a", time.time(), 300.0) == []
        assert notices(store, table) == [(0, 5, "skipped")]
    finally:
        store.close()


def test_a_failed_send_is_tried_again_then_given_up(tmp_path: Path, inbox: tuple[Inbox, int]) -> None:
    handler, port = inbox
    store = Store(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    try:
        table, _ = stored_turn(store)
        queue_notice(store, table, 0, 5)
        queue_notice(store, table, 0, 9)
        mailer = Mailer(store, settings_for(free_port()), "a")  # nobody listens there: refused
        mailer.retry_seconds = (0.0,)  # one retry, at once
        assert run(mailer.send_due) == 0
        assert {status for _, _, status in notices(store, table)} == {"failed"}
        with store.session() as session:
            assert set(session.scalars(select(NoticeRow.attempts))) == {2}

        queue_notice(store, table, 0, 12)
        mailer.settings = settings_for(port)
        assert run(mailer.send_due) == 1
        assert len(handler.wait_for("keen@example.org", 1)) == 1
        assert notices(store, table)[-1] == (0, 12, "sent")
    finally:
        store.close()


def test_an_unsubscribe_token_unsubscribes_its_own_account_only(tmp_path: Path) -> None:
    """The unsubscribe link's authorization: its token is the credential. A seat token, a bot's token, a
    made-up token or another account's token unsubscribe nobody else."""
    from fastapi.testclient import TestClient

    from warcards.server import create_app
    from warcards.server.config import ServerConfig

    database = f"sqlite:///{tmp_path / 'n.sqlite3'}"
    store = Store(database)
    try:
        table, keen = stored_turn(store)
        other = add_account(store, "Other", "other@example.org", True)
        hold_seat(store, table, 1, other)
        queue_notice(store, table, 0, 5)
        queue_notice(store, table, 1, 6)
        claimed = {notice.account_id: notice.token for notice in claim_notices(store, "a", time.time(), 300.0)}
        config = ServerConfig(allow_bot_tables=True, max_tables_per_address=0)
        with TestClient(create_app(database, config=config)) as client:
            _, bot_tokens = store.create_table("cards-of-war", {}, 1, True, None, [("person", None), ("bot", "random")])
            person = client.post("/tables", json={"game": "cards-of-war", "seats": [{"kind": "person"}] * 2}).json()
            seat_token = client.post(f"/tables/{person['id']}/seats/0", json={"name": "p"}).json()["token"]
            for token in (seat_token, bot_tokens[1], "x" * 32, "x" * 5000, "", " "):
                answer = client.get(f"/unsubscribe/{token}")
                assert answer.status_code in (404, 405) and "unsubscribed" not in answer.text
                assert notify_turns(store, keen) and notify_turns(store, other)
            answer = client.post(f"/unsubscribe/{claimed[other]}", content="List-Unsubscribe=One-Click")
            assert answer.status_code == 200 and "unsubscribed" in answer.text
            assert notify_turns(store, keen) and not notify_turns(store, other)
            assert client.post(f"/unsubscribe/{claimed[other]}").status_code == 200  # twice: still unsubscribed
            assert client.get("/features").json()["turn_emails"] is False
        assert unsubscribe(store, claimed[keen]) and not notify_turns(store, keen)
    finally:
        store.close()


def test_opening_the_unsubscribe_link_changes_nothing_and_its_pages_button_unsubscribes(tmp_path: Path) -> None:
    """A mail scanner opens every link of an email: GET /unsubscribe/TOKEN only shows a page whose button
    posts to the same link; the POST (the button, or RFC 8058's one-click) unsubscribes."""
    import re

    from fastapi.testclient import TestClient

    from warcards.server import create_app
    from warcards.server.config import ServerConfig

    database = f"sqlite:///{tmp_path / 'n.sqlite3'}"
    store = Store(database)
    try:
        table, keen = stored_turn(store)
        queue_notice(store, table, 0, 5)
        [notice] = claim_notices(store, "a", time.time(), 300.0)
        config = ServerConfig(allow_bot_tables=True, max_tables_per_address=0)
        with TestClient(create_app(database, config=config)) as client:
            for _ in range(3):  # a scanner, a preview, the person: nobody is unsubscribed by looking
                page = client.get(f"/unsubscribe/{notice.token}")
                assert page.status_code == 200 and "Stop turn emails?" in page.text and notify_turns(store, keen)
                assert page.headers["Cache-Control"] == "no-store"
            action = re.search(r'<form method="post" action="([^"]+)"><button type="submit">Unsubscribe</button>',
                               page.text)
            assert action is not None and action.group(1) == f"/unsubscribe/{notice.token}"
            pressed = client.post(action.group(1), headers={"Origin": "http://testserver"})  # the button
            assert pressed.status_code == 200 and "You are unsubscribed" in pressed.text
            assert not notify_turns(store, keen)
            set_notify(store, keen, True)
            one_click = client.post(action.group(1), content="List-Unsubscribe=One-Click",
                                    headers={"Content-Type": "application/x-www-form-urlencoded"})
            assert one_click.status_code == 200 and not notify_turns(store, keen)
            for unknown in ("x" * 32, "x" * 5000):
                assert client.get(f"/unsubscribe/{unknown}").status_code == 404
                assert "<form" not in client.get(f"/unsubscribe/{unknown}").text
    finally:
        store.close()


# ----- the settings ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("smtp", "public_url", "mail_from", "says"), [
    ("ftp://mail.example.org", "https://cards.example.org", None, "scheme 'ftp'"),
    ("smtp://", "https://cards.example.org", None, "names no host"),
    ("smtp://mail.example.org:99999", "https://cards.example.org", None, "is not a URL"),
    ("smtp://user@mail.example.org", "https://cards.example.org", None, "no password"),
    ("smtp://mail.example.org/inbox", "https://cards.example.org", None, "no path"),
    ("smtp://mail.example.org", None, None, "needs --public-url"),
    ("smtp://mail.example.org", "cards.example.org", None, "not the address players open"),
    ("smtp://mail.example.org", "https://cards.example.org", "nobody", "not an email address"),
    ("smtp://mail.example.org", "https://cards.example.org", "a@b\r\nBcc: x@y", "not an email address"),
])
def test_a_bad_mail_setting_is_refused_saying_what_is_allowed(
    smtp: str, public_url: str | None, mail_from: str | None, says: str
) -> None:
    from warcards.server.config import ServerConfig

    with pytest.raises(ValueError, match=re.escape(says)):
        mail_settings(ServerConfig(smtp=smtp, public_url=public_url, mail_from=mail_from))


def test_the_smtp_urls_parse_with_their_default_ports_and_hide_the_password() -> None:
    from warcards.server.config import ServerConfig

    assert parse_smtp_url("smtp://mail.example.org").port == 25
    assert parse_smtp_url("smtp+starttls://u:p@mail.example.org").port == 587
    target = parse_smtp_url("smtps://me%40x.org:s%3Acret@mail.example.org")
    assert (target.port, target.user, target.password) == (465, "me@x.org", "s:cret")
    assert "s:cret" not in target.shown() and "cret" not in target.shown()
    settings = mail_settings(ServerConfig(smtp="smtp://m", public_url="https://cards.example.org/"))
    assert settings is not None and settings.sender == "warcards@cards.example.org"
    assert settings.public_url == "https://cards.example.org"
    assert mail_settings(ServerConfig()) is None


@pytest.mark.parametrize(("arguments", "environment", "says"), [
    (["--smtp", "ftp://mail.example.org", "--public-url", "https://c.example.org"], {}, "scheme 'ftp'"),
    ([], {"WARCARDS_SMTP": "smtp://me:s3cret@mail.example.org"}, "needs --public-url"),
])
def test_warcards_serve_refuses_a_bad_mail_setting_in_one_line_before_serving(
    arguments: list[str], environment: dict[str, str], says: str
) -> None:
    from typer.testing import CliRunner

    from warcards.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--port", "8123", *arguments], env=environment)
    assert result.exit_code == 2 and says in result.output, result.output
    assert "serving at" not in result.output and "Traceback" not in result.output and "s3cret" not in result.output


def test_migration_0008_adds_the_notices_to_the_database_before_it_and_goes_back(database_url: str) -> None:
    import importlib

    from sqlalchemy import inspect

    from warcards.server.migrate import upgrade

    before = importlib.import_module("warcards.server.migrations.versions.0008_notices").down_revision
    store = Store(database_url)
    try:
        upgrade(store.engine, before)
        assert "notices" not in inspect(store.engine).get_table_names()
        store.migrate()
        assert "notices" in inspect(store.engine).get_table_names()
        table, _ = stored_turn(store)
        assert queue_notice(store, table, 0, 5)
        from alembic import command

        from warcards.server.migrate import config

        with store.engine.begin() as connection:
            settings = config()
            settings.attributes["connection"] = connection
            command.downgrade(settings, before)
        assert "notices" not in inspect(store.engine).get_table_names()
    finally:
        store.close()
