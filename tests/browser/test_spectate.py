"""A spectator's page shows the public view only: no card id of any seat's hand is anywhere in its HTML,
checked after each of the first moves of a game of every game id (and Race to Messina variant) that protocol
clients play from every seat."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import ServerProcess
from warcards.engine.registry import load_game

from .test_games import GAME_IDS, GAMES

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

MOVES = 8


class Seat:
    """A seat played over the protocol by the test: its view and legal moves at the newest event."""

    def __init__(self, socket: ClientConnection, token: str) -> None:
        self.socket = socket
        self.socket.send(json.dumps({"protocol": 1, "type": "hello", "token": token, "last_seen": None}))
        self.event_no = -1
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] | None = None
        self.read_until(0)

    def read_until(self, event_no: int) -> None:
        while self.event_no < event_no or not self.view:
            message = json.loads(self.socket.recv(timeout=60))
            if message["type"] in ("view", "event"):
                self.event_no = message["event_no"] if message["type"] == "view" else message["event"]["event_no"]
                self.view, self.legal = message["view"], message.get("legal")

    def act(self) -> int:
        assert self.legal
        self.socket.send(json.dumps({
            "protocol": 1, "type": "act", "id": f"t{self.event_no}", "answers": self.event_no,
            "action": self.legal[0]["action"],
        }))
        while True:
            message = json.loads(self.socket.recv(timeout=60))
            if message["type"] == "event":
                self.event_no = message["event"]["event_no"]
                self.view, self.legal = message["view"], message.get("legal")
            if message["type"] == "ack":
                return int(message["event_no"])


@pytest.mark.parametrize(("game_id", "options"), [*GAMES, ("cards-of-war", {})], ids=[*GAME_IDS, "cards-of-war"])
def test_a_spectators_page_contains_no_card_of_a_hand(
    page: Any, sqlite_server: ServerProcess, game_id: str, options: dict[str, Any]
) -> None:
    count = load_game(game_id, **options).num_players
    seats = [{"kind": "person"}] * count
    table = sqlite_server.post("/tables", {"game": game_id, "options": options, "seats": seats})["id"]
    tokens = [
        sqlite_server.post(f"/tables/{table}/seats/{seat}", {"name": f"p{seat}"})["token"] for seat in range(count)
    ]
    with contextlib.ExitStack() as stack:
        url = f"{sqlite_server.ws}/tables/{table}/ws"
        sockets = [stack.enter_context(connect(url, open_timeout=30)) for _ in tokens]
        seats = [Seat(socket, token) for socket, token in zip(sockets, tokens, strict=True)]
        watch(page, sqlite_server, table, seats)


def watch(page: Any, sqlite_server: ServerProcess, table: str, seats: list[Seat]) -> None:
    page.goto(f"{sqlite_server.http}/#/table/{table}")
    page.wait_for_selector("#log li")
    assert page.locator("#hand").is_hidden()
    for _ in range(MOVES):
        now = max(seat.event_no for seat in seats)
        for seat in seats:
            seat.read_until(now)
        page.wait_for_function(f"document.body.dataset.eventNo === '{now}'")
        html = page.content()
        assert any(seat.view["hand"] for seat in seats)
        for seat in seats:
            shown = [card for card in seat.view["hand"] if re.search(rf"\b{re.escape(card)}\b", html)]
            assert not shown, f"the spectator's page shows {shown} of seat {seat.view['seat']}'s hand"
        mover = next(seat for seat in seats if seat.legal)
        mover.act()
    assert page.locator("#log li").count() > 0
