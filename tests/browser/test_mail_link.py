"""A turn email's link opens the table in the browser: the correspondence game's seat, its token kept by the
lobby in this browser, sees "Your turn" (issue 33: "a move makes an email arrive … and its link opens the
table")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.test_mail import (  # noqa: F401  (inbox: the in-process SMTP server fixture)
    Inbox,
    add_account,
    correspondence_table,
    first_turn_of,
    inbox,
    link_in,
    served_with_smtp,
)

from .conftest import screenshot

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium


def test_the_emailed_link_opens_the_table_at_the_players_turn(
    page: Any, tmp_path: Path, inbox: tuple[Inbox, int],  # noqa: F811
) -> None:
    handler, port = inbox
    with served_with_smtp(tmp_path, f"smtp://127.0.0.1:{port}") as (server, store):
        other = add_account(store, "Other", None, notify=False)
        keen = add_account(store, "Keen", "keen@example.org", notify=True)
        table, tokens = correspondence_table(server, store, [other, keen])
        page.goto(f"{server.http}/#/lobby")
        page.select_option("#timer", "move:259200")  # "3 days a move": a correspondence game, emailed here
        page.wait_for_selector("#timer-mail-note:not([hidden])")
        assert "emails you when it is your turn" in page.locator("#timer-mail-note").inner_text()
        page.select_option("#timer", "move:300")
        page.wait_for_selector("#timer-mail-note[hidden]", state="attached")
        # The seat's token, as the lobby kept it when Keen took the seat.
        seats = {table: {"seat": 1, "token": tokens[1], "name": "p1"}}
        page.evaluate(f"localStorage.setItem('warcards.seats', {json.dumps(json.dumps(seats))})")
        page.goto("about:blank")

        first_turn_of(server, table, tokens, 1)
        [message] = handler.wait_for("keen@example.org", 1)
        page.goto(link_in(message, r"http://\S+/#/table/\S+"))
        page.wait_for_function("document.title === '● Your turn — warcards'")
        assert page.locator("#turn-banner").inner_text().startswith("Your turn — ")
        screenshot(page, "mail-link-table")


def test_the_lobby_says_a_server_without_smtp_sends_no_email(page: Any, sqlite_server: ServerProcess) -> None:
    page.goto(f"{sqlite_server.http}/#/lobby")
    page.select_option("#timer", "move:86400")
    page.wait_for_selector("#timer-mail-note:not([hidden])")
    assert "sends no email" in page.locator("#timer-mail-note").inner_text()
    screenshot(page, "lobby-correspondence-note")
