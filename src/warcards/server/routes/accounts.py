"""Optional accounts (REST): sign up, sign in and out, the signed-in account (`/me`), its settings, password
and deletion, and its games (docs/server.md, "Players and accounts").

A session is a cookie (`warcards_session`: HttpOnly, SameSite=Lax, Path=/, Secure over https) holding a
random key; the server keeps its SHA-256 in `sessions`. Every state-changing request a session cookie
authenticates must come from this server's own page (its `Origin`, or else its `Referer`): a request
without either, or from another site, is refused (403). Sign-in and sign-up are throttled per client
address, and each account's sign-in is locked a growing while after repeated failures.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from warcards.engine.text import quote
from warcards.server.accounts import MAX_PASSWORD, Account, AccountError, HeldSeat
from warcards.server.db import hash_token
from warcards.server.games import shared_game
from warcards.server.lobby import Joined
from warcards.server.process import Server
from warcards.server.routes import ServerDep, address_of, refusals

COOKIE = "warcards_session"
MAX_HELD = 200
"""The most guest seats one sign-in or sign-up may bring along."""
MAX_FINISHED = 50
"""The newest finished games `GET /me/games` lists."""

T = TypeVar("T")


class NoEchoRoute(APIRoute):
    """A route whose malformed bodies get a 422 that names each wrong field and why, but never echoes what
    was sent (FastAPI's own answer carries the input: a password would come back)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def without_echo(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as error:
                problems = [
                    f"{quote('.'.join(str(part) for part in problem['loc']))}: {problem['msg']}"
                    for problem in error.errors()[:3]
                ]
                raise HTTPException(422, "; ".join(problems) or "the request is malformed") from None

        return without_echo


router = APIRouter(route_class=NoEchoRoute)


# ----- bodies and answers -------------------------------------------------------------------------------------
class HeldSeatIn(BaseModel):
    """A seat this browser holds as a guest: its table and its token (kept in the browser's storage)."""

    model_config = ConfigDict(extra="forbid")

    table: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    token: Annotated[StrictStr, Field(min_length=1, max_length=256)]


class Credentials(BaseModel):
    """A user name (the display-name rules) and a password (8 to 1,024 characters); `seats`: the guest seats
    this browser holds, which the account takes over (a token that is not that seat's is passed over)."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[StrictStr, Field(min_length=1, max_length=200)]
    password: Annotated[StrictStr, Field(min_length=1, max_length=MAX_PASSWORD)]
    seats: Annotated[list[HeldSeatIn], Field(max_length=MAX_HELD)] = Field(default_factory=list)


class Settings(BaseModel):
    """What to change: the email address (null or "" for none) and whether to get turn notices."""

    model_config = ConfigDict(extra="forbid")

    email: Annotated[StrictStr, Field(max_length=254)] | None = None
    notify_turns: StrictBool | None = None


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")

    old_password: Annotated[StrictStr, Field(min_length=1, max_length=MAX_PASSWORD)]
    new_password: Annotated[StrictStr, Field(min_length=1, max_length=MAX_PASSWORD)]


class Confirm(BaseModel):
    """Deleting an account asks for its password."""

    model_config = ConfigDict(extra="forbid")

    password: Annotated[StrictStr, Field(min_length=1, max_length=MAX_PASSWORD)]


class HeldToken(BaseModel):
    """The seat token this browser holds for the table, if any (kept when it is still the seat's)."""

    model_config = ConfigDict(extra="forbid")

    token: Annotated[StrictStr, Field(min_length=1, max_length=256)] | None = None


class SeatRef(BaseModel):
    table: str
    seat: int


class Me(BaseModel):
    """The signed-in account: its name, email (None: none) and whether it gets turn notices."""

    name: str
    email: str | None
    notify_turns: bool


class SignedIn(Me):
    seats_taken: list[SeatRef]
    """The guest seats this sign-in attached to the account."""


class MyGame(BaseModel):
    """One of the account's games: its table, the seat held, who sits where, and where it stands."""

    table: str
    game: str
    status: Literal["open", "playing", "finished"]
    seat: int
    seat_name: str
    players: list[str | None]
    your_turn: bool
    result: dict[str, Any] | None
    won: bool | None
    """After the end: whether the seat is among the winners."""
    link: str
    """The table page (`#/table/ID`), or after the end its replay from the seat's side (`#/replay/ID/SEAT`)."""


class MyGames(BaseModel):
    """Running games (those where it is your turn first) and the newest finished ones."""

    running: list[MyGame]
    finished: list[MyGame]


# ----- sessions and the Origin check --------------------------------------------------------------------------
def origin_of(request: Request) -> str | None:
    """The page the request came from: its `Origin`, else the origin of its `Referer`; None without either."""
    origin = request.headers.get("origin")
    if origin and origin != "null":
        return origin
    referer = request.headers.get("referer")
    if referer:
        parts = urlsplit(referer)
        if parts.scheme and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}"
    return None


def check_origin(server: Server, request: Request, required: bool) -> None:
    """Refuse (403) a request from another site's page, or (when `required`: a session cookie authenticates
    it) one that does not say which page it came from."""
    origin = origin_of(request)
    if origin is None:
        if required:
            raise HTTPException(
                403,
                "a signed-in change must come from this server's own page, and this request named none (no "
                "Origin or Referer header): send Origin with the server's address",
            )
        return
    if origin in server.config.origins or urlsplit(origin).netloc == request.headers.get("host"):
        return
    raise HTTPException(
        403, f"this request came from another site's page ({quote(origin, 80)}); account changes are accepted "
        "only from this server's own page",
    )


async def session_of(server: Server, request: Request) -> tuple[Account, str] | None:
    """The account the request's session cookie signs in, with the session's key hash; None without one.
    A state-changing request it authenticates must pass the Origin check."""
    key = request.cookies.get(COOKIE)
    if not key or len(key) > 256:
        return None
    found = await asyncio.to_thread(server.accounts.session_account, key)
    if found is not None and request.method not in ("GET", "HEAD", "OPTIONS"):
        check_origin(server, request, required=True)
    return found


async def signed_in(server: ServerDep, request: Request) -> tuple[Account, str]:
    """The signed-in account (a dependency), or 401."""
    found = await session_of(server, request)
    if found is None:
        raise HTTPException(401, "sign in first (POST /session): this browser has no session, or it expired")
    return found


SignedInDep = Annotated[tuple[Account, str], Depends(signed_in)]


def set_cookie(server: Server, request: Request, response: Response, key: str) -> None:
    response.set_cookie(
        COOKIE, key, max_age=int(server.config.session_days * 86400), path="/", httponly=True, samesite="lax",
        secure=request.url.scheme == "https",
    )


def clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")


async def account_call(server: Server, function: Callable[..., T], *args: Any, hashing: bool = False) -> T:
    """Run an `Accounts` method in a thread (at most two password hashes at once); its refusal as HTTP."""
    try:
        if hashing:
            async with server.hashing:
                return await asyncio.to_thread(function, *args)
        return await asyncio.to_thread(function, *args)
    except AccountError as error:
        headers = {"Retry-After": str(max(1, round(error.retry_after)))} if error.retry_after else None
        raise HTTPException(error.status, str(error), headers=headers) from None


def throttle(server: Server, request: Request) -> None:
    """One sign-in try of the client's address (`--signin-rate`, `--signin-burst`), or 429."""
    if not server.signin_buckets.take(address_of(request)):
        wait = max(1, round(1 / server.config.signin_rate))
        raise HTTPException(
            429, f"too many sign-ins from this address: try again in {wait} s (--signin-rate, --signin-burst)",
            headers={"Retry-After": str(wait)},
        )


def me(account: Account) -> Me:
    return Me(name=account.name, email=account.email, notify_turns=account.notify_turns)


async def start_session(
    server: Server, request: Request, response: Response, account: Account, held: list[HeldSeatIn]
) -> SignedIn:
    """Sign `account` in (a new session and its cookie; the browser's previous session, if any, ends) and
    take over the guest seats it brought."""
    previous = request.cookies.get(COOKIE)
    if previous and len(previous) <= 256:
        await account_call(server, server.accounts.end_session, hash_token(previous))
    key = await account_call(server, server.accounts.new_session, account.id)
    set_cookie(server, request, response, key)
    taken = await account_call(server, server.accounts.take_over_seats, account, [(s.table, s.token) for s in held])
    for table_id in {table for table, _ in taken}:
        hub = server.hubs.get(table_id)
        if hub is not None:
            info = await asyncio.to_thread(server.store.table, table_id)
            if info is not None:
                hub.info = info
    return SignedIn(**me(account).model_dump(), seats_taken=[SeatRef(table=t, seat=s) for t, s in taken])


# ----- routes -------------------------------------------------------------------------------------------------
@router.post("/accounts", status_code=201, responses=refusals(400, 403, 409, 422, 429))
async def sign_up(server: ServerDep, body: Credentials, request: Request, response: Response) -> SignedIn:
    """A new account, signed in at once (the session cookie is set). The guest seats in `seats` become
    the account's."""
    check_origin(server, request, required=False)
    throttle(server, request)
    account = await account_call(server, server.accounts.sign_up, body.name, body.password, hashing=True)
    return await start_session(server, request, response, account, body.seats)


@router.post("/session", responses=refusals(400, 403, 422, 429))
async def sign_in(server: ServerDep, body: Credentials, request: Request, response: Response) -> SignedIn:
    """Sign in (the session cookie is set); the guest seats in `seats` become the account's. Refused
    (429, `Retry-After`) past the address's sign-in rate, or while the account is locked after failures."""
    check_origin(server, request, required=False)
    throttle(server, request)
    account = await account_call(server, server.accounts.sign_in, body.name, body.password, hashing=True)
    return await start_session(server, request, response, account, body.seats)


@router.delete("/session", status_code=204, responses=refusals(403))
async def sign_out(server: ServerDep, request: Request, response: Response) -> None:
    """Sign out: the session ends and its cookie is cleared (without one, nothing to do)."""
    found = await session_of(server, request)
    if found is not None:
        await account_call(server, server.accounts.end_session, found[1])
    clear_cookie(request, response)


@router.get("/me", responses=refusals(401))
async def show_me(session: SignedInDep) -> Me:
    """The signed-in account."""
    return me(session[0])


@router.patch("/me", responses=refusals(400, 401, 403, 422))
async def change_settings(server: ServerDep, session: SignedInDep, body: Settings) -> Me:
    """Change the email address and whether a turn notice is sent (correspondence games)."""
    changes = body.model_dump(include=body.model_fields_set)
    if changes.get("notify_turns", True) is None:
        del changes["notify_turns"]
    return me(await account_call(server, server.accounts.settings, session[0].id, changes))


@router.post("/me/password", status_code=204, responses=refusals(400, 401, 403, 422, 429))
async def change_password(server: ServerDep, session: SignedInDep, body: NewPassword, request: Request) -> None:
    """A new password (the old one is asked); every other session of the account ends."""
    throttle(server, request)
    await account_call(
        server, server.accounts.change_password, session[0].id, body.old_password, body.new_password, session[1],
        hashing=True,
    )


@router.post("/me/delete", status_code=204, responses=refusals(400, 401, 403, 422, 429))
async def delete_account(
    server: ServerDep, session: SignedInDep, body: Confirm, request: Request, response: Response
) -> None:
    """Delete the account (its password confirms it): its games stay, its seats shown as "Deleted player";
    its name is free again, its email and password gone, every session ended."""
    throttle(server, request)
    await account_call(server, server.accounts.check_own_password, session[0].id, body.password, hashing=True)
    await account_call(server, server.accounts.delete, session[0].id)
    clear_cookie(request, response)


@router.get("/me/games", responses=refusals(401))
async def my_games(server: ServerDep, session: SignedInDep) -> MyGames:
    """The account's running games (those where it is its turn first) and its newest finished games."""
    held = await asyncio.to_thread(server.accounts.seats_of, session[0].id)
    running = [await my_game(server, seat) for seat in held if seat.status != "finished"]
    finished = [await my_game(server, seat) for seat in [s for s in held if s.status == "finished"][:MAX_FINISHED]]
    running.sort(key=lambda game: not game.your_turn)
    return MyGames(running=running, finished=finished)


@router.post("/me/games/{table_id}/token", responses=refusals(400, 401, 403, 404, 422))
async def seat_token(server: ServerDep, session: SignedInDep, table_id: str, body: HeldToken) -> Joined:
    """A token that plays the account's seat at this table from this browser (one signed in elsewhere has
    none): the `token` sent back when it is still the seat's, else a fresh one — the seat's previous token
    then stops working at its next connection (the browser that used it asks here again)."""
    found = await account_call(server, server.accounts.seat_token, session[0].id, table_id[:64], body.token)
    if found is None:
        raise HTTPException(404, f"this account holds no seat at table {quote(table_id, 40)}")
    seat, token = found
    return Joined(table=table_id, seat=seat, token=token, websocket=f"/tables/{table_id}/ws")


async def my_game(server: Server, held: HeldSeat) -> MyGame:
    your_turn = False
    info = None
    if held.status != "finished":
        hub = await server.hub(held.table_id)
        if hub is not None:
            info = hub.info
            your_turn = hub.status == "playing" and not hub.finished and hub.state.current_player() == held.seat
    if info is None:
        info = await asyncio.to_thread(server.store.table, held.table_id)
    assert info is not None
    result = info.result if held.status == "finished" else None
    names = shared_game(info.game, info.options).seat_names()
    return MyGame(
        table=held.table_id, game=held.game, status=held.status,  # type: ignore[arg-type]  # the store's status column is a str holding only the three table states
        seat=held.seat, seat_name=names[held.seat], players=[s.name for s in info.seats], your_turn=your_turn,
        result=result, won=held.seat in result.get("winners", []) if result else None,
        link=f"#/replay/{held.table_id}/{held.seat}" if result else f"#/table/{held.table_id}",
    )
