"""The turn notices' rows (migration 0008) and their queries: queue one per turn, claim the due ones for one
process to send, record the outcome, and unsubscribe an account by the token of its link (docs/server.md,
"Correspondence games and notices"). Each function is one or a few short transactions on the `Store`
(call them from a thread)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Float, ForeignKey, Integer, String, Text, exists, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, Session, mapped_column

from warcards.server.db import (
    AccountRow,
    Base,
    EventRow,
    SeatRow,
    Store,
    TableRow,
    hash_token,
    new_token,
    now,
    rows_changed,
)
from warcards.server.games import shared_game

CORRESPONDENCE_SECONDS = 86400
"""A table whose move timer allows at least this (a day) is a correspondence table: its turns are notified."""

CLAIM_BATCH = 20
"""Notices claimed at once by one process."""


class NoticeRow(Base):
    """One turn notice (migration 0008). Its key — the table, the seat, and the table's event number after
    which the seat became to act (the turn's event) — is what makes a turn's notice be queued once, whichever
    process, restart or catch-up queues it again."""

    __tablename__ = "notices"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(16))
    """pending (to send), sent, failed (given up after the last retry), skipped (no longer wanted or due)."""
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try: Mapped[float] = mapped_column(Float)
    """Not sent before this time (seconds since the epoch): the wait after a failed try."""
    claimed_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The server process sending it (`Server.owner`) ..."""
    claimed_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    """... until this time; after it (the process died) another may claim it."""
    unsubscribe_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """SHA-256 of the unsubscribe token in this email (each email has its own; the newest is also the account's)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)


@dataclass(frozen=True)
class Notice:
    """A claimed notice, with what its email says: the unsubscribe `token` exists only here (its hash is stored)."""

    table_id: str
    seat: int
    event_no: int
    account_id: str
    account_name: str
    email: str
    game: str
    seat_name: str
    token: str
    attempts: int


def queue_notice(store: Store, table_id: str, seat: int, event_no: int) -> bool:
    """Queue the notice of `seat`'s turn that began after event `event_no`, if the seat's account opted in (an
    email, `notify_turns`, not deleted). True when this call added it; False when it is not wanted or was
    queued already (an INSERT … ON CONFLICT DO NOTHING: of several processes, one adds it)."""
    with store.session() as session:
        account_id = session.scalar(
            select(SeatRow.account_id).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
        )
        account = session.get(AccountRow, account_id) if account_id is not None else None
        if account is None or not wants_notices(account):
            return False
        values = {
            "table_id": table_id, "seat": seat, "event_no": event_no, "account_id": account.id,
            "status": "pending", "attempts": 0, "next_try": 0.0, "created_at": now(),
        }
        dialect: Any = postgresql if store.engine.dialect.name == "postgresql" else sqlite
        added = session.scalar(
            dialect.insert(NoticeRow).values(**values).on_conflict_do_nothing().returning(NoticeRow.event_no)
        )
        return added is not None


def wants_notices(account: AccountRow) -> bool:
    return bool(account.notify_turns and account.email and account.deleted_at is None)


def claim_notices(store: Store, owner: str, at: float, claim_seconds: float) -> list[Notice]:
    """Claim the notices due at `at` for `owner` to send, each in one conditional UPDATE (of processes racing
    for a row, one wins it). A notice whose account no longer wants it, or whose turn is over (the seat
    acted, the game ended), is marked skipped instead. Each claimed notice gets a fresh unsubscribe token."""
    due = (
        NoticeRow.status == "pending", NoticeRow.next_try <= at,
        or_(NoticeRow.claimed_until.is_(None), NoticeRow.claimed_until < at),
    )
    with store.session() as session:
        keys = session.execute(
            select(NoticeRow.table_id, NoticeRow.seat, NoticeRow.event_no)
            .where(*due).order_by(NoticeRow.next_try).limit(CLAIM_BATCH)
        ).all()
    claimed: list[Notice] = []
    for table_id, seat, event_no in keys:
        token = new_token()
        mine = NoticeRow.table_id == table_id, NoticeRow.seat == seat, NoticeRow.event_no == event_no
        with store.session() as session:
            done = session.execute(
                update(NoticeRow).where(*mine, *due)
                .values(claimed_by=owner, claimed_until=at + claim_seconds, unsubscribe_hash=hash_token(token))
            )
            if rows_changed(done) != 1:
                continue
            row = session.get(NoticeRow, (table_id, seat, event_no))
            account = session.get(AccountRow, row.account_id) if row is not None else None
            table = session.get(TableRow, table_id)
            if row is None or account is None or table is None:
                continue
            if not wants_notices(account) or table.status != "playing" or _turn_over(session, table_id, event_no):
                row.status = "skipped"
                continue
            account.unsubscribe_hash = row.unsubscribe_hash
            assert account.email is not None
            claimed.append(Notice(
                table_id=table_id, seat=seat, event_no=event_no, account_id=account.id, account_name=account.name,
                email=account.email, game=table.game,
                seat_name=shared_game(table.game, dict(table.options)).seat_names()[seat],
                token=token, attempts=row.attempts,
            ))
    return claimed


def _turn_over(session: Any, table_id: str, event_no: int) -> bool:
    """A move, resignation or forfeit came after the turn's event: the turn the notice is about has passed."""
    later = select(EventRow.event_no).where(
        EventRow.table_id == table_id, EventRow.event_no > event_no, EventRow.kind != "chance"
    )
    return bool(session.scalar(select(exists(later))))


def _key(notice: Notice) -> tuple[Any, ...]:
    return NoticeRow.table_id == notice.table_id, NoticeRow.seat == notice.seat, NoticeRow.event_no == notice.event_no


def notice_sent(store: Store, notice: Notice) -> None:
    with store.session() as session:
        session.execute(
            update(NoticeRow).where(*_key(notice))
            .values(status="sent", sent_at=now(), attempts=notice.attempts + 1, claimed_until=None, last_error=None)
        )


def notice_failed(
    store: Store, notice: Notice, at: float, retry_seconds: tuple[float, ...], reason: str
) -> bool:
    """A send failed: try again after the next wait of `retry_seconds`, or give up after the last. True when
    given up."""
    attempts = notice.attempts + 1
    given_up = attempts > len(retry_seconds)
    with store.session() as session:
        session.execute(
            update(NoticeRow).where(*_key(notice)).values(
                attempts=attempts, last_error=reason, claimed_until=None,
                status="failed" if given_up else "pending",
                next_try=at if given_up else at + retry_seconds[attempts - 1],
            )
        )
    return given_up


def _account_of_unsubscribe(session: Session, token: str) -> str | None:
    """The account whose notice carried `token` (the newest one's, or any earlier email's), or None."""
    token_hash = hash_token(token)
    account_id = session.scalar(select(AccountRow.id).where(AccountRow.unsubscribe_hash == token_hash))
    if account_id is None:
        account_id = session.scalar(
            select(NoticeRow.account_id).where(NoticeRow.unsubscribe_hash == token_hash).limit(1)
        )
    return account_id


def is_unsubscribe_token(store: Store, token: str) -> bool:
    """Whether `token` is one of this server's unsubscribe links (read only: opening the link changes nothing)."""
    with store.session() as session:
        return _account_of_unsubscribe(session, token) is not None


def unsubscribe(store: Store, token: str) -> bool:
    """The account whose notice carried `token` (the newest one's, or any earlier email's) gets no more
    notices. True when the token names an account (unsubscribing twice is still True)."""
    with store.session() as session:
        account_id = _account_of_unsubscribe(session, token)
        if account_id is None:
            return False
        session.execute(update(AccountRow).where(AccountRow.id == account_id).values(notify_turns=False))
        session.execute(
            update(NoticeRow).where(NoticeRow.account_id == account_id, NoticeRow.status == "pending")
            .values(status="skipped")
        )
        return True
