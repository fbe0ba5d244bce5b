"""Turn notices by email: whether this server sends them (`GET /features`, for the settings page) and the
one-click unsubscribe of their links (`GET` and RFC 8058's `POST /unsubscribe/{token}`) (docs/server.md,
"Correspondence games and notices")."""

from __future__ import annotations

import asyncio
from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from warcards.server.notices import CORRESPONDENCE_SECONDS, unsubscribe
from warcards.server.routes import ServerDep

router = APIRouter()

MAX_TOKEN = 200
"""A longer unsubscribe token is not one of ours (ours are 32 characters): it is not even hashed."""


class Features(BaseModel):
    """What this server offers beyond play."""

    turn_emails: bool
    """One email when it becomes an opted-in account's turn at a correspondence table (`--smtp` is set)."""
    turn_emails_note: str
    """The sentence the settings page shows about them."""
    correspondence_seconds: int
    """A table whose move timer allows at least this many seconds is a correspondence table."""


@router.get("/features")
async def features(server: ServerDep) -> Features:
    """Whether this server sends turn emails, and what the settings page says about them."""
    sending = server.mailer is not None
    note = (
        "This server emails you when it is your turn in a game of a day or more a move, if you opt in "
        "(your account's settings)."
        if sending
        else "This server sends no email (it has no mail server set up): you get no email when it is your turn."
    )
    return Features(turn_emails=sending, turn_emails_note=note, correspondence_seconds=CORRESPONDENCE_SECONDS)


def _page(title: str, text: str, status: int) -> HTMLResponse:
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} — warcards</title></head><body><main>"
        f"<h1>{escape(title)}</h1><p>{escape(text)}</p>"
        '<p><a href="/">Back to the lobby</a></p></main></body></html>'
    )
    return HTMLResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


async def _unsubscribe(server: ServerDep, token: str) -> HTMLResponse:
    done = len(token) <= MAX_TOKEN and await asyncio.to_thread(unsubscribe, server.store, token)
    if not done:
        return _page(
            "Unknown link",
            "This unsubscribe link is not one this server sent (check that it was copied whole). "
            "You can turn turn emails off in your account's settings.",
            404,
        )
    return _page(
        "You are unsubscribed",
        "You will get no more turn emails from this server. You can turn them on again in your account's settings.",
        200,
    )


UNSUBSCRIBE_RESPONSES: dict[int | str, dict[str, object]] = {
    200: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "unsubscribed"},
    404: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "not a link this server sent"},
}


@router.get("/unsubscribe/{token}", response_class=HTMLResponse, responses=UNSUBSCRIBE_RESPONSES)
async def unsubscribe_page(server: ServerDep, token: str) -> HTMLResponse:
    """The one-click unsubscribe of a turn email's link: its account gets no more turn emails."""
    return await _unsubscribe(server, token)


@router.post("/unsubscribe/{token}", response_class=HTMLResponse, responses=UNSUBSCRIBE_RESPONSES)
async def unsubscribe_post(server: ServerDep, token: str) -> HTMLResponse:
    """RFC 8058's one-click unsubscribe (a mail program posts `List-Unsubscribe=One-Click` to the link of the
    `List-Unsubscribe` header): the same as opening the link. The token is the credential, so no Origin check."""
    return await _unsubscribe(server, token)
