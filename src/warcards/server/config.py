"""The settings of one `warcards serve` process: every limit it enforces, with its default (docs/server.md,
"Limits"). `warcards serve` fills them from its flags; tests build their own."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerConfig:
    """What a server process allows. The defaults are the ones `warcards serve` runs with."""

    origins: tuple[str, ...] = ()
    """Other web origins whose pages may open WebSockets (`--allow-origin`); the server's own always may."""
    rate: float = 20.0
    """Client messages per second a connection may send on average ..."""
    burst: float = 40.0
    """... and at once; past that it gets an `error` and the connection is closed (1008)."""
    seat_rate: float = 20.0
    """Client messages per second one seat of a table may send on average over all its connections ..."""
    seat_burst: float = 40.0
    """... and at once (the `hello` of each new connection counts: it costs a catch-up)."""
    address_rate: float = 100.0
    """Client messages per second one client address may send on average over all its connections ..."""
    address_burst: float = 400.0
    """... and at once (the server's own bot process is not counted)."""
    chat_rate: float = 0.5
    """Chat messages per second one seat of a table (or one address's spectators of it) may send on
    average (`--chat-rate`) ..."""
    chat_burst: float = 5.0
    """... and at once (`--chat-burst`); past it a `chat` is refused `chat_limited` (docs/protocol.md)."""
    hello_seconds: float = 10.0
    """How long a new connection has to send its `hello`."""
    idle_minutes: float = 30.0
    """An unfinished table with no connection, no event and no running timer for this long leaves memory
    (`--idle-minutes`); it is rebuilt from its log when asked for again."""
    sweep_seconds: float = 30.0
    """How often the process looks for tables to let go (finished ones nobody holds, idle ones)."""
    drain_seconds: float = 10.0
    """On SIGTERM: how long the drain waits for the closed WebSockets to go before the process exits."""
    bot_lease_seconds: float = 10.0
    """How long a process holds a table's bots without renewing its lease (it renews every third of it):
    when a process dies, another takes its tables' bots over within about this (`--bot-lease-seconds`)."""
    max_depth: int = 32
    """The deepest nesting of `[` and `{` a client frame may have (checked before parsing)."""
    send_queue_bytes: int = 4 * 1024 * 1024
    """The bytes waiting to be sent to one connection, at most; past it the connection fell behind and is
    closed (4008) ..."""
    send_queue_frames: int = 1000
    """... and the frames waiting, at most."""
    max_tables_per_address: int = 20
    """Unfinished tables one client address may have made in this process (0: no limit)."""
    max_open_tables: int = 2000
    """Unfinished tables this process holds, at most (0: no limit)."""
    allow_bot_tables: bool = False
    """Whether a client may create a table with no person seat (it would play itself on this server's CPU)."""
    forwarded_allow_ips: str | None = None
    """The proxies whose `X-Forwarded-For` header names the client address (uvicorn's `forwarded_allow_ips`,
    a comma-separated list of addresses or `*`); None: uvicorn's default, `$FORWARDED_ALLOW_IPS` or 127.0.0.1."""
    session_days: float = 30.0
    """How long a sign-in lasts (the session row and its cookie), in days (`--session-days`)."""
    signin_rate: float = 0.1
    """Sign-ins and sign-ups one client address may try a second on average ..."""
    signin_burst: float = 20.0
    """... and at once; past that it gets 429 (per account, failed sign-ins also lock it a growing while)."""
    smtp: str | None = None
    """Where turn notices are sent (`--smtp`): `smtp://host:port`, `smtp+starttls://user:pass@host:587` or
    `smtps://user:pass@host:465`; None: no email is sent, and `GET /features` says so."""
    mail_from: str | None = None
    """The notices' From address (`--mail-from`); None: `warcards@` the host of `public_url`."""
    public_url: str | None = None
    """The address players open the server at (`--public-url`, e.g. `https://cards.example.org`): the links
    in the notices (the table, the unsubscribe page). Required with `smtp`."""
