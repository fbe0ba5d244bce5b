"""Turn notices by email: whether this server sends them (`GET /features`, for the settings page) and the
unsubscribe of their links: `GET /unsubscribe/{token}` shows a page with a button and changes nothing (a mail
scanner that opens every link must not unsubscribe anyone); `POST` to the link (the button, or RFC 8058's
one-click) unsubscribes (docs/server.md, "Correspondence games and notices")."""

from __future__ import annotations

import asyncio
from html import escape
from urllib.parse import quote

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from warcards.server.notices import CORRESPONDENCE_SECONDS, is_unsubscribe_token, unsubscribe
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


def _page(title: str, text: str, status: int, form: str = "") -> HTMLResponse:
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} — warcards</title></head><body><main>"
        f"<h1>{escape(title)}</h1><p>{escape(text)}</p>{form}"
        '<p><a href="/">Back to the lobby</a></p></main></body></html>'
    )
    return HTMLResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


def _unknown_link() -> HTMLResponse:
    return _page(
        "Unknown link",
        "This unsubscribe link is not one this server sent (check that it was copied whole). "
        "You can turn turn emails off in your account's settings.",
        404,
    )


UNSUBSCRIBE_RESPONSES: dict[int | str, dict[str, object]] = {
    200: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "the page (GET) or unsubscribed (POST)"},
    404: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "not a link this server sent"},
}


@router.get("/unsubscribe/{token}", response_class=HTMLResponse, responses=UNSUBSCRIBE_RESPONSES)
async def unsubscribe_page(server: ServerDep, token: str) -> HTMLResponse:
    """A turn email's unsubscribe link, opened: a page with an "Unsubscribe" button that posts to the same
    link. Opening it changes nothing (mail scanners open every link of an email)."""
    if not (len(token) <= MAX_TOKEN and await asyncio.to_thread(is_unsubscribe_token, server.store, token)):
        return _unknown_link()
    form = (
        f'<form method="post" action="/unsubscribe/{escape(quote(token, safe=""))}">'
        '<button type="submit">Unsubscribe</button></form>'
    )
    return _page(
        "Stop turn emails?",
        "Press the button to get no more turn emails from this server. "
        "You can turn them on again in your account's settings.",
        200,
        form,
    )


@router.post("/unsubscribe/{token}", response_class=HTMLResponse, responses=UNSUBSCRIBE_RESPONSES)
async def unsubscribe_post(server: ServerDep, token: str) -> HTMLResponse:
    """Unsubscribe: the page's button, or RFC 8058's one-click (a mail program posts
    `List-Unsubscribe=One-Click` to the link of the `List-Unsubscribe` header). The token is the credential,
    so no Origin check."""
    if not (len(token) <= MAX_TOKEN and await asyncio.to_thread(unsubscribe, server.store, token)):
        return _unknown_link()
    return _page(
        "You are unsubscribed",
        "You will get no more turn emails from this server. You can turn them on again in your account's settings.",
        200,
    )
