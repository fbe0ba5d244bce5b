"""Turn notices by email (docs/server.md, "Correspondence games and notices"; issue 33).

When it becomes a seat's turn at a correspondence table (a move timer of a day or more) and the seat's
account opted in, one notice is queued: a row of `notices` keyed (table, seat, turn event), so a second
queueing of the same turn (a restart resuming the table, another process catching up) finds it and adds
nothing. A background task of the process (`Mailer.run`) claims due rows with a conditional UPDATE (of two
processes on one PostgreSQL, one wins each row) and sends them through SMTP with the standard library's
`smtplib`, in a thread of its own: a slow or dead SMTP server holds that thread, never an act. A failed send
is tried again later, a bounded number of times (`RETRY_SECONDS`), and logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import smtplib
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from warcards.server.config import ServerConfig
from warcards.server.db import Store
from warcards.server.notices import (
    CORRESPONDENCE_SECONDS,
    Notice,
    claim_notices,
    notice_failed,
    notice_sent,
    queue_notice,
)

if TYPE_CHECKING:
    from warcards.server.hub import TableHub

log = logging.getLogger("warcards.server")

SCHEMES = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}
"""The `--smtp` URL schemes and their default ports: plain SMTP, SMTP upgraded with STARTTLS, SMTP over TLS."""

SMTP_TIMEOUT = 20.0
"""Seconds one SMTP socket operation may take before the send fails (and is tried again later)."""

RETRY_SECONDS = (60.0, 300.0, 1800.0, 7200.0)
"""After the 1st, 2nd … failed send of a notice, the wait before the next try; after the last, it is given up."""

POLL_SECONDS = 30.0
"""How often the sender looks for due notices when nothing woke it (retries, another process's queue)."""

CLAIM_SECONDS = 300.0
"""How long a claimed notice is this process's to send; if the process dies, another sends it after this."""


@dataclass(frozen=True)
class SmtpTarget:
    """A parsed `--smtp` URL."""

    scheme: str
    host: str
    port: int
    user: str | None
    password: str | None

    def shown(self) -> str:
        """The URL without its password (for logs and messages)."""
        user = f"{self.user}@" if self.user else ""
        return f"{self.scheme}://{user}{self.host}:{self.port}"


def parse_smtp_url(url: str) -> SmtpTarget:
    """The SMTP server of `--smtp`, or a `ValueError` saying what is wrong and what is allowed."""
    allowed = "smtp://host:port, smtp+starttls://user:password@host:587 or smtps://user:password@host:465"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise ValueError(f"--smtp {url.split('@')[-1]!r} is not a URL ({error}); give {allowed}") from None
    if parts.scheme not in SCHEMES:
        raise ValueError(f"--smtp scheme {parts.scheme!r} is not one of {', '.join(SCHEMES)}; give {allowed}")
    if not parts.hostname:
        raise ValueError(f"--smtp names no host; give {allowed}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"--smtp takes no path, query or fragment; give {allowed}")
    if parts.username and parts.password is None:
        raise ValueError("--smtp names a user but no password: give user:password@host")
    return SmtpTarget(
        scheme=parts.scheme, host=parts.hostname, port=port or SCHEMES[parts.scheme],
        user=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
    )


def check_public_url(url: str) -> str:
    """`--public-url` without its trailing slash, or a `ValueError`: an http(s) address with a host."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(
            f"--public-url {url!r} is not the address players open: give http(s)://host[:port][/path], "
            "e.g. https://cards.example.org"
        )
    return url.rstrip("/")


@dataclass(frozen=True)
class MailSettings:
    """What the mailer needs from `ServerConfig`, checked."""

    target: SmtpTarget
    public_url: str
    sender: str


def mail_settings(config: ServerConfig) -> MailSettings | None:
    """The checked mail settings of `config` (None without `--smtp`), or a `ValueError` saying what is wrong."""
    if config.smtp is None:
        return None
    target = parse_smtp_url(config.smtp)
    if config.public_url is None:
        raise ValueError(
            "--smtp needs --public-url: the address players open the server at (e.g. https://cards.example.org), "
            "for the links in the emails"
        )
    public_url = check_public_url(config.public_url)
    sender = config.mail_from or f"warcards@{urlsplit(public_url).hostname}"
    if "@" not in sender or any(c in sender for c in "\r\n<>"):
        raise ValueError(f"--mail-from {sender!r} is not an email address: give e.g. warcards@example.org")
    return MailSettings(target=target, public_url=public_url, sender=sender)


def table_link(public_url: str, table_id: str) -> str:
    """The page of a table, as the browser page routes it."""
    return f"{public_url}/#/table/{table_id}"


def unsubscribe_link(public_url: str, token: str) -> str:
    return f"{public_url}/unsubscribe/{token}"


def notice_message(settings: MailSettings, notice: Notice) -> EmailMessage:
    """The email of one notice: the table's link in the text, and a one-click unsubscribe (RFC 8058:
    `List-Unsubscribe` with the link, `List-Unsubscribe-Post: List-Unsubscribe=One-Click`)."""
    table = table_link(settings.public_url, notice.table_id)
    leave = unsubscribe_link(settings.public_url, notice.token)
    message = EmailMessage()
    message["From"] = formataddr(("warcards", settings.sender))
    message["To"] = formataddr((notice.account_name, notice.email))
    message["Subject"] = f"Your turn in {notice.game}"
    message["Message-ID"] = make_msgid(domain=settings.sender.rsplit("@", 1)[1])
    message["List-Unsubscribe"] = f"<{leave}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(
        f"Hello {notice.account_name},\n\n"
        f"It is your turn in {notice.game} (seat {notice.seat_name}).\n"
        f"Open the table: {table}\n\n"
        "You get one email a turn for games with a timer of a day or more a move.\n"
        f"Stop these emails (one click): {leave}\n"
    )
    return message


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The TLS settings of `smtps` and `smtp+starttls` (certificates checked), made once: loading the system's
    certificates takes tens of milliseconds of the interpreter's time, which the event loop would feel."""
    return ssl.create_default_context()


def send_mail(target: SmtpTarget, message: EmailMessage, timeout: float = SMTP_TIMEOUT) -> None:
    """Send one message (blocking: run it in a thread); raises `OSError` / `smtplib.SMTPException`."""
    client: smtplib.SMTP
    if target.scheme == "smtps":
        client = smtplib.SMTP_SSL(target.host, target.port, timeout=timeout, context=tls_context())
    else:
        client = smtplib.SMTP(target.host, target.port, timeout=timeout)
    with client:
        if target.scheme == "smtp+starttls":
            client.starttls(context=tls_context())
        if target.user is not None and target.password is not None:
            client.login(target.user, target.password)
        client.send_message(message)


def is_correspondence(hub: TableHub) -> bool:
    """A table whose turns notices are for: a move timer of a day or more."""
    return hub.timer_kind == "move" and hub.timer_seconds >= CORRESPONDENCE_SECONDS


class Mailer:
    """The turn notices of one server process: `turn_began` (the hub's hook) queues, `run` sends."""

    def __init__(self, store: Store, settings: MailSettings, owner: str) -> None:
        self.store = store
        self.settings = settings
        self.owner = owner
        self.wake = asyncio.Event()
        self.queueing: set[asyncio.Task[None]] = set()
        """The queueings under way (kept, so none is collected before it ran)."""
        self.retry_seconds: tuple[float, ...] = RETRY_SECONDS
        self.poll_seconds = POLL_SECONDS
        self.timeout = SMTP_TIMEOUT

    def turn_began(self, hub: TableHub, seat: int) -> None:
        """The hub's hook: `seat` is now to act, after a move of another seat (or the game's first). Queue its
        notice if the table is a correspondence table and a person plays the seat (not a bot, not a stand-in
        holding it); the database decides whether its account wants one. Never waits."""
        if not is_correspondence(hub) or hub.info.seats[seat].kind != "person" or seat in hub.stand_ins:
            return
        task = asyncio.create_task(self._queue(hub.id, seat, hub.event_no))
        self.queueing.add(task)
        task.add_done_callback(self.queueing.discard)

    async def _queue(self, table_id: str, seat: int, event_no: int) -> None:
        try:
            if await asyncio.to_thread(queue_notice, self.store, table_id, seat, event_no):
                self.wake.set()
        except Exception:
            log.exception("queueing a turn notice failed", extra={"table": table_id, "seat": seat})

    async def run(self) -> None:
        """Send due notices whenever one is queued, and every `poll_seconds` (retries; a process that died
        holding a claim). Runs until cancelled."""
        while True:
            self.wake.clear()
            try:
                await self.send_due()
            except Exception:  # the database is away for a while: the next round tries again
                log.exception("sending turn notices failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.poll_seconds)

    async def send_due(self) -> int:
        """Claim the notices due now and send them one by one; how many were sent."""
        sent = 0
        while True:
            claimed = await asyncio.to_thread(claim_notices, self.store, self.owner, time.time(), CLAIM_SECONDS)
            if not claimed:
                return sent
            for notice in claimed:
                extra = {"table": notice.table_id, "seat": notice.seat, "event_no": notice.event_no}
                try:
                    message = notice_message(self.settings, notice)
                    await in_daemon_thread(functools.partial(send_mail, self.settings.target, message, self.timeout))
                except (OSError, smtplib.SMTPException, ValueError) as error:
                    given_up = await asyncio.to_thread(
                        notice_failed, self.store, notice, time.time(), self.retry_seconds, _reason(error)
                    )
                    log.warning(
                        "turn notice to %s not sent (%s)%s", self.settings.target.shown(), _reason(error),
                        "; given up" if given_up else "; will try again", extra={**extra, "status": "failed"},
                    )
                    continue
                await asyncio.to_thread(notice_sent, self.store, notice)
                log.info("turn notice sent", extra={**extra, "status": "sent"})
                sent += 1

    async def stop(self) -> None:
        for task in list(self.queueing):
            task.cancel()


async def in_daemon_thread(work: Callable[[], None]) -> None:
    """Run `work` in a daemon thread of its own and wait for it: a hung SMTP server holds that thread, never
    one of the threads the database calls use, and never the process's exit (`asyncio.to_thread`'s threads
    are joined at exit)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle(error: BaseException | None) -> None:
        if done.done():
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)

    def run() -> None:
        error: BaseException | None = None
        try:
            work()
        except BaseException as failure:  # handed to the waiting task, which logs it
            error = failure
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits any more
            loop.call_soon_threadsafe(settle, error)

    threading.Thread(target=run, name="smtp", daemon=True).start()
    await done


def _reason(error: BaseException) -> str:
    """An SMTP failure in one short line (never the password: smtplib's errors carry the server's words)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}"[:300]
