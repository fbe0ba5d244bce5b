"""The state of one `warcards serve` process: its store, the hubs of the tables it holds, its bot process
and its settings (docs/server.md, "Inside")."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sys
import threading
from urllib.parse import urlsplit

from warcards.match import derive_seed
from warcards.server.config import ServerConfig
from warcards.server.db import Store, hash_token
from warcards.server.hub import TableHub
from warcards.server.limits import Buckets, TableQuota

log = logging.getLogger("warcards.server")


class BotPool:
    """The bot process: one child process (`python -m warcards.server.botpool URL`) that plays every bot
    seat of this server as a WebSocket client. It learns each seat's token on its standard input, so no
    token is on a command line or in a log. None when the server runs without bots (`bot_url` None)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "warcards.server.botpool", self.url, stdin=asyncio.subprocess.PIPE
        )

    async def launch(self, table: str, seat: int, token: str, level: str, seed: int) -> None:
        if self.process is None or self.process.stdin is None:
            return
        line = json.dumps({"table": table, "seat": seat, "token": token, "level": level, "seed": seed})
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()

    async def stop(self) -> None:
        if self.process is None:
            return
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()


class Server:
    """The state of one server process: the store, the hubs of the tables it holds, the bot pool."""

    def __init__(self, database: str, bot_url: str | None, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.seat_buckets = Buckets(self.config.seat_rate, self.config.seat_burst)
        """Client messages per (table, seat), over all that seat's connections (docs/server.md, "Limits")."""
        self.address_buckets = Buckets(self.config.address_rate, self.config.address_burst)
        """Client messages per client address, over all its connections but the bot process's."""
        self.quota = TableQuota()
        self.store = Store(database)
        self.hubs: dict[str, TableHub] = {}
        self.loading = asyncio.Lock()
        self.bots = BotPool(bot_url) if bot_url else None
        self.stop_listening = threading.Event()
        self.listener: asyncio.Task[None] | None = None

    async def startup(self) -> None:
        await asyncio.to_thread(self.store.migrate)
        if self.store.engine.dialect.name == "postgresql":
            loop = asyncio.get_running_loop()

            def notified(table_id: str, event_no: int) -> None:
                loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self.forward(table_id, event_no)))

            self.listener = asyncio.create_task(asyncio.to_thread(self.store.listen, self.stop_listening, notified))
        if self.bots is not None:
            await self.bots.start()
        unfinished = [
            *await asyncio.to_thread(self.store.tables, False, "playing"),
            *await asyncio.to_thread(self.store.tables, False, "open"),
        ]
        for info in unfinished:
            hub = await self.hub(info.id)
            assert hub is not None
            await hub.resume()
            await self.launch_bots(hub, await asyncio.to_thread(self.store.new_bot_tokens, info.id))
            await self.relaunch_stand_ins(hub)
        log.info("server ready: %d unfinished tables rebuilt", len(unfinished))

    async def forward(self, table_id: str, event_no: int) -> None:
        """Another process (or this one) committed event `event_no`: bring our hub of that table up to it."""
        hub = self.hubs.get(table_id)
        if hub is None or hub.event_no >= event_no:
            return
        async with hub.lock:
            await hub.catch_up()

    async def shutdown(self) -> None:
        self.stop_listening.set()
        if self.listener is not None:
            await self.listener
        for hub in self.hubs.values():
            hub.stop_timer()
        if self.bots is not None:
            await self.bots.stop()
        self.store.close()

    async def hub(self, table_id: str) -> TableHub | None:
        """The table's hub, rebuilt from its log on first use (None for an unknown table)."""
        hub = self.hubs.get(table_id)
        if hub is not None:
            return hub
        async with self.loading:
            hub = self.hubs.get(table_id)
            if hub is not None:
                return hub
            info = await asyncio.to_thread(self.store.table, table_id)
            if info is None:
                return None
            events = await asyncio.to_thread(self.store.events, table_id)
            hub = TableHub(info, self.store)
            hub.replay(events)
            hub.hold(await asyncio.to_thread(self.store.stand_ins, table_id))
            if self.bots is not None:
                hub.launch_stand_in = functools.partial(self.launch_stand_in, hub)
            self.hubs[table_id] = hub
            return hub

    async def launch_bots(self, hub: TableHub, tokens: dict[int, str]) -> None:
        if self.bots is None or hub.finished:
            return
        for seat, token in tokens.items():
            level = hub.info.seats[seat].level or "random"
            await self.bots.launch(hub.id, seat, token, level, derive_seed(hub.seed, "agent", seat))

    async def relaunch_stand_ins(self, hub: TableHub) -> None:
        """After a restart: the stand-ins that held seats play on, with fresh tokens (only hashes were kept);
        their players can still reclaim the seats."""
        if self.bots is None or hub.finished or not hub.stand_ins:
            return
        tokens = await asyncio.to_thread(self.store.renew_stand_ins, hub.id)
        for seat, token in tokens.items():
            hub.stand_ins[seat] = hash_token(token)
            await self.launch_stand_in(hub, seat, token, hub.stand_in_level)

    def forget_if_idle(self, hub: TableHub) -> None:
        """A finished table nobody watches leaves memory (it is rebuilt from its log if asked for again)."""
        if hub.finished and not hub.connections and self.hubs.get(hub.id) is hub:
            del self.hubs[hub.id]

    async def launch_stand_in(self, hub: TableHub, seat: int, token: str, level: str) -> None:
        if self.bots is not None:
            await self.bots.launch(hub.id, seat, token, level, derive_seed(hub.seed, "stand-in", seat, hub.event_no))

    async def start_if_full(self, hub: TableHub, tokens: dict[int, str]) -> None:
        """Start the table when every seat is taken; launch the bots whose tokens are in `tokens`."""
        if all(s.taken for s in hub.info.seats):
            await hub.start()
        await self.launch_bots(hub, tokens)

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """A WebSocket from a browser must come from a page of this server (or a configured origin);
        clients that send no Origin (bots, scripts) are not browsers and pass."""
        if origin is None:
            return True
        if origin in self.config.origins:
            return True
        return host is not None and urlsplit(origin).netloc == host
