"""Table chat and rematches (docs/protocol.md, "Chat" and "Rematch"; docs/server.md, "Chat and rematches").

Chat is people's text only: a seat writes to the `players` channel, a spectator to the `spectators`
channel. The people seated read both; spectators read only their own (as lichess hides the players' chat
from spectators during play, so nobody watching can whisper the table's hidden cards to a player — or be
told them). A bot never reads chat: a bot seat's connections and a stand-in's get no chat frame at all and
cannot write. Messages are stored with the table (migration 0007) and sent in the catch-up after each
`hello` (`chat_log`), the reader's mutes applied. A mute is per table and per seat, stored, and hides the
muted seat's messages from the seat that muted it only: they are still stored and others read them.

A rematch is proposed after the end by one person seat's `rematch` and accepted by each person's (bots
accept at once); when every person has accepted, a new table with the same game, options, timer, chat
setting, privacy and seats is created, each person already seated in the same seat under the same name
(and account), and each seat's connections are sent that seat's new token only. A `rematch` with
`accept: false` declines: the proposal is cancelled and every reader is told who declined. A proposal
lives in the memory of the process holding the table for an hour after its last answer (a restart
forgets it: propose again).
"""

from __future__ import annotations

import asyncio
import secrets
import time
import unicodedata
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, delete, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from warcards.server import protocol as p
from warcards.server.connection import Connection
from warcards.server.db import CHAT_CHANNEL, Base, SeatRow, Store, hash_token, new_token
from warcards.server.hub import TableHub

if TYPE_CHECKING:
    from warcards.server.process import Server

MEMORY = 1000
"""The newest chat messages of a table kept in memory (and read from the database when a table loads)."""


class ChatMessageRow(Base):
    """One chat message (migration 0007), numbered from 1 per table."""

    __tablename__ = "chat_messages"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat that wrote it; None for a spectator."""
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMuteRow(Base):
    """`seat` does not read `muted_seat`'s chat at this table (migration 0007)."""

    __tablename__ = "chat_mutes"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    muted_seat: Mapped[int] = mapped_column(Integer, primary_key=True)


# ----- the text ---------------------------------------------------------------------------------------------
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them (they can make a message show what it does not say)."""

JOINERS = frozenset("\u200c\u200d")
"""Format characters that scripts and emoji sequences need (zero-width non-joiner and joiner)."""

REMOVED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
"""Control, format, surrogate, private-use and unassigned code points: none is text a person reads."""


def clean_chat(text: str) -> str:
    """A chat message as it is stored and shown: line breaks and tabs become spaces, control and
    bidirectional-override characters (and every other invisible format character but the joiners) are
    taken out, runs of white space fold into one space, and the ends are trimmed. Raises `ValueError`
    with a sentence when nothing is left or more than `MAX_CHAT` characters are."""
    kept = []
    for char in text:
        if char in "\n\r\t":
            kept.append(" ")
        elif char in JOINERS or (char not in BIDI_CONTROLS and unicodedata.category(char) not in REMOVED_CATEGORIES):
            kept.append(char)
    cleaned = " ".join("".join(kept).split())
    if not cleaned:
        raise ValueError("a chat message needs some text (control and direction characters are taken out)")
    if len(cleaned) > p.MAX_CHAT:
        raise ValueError(f"a chat message is at most {p.MAX_CHAT} characters; this one has {len(cleaned)}")
    return cleaned


# ----- the store --------------------------------------------------------------------------------------------
def load_chat(store: Store, table_id: str) -> tuple[list[p.Chat], dict[int, set[int]]]:
    """The table's newest `MEMORY` messages (oldest first) and every seat's mutes."""
    with store.session() as session:
        rows = session.scalars(
            select(ChatMessageRow).where(ChatMessageRow.table_id == table_id)
            .order_by(ChatMessageRow.number.desc()).limit(MEMORY)
        ).all()
        mutes: dict[int, set[int]] = {}
        for mute in session.scalars(select(ChatMuteRow).where(ChatMuteRow.table_id == table_id)).all():
            mutes.setdefault(mute.seat, set()).add(mute.muted_seat)
        return [_chat_of(row) for row in reversed(rows)], mutes


def _chat_of(row: ChatMessageRow) -> p.Chat:
    at = row.at if row.at.tzinfo is not None else row.at.replace(tzinfo=UTC)
    return p.Chat(
        number=row.number, channel=row.channel, from_=row.seat,  # type: ignore[arg-type]  # the channel column is a str; it holds only the channels p.Chat names (written from one)
        name=row.name, text=row.text, at=round(at.timestamp(), 3),
    )


def add_chat(store: Store, table_id: str, message: p.Chat) -> None:
    """Store one message; `IntegrityError` when its number is taken (another process wrote one first). On
    PostgreSQL the same transaction sends `NOTIFY warcards_chat, 'TABLE NUMBER'`: every process holding the
    table sends it to its own readers (`forward_chat`)."""
    with store.session() as session:
        session.add(
            ChatMessageRow(
                table_id=table_id, number=message.number, channel=message.channel, seat=message.from_,
                name=message.name, text=message.text, at=datetime.fromtimestamp(message.at, UTC),
            )
        )
        if store.engine.dialect.name == "postgresql":
            session.flush()
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHAT_CHANNEL, "payload": f"{table_id} {message.number}"},
            )


def set_mute(store: Store, table_id: str, seat: int, muted_seat: int, muted: bool) -> None:
    with store.session() as session:
        session.execute(
            delete(ChatMuteRow).where(
                ChatMuteRow.table_id == table_id, ChatMuteRow.seat == seat, ChatMuteRow.muted_seat == muted_seat
            )
        )
        if muted:
            session.add(ChatMuteRow(table_id=table_id, seat=seat, muted_seat=muted_seat))


def seat_people(store: Store, table_id: str, from_table: str) -> dict[int, str]:
    """Seat each person of `from_table` in the same seat of the new table `table_id`, under the same name
    and account (one transaction); the new tokens, by seat."""
    tokens: dict[int, str] = {}
    with store.session() as session:
        old = session.scalars(
            select(SeatRow).where(SeatRow.table_id == from_table, SeatRow.kind == "person")
        ).all()
        for seat in old:
            token = tokens[seat.seat] = new_token()
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat.seat)
                .values(name=seat.name, account_id=seat.account_id, token_hash=hash_token(token))
            )
    return tokens


# ----- each table's chat and rematch, in memory -------------------------------------------------------------
@dataclass(eq=False)
class Proposal:
    """A rematch proposed after the end: the seats that accepted (bots at once); once every seat has, the
    new table and each person seat's token there (sent again to the seat's connections on a reconnect)."""

    accepted: set[int]
    table: str | None = None
    tokens: dict[int, str] = field(default_factory=dict)
    touched: float = field(default_factory=time.monotonic)


REMATCH_SECONDS = 3600.0
"""How long a rematch proposal (and, once ready, each seat's new token) is kept after its last answer."""

PROPOSALS: dict[str, Proposal] = {}
"""Finished table id -> its rematch, in this process's memory (not the hub's: a finished table leaves
memory as soon as nobody is connected, and a seat that reconnects is sent its new token again)."""


def proposal_of(table_id: str) -> Proposal | None:
    keep_proposal(None, None)
    return PROPOSALS.get(table_id)


def keep_proposal(table_id: str | None, proposal: Proposal | None) -> None:
    """Keep (or with None, forget) the table's proposal, letting go of those older than `REMATCH_SECONDS`."""
    now = time.monotonic()
    for stale in [key for key, kept in PROPOSALS.items() if now - kept.touched > REMATCH_SECONDS]:
        del PROPOSALS[stale]
    if table_id is None:
        return
    if proposal is None:
        PROPOSALS.pop(table_id, None)
    else:
        proposal.touched = now
        PROPOSALS[table_id] = proposal


@dataclass(eq=False)
class TableSocial:
    """One table's chat (its newest messages, its mutes, the connections that read it) and its rematch."""

    enabled: bool
    messages: list[p.Chat] = field(default_factory=list)
    mutes: dict[int, set[int]] = field(default_factory=dict)
    readers: dict[Connection, str] = field(default_factory=dict)
    """The connections that read chat, each with its writer's name for a spectator ("Spectator 2")."""
    spectators: int = 0
    answers: dict[tuple[int, str], str] = field(default_factory=dict)
    """(seat, client message id) -> the answer sent: a repeated id gets it again, nothing is sent twice."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    loaded: bool = False


SOCIAL: weakref.WeakKeyDictionary[TableHub, TableSocial] = weakref.WeakKeyDictionary()
"""Each hub's chat and rematch: it goes with the hub when the process lets the table go."""


async def social_of(hub: TableHub) -> TableSocial:
    """The table's chat and rematch, its messages and mutes read from the database on first use."""
    social = SOCIAL.get(hub)
    if social is None:
        social = SOCIAL[hub] = TableSocial(enabled=hub.info.chat)
    if not social.loaded:
        async with social.lock:
            if not social.loaded and social.enabled:
                social.messages, social.mutes = await asyncio.to_thread(load_chat, hub.store, hub.id)
            social.loaded = True
    return social


def reads_chat(hub: TableHub, connection: Connection) -> bool:
    """A person's connection or a spectator's: never a bot's, nor a stand-in's."""
    if connection.stand_in:
        return False
    return connection.seat is None or hub.info.seats[connection.seat].kind == "person"


def sees(social: TableSocial, reader: Connection, message: p.Chat) -> bool:
    """Whether `reader` gets `message`: spectators read the spectators' channel only; a seat reads both,
    but not the seats it muted."""
    if reader.seat is None:
        return message.channel == "spectators"
    return message.from_ is None or message.from_ not in social.mutes.get(reader.seat, set())


def chat_log(hub: TableHub, social: TableSocial, reader: Connection) -> p.ChatLog:
    visible = [message for message in social.messages if sees(social, reader, message)][-p.CHAT_LOG:]
    muted = sorted(social.mutes.get(reader.seat, set())) if reader.seat is not None else []
    return p.ChatLog(
        enabled=social.enabled, name=writer_name(hub, social, reader),
        messages=visible if social.enabled else [], muted=muted,
    )


async def attached(hub: TableHub, connection: Connection, wants_chat: bool) -> None:
    """After a connection's catch-up: a person or a spectator that asked for chat (its `hello`) reads it
    from now on (`join`), the log read again from the database (another process may have written to it). A
    bot's connection gets nothing."""
    if wants_chat and reads_chat(hub, connection):
        social = await social_of(hub)
        async with social.lock:
            if social.enabled:  # what other processes on the same database wrote since this one read it
                social.messages, social.mutes = await asyncio.to_thread(load_chat, hub.store, hub.id)
            join(hub, social, connection)


def join(hub: TableHub, social: TableSocial, connection: Connection) -> None:
    """`connection` reads chat from now on: its `chat_log` and, after the end, where a rematch stands (call
    it holding `social.lock`). A spectator is named "Spectator N" in the order they joined."""
    if connection in social.readers:
        return
    name = ""
    if connection.seat is None:
        social.spectators += 1
        name = f"Spectator {social.spectators}"
    social.readers[connection] = name
    connection.send(chat_log(hub, social, connection))
    proposal = proposal_of(hub.id)
    if hub.finished and proposal is not None:
        connection.send(rematch_frame(hub, proposal, connection.seat))


def detached(hub: TableHub, connection: Connection) -> None:
    social = SOCIAL.get(hub)
    if social is not None:
        social.readers.pop(connection, None)


def no_chat(hub: TableHub, social: TableSocial, connection: Connection) -> tuple[str, str] | None:
    """Why this connection may not chat or mute at this table (a refusal's code and message), or None."""
    if not reads_chat(hub, connection):
        return "chat_refused", "a bot does not chat: chat is for the people at the table"
    if not social.enabled:
        return "chat_off", "this table was created with chat off: it has no chat"
    return None


def refuse(connection: Connection, client_id: str, code: str, message: str) -> None:
    connection.send(p.Refused(id=client_id, code=code, message=message))


def writer_name(hub: TableHub, social: TableSocial, connection: Connection) -> str:
    if connection.seat is None:
        return social.readers.get(connection) or "Spectator"
    return hub.info.seats[connection.seat].name or hub.seat_names[connection.seat]


async def chat(server: Server, hub: TableHub, connection: Connection, message: p.ChatSend, address: str) -> None:
    """One `chat`: checked (who may write where, the text, the rate), stored, then sent to every reader that
    sees it (the writer too) and acknowledged."""
    seat = connection.seat
    social = await social_of(hub)
    if seat is not None and (seat, message.id) in social.answers:
        connection.send_text(social.answers[(seat, message.id)])
        return
    refusal = no_chat(hub, social, connection)
    if refusal is not None:
        return refuse(connection, message.id, *refusal)
    channel = "players" if seat is not None else "spectators"
    if message.channel not in (None, channel):
        return refuse(
            connection, message.id, "chat_refused",
            "a seat writes to the players' channel only (it reads the spectators' too)" if seat is not None
            else "a spectator writes to the spectators' channel only; the players' channel is for the seats",
        )
    try:
        cleaned = clean_chat(message.text)
    except ValueError as error:
        return refuse(connection, message.id, "chat_refused", str(error))
    key = (hub.id, seat) if seat is not None else (hub.id, "spectators", address)
    if not server.chat_buckets.take(key):
        config = server.config
        return refuse(
            connection, message.id, "chat_limited",
            f"at most {config.chat_rate:g} chat messages a second ({config.chat_burst:g} at once)"
            f"{' from one seat' if seat is not None else ' from the spectators of one address'}: wait a moment",
        )
    async with social.lock:
        chat_message = p.Chat(
            number=(social.messages[-1].number if social.messages else 0) + 1, channel=channel,  # type: ignore[arg-type]  # channel was checked against p.Chat's channels when the message came in
            from_=seat, name=writer_name(hub, social, connection), text=cleaned, at=round(time.time(), 3),
        )
        try:
            await asyncio.to_thread(add_chat, hub.store, hub.id, chat_message)
        except IntegrityError:  # another process took the number: read its messages, then take the next
            social.messages, social.mutes = await asyncio.to_thread(load_chat, hub.store, hub.id)
            chat_message.number = social.messages[-1].number + 1
            await asyncio.to_thread(add_chat, hub.store, hub.id, chat_message)
        social.messages.append(chat_message)
        del social.messages[:-MEMORY]
        frame = chat_message.model_dump_json()
        for reader in social.readers:
            if sees(social, reader, chat_message):
                reader.send_text(frame)
        ack = p.Ack(id=message.id, event_no=hub.position(seat)).model_dump_json()
        if seat is not None:
            social.answers[(seat, message.id)] = ack
        connection.send_text(ack)


async def forward_chat(server: Server, table_id: str, number: int) -> None:
    """Another process (or this one) stored message `number` of the table: if this process holds the table
    and its chat, send its readers the messages it has not sent yet (read from the database)."""
    hub = server.hubs.get(table_id)
    social = SOCIAL.get(hub) if hub is not None else None
    if hub is None or social is None or not social.loaded or not social.enabled:
        return
    async with social.lock:
        last = social.messages[-1].number if social.messages else 0
        if last >= number:
            return
        social.messages, social.mutes = await asyncio.to_thread(load_chat, hub.store, hub.id)
        for message in social.messages:
            if message.number > last:
                frame = message.model_dump_json()
                for reader in social.readers:
                    if sees(social, reader, message):
                        reader.send_text(frame)


async def mute(hub: TableHub, connection: Connection, message: p.Mute) -> None:
    """One `mute`: the seat stops (or starts again) reading another seat's chat; stored; its readers get a
    fresh `chat_log`."""
    seat = connection.seat
    social = await social_of(hub)
    refusal = no_chat(hub, social, connection)
    if seat is None:
        refusal = "spectator", "a spectator has no seat to mute from: mutes are the seats'"
    if refusal is not None:
        return refuse(connection, message.id, *refusal)
    assert seat is not None
    seats = len(hub.info.seats)
    if message.seat >= seats or message.seat == seat:
        return refuse(
            connection, message.id, "chat_refused",
            "you cannot mute yourself" if message.seat == seat else f"this table has seats 0 to {seats - 1}",
        )
    async with social.lock:
        await asyncio.to_thread(set_mute, hub.store, hub.id, seat, message.seat, message.muted)
        muted = social.mutes.setdefault(seat, set())
        if message.muted:
            muted.add(message.seat)
        else:
            muted.discard(message.seat)
        for reader in social.readers:
            if reader.seat == seat:
                reader.send(chat_log(hub, social, reader))
        connection.send(p.Ack(id=message.id, event_no=hub.position(seat)))


# ----- rematch ----------------------------------------------------------------------------------------------
def person_seats(hub: TableHub) -> list[int]:
    return [seat.seat for seat in hub.info.seats if seat.kind == "person"]


def seat_label(hub: TableHub, seat: int) -> str:
    return hub.info.seats[seat].name or hub.seat_names[seat]


def rematch_frame(hub: TableHub, proposal: Proposal, reader: int | None) -> p.Rematch:
    """Where `proposal` stands, as `reader` reads it (a token only for its own seat)."""
    seats = range(len(hub.info.seats))
    accepted = sorted(proposal.accepted)
    waiting = [seat for seat in seats if seat not in proposal.accepted]
    if proposal.table is not None:
        return p.Rematch(
            status="ready", accepted=accepted, waiting=[], table=proposal.table,
            seat=reader, token=proposal.tokens.get(reader) if reader is not None else None,
            message="everyone accepted: the rematch is ready",
        )
    names = ", ".join(seat_label(hub, seat) for seat in waiting)
    return p.Rematch(
        status="proposed", accepted=accepted, waiting=waiting,
        message=f"a rematch is proposed: waiting for {names}",
    )


def tell(social: TableSocial, frame_of: Callable[[int | None], p.Rematch]) -> None:
    """Send every reader its own rematch frame (`frame_of(its seat)`)."""
    for reader in social.readers:
        reader.send(frame_of(reader.seat))


async def rematch(server: Server, hub: TableHub, connection: Connection, message: p.RematchAnswer) -> None:
    """One `rematch`: propose or accept (`accept`), or decline. When every person seat has accepted, the new
    table is made and each seat's connections get their own new token."""
    seat = connection.seat
    if seat is None:
        return refuse(connection, message.id, "spectator", "a spectator cannot propose or answer a rematch")
    if not reads_chat(hub, connection):
        return refuse(connection, message.id, "rematch_refused", "a bot accepts every rematch: only people answer")
    if not hub.finished:
        return refuse(connection, message.id, "rematch_refused", "the game is not over: a rematch is proposed after the end")
    social = await social_of(hub)
    async with social.lock:
        proposal = proposal_of(hub.id)
        if proposal is not None and proposal.table is not None:
            connection.send(rematch_frame(hub, proposal, seat))
        elif not message.accept:
            if proposal is None:
                return refuse(connection, message.id, "rematch_refused", "no rematch is proposed: nothing to decline")
            keep_proposal(hub.id, None)
            declined = p.Rematch(
                status="declined", accepted=sorted(proposal.accepted), waiting=[], by=seat,
                message=f"{seat_label(hub, seat)} declined the rematch",
            )
            tell(social, lambda _: declined)
        else:
            if proposal is None:
                bots = {s.seat for s in hub.info.seats if s.kind == "bot"}
                proposal = Proposal(accepted=bots)
            proposal.accepted.add(seat)
            keep_proposal(hub.id, proposal)
            if all(person in proposal.accepted for person in person_seats(hub)):
                problem = await make_rematch(server, hub, proposal)
                if problem is not None:
                    keep_proposal(hub.id, None)
                    failed = p.Rematch(status="failed", accepted=[], waiting=[], message=problem)
                    tell(social, lambda _: failed)
                    connection.send(p.Ack(id=message.id, event_no=hub.position(seat)))
                    return None
            tell(social, lambda reader: rematch_frame(hub, proposal, reader))
        connection.send(p.Ack(id=message.id, event_no=hub.position(seat)))
    return None


async def make_rematch(server: Server, hub: TableHub, proposal: Proposal) -> str | None:
    """Create the rematch table (same game, options, timer, chat, privacy and seats), seat each person in
    their seat, start it, launch its bots; None, or why it could not be made."""
    if server.draining:
        return "the server is restarting: propose the rematch again in a moment"
    config = server.config
    held = sum(not other.finished for other in server.hubs.values())
    if config.max_open_tables and held >= config.max_open_tables:
        return f"this server holds {held} unfinished tables, its most: propose the rematch again later"
    info = hub.info
    seats = [(seat.kind, seat.level) for seat in info.seats]
    table_id, bot_tokens = await asyncio.to_thread(
        hub.store.create_table, info.game, info.options, secrets.randbits(62), info.public, info.timer, seats,
        info.rated, info.chat,
    )
    proposal.tokens = await asyncio.to_thread(seat_people, hub.store, table_id, hub.id)
    proposal.table = table_id
    new_hub = await server.hub(table_id)
    assert new_hub is not None
    fresh = await asyncio.to_thread(hub.store.table, table_id)
    assert fresh is not None
    new_hub.info = fresh
    await server.start_if_full(new_hub, bot_tokens)
    return None


SOCIAL_MESSAGES = (p.ChatSend, p.Mute, p.RematchAnswer)
"""The client messages this module answers (`handle`)."""


async def handle(
    server: Server, hub: TableHub, connection: Connection, message: p.ChatSend | p.Mute | p.RematchAnswer, address: str
) -> None:
    """Answer one `chat`, `mute` or `rematch` (`address`: the client's, the key of its spectators' chat rate).
    A person's or a spectator's connection that did not ask for chat at its `hello` reads it from now on."""
    if reads_chat(hub, connection) and connection not in (social := await social_of(hub)).readers:
        async with social.lock:
            join(hub, social, connection)
    if isinstance(message, p.ChatSend):
        await chat(server, hub, connection, message, address)
    elif isinstance(message, p.Mute):
        await mute(hub, connection, message)
    else:
        await rematch(server, hub, connection, message)
