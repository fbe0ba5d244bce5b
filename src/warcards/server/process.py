"""The state of one `warcards serve` process: its store, the hubs of the tables it holds, its bot process
and its settings (docs/server.md, "Inside")."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import functools
import json
import logging
import secrets
import sys
import threading
import time
from urllib.parse import urlsplit

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from warcards.match import derive_seed
from warcards.server import social
from warcards.server.accounts import Accounts
from warcards.server.config import ServerConfig
from warcards.server.db import Store, hash_token
from warcards.server.hub import TableHub, rating_part
from warcards.server.limits import Buckets, TableQuota
from warcards.server.mail import Mailer, mail_settings
from warcards.server.metrics import Metrics

log = logging.getLogger("warcards.server")

CLOSE_RESTART = 1012
"""The WebSocket close code of a drain (RFC 6455 "service restart"): reconnect, and resync from `last_seen`."""
RESTARTING = "server restarting: reconnect in a moment"


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
        self.chat_buckets = Buckets(self.config.chat_rate, self.config.chat_burst)
        """Chat messages per (table, seat), or per (table, address) for its spectators (`social`)."""
        self.quota = TableQuota()
        self.store = Store(database)
        self.hubs: dict[str, TableHub] = {}
        self.loading = asyncio.Lock()
        self.bots = BotPool(bot_url) if bot_url else None
        self.stop_listening = threading.Event()
        self.listener: asyncio.Task[None] | None = None
        self.touched: dict[str, float] = {}
        """Table id -> when (monotonic) its hub was last asked for, fed an event or left by a connection."""
        self.sweeper: asyncio.Task[None] | None = None
        self.evicted = 0
        """Tables let go since the last sweep gave their memory back (`release_memory`)."""
        self.migrated = False
        self.draining = False
        """Set on SIGTERM (`drain`): no new connection or table is accepted, GET /readyz answers 503."""
        self.metrics = Metrics(lambda: list(self.hubs.values()), lambda: self.draining)
        self.owner = secrets.token_hex(8)
        """This process's name in the bot leases (`tables.bot_owner`): random, new at every start."""
        self.playing_bots: set[str] = set()
        """The tables whose bots (and stand-ins) this process's bot process plays, under its lease."""
        self.keeping_bots: asyncio.Task[None] | None = None
        self.accounts = Accounts(self.store, self.config.session_days)
        self.signin_buckets = Buckets(self.config.signin_rate, self.config.signin_burst)
        """Sign-ins and sign-ups per client address (docs/server.md, "Players and accounts")."""
        self.hashing = asyncio.Semaphore(2)
        """Password hashes computed at once, at most (argon2 takes 64 MiB and about 0.3 s each)."""
        settings = mail_settings(self.config)
        self.mailer = Mailer(self.store, settings, self.owner) if settings is not None else None
        """The turn notices by email (`--smtp`), or None: no email."""
        self.sending: asyncio.Task[None] | None = None

    async def startup(self) -> None:
        await asyncio.to_thread(self.store.migrate)
        self.migrated = True
        if self.mailer is not None:
            self.sending = asyncio.create_task(self.mailer.run())
        if self.store.engine.dialect.name == "postgresql":
            loop = asyncio.get_running_loop()

            def notified(table_id: str, event_no: int) -> None:
                loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self.forward(table_id, event_no)))

            def chatted(table_id: str, number: int) -> None:
                loop.call_soon_threadsafe(lambda: asyncio.ensure_future(social.forward_chat(self, table_id, number)))

            self.listener = asyncio.create_task(
                asyncio.to_thread(self.store.listen, self.stop_listening, notified, chatted)
            )
        if self.bots is not None:
            await self.bots.start()
            if self.store.engine.dialect.name == "sqlite":
                await asyncio.to_thread(self.store.take_every_bot_lease, self.owner, self.lease_end())
        unfinished = [
            *await asyncio.to_thread(self.store.tables, False, "playing"),
            *await asyncio.to_thread(self.store.tables, False, "open"),
        ]
        for info in unfinished:
            hub = await self.hub(info.id)
            assert hub is not None
            await hub.resume()
        if self.bots is not None:
            await self.keep_bots()
            self.keeping_bots = asyncio.create_task(self.keep_bots_forever())
        self.sweeper = asyncio.create_task(self.sweep_forever())
        log.info("server ready: %d unfinished tables rebuilt", len(unfinished))

    # ----- bot leases --------------------------------------------------------------------------------------
    def lease_end(self) -> float:
        return time.time() + self.config.bot_lease_seconds

    async def claim_bots(self, table_id: str) -> bool:
        """Take (or renew) the lease on the table's bots; True when this process plays them now."""
        won = await asyncio.to_thread(self.store.take_bot_lease, table_id, self.owner, self.lease_end(), time.time())
        if won:
            self.playing_bots.add(table_id)
        return won

    async def keep_bots(self) -> None:
        """Renew this process's bot leases; take over the bots of tables whose lease nobody holds (their
        process died), and launch the bots of every table held whose bots this process has not launched."""
        held = await asyncio.to_thread(self.store.renew_bot_leases, self.owner, self.lease_end())
        for table_id in await asyncio.to_thread(self.store.tables_without_their_bots, time.time()):
            if await asyncio.to_thread(self.store.take_bot_lease, table_id, self.owner, self.lease_end(), time.time()):
                held.append(table_id)
        self.playing_bots &= set(held)  # a lease another process took: if it comes back, the bots start again
        for table_id in held:
            if table_id not in self.playing_bots:
                await self.take_over_bots(table_id)

    async def keep_bots_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.bot_lease_seconds / 3)
            try:
                await self.keep_bots()
            except Exception:  # the database is away for a while: the next round tries again
                log.exception("renewing the bot leases failed")

    async def take_over_bots(self, table_id: str) -> None:
        """Play a table's bots here (its lease is ours): every bot seat and stand-in gets a fresh token (the
        previous ones die with their process) and is launched in our bot process; the table's timer is armed
        again (a timeout that came while nobody held the lease is dealt with now)."""
        hub = await self.hub(table_id)
        if hub is None or hub.finished:
            return
        log.info("playing the table's bots", extra={"table": table_id, "status": hub.status})
        self.playing_bots.add(table_id)
        stand_ins = await asyncio.to_thread(self.store.stand_ins, table_id)
        async with hub.lock:
            hub.stand_ins.clear()
            hub.hold(stand_ins)
        await self.launch_bots(hub, await asyncio.to_thread(self.store.new_bot_tokens, table_id))
        await self.relaunch_stand_ins(hub)
        await hub.rearm()

    async def forward(self, table_id: str, event_no: int) -> None:
        """Another process (or this one) committed event `event_no`: bring our hub of that table up to it."""
        hub = self.hubs.get(table_id)
        if hub is None or hub.event_no >= event_no:
            return
        self.touched[table_id] = time.monotonic()
        async with hub.lock:
            await hub.catch_up()

    async def shutdown(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
        if self.keeping_bots is not None:
            self.keeping_bots.cancel()
        if self.sending is not None and self.mailer is not None:
            self.sending.cancel()
            await self.mailer.stop()
        self.stop_listening.set()
        if self.listener is not None:
            await self.listener
        for hub in self.hubs.values():
            hub.stop_timer()
        if self.bots is not None:
            await self.bots.stop()
            with contextlib.suppress(Exception):  # the database is gone too: the leases run out by themselves
                await asyncio.to_thread(self.store.release_bot_leases, self.owner)
        self.store.close()

    async def hub(self, table_id: str) -> TableHub | None:
        """The table's hub, rebuilt from its log on first use (None for an unknown table).

        The hub is registered before its log is read, holding its lock until it has replayed it: an event
        another process commits meanwhile (its `NOTIFY`, `forward`) waits for the lock and is then caught up
        from the log, instead of finding no hub and being dropped."""
        hub = self.hubs.get(table_id)
        if hub is None:
            async with self.loading:
                hub = self.hubs.get(table_id)
                if hub is None:
                    info = await asyncio.to_thread(self.store.table, table_id)
                    if info is None:
                        return None
                    hub = TableHub(info, self.store)
                    if self.bots is not None:
                        hub.launch_stand_in = functools.partial(self.launch_stand_in, hub)
                        hub.claim_bots = functools.partial(self.claim_bots, table_id)
                        hub.claim_retry_seconds = self.config.bot_lease_seconds / 3
                    if self.mailer is not None:
                        hub.on_turn = self.mailer.turn_began
                    hub.metrics = self.metrics
                    hub.latencies = self.metrics.latencies
                    self.metrics.rebuilds.inc()
                    await hub.lock.acquire()  # a new lock: nobody else can hold it yet
                    hub.loading = asyncio.create_task(self._load(hub))
                    self.hubs[table_id] = hub
        self.touched[table_id] = time.monotonic()
        if hub.loading is not None:
            await asyncio.shield(hub.loading)
        return hub

    async def _load(self, hub: TableHub) -> None:
        """Replay the table's log into its new hub (which `hub` registered holding its lock) and release it;
        a failed read unregisters the hub, so the next request reads the log again."""
        try:
            events = await asyncio.to_thread(self.store.events, hub.id)
            hub.replay(events)
            hub.hold(await asyncio.to_thread(self.store.stand_ins, hub.id))
            if hub.status == "open" and hub.event_no > 0:  # started since its row was read
                info = await asyncio.to_thread(self.store.table, hub.id)
                if info is not None:
                    hub.info, hub.status = info, info.status
                    hub.rating = rating_part(info.result) if info.status == "finished" else {}
        except BaseException:
            if self.hubs.get(hub.id) is hub:
                del self.hubs[hub.id]
            raise
        finally:
            hub.loading = None
            hub.lock.release()

    async def launch_bots(self, hub: TableHub, tokens: dict[int, str]) -> None:
        """Launch the table's bots whose tokens are in `tokens` in our bot process, if we hold (or can take)
        the table's bot lease: otherwise another process plays them."""
        if self.bots is None or hub.finished or not tokens or not await self.claim_bots(hub.id):
            return
        for seat, token in tokens.items():
            level = hub.info.seats[seat].level or "random"
            await self.bots.launch(hub.id, seat, token, level, derive_seed(hub.seed, "agent", seat))

    async def relaunch_stand_ins(self, hub: TableHub) -> None:
        """When this process takes a table's bots (a restart, or a takeover): the stand-ins that held seats
        play on, with fresh tokens (only hashes were kept); their players can still reclaim the seats."""
        if self.bots is None or hub.finished or not hub.stand_ins:
            return
        tokens = await asyncio.to_thread(self.store.renew_stand_ins, hub.id)
        for seat, token in tokens.items():
            hub.stand_ins[seat] = hash_token(token)
            await self.launch_stand_in(hub, seat, token, hub.stand_in_level)

    def forget_if_idle(self, hub: TableHub) -> None:
        """A connection left `hub` (or the lobby finished it): a finished table nobody holds leaves memory
        now; an unfinished one's idle time starts (`sweep`). Either is rebuilt from its log when asked for."""
        self.touched[hub.id] = time.monotonic()
        if hub.finished and self.idle(hub, time.monotonic()):
            self.evict(hub, "finished")

    def idle(self, hub: TableHub, now: float) -> bool:
        """No connection holds the table and nothing is under way on it (its lock is free), and it is finished,
        or has had no event, connection or request for `idle_minutes` and no timer running: a timer's
        deadline lives only in memory, so a table on the clock stays until its timer fires or is disarmed."""
        if hub.connections or hub.lock.locked() or self.hubs.get(hub.id) is not hub:
            return False
        if hub.finished:
            return True
        timing = hub.timer_task is not None and not hub.timer_task.done()
        return not timing and now - self.touched.get(hub.id, now) >= self.config.idle_minutes * 60

    def evict(self, hub: TableHub, reason: str) -> None:
        """Let the hub go. Its reference cycles (the stand-in launcher and the timer task point back at it)
        are broken, so it is freed at once rather than at the collector's next full pass (a full
        collection of a busy process's heap holds the event loop for hundreds of milliseconds)."""
        del self.hubs[hub.id]
        self.touched.pop(hub.id, None)
        hub.stop_timer()
        hub.launch_stand_in = None
        self.evicted += 1
        self.metrics.evictions.labels(reason=reason).inc()

    def sweep(self) -> int:
        """Let go of every table `idle` says nobody needs in memory; how many went."""
        now = time.monotonic()
        gone = [hub for hub in list(self.hubs.values()) if self.idle(hub, now)]
        for hub in gone:
            self.evict(hub, "finished" if hub.finished else "idle")
        if self.evicted:
            self.evicted = 0
            release_memory()
        return len(gone)

    async def sweep_forever(self) -> None:
        """Every `sweep_seconds`: `sweep` (started at startup, cancelled at shutdown)."""
        while True:
            await asyncio.sleep(self.config.sweep_seconds)
            try:
                self.sweep()
            except Exception:  # a bug here must not stop the sweeping of later rounds
                log.exception("sweeping idle tables failed")

    async def launch_stand_in(self, hub: TableHub, seat: int, token: str, level: str) -> None:
        if self.bots is not None:
            await self.bots.launch(hub.id, seat, token, level, derive_seed(hub.seed, "stand-in", seat, hub.event_no))

    async def start_if_full(self, hub: TableHub, tokens: dict[int, str]) -> None:
        """Start the table when every seat is taken; launch the bots whose tokens are in `tokens`."""
        if all(s.taken for s in hub.info.seats):
            await hub.start()
        await self.launch_bots(hub, tokens)

    async def not_ready(self) -> str | None:
        """Why this process should not be sent new work now (`GET /readyz`), or None when it is ready: the
        migrations ran, the database answers `SELECT 1`, and it is not draining."""
        if self.draining:
            return RESTARTING
        if not self.migrated:
            return "starting: the database migrations have not run yet"
        try:
            await asyncio.wait_for(asyncio.to_thread(self._select_one), 5)
        except TimeoutError:
            return "the database did not answer SELECT 1 within 5 s"
        except SQLAlchemyError as error:
            reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
            return f"the database is unreachable: {reason}"
        return None

    def _select_one(self) -> None:
        with self.store.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    async def drain(self) -> None:
        """Before a restart (SIGTERM): refuse new connections and tables (`draining`), let each table finish
        what it is doing (an act is committed and broadcast under its lock), then close every WebSocket with
        `CLOSE_RESTART` once what was queued for it is sent, and wait for them to go — at most
        `drain_seconds` in all (uvicorn's shutdown closes whatever is left with the same code)."""
        self.draining = True
        log.info("draining: no new connections or tables; closing every WebSocket with %d", CLOSE_RESTART)
        try:
            async with asyncio.timeout(self.config.drain_seconds):
                for hub in list(self.hubs.values()):
                    async with hub.lock:
                        for connection in list(hub.connections):
                            connection.close(CLOSE_RESTART)
                while any(hub.connections for hub in list(self.hubs.values())):
                    await asyncio.sleep(0.05)
        except TimeoutError:
            log.warning("drain: connections still open after %g s; closing them anyway", self.config.drain_seconds)

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """A WebSocket from a browser must come from a page of this server (or a configured origin);
        clients that send no Origin (bots, scripts) are not browsers and pass."""
        if origin is None:
            return True
        if origin in self.config.origins:
            return True
        return host is not None and urlsplit(origin).netloc == host


def release_memory() -> None:
    """Give the memory of the tables let go back to the operating system: glibc returns its free heap
    pages (`malloc_trim`, well under a millisecond; nothing on other C libraries)."""
    if LIBC is not None:
        LIBC.malloc_trim(0)


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None or sys.platform != "linux":
        return None
    try:
        library = ctypes.CDLL(name)
        return library if hasattr(library, "malloc_trim") else None
    except OSError:
        return None


LIBC = _libc()
