"""Persistence: the tables, seats and events of `warcards serve` (SQLAlchemy 2, sync), and the store the
lobby and the hubs use.

A table is its event log: the game, its options and its seed (rows of `tables`) and the actions accepted,
one row of `events` each, numbered from 1 per table. Replaying those actions from the seed rebuilds the
game exactly (`warcards.match.replay` checks the same record). Seat tokens are stored as their SHA-256
only. The schema is created and upgraded by the Alembic migrations in `warcards/server/migrations`
(`migrate` runs them); the models below describe the same schema for queries.

Sync SQLAlchemy, called from the event loop through a thread (`asyncio.to_thread`): docs/server.md says why.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import CursorResult, Engine, Result
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from warcards.server.migrate import upgrade


def rows_changed(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE changed: `Session.execute` returns the `CursorResult` that counts
    them, typed as its `Result` base."""
    assert isinstance(result, CursorResult), type(result)
    return result.rowcount


TOKEN_BYTES = 24
"""Seat tokens carry 192 bits from `secrets` (at least 128 are required)."""

CHANNEL = "warcards_events"
"""The PostgreSQL `NOTIFY` channel of accepted events (payload: table id, a space, the event number)."""

CHAT_CHANNEL = "warcards_chat"
"""The PostgreSQL `NOTIFY` channel of chat messages (payload: table id, a space, the message's number)."""

TABLE_ID_BYTES = 9
"""Table ids (what an invite link names) carry 72 random bits: not guessable, but not a credential."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    public: Mapped[bool] = mapped_column(Boolean)
    timer: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    status: Mapped[str] = mapped_column(String(16))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    bot_owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The server process that plays this table's bots and stand-ins (`Server.owner`; migration 0003) ..."""
    bot_lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    """... until this time (seconds since the epoch) unless it renews the lease; then any process may take it."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """Chosen at creation (migration 0004): the result changes the seats' accounts' ratings."""
    chat: Mapped[bool] = mapped_column(Boolean, default=True)
    """Chosen at creation (migration 0007): False, the table has no chat at all (`social`)."""


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    stand_in_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The token hash of the stand-in bot holding this seat after a timeout (migration 0002)."""
    stand_in_event: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The table's event number when the stand-in took the seat."""
    account_id: Mapped[str | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    """The account holding this seat (migration 0004); None for a guest or a bot."""


class EventRow(Base):
    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    event_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[int | None] = mapped_column(Integer, nullable=True)
    client_id: Mapped[str | None] = mapped_column(Text, nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    clock: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    """A chess clock's banks (seconds per seat) right after the event; None without one (migration 0002)."""
    by_stand_in: Mapped[bool] = mapped_column(Boolean, default=False)
    """A stand-in bot played this act for the seat's player (migration 0006): the game is not rated."""


class AccountRow(Base):
    """A player's account (migration 0004). Deleting one keeps its games: the row stays with its name
    replaced by the neutral name and its secrets cleared (`deleted_at` set)."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(128), unique=True)
    """The name folded for lookups and uniqueness (two accounts cannot differ only by case or width)."""
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    """argon2 (pwdlib); None once the account is deleted."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    notify_turns: Mapped[bool] = mapped_column(Boolean, default=False)
    """Opted in to one email when it becomes their turn in a correspondence game."""
    unsubscribe_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """SHA-256 of the token in the one-click unsubscribe link."""
    failed_signins: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    """No sign-in is tried before this time (seconds since the epoch): the growing delay after failures."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SessionRow(Base):
    """A signed-in browser (migration 0004): the cookie holds the key, the row its SHA-256."""

    __tablename__ = "sessions"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """An account's openskill rating in one game and player-count group ('' where the count does not
    change the game; e.g. '4p' where it does) (migration 0004)."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    group: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """What one rated game did to one seat's rating (migration 0004). Its key (table, seat) is what makes
    a game's update apply once: it is written in the transaction that records the result."""

    __tablename__ = "rating_changes"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(64))
    group: Mapped[str] = mapped_column(String(16))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def data_folder() -> Path:
    """The user's data folder for warcards: `$XDG_DATA_HOME/warcards`, else `~/.local/share/warcards`."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "warcards"


def default_url() -> str:
    """The default database: a SQLite file in the user's data folder (created on first use)."""
    return f"sqlite:///{data_folder() / 'server.sqlite3'}"


def normalize_url(url: str) -> str:
    """`postgresql://…` uses psycopg 3 (SQLAlchemy's default PostgreSQL driver is psycopg2)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    kind: str
    level: str | None
    name: str | None
    taken: bool
    account_id: str | None = None
    """The account holding the seat (never sent to a client: a profile is found by its name)."""


@dataclass(frozen=True)
class TableInfo:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    public: bool
    timer: dict[str, Any] | None
    status: str
    result: dict[str, Any] | None
    seats: tuple[SeatInfo, ...]
    rated: bool = False
    chat: bool = True


@dataclass(frozen=True)
class EventInfo:
    event_no: int
    kind: str
    seat: int | None
    action: int | None
    client_id: str | None
    at: float | None = field(default=None, compare=False)
    """When it was committed (seconds since the epoch; None: now). Not part of an event's identity."""
    clock: list[float] | None = None
    """A chess clock's banks right after it."""
    stand_in: bool = False
    """A stand-in bot played it (an act) for the seat's player."""


class Store:
    """The database of one server process: every method is one short transaction (call it from a thread)."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        if self.url.startswith("sqlite:///") and not self.url.startswith("sqlite:///:memory:"):
            Path(self.url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(self.url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.writer = GroupWriter(self)
        """The process's group commit of accepted events (the hubs commit through it)."""

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self.sessions.begin() as session:
            yield session

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest migration (Alembic)."""
        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def listen(
        self, stop: threading.Event, notify: Callable[[str, int], None],
        chat: Callable[[str, int], None] | None = None,
    ) -> None:
        """Call `notify(table_id, event_no)` for every event any process commits, and `chat(table_id,
        number)` for every chat message (PostgreSQL only; blocks until `stop` is set — run it in a thread)."""
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            if chat is not None:
                connection.execute(f"LISTEN {CHAT_CHANNEL}")
            while not stop.is_set():
                for message in connection.notifies(timeout=0.5):
                    table_id, _, number = message.payload.partition(" ")
                    if message.channel == CHAT_CHANNEL and chat is not None:
                        chat(table_id, int(number))
                    else:
                        notify(table_id, int(number))

    # ----- tables and seats -------------------------------------------------------------------------------
    def create_table(
        self,
        game: str,
        options: dict[str, Any],
        seed: int,
        public: bool,
        timer: dict[str, Any] | None,
        seats: list[tuple[str, str | None]],
        rated: bool = False,
        chat: bool = True,
    ) -> tuple[str, dict[int, str]]:
        """A new table; returns its id and the tokens of its bot seats (bots are seated at once). A `rated`
        table's result changes its seats' accounts' ratings (docs/server.md, "Ratings"); `chat` False: a
        table without chat."""
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        bot_tokens: dict[int, str] = {}
        with self.session() as session:
            session.add(
                TableRow(
                    id=table_id, game=game, options=options, seed=seed, public=public, timer=timer,
                    status="open", result=None, created_at=now(), rated=rated, chat=chat,
                )
            )
            session.flush()
            for number, (kind, level) in enumerate(seats):
                token_hash = None
                name = None
                if kind == "bot":
                    token = new_token()
                    bot_tokens[number] = token
                    token_hash = hash_token(token)
                    name = f"bot ({level})"
                session.add(
                    SeatRow(table_id=table_id, seat=number, kind=kind, level=level, name=name, token_hash=token_hash)
                )
        return table_id, bot_tokens

    def table(self, table_id: str) -> TableInfo | None:
        with self.session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            return self._info(session, row)

    def _info(self, session: Session, row: TableRow) -> TableInfo:
        seats = session.scalars(select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)).all()
        return TableInfo(
            id=row.id, game=row.game, options=dict(row.options), seed=row.seed, public=row.public,
            timer=row.timer, status=row.status, result=row.result,
            seats=tuple(
                SeatInfo(s.seat, s.kind, s.level, s.name, s.token_hash is not None, s.account_id) for s in seats
            ),
            rated=bool(row.rated),
            chat=row.chat,
        )

    def tables(self, public_only: bool = True, status: str | None = None) -> list[TableInfo]:
        with self.session() as session:
            query = select(TableRow).order_by(TableRow.created_at)
            if public_only:
                query = query.where(TableRow.public.is_(True))
            if status is not None:
                query = query.where(TableRow.status == status)
            return [self._info(session, row) for row in session.scalars(query).all()]

    def take_seat(self, table_id: str, seat: int, name: str, account_id: str | None = None) -> str | None:
        """Seat `name` (of `account_id`, when signed in) in an open person seat; the new token, or None when
        the seat is taken (a race lost)."""
        token = new_token()
        with self.session() as session:
            done = session.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "person",
                    SeatRow.token_hash.is_(None),
                )
                .values(name=name, token_hash=hash_token(token), account_id=account_id)
            )
            if rows_changed(done) != 1:
                return None
        return token

    def free_seat(self, table_id: str, seat: int) -> None:
        with self.session() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(name=None, token_hash=None, account_id=None)
            )

    def seat_of_token(self, table_id: str, token: str) -> int | None:
        """The seat whose token this is (compared in constant time against each seat's hash), or None."""
        with self.session() as session:
            rows = session.execute(
                select(SeatRow.seat, SeatRow.token_hash).where(SeatRow.table_id == table_id)
            ).all()
        found = None
        for seat, stored in rows:
            if token_matches(token, stored):
                found = seat
        return found

    def new_bot_tokens(self, table_id: str) -> dict[int, str]:
        """Fresh tokens for the bot seats of a table (after a restart: only hashes were kept)."""
        return self._fresh_tokens(table_id, SeatRow.kind == "bot", "token_hash")

    def _fresh_tokens(self, table_id: str, which: Any, column: str) -> dict[int, str]:
        """New tokens for the table's seats matching `which`, their hashes stored in `column`."""
        tokens: dict[int, str] = {}
        with self.session() as session:
            for row in session.scalars(select(SeatRow).where(SeatRow.table_id == table_id, which)).all():
                token = new_token()
                setattr(row, column, hash_token(token))
                tokens[row.seat] = token
        return tokens

    def set_stand_in(self, table_id: str, seat: int, token_hash: str | None, event_no: int | None) -> None:
        """A stand-in bot holds `seat` from the table's event `event_no` on (its token's hash), or (None)
        the seat's player took it back."""
        with self.session() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(stand_in_hash=token_hash, stand_in_event=event_no)
            )

    def stand_ins(self, table_id: str) -> dict[int, tuple[str, int | None]]:
        """The seats a stand-in holds: seat -> (its token's hash, the event number it took the seat at)."""
        with self.session() as session:
            rows = session.execute(
                select(SeatRow.seat, SeatRow.stand_in_hash, SeatRow.stand_in_event)
                .where(SeatRow.table_id == table_id, SeatRow.stand_in_hash.is_not(None))
            ).all()
        return {seat: (token_hash, event_no) for seat, token_hash, event_no in rows if token_hash is not None}

    def renew_stand_ins(self, table_id: str) -> dict[int, str]:
        """Fresh tokens for the table's stand-ins (after a restart: only hashes were kept)."""
        return self._fresh_tokens(table_id, SeatRow.stand_in_hash.is_not(None), "stand_in_hash")

    # ----- bot leases ---------------------------------------------------------------------------------------
    def take_bot_lease(self, table_id: str, owner: str, until: float, at: float) -> bool:
        """Make `owner` the process that plays the table's bots until `until`, in one conditional UPDATE:
        only when nobody holds the lease, `owner` already does, or its holder let it expire before `at`.
        True when `owner` holds it now (of processes racing for an expired lease, one wins)."""
        with self.session() as session:
            done = session.execute(
                update(TableRow)
                .where(
                    TableRow.id == table_id, TableRow.status != "finished",
                    or_(TableRow.bot_owner.is_(None), TableRow.bot_owner == owner, TableRow.bot_lease_until < at),
                )
                .values(bot_owner=owner, bot_lease_until=until)
            )
            return rows_changed(done) == 1

    def take_every_bot_lease(self, owner: str, until: float) -> None:
        """Every unfinished table's bots are `owner`'s (a SQLite database has one process: a process that
        starts on it is the only one, and the leases it finds are those of its own previous run)."""
        with self.session() as session:
            session.execute(
                update(TableRow).where(TableRow.status != "finished").values(bot_owner=owner, bot_lease_until=until)
            )

    def renew_bot_leases(self, owner: str, until: float) -> list[str]:
        """Extend every lease `owner` holds on an unfinished table to `until`; the ids of those tables."""
        with self.session() as session:
            held = TableRow.bot_owner == owner, TableRow.status != "finished"
            session.execute(update(TableRow).where(*held).values(bot_lease_until=until))
            return list(session.scalars(select(TableRow.id).where(*held)).all())

    def release_bot_leases(self, owner: str) -> None:
        """`owner` stops (a clean shutdown): its leases end now, so another process takes its tables' bots
        over at its next look instead of after the lease's time."""
        with self.session() as session:
            session.execute(update(TableRow).where(TableRow.bot_owner == owner).values(bot_lease_until=0.0))

    def tables_without_their_bots(self, at: float) -> list[str]:
        """Unfinished tables that have bots to play (bot seats, or stand-ins) and whose lease nobody holds
        at `at`: their bots' process is gone (or never took them)."""
        bots = select(SeatRow.table_id).where(or_(SeatRow.kind == "bot", SeatRow.stand_in_hash.is_not(None)))
        with self.session() as session:
            return list(
                session.scalars(
                    select(TableRow.id).where(
                        TableRow.status != "finished", TableRow.id.in_(bots),
                        or_(TableRow.bot_owner.is_(None), TableRow.bot_lease_until < at),
                    )
                ).all()
            )

    def set_status(self, table_id: str, status: str, result: dict[str, Any] | None = None) -> None:
        with self.session() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(status=status, result=result))

    # ----- ratings ------------------------------------------------------------------------------------------
    def finish_table(self, table_id: str, result: dict[str, Any]) -> dict[str, Any]:
        """Record the end in one transaction: the status, the result and (a rated table) the ratings and
        rating changes it makes (`warcards.server.ratings.rate`). Only the first call changes anything: its
        first statement is a conditional UPDATE of the status (an unfinished table only), which takes the
        write lock (SQLite) or the row's lock (PostgreSQL) before anything is read, so a concurrent call
        waits and then finds the table finished; and each (table, seat) rating change is a primary key.
        Returns the result as stored (with its ratings part), this call's or the one that came first
        (another process, or the run before a crash)."""
        from warcards.server.ratings import rate

        with self.session() as session:
            claimed = session.execute(
                update(TableRow).where(TableRow.id == table_id, TableRow.status != "finished").values(status="finished")
            )
            row = session.get_one(TableRow, table_id)
            if rows_changed(claimed) != 1:
                return dict(row.result or {})
            stored = {**result, **rate(session, row, result)}
            row.result = stored
            return stored

    # ----- events -----------------------------------------------------------------------------------------
    def append_events(self, table_id: str, events: list[EventInfo]) -> None:
        """Commit accepted events (one transaction): a duplicate event number fails, nothing is written.
        On PostgreSQL the same transaction sends `NOTIFY warcards_events, 'TABLE EVENT_NO'`, so every server
        process sharing the database forwards the event to its own connections."""
        with self.session() as session:
            self._add_events(session, table_id, events)

    def append_groups(self, groups: list[tuple[str, list[EventInfo]]]) -> list[IntegrityError | None]:
        """Commit several tables' events at once (a group commit, `GroupWriter`): one transaction for all;
        if any group's event number is taken (another process came first), each group is committed again
        on its own, so only the groups that lost fail. One answer per group: None, or its error."""
        try:
            with self.session() as session:
                for table_id, events in groups:
                    self._add_events(session, table_id, events)
            return [None] * len(groups)
        except IntegrityError:
            if len(groups) == 1:
                raise
        answers: list[IntegrityError | None] = []
        for table_id, events in groups:
            try:
                self.append_events(table_id, events)
                answers.append(None)
            except IntegrityError as error:
                answers.append(error)
        return answers

    def _add_events(self, session: Session, table_id: str, events: list[EventInfo]) -> None:
        for item in events:
            session.add(
                EventRow(
                    table_id=table_id, event_no=item.event_no, kind=item.kind, seat=item.seat,
                    action=item.action, client_id=item.client_id, clock=item.clock, by_stand_in=item.stand_in,
                    at=now() if item.at is None else datetime.fromtimestamp(item.at, UTC),
                )
            )
        if self.engine.dialect.name == "postgresql" and events:
            session.flush()
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": f"{table_id} {events[-1].event_no}"},
            )

    def events(self, table_id: str) -> list[EventInfo]:
        return self.events_after(table_id, 0)

    def events_after(self, table_id: str, after: int) -> list[EventInfo]:
        """The table's events numbered after `after`, in order."""
        with self.session() as session:
            rows = session.scalars(
                select(EventRow)
                .where(EventRow.table_id == table_id, EventRow.event_no > after)
                .order_by(EventRow.event_no)
            ).all()
            return [
                EventInfo(
                    r.event_no, r.kind, r.seat, r.action, r.client_id, _seconds(r.at), r.clock, bool(r.by_stand_in)
                )
                for r in rows
            ]


def _seconds(at: datetime) -> float:
    """A stored time as seconds since the epoch (SQLite gives it back without its zone: it is UTC)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class GroupWriter:
    """Commits for every table of a process, gathered: while one transaction is being written, the events
    other tables accept wait and go together in the next one (`Store.append_groups`). Each table still has
    its events committed before it acknowledges or broadcasts them; the database does one commit for many
    tables instead of one each."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pending: list[tuple[str, list[EventInfo], asyncio.Future[None]]] = []
        self.writing: asyncio.Task[None] | None = None

    async def commit(self, table_id: str, events: list[EventInfo]) -> None:
        """Commit `events` of `table_id`; raises `IntegrityError` when another process took their numbers."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((table_id, events, done))
        if self.writing is None or self.writing.done():
            self.writing = asyncio.create_task(self._write())
        await done

    async def _write(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            try:
                answers = await asyncio.to_thread(self.store.append_groups, [(t, e) for t, e, _ in batch])
            except Exception as error:  # the database failed: every waiting table hears it
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            for (_, _, done), answer in zip(batch, answers, strict=True):
                if done.done():
                    continue
                if answer is None:
                    done.set_result(None)
                else:
                    done.set_exception(answer)
