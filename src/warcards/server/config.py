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
    hello_seconds: float = 10.0
    """How long a new connection has to send its `hello`."""
    idle_seconds: float = 1800.0
    """An unfinished table with no connection, no event and no running timer for this long leaves memory
    (`--idle-minutes`, default 30); it is rebuilt from its log when asked for again."""
    sweep_seconds: float = 30.0
    """How often the process looks for tables to let go (finished ones nobody holds, idle ones)."""
    drain_seconds: float = 10.0
    """On SIGTERM: how long the drain waits for the closed WebSockets to go before the process exits."""
    bot_lease_seconds: float = 10.0
    """How long a process holds a table's bots without renewing its lease (it renews every third of it):
    when a process dies, another takes its tables' bots over within about this (`--bot-lease-seconds`)."""
