"""Optional accounts (docs/server.md, "Players and accounts"): sign-up, sign-in with its throttling, the
server-side sessions behind the cookie, settings, deletion, the guest seats an account takes over, and the
games an account plays ("My games").

Passwords are hashed with argon2 (`pwdlib`); only the hash is stored, and neither the password nor the hash
is ever logged or sent. A session cookie holds a random key; its row holds the key's SHA-256. Every method of
`Accounts` is one short transaction: call it from a thread (`asyncio.to_thread`).
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from pwdlib import PasswordHash
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from warcards.server.db import (
    AccountRow,
    SeatRow,
    SessionRow,
    Store,
    TableRow,
    hash_token,
    new_token,
    now,
    token_matches,
)
from warcards.server.names import check_display_name

DELETED_NAME = "Deleted player"
"""The neutral name a deleted account's seats are shown under."""

MIN_PASSWORD = 8
MAX_PASSWORD = 1024
SESSION_KEY_BYTES = 32
"""A session cookie carries 256 random bits."""

FREE_FAILURES = 4
"""Failed sign-ins to one account that cost nothing (typing mistakes) ..."""
FIRST_DELAY_SECONDS = 1.0
"""... then each failure locks the account's sign-in for this long, doubled at each further failure ..."""
MAX_DELAY_SECONDS = 15 * 60.0
"""... up to this long. A success clears the count."""

EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s]+\.[^@\s]+")

HASHER = PasswordHash.recommended()
"""argon2id with pwdlib's recommended parameters."""

DUMMY_HASH = HASHER.hash(secrets.token_hex(16))
"""Checked against when the name is unknown, so a missing account takes as long as a wrong password."""


class AccountError(ValueError):
    """A request about an account refused, with the HTTP status it answers and a sentence saying why."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    email: str | None
    notify_turns: bool


@dataclass(frozen=True)
class HeldSeat:
    """One seat an account holds: its table's row and the seat."""

    table_id: str
    game: str
    status: str
    seat: int
    result: dict[str, Any] | None
    created_at: datetime


def check_user_name(text: str) -> str:
    """An account's user name follows the display-name rules (`warcards.server.names.check_display_name`)."""
    return check_display_name(text)


def name_key(name: str) -> str:
    """The name folded for uniqueness and sign-in: two accounts cannot differ only by case or width."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(422, f"a password is {MIN_PASSWORD} to {MAX_PASSWORD:,} characters")
    return password


def check_email(email: str | None) -> str | None:
    """An email address (trimmed), or None for none: one `@`, a dot in the domain, no spaces, 254 at most."""
    if email is None or not email.strip():
        return None
    email = email.strip()
    if len(email) > 254 or not EMAIL.fullmatch(email) or not email.isprintable():
        raise AccountError(422, "an email address looks like name@example.org (254 characters at most, no spaces)")
    return email


def lock_seconds(failures: int) -> float:
    """How long sign-in to an account waits after its `failures`-th failure in a row."""
    if failures <= FREE_FAILURES:
        return 0.0
    return float(min(MAX_DELAY_SECONDS, FIRST_DELAY_SECONDS * 2 ** min(failures - FREE_FAILURES - 1, 30)))


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


class Accounts:
    """The accounts of one store."""

    def __init__(self, store: Store, session_days: float) -> None:
        self.store = store
        self.session_days = session_days

    # ----- accounts -------------------------------------------------------------------------------------------
    def sign_up(self, name: str, password: str) -> Account:
        """A new account (the name checked and free, the password 8 to 1,024 characters)."""
        name = check_user_name(name)
        password_hash = HASHER.hash(check_password(password))
        account = AccountRow(
            id=secrets.token_hex(16), name=name, name_key=name_key(name), password_hash=password_hash,
            email=None, notify_turns=False, failed_signins=0, locked_until=None, created_at=now(),
        )
        try:
            with self.store.session() as session:
                taken = session.scalar(select(AccountRow.id).where(AccountRow.name_key == account.name_key))
                if taken is not None:
                    raise AccountError(409, f"the name {name!r} is taken: choose another")
                session.add(account)
        except IntegrityError:
            raise AccountError(409, f"the name {name!r} is taken: choose another") from None
        return Account(account.id, account.name, None, False)

    def sign_in(self, name: str, password: str, given_at: float | None = None) -> Account:
        """The account whose name and password these are; refused (403) otherwise, or (429) while its
        sign-in is locked after failures (`lock_seconds`), without trying the password."""
        at = time.time() if given_at is None else given_at
        with self.store.session() as session:
            row = session.scalar(
                select(AccountRow).where(AccountRow.name_key == name_key(name.strip()), AccountRow.deleted_at.is_(None))
            )
            if row is not None and row.locked_until is not None and row.locked_until > at:
                wait = row.locked_until - at
                raise AccountError(
                    429, f"too many failed sign-ins to this account: try again in {wait:.0f} s", retry_after=wait
                )
        stored = row.password_hash if row is not None and row.password_hash else DUMMY_HASH
        good = HASHER.verify(password, stored) and row is not None
        at = time.time() if given_at is None else given_at  # a lock runs from the failure's answer
        if row is None:
            raise AccountError(403, "no account has that name and password")
        with self.store.session() as session:
            mine = AccountRow.id == row.id
            if good:
                session.execute(update(AccountRow).where(mine).values(failed_signins=0, locked_until=None))
                return Account(row.id, row.name, row.email, row.notify_turns)
            session.execute(update(AccountRow).where(mine).values(failed_signins=AccountRow.failed_signins + 1))
            failures = session.scalar(select(AccountRow.failed_signins).where(mine)) or 0
            delay = lock_seconds(failures)
            if delay:
                session.execute(update(AccountRow).where(mine).values(locked_until=at + delay))
        raise AccountError(403, "no account has that name and password")

    def account(self, account_id: str) -> Account | None:
        with self.store.session() as session:
            row = session.get(AccountRow, account_id)
            if row is None or row.deleted_at is not None:
                return None
            return Account(row.id, row.name, row.email, row.notify_turns)

    def check_own_password(self, account_id: str, password: str) -> None:
        """Refused (403) unless `password` is the account's."""
        with self.store.session() as session:
            stored = session.scalar(select(AccountRow.password_hash).where(AccountRow.id == account_id))
        if not stored or not HASHER.verify(password, stored):
            raise AccountError(403, "that is not this account's password")

    def change_password(self, account_id: str, old: str, new: str, keep_session: str) -> None:
        """A new password (the old one checked); every other session of the account ends."""
        self.check_own_password(account_id, old)
        new_hash = HASHER.hash(check_password(new))
        with self.store.session() as session:
            session.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=new_hash))
            session.execute(
                delete(SessionRow).where(SessionRow.account_id == account_id, SessionRow.key_hash != keep_session)
            )

    def settings(self, account_id: str, changes: dict[str, Any]) -> Account:
        """Change the email (None: none) and whether turn notices are sent."""
        if "email" in changes:
            changes["email"] = check_email(changes["email"])
        with self.store.session() as session:
            row = session.get(AccountRow, account_id)
            assert row is not None
            for field_name, value in changes.items():
                setattr(row, field_name, value)
            return Account(row.id, row.name, row.email, row.notify_turns)

    def delete(self, account_id: str) -> None:
        """Delete the account: its games stay, its seats shown as `DELETED_NAME`; its name is free again,
        its secrets (password hash, email, unsubscribe token) cleared and its sessions gone."""
        with self.store.session() as session:
            session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(
                    name=DELETED_NAME, name_key=f"deleted:{account_id}", password_hash=None, email=None,
                    notify_turns=False, unsubscribe_hash=None, deleted_at=now(),
                )
            )
            session.execute(update(SeatRow).where(SeatRow.account_id == account_id).values(name=DELETED_NAME))
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))

    # ----- sessions -------------------------------------------------------------------------------------------
    def new_session(self, account_id: str) -> str:
        """A new signed-in session: its key (for the cookie; only its hash is stored). Expired sessions of
        any account are deleted on the way."""
        key = secrets.token_urlsafe(SESSION_KEY_BYTES)
        created = now()
        with self.store.session() as session:
            session.execute(delete(SessionRow).where(SessionRow.expires_at < created))  # the expired ones go
            session.add(
                SessionRow(
                    key_hash=hash_token(key), account_id=account_id, created_at=created,
                    expires_at=created + timedelta(days=self.session_days),
                )
            )
        return key

    def session_account(self, key: str) -> tuple[Account, str] | None:
        """The account a session key signs in, and the key's hash; None for an unknown or expired key."""
        key_hash = hash_token(key)
        with self.store.session() as session:
            row = session.get(SessionRow, key_hash)
            if row is None:
                return None
            if _aware(row.expires_at) <= now():
                session.delete(row)
                return None
            account = session.get(AccountRow, row.account_id)
            if account is None or account.deleted_at is not None:
                return None
            return Account(account.id, account.name, account.email, account.notify_turns), key_hash

    def end_session(self, key_hash: str) -> None:
        with self.store.session() as session:
            session.execute(delete(SessionRow).where(SessionRow.key_hash == key_hash))

    # ----- seats ----------------------------------------------------------------------------------------------
    def take_over_seats(self, account: Account, held: list[tuple[str, str]]) -> list[tuple[str, int]]:
        """Attach to the account the guest seats whose (table, token) these are — only a person seat whose
        token matches and that no account holds; anything else is passed over. The seats taken over."""
        taken: list[tuple[str, int]] = []
        with self.store.session() as session:
            for table_id, token in held:
                rows = session.scalars(
                    select(SeatRow).where(
                        SeatRow.table_id == table_id, SeatRow.kind == "person", SeatRow.account_id.is_(None)
                    )
                ).all()
                for row in rows:
                    if token_matches(token, row.token_hash):
                        row.account_id = account.id
                        row.name = account.name
                        taken.append((table_id, row.seat))
        return taken

    def seat_token(self, account_id: str, table_id: str, held: str | None) -> tuple[int, str] | None:
        """The account's seat at the table and a token that plays it: `held` when it is that seat's token
        already, else a fresh one (the seat's previous token then stops working at its next connection).
        None when the account holds no seat there."""
        with self.store.session() as session:
            row = session.scalar(
                select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.account_id == account_id).limit(1)
            )
            if row is None:
                return None
            if held is not None and token_matches(held, row.token_hash):
                return row.seat, held
            token = new_token()
            row.token_hash = hash_token(token)
            return row.seat, token

    def seats_of(self, account_id: str) -> list[HeldSeat]:
        """Every seat the account holds, newest table first."""
        with self.store.session() as session:
            rows = session.execute(
                select(TableRow.id, TableRow.game, TableRow.status, SeatRow.seat, TableRow.result, TableRow.created_at)
                .join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(SeatRow.account_id == account_id)
                .order_by(TableRow.created_at.desc())
            ).all()
        return [HeldSeat(*row) for row in rows]
