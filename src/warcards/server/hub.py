"""The table hub: the only writer of one table (docs/server.md, "Inside").

For every act, in this order: check it with the engine (`State.parse_legal`, no copy) → apply it and the
chance it causes, each once, through the engine's driver step (`apply_logged`), keeping the state before
(one copy) → commit the act and its chance events in one transaction → send each connection its own view of
each event → acknowledge. When another server process took the event numbers first, everything goes back
to the state before (no connection has heard of the events yet), the hub catches up, and the act is refused
as `stale`. A seat's connection gets `observe(seat)` and the event as `apply_logged` tells it to that seat
(its `Seen`); a spectator's gets the public view and the event as a spectator sees it.

Each recipient (each seat; the spectators as one) has its own event stream (docs/protocol.md, "Event
streams"): an event is in it unless the recipient sees it as nothing — no log line for it and the same view
(observation, seat to move, legal moves) before and after. The numbers a connection reads are positions in
its own stream, so another seat cannot count a face-down Race to Messina Deployment (R31). The table's own
event numbers (`event_no`) number the log and stay inside the server. The State, the seed and other seats' views never reach a connection;
the seed and the whole record are sent only with `end`. Chance outcomes are sampled here, from the
table's seed exactly as `warcards play` and `warcards.match` sample them, so the log replays with
`warcards replay`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel
from sqlalchemy.exc import IntegrityError

from warcards import __version__
from warcards.engine.agents import SampleRng
from warcards.engine.api import CHANCE, TERMINAL, GameResult, State, apply_logged
from warcards.engine.errors import IllegalActionError, InvalidActionError
from warcards.match import chance_rng
from warcards.server import protocol as p
from warcards.server.choices import choices
from warcards.server.connection import Connection
from warcards.server.db import EventInfo, Store, TableInfo, hash_token, new_token, token_matches
from warcards.server.games import shared_game
from warcards.server.metrics import NO_METRICS, Metrics
from warcards.server.names import seat_players

log = logging.getLogger("warcards.server")

LATENCIES: deque[float] = deque(maxlen=100_000)
"""Seconds from each accepted act's receipt to its last broadcast queued, the newest 100,000 of this process."""

Recipient = int | None
"""A seat, or None for a spectator."""


@dataclass
class _Before:
    """What an act or a deal changes, as it was before: the hub goes back to it when another process took
    the event numbers first (`TableHub._restore`)."""

    state: State
    """A copy of the state (also the state before the first event, which `apply_logged` reads)."""
    rng: Any
    event_no: int
    actions: int
    streams: dict[Recipient, int]
    banks: list[float]
    clock_since: float
    last_mover: int | None


DIE_BEFORE_FINISH = "WARCARDS_TEST_DIE_BEFORE_FINISH"
"""A test hook: with this environment variable set, the process kills itself (SIGKILL) when a game has ended,
after its last event is committed and before the transaction that records the result and the ratings."""


def rating_part(result: dict[str, Any] | None) -> dict[str, Any]:
    """The ratings fields of a stored result (`Store.finish_table`), as `p.Result` takes them."""
    return {key: value for key, value in (result or {}).items() if key in ("rated", "unrated", "ratings")}


Frames = list[tuple[Connection, str]]
"""Event frames ready to send, in order, each to its connection."""


class TableHub:
    """One table's game, event log and connections. Every change goes through `lock`."""

    def __init__(self, info: TableInfo, store: Store) -> None:
        self.id = info.id
        self.store = store
        self.info = info
        self.status = info.status
        self.game = shared_game(info.game, info.options)
        self.seat_names = self.game.seat_names()
        self.recipients: list[Recipient] = [*range(self.game.num_players), None]
        self.state: State = self.game.new_initial_state()
        self.seed = info.seed
        self.rng: random.Random = chance_rng(info.seed)
        self.event_no = 0
        """The table's own event number: the last event of its log (never sent to a connection)."""
        self.actions: list[int] = []
        self.streams: dict[Recipient, list[int]] = {who: [] for who in self.recipients}
        """Per recipient: the table's event numbers of the events in its stream (position i+1 -> number)."""
        self.history: dict[Recipient, list[str]] = {who: [] for who in self.recipients}
        """Per recipient: its stream, the events as it saw them (`body.event_no` is the stream position), each
        kept as its JSON text: a table holds hundreds of them per recipient, and as text they cost a tenth of
        the memory of the models and nothing to the garbage collector (`events_seen` reads them back)."""
        self.answers: dict[tuple[int, str], str] = {}
        """(seat, client message id) -> the answer sent (its JSON text), sent again for a repeated id."""
        self.resigned: int | None = None
        self.timed_out = False
        self.rating: dict[str, Any] = rating_part(info.result) if info.status == "finished" else {}
        """The result's ratings part (`Store.finish_table`), once the end is recorded."""
        timer = info.timer or {}
        self.timer_kind: str | None = timer["kind"] if timer.get("kind") in ("move", "total") else None
        """"move" (a limit per move), "total" (a chess clock: a bank per seat), or None."""
        self.timer_seconds = float(timer["seconds"]) if self.timer_kind is not None else 0.0
        self.increment = float(timer.get("increment") or 0)
        self.banks: list[float] = [self.timer_seconds] * self.game.num_players
        """A chess clock: each seat's seconds left as of the last event (`clock_since`)."""
        self.clock_since = time.time()
        """When the running seat's time started to run (the last event's commit time, a stand-in's
        takeover, or the restart that rebuilt the table: a crash's downtime is charged to no one)."""
        self.on_timeout: str = timer.get("on_timeout", "forfeit")
        self.stand_in_level: str = timer.get("level") or "heuristic"
        self.timer_task: asyncio.Task[None] | None = None
        self.stand_ins: dict[int, str] = {}
        """Seat -> the token hash of the bot holding it after a timeout (also in its seat row: a restart
        relaunches it, `hold`)."""
        self.launch_stand_in: Callable[[int, str, str], Awaitable[None]] | None = None
        self.claim_bots: Callable[[], Awaitable[bool]] | None = None
        """Take the table's bot lease before launching a stand-in (False: another live process plays the
        table's bots, and its own timer launches it)."""
        self.claim_retry_seconds = 1.0
        """When the claim fails: the timeout is tried again this much later (that process may have died)."""
        self.last_mover: int | None = None
        """The seat of the last action (not chance): a seat to act after its own action goes on with its turn."""
        self.on_turn: Callable[[TableHub, int], None] | None = None
        """Called (never awaited) when a new turn begins: a seat other than `last_mover` is to act (the turn
        notices, `warcards.server.mail`)."""
        self.latencies: deque[float] = LATENCIES
        self.metrics: Metrics = NO_METRICS
        """Where this table counts its events and refusals (its `Server`'s `GET /metrics`)."""
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.loading: asyncio.Task[None] | None = None
        """While the server replays the table's log into this hub (`Server.hub`, holding `lock`)."""

    # ----- rebuilding from the log -------------------------------------------------------------------------
    def replay(self, events: list[EventInfo]) -> None:
        """Re-apply the committed events (a restart): the same state, numbers and per-seat history."""
        for item in events:
            self._apply_event(item)

    def _apply_event(self, item: EventInfo) -> dict[Recipient, p.EventBody]:
        """Apply one committed event (from the log) as the hub applied it when it was accepted."""
        if item.kind in ("resign", "timeout"):
            assert item.seat is not None
            bodies = self._record_resign(item.seat, item.kind)
        else:
            assert item.action is not None
            if item.kind == "chance":
                self.rng.random()
            bodies = self._record_action(item.kind, item.action)
        if item.client_id is not None and item.seat is not None:
            self.answers[(item.seat, item.client_id)] = p.Ack(
                id=item.client_id, event_no=self.position(item.seat)
            ).model_dump_json()
        self._clock_reached(item)
        return bodies

    def hold(self, stand_ins: dict[int, tuple[str, int | None]]) -> None:
        """After a rebuild: the stand-ins the seat rows name hold their seats again. On a chess clock a seat
        taken after the last event has the empty bank it was taken with (no event stored it yet)."""
        for seat, (token_hash, since) in stand_ins.items():
            self.stand_ins[seat] = token_hash
            if self.timer_kind == "total" and since is not None and since >= self.event_no:
                self.banks[seat] = 0.0

    async def catch_up(self) -> None:
        """Apply and broadcast the events another server process committed on this table since our last
        one (PostgreSQL `NOTIFY`, or a lost race for an event number); call it holding `lock`."""
        events = await asyncio.to_thread(self.store.events_after, self.id, self.event_no)
        if not events:
            return
        if self.status == "open":
            info = await asyncio.to_thread(self.store.table, self.id)
            if info is not None:
                self.seats_changed(info)  # seats taken on another process: their names come with its start
            self.status = "playing"
        for item in events:
            if item.event_no != self.event_no + 1:
                break
            self._broadcast(self._apply_event(item))
        if self.status == "playing" and (self.resigned is not None or self.state.is_terminal()):
            await self._finish()
        elif self.status == "playing" and self.state.current_player() >= 0:
            self._arm_timer()
            self._turn_began()

    async def resume(self) -> None:
        """After a rebuild: finish what a crash interrupted — start a full table, deal the chance that
        follows the last committed action, record an end that was reached."""
        if self.status == "open":
            if all(seat.taken for seat in self.info.seats):
                await self.start()
            return
        async with self.lock:
            self.clock_since = time.time()  # the downtime is not charged: each clock resumes where it was
            if self.status == "playing":
                if self.resigned is not None:
                    await self._finish()
                else:
                    await self._advance()

    # ----- what each recipient reads -----------------------------------------------------------------------
    def position(self, recipient: Recipient) -> int:
        """The recipient's event number: how many events its stream holds (what its frames carry)."""
        return len(self.streams[recipient])

    def view_of(self, recipient: Recipient) -> p.View:
        """The recipient's view now (a seat's observation, or the public view), with the legal actions for
        the seat to move."""
        if self.status == "open":
            return p.View(event_no=self.position(recipient), view=None, to_move=None, clock=self.clock())
        view, to_move, legal = self._looks(self.state, recipient)
        return p.View(
            event_no=self.position(recipient), view=view, to_move=to_move, legal=legal, clock=self.clock()
        )

    # ----- the clock ---------------------------------------------------------------------------------------
    def running(self) -> int | None:
        """The seat whose time runs down now: the seat to move during play (never chance)."""
        if self.timer_kind is None or self.status != "playing" or self.resigned is not None:
            return None
        player = self.state.current_player()
        if player < 0 or (self.bot_plays(player) and not self.bot_connected(player)):
            return None  # a bot's clock is held until its bot is connected (here)
        return player

    def bot_plays(self, seat: int) -> bool:
        """A bot plays the seat: a bot seat, or a seat a stand-in holds."""
        return self.info.seats[seat].kind == "bot" or seat in self.stand_ins

    def bot_connected(self, seat: int) -> bool:
        """The bot playing `seat` is connected to this process (a stand-in's own connection, for a seat it
        holds for a person)."""
        person = self.info.seats[seat].kind != "bot"
        return any(c.seat == seat and (c.stand_in or not person) for c in self.connections)

    def _bot_came_or_went(self, running_before: int | None) -> None:
        """A connection came or went: if that starts a bot's held clock, its time runs from now; if it holds
        it, its timer stops."""
        running = self.running()
        if running == running_before:
            return
        if running is not None:
            self.clock_since = time.time()
        self._arm_timer()

    def time_left(self, seat: int, at: float) -> float:
        """The running `seat`'s seconds left at time `at`: of its move, or of its bank (never below 0)."""
        allowed = self.timer_seconds if self.timer_kind == "move" else self.banks[seat]
        return max(0.0, allowed - (at - self.clock_since))

    def clock(self) -> p.Clock | None:
        """The clock as a frame carries it (None without a timer)."""
        if self.timer_kind is None:
            return None
        running = self.running()
        left: list[float | None] = (
            [None] * self.game.num_players if self.timer_kind == "move" else [round(b, 3) for b in self.banks]
        )
        if running is not None:
            left[running] = round(self.time_left(running, time.time()), 3)
        return p.Clock(
            kind=self.timer_kind, seconds_left=left, running=running,  # type: ignore[arg-type]  # timer_kind is 'move' or 'total' whenever a clock exists (checked in __init__)
            on_timeout=self.on_timeout, stand_ins=sorted(self.stand_ins),  # type: ignore[arg-type]  # on_timeout is 'bot' or 'forfeit' (the table's timer settings were checked when it was created)
        )

    def _stamp(self, item: EventInfo) -> EventInfo:
        """The event with its commit time and, on a chess clock, the banks after it: the running seat is
        charged the time since its clock started, plus the increment when the event is its own move."""
        at = time.time()
        if self.timer_kind != "total":
            return replace(item, at=at)
        banks = list(self.banks)
        running = self.running()
        if running is not None:
            banks[running] = self.time_left(running, at)
            if item.kind == "action" and item.seat == running:
                banks[running] += self.increment
        return replace(item, at=at, clock=banks)

    def _clock_reached(self, item: EventInfo) -> None:
        """A committed event moves the clock: its banks, and the next seat's time runs from its commit."""
        if item.clock is not None:
            self.banks = list(item.clock)
        if item.at is not None:
            self.clock_since = item.at

    def _looks(
        self, state: State, recipient: Recipient
    ) -> tuple[dict[str, Any] | None, int | None, list[p.Choice] | None]:
        """What the recipient's `View` shows of `state`: its observation (or the public view), the seat to
        move, and the legal actions when the recipient is that seat."""
        player = state.current_player()
        to_move = player if player >= 0 and self.resigned is None else None
        view = self._observation(state, recipient)
        legal = choices(state, recipient, view) if recipient is not None and recipient == to_move else None
        return view, to_move, legal

    @staticmethod
    def _observation(state: State, recipient: Recipient) -> dict[str, Any] | None:
        if recipient is not None:
            return state.observe(recipient)
        try:
            return state.public_view()
        except NotImplementedError:
            return None

    def welcome(self, recipient: Recipient) -> p.Welcome:
        return p.Welcome(
            table=self.id, game=self.game.game_id, options=self.game.options, seat=recipient,
            seat_names=self.seat_names, status=self.status,  # type: ignore[arg-type]  # the hub's status is a str that only ever holds the three states p.Welcome names
            event_no=self.position(recipient), players=self.players(), watching=self.watching(),
        )

    # ----- the players (names are public: every connection gets the same list) ----------------------------
    def seat_players(self) -> list[p.SeatPlayer]:
        """Who sits in each seat: its side, display name, kind and a bot's level (`warcards.server.names`)."""
        return seat_players(self.info.seats, self.seat_names)

    def players(self) -> list[p.Player]:
        """Each seat's player now: who sits there, whether its player (or bot) is connected to this process,
        and the level of a stand-in bot holding it."""
        connected = {c.seat for c in self.connections if c.seat is not None and not c.stand_in}
        stand_in = self.stand_in_level if self.stand_ins else None
        return [
            p.Player(
                **player.model_dump(), connected=player.seat in connected,
                stand_in=stand_in if player.seat in self.stand_ins else None,
            )
            for player in self.seat_players()
        ]

    def watching(self) -> int:
        """How many spectator connections this process holds for the table."""
        return sum(1 for c in self.connections if c.seat is None)

    def announce_players(self, skip: Connection | None = None) -> None:
        """Send every connection (but `skip`, which has just read them in its welcome) the players now."""
        message = p.Players(players=self.players(), watching=self.watching()).model_dump_json()
        for connection in self.connections:
            if connection is not skip:
                connection.send_text(message)

    def seats_changed(self, info: TableInfo) -> None:
        """A seat was taken or freed (the lobby): the stored seats, announced."""
        self.info = info
        self.announce_players()

    def catchup(self, recipient: Recipient, last_seen: int | None) -> BaseModel:
        """What a (re)connecting recipient needs: the events of its stream after `last_seen` and its view
        now, or just its view now (a fresh snapshot) when it names no event number of its stream."""
        view = self.view_of(recipient)
        if last_seen is None or last_seen > self.position(recipient):
            return view
        return p.Catchup(events=self.events_seen(recipient, last_seen), view=view)

    def events_seen(self, recipient: Recipient, after: int = 0) -> list[p.EventBody]:
        """The recipient's stream after its position `after`: the events as it saw them."""
        return [p.EventBody.model_validate_json(text) for text in self.history[recipient][after:]]

    def result(self) -> GameResult | None:
        if self.resigned is not None:
            others = tuple(seat for seat in range(self.game.num_players) if seat != self.resigned)
            why = "ran out of time" if self.timed_out else "resigned"
            return GameResult(
                winners=others,
                scores=tuple(why if seat == self.resigned else "-" for seat in range(self.game.num_players)),
                reason=f"{self.seat_names[self.resigned]} {why}",
            )
        if self.state.is_terminal():
            return self.state.result()
        return None

    def record(self) -> dict[str, Any]:
        """The whole record (`warcards replay` reads it when the game reached its end by the rules)."""
        returns = self.state.returns() if self.state.is_terminal() else []
        record: dict[str, Any] = {
            "game": self.game.game_id, "options": self.game.options, "seed": self.seed,
            "actions": list(self.actions), "returns": returns, "engine_version": __version__,
            "names": [player.name for player in self.seat_players()],
        }
        if self.resigned is not None:
            record["resigned"] = self.resigned
        return record

    def end_message(self, recipient: Recipient) -> p.End:
        result = self.result()
        assert result is not None
        return p.End(
            event_no=self.position(recipient),
            result=p.Result(
                winners=list(result.winners), scores=list(result.scores), reason=result.reason, **self.rating
            ),
            record=self.record(), players=self.seat_players(),
        )

    # ----- connections -------------------------------------------------------------------------------------
    async def attach(self, connection: Connection, last_seen: int | None) -> None:
        """Add a connection: it gets its welcome and its catch-up from the log as it is now (another process
        may have committed events this copy has not heard of: they are caught up first)."""
        async with self.lock:
            await self.catch_up()
            running = self.running()
            self.connections.add(connection)
            connection.metrics = self.metrics
            self._bot_came_or_went(running)
            connection.send(self.welcome(connection.seat))
            connection.send(self.catchup(connection.seat, last_seen))
            if self.finished:
                connection.send(self.end_message(connection.seat))
            self.announce_players(skip=connection)

    def detach(self, connection: Connection) -> None:
        running = self.running()
        self.connections.discard(connection)
        self._bot_came_or_went(running)
        self.announce_players()

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    # ----- the writer --------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Every seat is filled: the game begins (chance deals until a seat is to act)."""
        async with self.lock:
            if self.status != "open":
                return
            await asyncio.to_thread(self.store.set_status, self.id, "playing")
            self.status = "playing"
            self.clock_since = time.time()
            log.info("table started", extra={"table": self.id, "status": "playing"})
            for connection in self.connections:
                connection.send(self.view_of(connection.seat))
            await self._advance()

    def stand_in_seat(self, token: str) -> int | None:
        """The seat a stand-in bot's token holds now, or None."""
        found = None
        for seat, stored in self.stand_ins.items():
            if token_matches(token, stored):
                found = seat
        return found

    async def _reclaim(self, connection: Connection) -> bool:
        """A person acting on a seat a stand-in holds takes it back (in its seat row too): the stand-in's
        connections close. True when a stand-in was let go."""
        seat = connection.seat
        if connection.stand_in or seat is None or seat not in self.stand_ins:
            return False
        await asyncio.to_thread(self.store.set_stand_in, self.id, seat, None, None)
        del self.stand_ins[seat]
        for other in self.connections:
            if other.stand_in and other.seat == seat:
                other.send(p.Error(code="replaced", message="the seat's player is back"))
                other.close(1000)
        self.announce_players()
        return True

    async def reclaim(self, connection: Connection, message: p.Reclaim) -> None:
        async with self.lock:
            refusal = self._check_turn(connection.seat, message.id, any_time=True)
            if refusal is None and connection.stand_in:
                refusal = ("replaced", "a stand-in bot cannot reclaim a seat")
            if refusal is not None:
                self._refusal(connection, message.id, refusal)
                return
            if await self._reclaim(connection):
                if self.timer_kind == "move" and self.running() == connection.seat:
                    self.clock_since = time.time()  # a fresh move time for the player back at the seat
                self._arm_timer()  # the person is on the clock again (a stand-in is not timed)
            connection.send(p.Ack(id=message.id, event_no=self.position(connection.seat)))

    async def act(self, connection: Connection, message: p.Act) -> bool:
        """Check one act (`parse_legal`), apply it and the chance it causes once (`apply_logged`), commit them in
        one transaction, then broadcast and acknowledge; True when it was accepted."""
        received = time.perf_counter()
        async with self.lock:
            if self.answered(connection, message.id):
                return False
            if connection.stand_in and connection.seat not in self.stand_ins:
                connection.send(p.Refused(id=message.id, code="replaced", message="the seat's player is back"))
                return False
            if await self._reclaim(connection):
                self._arm_timer()  # the person is on the clock again (a stand-in is not timed)
            refusal = self._check_turn(connection.seat, message.id)
            if refusal is None and message.answers != self.position(connection.seat):
                refusal = (
                    "stale",
                    f"this act answers event {message.answers}, but your last event is "
                    f"{self.position(connection.seat)}; sync and act on the current position",
                )
            action = None
            if refusal is None:
                action, refusal = self._parse(message.action)
            if refusal is not None:
                answer = self._refusal(connection, message.id, refusal)
                if connection.seat is not None:
                    self.answers.setdefault((connection.seat, message.id), answer.model_dump_json())
                return False
            assert action is not None and connection.seat is not None
            before = self._keep()
            act = self._stamp(
                EventInfo(self.event_no + 1, "action", connection.seat, action, message.id, stand_in=connection.stand_in)
            )
            try:
                self._clock_reached(act)
                frames = self._frames(self._record_action("action", action, before.state))
            except BaseException:
                self._restore(before)
                raise
            ack = p.Ack(id=message.id, event_no=self.position(connection.seat))
            if not await self._deal_and_commit(before, [act], frames):
                self._refusal(connection, message.id, ("stale", "another event came first; act on the position now"))
                return False
            self.answers[(connection.seat, message.id)] = ack.model_dump_json()
            await self._advance()
            connection.send(ack)
            self.latencies.append(time.perf_counter() - received)
            return True

    async def resign(self, connection: Connection | None, seat: int | None, client_id: str) -> None:
        """`seat` gives up (from its connection, or from the lobby's leave): the game ends, others win."""
        async with self.lock:
            if connection is not None and self.answered(connection, client_id):
                return
            refusal = self._check_turn(seat, client_id, any_time=True)
            if refusal is not None:
                if connection is not None:
                    self._refusal(connection, client_id, refusal)
                return
            assert seat is not None
            if not await self._commit([EventInfo(self.event_no + 1, "resign", seat, None, client_id)]):
                if connection is not None:
                    self._refusal(connection, client_id, ("stale", "another event came first; send it again"))
                return
            self._broadcast(self._record_resign(seat))
            ack = p.Ack(id=client_id, event_no=self.position(seat))
            self.answers[(seat, client_id)] = ack.model_dump_json()
            if connection is not None:
                connection.send(ack)
            await self._finish()

    def sample(self, connection: Connection, message: p.SampleRequest) -> bool:
        """A state sampled from the seat's view only (`determinize` with the engine's fixed sample RNG, as
        `SeatView` makes it), for a search bot, as the engine's position snapshot (JSON that
        `state_from_snapshot` rebuilds). Carries nothing the seat does not know.

        True for the first sample the seat to move asks at this event number: the game's turn order paces
        it as it paces acts, so it is not counted against the connection's message rate (a search bot asks
        one per move, and may move faster than the rate)."""
        refusal = self._check_turn(connection.seat, message.id, any_time=True)
        if refusal is not None:
            self._refusal(connection, message.id, refusal)
            return False
        assert connection.seat is not None
        sample = self.state.determinize(connection.seat, SampleRng())
        number = self.position(connection.seat)
        connection.send(p.Sample(id=message.id, event_no=number, snapshot=sample.snapshot()))
        paced = connection.seat == self.state.current_player() and connection.sampled != number
        if paced:
            connection.sampled = number
        return paced

    def _check_turn(self, seat: int | None, client_id: str, any_time: bool = False) -> tuple[str, str] | None:
        if seat is None:
            return ("spectator", "a spectator cannot act; join a seat to play")
        if self.status == "open":
            return ("not_started", "the game has not started: it starts when every seat is filled")
        if self.finished:
            return ("game_over", "the game is over; no action is accepted")
        if any_time:
            return None
        player = self.state.current_player()
        if player != seat:
            who = self.seat_names[player] if player >= 0 else "chance"
            return ("not_your_turn", f"it is not your turn: {who} is to act")
        return None

    def _parse(self, given: str | int) -> tuple[int | None, tuple[str, str] | None]:
        """The legal action for an act's text or number (`State.parse_legal`: no copy, nothing applied), or
        the engine's reason for refusing it."""
        try:
            return self.state.parse_legal(given), None
        except IllegalActionError as error:
            return None, ("illegal_action", str(error))
        except (InvalidActionError, ValueError) as error:
            return None, ("invalid_action", str(error))

    def _refusal(self, connection: Connection, client_id: str, refusal: tuple[str, str]) -> p.Refused:
        answer = p.Refused(id=client_id, code=refusal[0], message=refusal[1])
        connection.send(answer)
        return answer

    def answered(self, connection: Connection, client_id: str) -> bool:
        """A repeated client message id: send the first answer again and report True (nothing is applied)."""
        if connection.seat is None:
            return False
        answer = self.answers.get((connection.seat, client_id))
        if answer is None:
            return False
        connection.send_text(answer)
        return True

    def _keep(self) -> _Before:
        """The hub's state before an act or a deal (one copy of the `State`), to go back to (`_restore`)."""
        return _Before(
            state=self.state.clone(), rng=self.rng.getstate(), event_no=self.event_no, actions=len(self.actions),
            streams={who: len(stream) for who, stream in self.streams.items()}, banks=list(self.banks),
            clock_since=self.clock_since, last_mover=self.last_mover,
        )

    def _restore(self, before: _Before) -> None:
        """Back to `before`: the events applied since were never committed and never sent (the RNG gives back
        the draws, the streams and the clock forget them)."""
        self.state = before.state
        self.rng.setstate(before.rng)
        self.event_no = before.event_no
        del self.actions[before.actions:]
        for who, length in before.streams.items():
            del self.streams[who][length:]
            del self.history[who][length:]
        self.banks = before.banks
        self.clock_since = before.clock_since
        self.last_mover = before.last_mover

    async def _deal_and_commit(self, before: _Before, events: list[EventInfo], frames: Frames) -> bool:
        """After `events` (the act already applied, or none): sample and apply the chance that follows until a
        seat is to act, each outcome once, for real (`_record_action`); commit all the events in one
        transaction; then send the connections their frames. Chance events carry the act's time and clock
        (chance is charged to no one). False when another process took the event numbers first: the hub goes
        back to `before` (nothing was sent) and catches up."""
        try:
            while self.state.current_player() == CHANCE:
                outcome = self.state.sample_outcome(self.rng.random())
                item = EventInfo(self.event_no + 1, "chance", None, outcome, None)
                if events:
                    item = replace(item, at=events[0].at, clock=events[0].clock)
                else:
                    item = self._stamp(item)
                    self._clock_reached(item)
                frames += self._frames(self._record_action("chance", outcome, None if events else before.state))
                events.append(item)
            if events:
                await self.store.writer.commit(self.id, events)
                self.metrics.committed(len(events))
        except IntegrityError:
            self._restore(before)
            await self.catch_up()
            return False
        except BaseException:
            self._restore(before)
            raise
        for connection, text in frames:
            if connection in self.connections:
                connection.send_text(text)
        return True

    async def _commit(self, events: list[EventInfo]) -> bool:
        """Commit events that are not applied yet (a resignation, a forfeit on time); False when another
        process took their numbers first (we then catch up)."""
        first = self._stamp(events[0])
        events = [first, *(replace(item, at=first.at, clock=first.clock) for item in events[1:])]
        try:
            await self.store.writer.commit(self.id, events)
        except IntegrityError:
            await self.catch_up()
            return False
        for item in events:
            self._clock_reached(item)
        self.metrics.committed(len(events))
        return True

    async def _advance(self) -> None:
        """Deal the chance that follows until a seat is to act (applied, then committed in one transaction:
        `_deal_and_commit`), then finish the game if it is over."""
        while self.state.current_player() == CHANCE:
            if not await self._deal_and_commit(self._keep(), [], []):
                continue  # another process dealt it (the same outcomes: the same seed); caught up already
        if self.finished:
            return
        if self.state.current_player() == TERMINAL:
            await self._finish()
        else:
            self._arm_timer()
            self._turn_began()

    def _turn_began(self) -> None:
        """Tell `on_turn` when the seat to act is not the one that acted last: its turn begins (again on a
        restart's resume or another process's catch-up: the notices' key makes the repeat a no-op)."""
        seat = self.state.current_player()
        if self.on_turn is not None and seat >= 0 and seat != self.last_mover:
            self.on_turn(self, seat)

    def _arm_timer(self) -> None:
        """With a timer: the table's policy acts on the running seat if this event is still the last when its
        time (its move's, or its bank) runs out. A seat a stand-in holds is not timed, on either kind of timer:
        the stand-in is the server's own bot, bounded by its search budget, and a busy machine must not make
        it forfeit its player's game."""
        if self.timer_task is not None:
            self.timer_task.cancel()
            self.timer_task = None
        seat = self.running()
        if seat is None or seat in self.stand_ins:
            return
        self.timer_task = asyncio.create_task(self._expire(self.event_no, seat, self.time_left(seat, time.time())))

    async def _expire(self, event_no: int, seat: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            if self.status != "playing" or self.event_no != event_no:
                return
            self.timer_task = None
            if self.on_timeout == "bot" and self.launch_stand_in is not None and seat not in self.stand_ins:
                # A bot of the table's level holds the seat until its player acts again (docs/server.md),
                # launched by the process that plays the table's bots.
                if self.claim_bots is not None and not await self.claim_bots():
                    self.timer_task = asyncio.create_task(self._expire(event_no, seat, self.claim_retry_seconds))
                    return
                token = new_token()
                await asyncio.to_thread(self.store.set_stand_in, self.id, seat, hash_token(token), self.event_no)
                self.stand_ins[seat] = hash_token(token)
                self.clock_since = time.time()  # the stand-in's move starts now
                if self.timer_kind == "total":
                    self.banks[seat] = 0.0
                self.announce_players()
                await self.launch_stand_in(seat, token, self.stand_in_level)
                self._arm_timer()
                return
            if not await self._commit([EventInfo(self.event_no + 1, "timeout", seat, None, None)]):
                return
            self._broadcast(self._record_resign(seat, "timeout"))
            await self._finish()

    async def rearm(self) -> None:
        """Arm the timer again on the position as it is (this process has just taken the table's bots)."""
        async with self.lock:
            if self.status == "playing":
                self._arm_timer()

    def stop_timer(self) -> None:
        if self.timer_task is not None:
            self.timer_task.cancel()
            self.timer_task = None

    async def _finish(self) -> None:
        if self.timer_task is not None and self.timer_task is not asyncio.current_task():
            self.timer_task.cancel()
        self.timer_task = None
        end = self.end_message(None)
        if os.environ.get(DIE_BEFORE_FINISH):
            os.kill(os.getpid(), signal.SIGKILL)  # a test hook (docs/server.md, "Ratings"): a crash right here
        stored = await asyncio.to_thread(self.store.finish_table, self.id, end.result.model_dump())
        self.rating = rating_part(stored)
        self.status = "finished"
        log.info(end.result.reason, extra={"table": self.id, "status": "finished", "event_no": self.event_no})
        for connection in self.connections:
            connection.send(self.end_message(connection.seat))

    def _record_action(self, kind: str, action: int, before: State | None = None) -> dict[Recipient, p.EventBody]:
        """Apply one event through the engine's driver step (`apply_logged`: `before`, when given, is an
        unchanged copy of the state it reads instead of copying it) and add it, as each recipient sees it, to
        the stream of every recipient that does not see it as nothing (docs/protocol.md)."""
        if kind == "action":
            self.last_mover = (before or self.state).current_player()
        told = apply_logged(self.state, action, self.recipients, before)
        self.event_no += 1
        self.actions.append(action)
        bodies = {
            who: p.EventBody(
                event_no=self.position(who) + 1, kind=kind, actor=seen.actor,  # type: ignore[arg-type]  # kind is the caller's 'action' or 'chance' (this method's two callers)
                action=seen.action, text=seen.text,
                lines=[p.Line(text=line.text, kind=line.kind, actor=line.actor) for line in seen.lines],
            )
            for who, seen in told.items()
            if not seen.nothing
        }
        self._append(bodies)
        return bodies

    def _append(self, bodies: dict[Recipient, p.EventBody]) -> None:
        for who, body in bodies.items():
            self.streams[who].append(self.event_no)
            self.history[who].append(body.model_dump_json())

    def _record_resign(self, seat: int, kind: str = "resign") -> dict[Recipient, p.EventBody]:
        """A resignation, or a forfeit on time (`kind` "timeout"): the game ends, the other seats win."""
        self.event_no += 1
        self.resigned = seat
        self.timed_out = kind == "timeout"
        bodies = {}
        for who in self.recipients:
            name = "you" if who == seat else self.seat_names[seat]
            if self.timed_out:
                text = f"{name} ran out of time and forfeit{'' if who == seat else 's'}"
            else:
                text = "you resign" if who == seat else f"{name} resigns"
            bodies[who] = p.EventBody(
                event_no=self.position(who) + 1, kind=kind, actor=seat, action=None,  # type: ignore[arg-type]  # kind is 'resign' or 'timeout' (this method's two callers)
                text=text, lines=[p.Line(text=text, kind="summary", actor=seat)],
            )
        self._append(bodies)
        return bodies

    def _frames(self, bodies: dict[Recipient, p.EventBody]) -> Frames:
        """For each connection whose recipient's stream holds the event: the event as its recipient sees it,
        with its view now (after the event), as the text to send (made once per recipient)."""
        texts: dict[Recipient, str] = {}
        frames: Frames = []
        for connection in self.connections:
            who = connection.seat
            if who not in bodies:
                continue
            if who not in texts:
                view = self.view_of(who)
                texts[who] = p.Event(
                    event=bodies[who], view=view.view, to_move=view.to_move, legal=view.legal, clock=view.clock
                ).model_dump_json()
            frames.append((connection, texts[who]))
        return frames

    def _broadcast(self, bodies: dict[Recipient, p.EventBody]) -> None:
        """Send an event already committed and applied (`_frames`) now."""
        for connection, text in self._frames(bodies):
            connection.send_text(text)
