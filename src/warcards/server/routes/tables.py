"""The lobby (REST): create, list, show, join and leave tables; a seat's record and the deck's card facts
(docs/server.md, "The lobby")."""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request, Response

from warcards.engine.registry import game_spec
from warcards.server.db import TableInfo
from warcards.server.games import shared_game
from warcards.server.limits import PRUNE_EVERY
from warcards.server.lobby import CreateTable, Joined, JoinSeat, SeatOut, TableOut, check_table
from warcards.server.names import check_display_name, seat_display_name
from warcards.server.process import RESTARTING, Server
from warcards.server.routes import ServerDep, address_of, info_of, refusals, seat_of
from warcards.server.routes.accounts import session_of

router = APIRouter()

MAX_PAGE = 200
"""The most tables one `GET /tables` answer lists."""


def table_out(info: TableInfo) -> TableOut:
    names = shared_game(info.game, info.options).seat_names()
    return TableOut(
        id=info.id, game=info.game, options=info.options, public=info.public, rated=info.rated, status=info.status,
        seats=[
            SeatOut(
                seat=s.seat, seat_name=names[s.seat], kind=s.kind, level=s.level,
                player=seat_display_name(s.kind, s.level, s.name if s.taken else None),
                open=s.kind == "person" and not s.taken,
            )
            for s in info.seats
        ],
        invite=f"/tables/{info.id}", websocket=f"/tables/{info.id}/ws", result=info.result, chat=info.chat,
    )


def unfinished(server: Server, table_ids: set[str]) -> set[str]:
    """The tables of `table_ids` this process holds that have not ended."""
    return {table_id for table_id in table_ids if (hub := server.hubs.get(table_id)) and not hub.finished}


def check_quotas(server: Server, request: CreateTable, address: str) -> None:
    """Refuse a table this client may not make now: one with no person seat (unless the operator allows
    them), past its address's quota of unfinished tables, or past the process's (docs/server.md, "Limits")."""
    config = server.config
    if not config.allow_bot_tables and all(seat.kind == "bot" for seat in request.seats):
        raise HTTPException(
            403,
            "a table with no person seat would play itself on this server, and this server does not allow "
            "them (its operator can: warcards serve --allow-bot-tables); give at least one seat to a person",
        )
    if len(server.quota.made) > PRUNE_EVERY:  # addresses whose tables all ended are forgotten
        server.quota.prune(functools.partial(unfinished, server))
    mine = unfinished(server, server.quota.tables_of(address))
    server.quota.finished(address, server.quota.tables_of(address) - mine)
    if config.max_tables_per_address and len(mine) + server.quota.pending(address) >= config.max_tables_per_address:
        raise HTTPException(
            429,
            f"this address has {len(mine)} unfinished tables on this server, the most it may have "
            f"(--max-tables-per-address {config.max_tables_per_address}): finish or leave one first",
        )
    held = sum(not hub.finished for hub in server.hubs.values()) + server.quota.pending()
    if config.max_open_tables and held >= config.max_open_tables:
        raise HTTPException(
            503,
            f"this server holds {held} unfinished tables, its most (--max-open-tables "
            f"{config.max_open_tables}): try again when some have ended",
            headers={"Retry-After": "60"},
        )


@router.post("/tables", status_code=201, responses=refusals(400, 403, 422, 429, 503))
async def create_table(server: ServerDep, request: CreateTable, http: Request) -> TableOut:
    """A new table: the game and options are checked by the engine, bots take their seats at once, and
    the game starts when every person seat is filled. Quotas: docs/server.md, "Limits". Refused (503) while
    the server drains for a restart."""
    if server.draining:
        raise HTTPException(503, RESTARTING)
    game = check_table(request)
    address = address_of(http)
    check_quotas(server, request, address)
    seats: list[tuple[str, str | None]] = [(seat.kind, seat.level) for seat in request.seats]
    with server.quota.reserving(address):
        table_id, tokens = await asyncio.to_thread(
            server.store.create_table, game.game_id, game.options, secrets.randbits(62), request.public,
            request.timer.model_dump(), seats, rated=request.rated, chat=request.chat,
        )
        hub = await server.hub(table_id)
        assert hub is not None
        server.quota.add(address, table_id)
    await server.start_if_full(hub, tokens)
    return table_out(hub.info if hub.status == "open" else await info_of(server, table_id))


@router.get("/tables", responses=refusals(422))
async def list_tables(
    server: ServerDep,
    response: Response,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description=f"tables in this answer, 1 to {MAX_PAGE}")] = 50,
    offset: Annotated[int, Query(ge=0, le=2**31 - 1, description="tables of the list to skip")] = 0,
) -> list[TableOut]:
    """Public tables with an open seat, oldest first, `limit` at a time from `offset`. When more follow,
    the `Link` header names the next page (`<...>; rel="next"`) and `X-Next-Offset` its offset."""
    infos = await asyncio.to_thread(server.store.tables, True, "open")
    page = infos[offset:offset + limit]
    if offset + limit < len(infos):
        response.headers["Link"] = f'</tables?limit={limit}&offset={offset + limit}>; rel="next"'
        response.headers["X-Next-Offset"] = str(offset + limit)
    return [table_out(info) for info in page]


@router.get("/tables/{table_id}", responses=refusals(404))
async def show_table(server: ServerDep, table_id: str) -> TableOut:
    """A table by its id: what an invite link shows."""
    return table_out(await info_of(server, table_id))


def join_name(request: JoinSeat) -> str:
    """The display name a join seats: the name given, checked (`warcards.server.names`: a refusal is a 422
    saying what is wrong and what is allowed). The one place a join's name is decided."""
    return check_display_name(request.name)


@router.post("/tables/{table_id}/seats/{seat}", responses=refusals(400, 403, 404, 409, 422))
async def join(server: ServerDep, table_id: str, seat: int, request: JoinSeat, http: Request) -> Joined:
    """Take an open person seat under a display name (docs/server.md, "Names"); the answer carries the
    seat's token (keep it: it is shown once). Signed in (a session cookie, from this server's page), the seat
    is the account's and carries its name. A rated table's seats are for signed-in accounts only (403
    otherwise), one seat per account."""
    signed = await session_of(server, http)
    name = signed[0].name if signed is not None else join_name(request)
    info = await info_of(server, table_id)
    if not 0 <= seat < len(info.seats):
        raise HTTPException(404, f"table {table_id} has seats 0 to {len(info.seats) - 1}")
    if info.status != "open" or info.seats[seat].kind != "person" or info.seats[seat].taken:
        raise HTTPException(409, f"seat {seat} of table {table_id} is not open")
    account = signed[0].id if signed is not None else None
    if info.rated and account is None:
        raise HTTPException(
            403, "this table is rated: sign in to take a seat (ratings belong to accounts); any unrated table "
            "takes a guest",
        )
    held = [s.seat for s in info.seats if account is not None and s.account_id == account]
    if info.rated and held:
        raise HTTPException(409, f"your account already holds seat {held[0]} of this rated table: one seat each")
    token = await asyncio.to_thread(server.store.take_seat, table_id, seat, name, account)
    if token is None:
        raise HTTPException(409, f"seat {seat} of table {table_id} is not open")
    hub = await server.hub(table_id)
    assert hub is not None
    hub.seats_changed(await info_of(server, table_id))
    await server.start_if_full(hub, {})
    return Joined(table=table_id, seat=seat, token=token, websocket=f"/tables/{table_id}/ws")


@router.post("/tables/{table_id}/leave", responses=refusals(401, 403, 404, 422))
async def leave(
    server: ServerDep, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> TableOut:
    """Leave a seat (`Authorization: Bearer TOKEN`): before the start the seat opens again; during the
    game leaving is resigning."""
    seat = await seat_of(server, table_id, authorization)
    hub = await server.hub(table_id)
    assert hub is not None
    if hub.status == "open":
        await asyncio.to_thread(server.store.free_seat, table_id, seat)
        hub.seats_changed(await info_of(server, table_id))
    elif hub.status == "playing":
        await hub.resign(None, seat, f"leave-{secrets.token_hex(8)}")
        server.forget_if_idle(hub)
    return table_out(await info_of(server, table_id))


@router.get("/tables/{table_id}/spectate", responses=refusals(404))
async def spectate(server: ServerDep, table_id: str) -> TableOut:
    """How to watch a table: connect to its `websocket` with a `hello` that carries no token."""
    return table_out(await info_of(server, table_id))


@router.get("/tables/{table_id}/record", responses=refusals(401, 403, 404, 409, 422))
async def record(
    server: ServerDep, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """After the end: the whole record (seed included), in the format `warcards replay` checks. During
    the game, with a seat's token (`Authorization: Bearer TOKEN`): that seat's own record — the events
    as it saw them and its view now; without one, refused."""
    hub = await server.hub(table_id)
    if hub is None:
        raise HTTPException(404, f"no table {table_id}")
    if hub.finished:
        return hub.record()
    if authorization is None:
        raise HTTPException(409, "the whole record is given after the end; a seat's token gets its own")
    seat = await seat_of(server, table_id, authorization)
    async with hub.lock:
        return {
            "table": hub.id, "game": hub.game.game_id, "options": hub.game.options, "seat": seat,
            "players": [player.model_dump() for player in hub.seat_players()],
            "events": [body.model_dump() for body in hub.events_seen(seat)],
            "view": hub.view_of(seat).model_dump(),
        }


@functools.lru_cache(maxsize=64)
def facts_of(game_id: str, options: str) -> dict[str, dict[str, Any]]:
    return game_spec(game_id).card_facts(shared_game(game_id, json.loads(options)))


@router.get("/tables/{table_id}/cards", responses=refusals(404))
async def card_facts(server: ServerDep, table_id: str) -> dict[str, dict[str, Any]]:
    """Every card of the table's deck (its game and options) with its facts — name, values, traits,
    abilities in words (docs/contributing/log.md, "Card facts"): public knowledge, like a deck list."""
    info = await info_of(server, table_id)
    return await asyncio.to_thread(facts_of, info.game, json.dumps(info.options, sort_keys=True))
