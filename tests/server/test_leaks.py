"""Leak scan: whole games through a real `warcards serve`, a recording client on every seat and a
spectator. Every frame is scanned against a local replay of the game: a card id reaches a seat only if that
seat's own observation showed it at or before that event, and reaches a spectator only if every seat's did.

The test plays every seat itself (random legal moves), so every frame every seat received is in hand.
`WARCARDS_LEAK_GAMES=N` plays N games per configuration instead of one; the suite plays Naval War with two
players (`WARCARDS_LEAK_NAVAL_PLAYERS=4` for its default four, slower).
"""

from __future__ import annotations

import json
import os
import random
import re
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from warcards.engine.api import CHANCE, State, apply_logged, sample_chance
from warcards.engine.registry import games, load_game
from warcards.match import chance_rng

from .conftest import ServerProcess

GAMES = int(os.environ.get("WARCARDS_LEAK_GAMES", "1"))
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *((game_id, {}) for game_id in games() if game_id not in ("race-to-messina", "naval-war")),
    ("naval-war", {"players": int(os.environ.get("WARCARDS_LEAK_NAVAL_PLAYERS", "2"))}),
    *(("race-to-messina", {"variant": variant}) for variant in ("invasion", "race", "sicily")),
]


class Recorder:
    """One connection: every frame it received, tagged with the table's event number at that point."""

    def __init__(self, server: ServerProcess, table: str, token: str | None) -> None:
        self.socket: ClientConnection = connect(f"{server.ws}/tables/{table}/ws", max_size=None, legacy=True)
        self.socket.send(json.dumps({"protocol": 1, "type": "hello", "token": token, "last_seen": 0}))
        self.frames: list[tuple[int, str]] = []
        self.event_no = 0
        self.latest: dict[str, Any] = {}
        self.ended = False

    def read_until(self, event_no: int) -> None:
        while self.event_no < event_no or not self.latest:
            text = str(self.socket.recv(timeout=60))
            message = json.loads(text)
            kind = message["type"]
            if kind == "event":
                self.event_no = message["event"]["event_no"]
                self.latest = message
            elif kind == "view":
                self.event_no = message["event_no"]
                self.latest = message
            elif kind == "catchup":
                self.event_no = message["view"]["event_no"]
                self.latest = message["view"]
            elif kind == "end":
                self.ended = True
                return
            self.frames.append((self.event_no, text))


def knowledge(game_id: str, options: dict[str, Any], record: dict[str, Any]) -> tuple[list[list[set[str]]], set[str]]:
    """For each seat and each event number, the card ids its observations showed up to then; and every id."""
    game = load_game(game_id, **options)
    state: State = game.new_initial_state()
    every = {card for cards in state.zones().values() for card in cards}
    pattern = id_pattern(every)

    def ids(value: object) -> set[str]:
        return set(pattern.findall(json.dumps(value)))

    seats = range(game.num_players)
    known = [[ids(state.observe(seat))] for seat in seats]
    rng = chance_rng(record["seed"])
    for action in record["actions"]:
        if state.current_player() == CHANCE:
            assert action == sample_chance(state.chance_outcomes(), rng.random())
        # What the engine shows a seat of the move itself counts as seen (a face-up discard that a new deal
        # sweeps away in the same step never shows in an observation).
        seen = [ids(state.seen_action(action, seat).text) for seat in seats]
        lines = apply_logged(state, action, list(seats))
        for seat in seats:
            known[seat].append(known[seat][-1] | seen[seat] | ids([line.text for line in lines[seat]]) | ids(state.observe(seat)))
    return known, every


def scan(frames: list[tuple[int, str]], allowed: list[set[str]], every: set[str]) -> list[str]:
    """Each card id a frame names that its recipient may not know at that event."""
    pattern = id_pattern(every)
    leaks = []
    for number, text in frames:
        for card in set(pattern.findall(text)) - allowed[min(number, len(allowed) - 1)]:
            at = text.find(card)
            leaks.append(f"event {number}: {card}: …{text[max(0, at - 300):at + 100]}…")
    return leaks


def id_pattern(every: set[str]) -> re.Pattern[str]:
    """Whole card ids (not part of a longer id), longest first."""
    names = "|".join(sorted((re.escape(card) for card in every), key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?:{names})(?![\w.-])")


@pytest.mark.parametrize(("game_id", "options"), CONFIGS, ids=[f"{g}-{o.get('variant', o.get('players', ''))}" for g, o in CONFIGS])
def test_no_frame_carries_a_card_its_recipient_may_not_know(
    sqlite_server: ServerProcess, game_id: str, options: dict[str, Any]
) -> None:
    rng = random.Random(f"{game_id}{options}")
    seats = load_game(game_id, **options).num_players
    games_played = 0
    for _ in range(GAMES):
        table = sqlite_server.post(
            "/tables", {"game": game_id, "options": options, "seats": [{"kind": "person"}] * seats}
        )["id"]
        watcher = Recorder(sqlite_server, table, None)
        tokens = [sqlite_server.post(f"/tables/{table}/seats/{s}", {"name": f"p{s}"})["token"] for s in range(seats)]
        players = [Recorder(sqlite_server, table, token) for token in tokens]
        for player in players:
            player.read_until(0)
        number = max(player.event_no for player in players)
        while not any(player.ended for player in players):
            for player in [*players, watcher]:
                player.read_until(number)
            if any(player.ended for player in players):
                break
            mover = next(p for p in players if p.latest.get("legal") and p.latest.get("to_move") is not None)
            choice = rng.choice(mover.latest["legal"])["action"]
            mover.socket.send(json.dumps(
                {"protocol": 1, "type": "act", "id": f"a{number}", "answers": number, "action": choice}
            ))
            while True:
                text = str(mover.socket.recv(timeout=60))
                message = json.loads(text)
                if message["type"] == "ack":
                    break
                if message["type"] == "event":
                    mover.event_no = message["event"]["event_no"]
                    mover.latest = message
                    mover.frames.append((mover.event_no, text))
                elif message["type"] == "end":
                    mover.ended = True
            number = mover.event_no
        for player in [*players, watcher]:
            player.read_until(10**9) if not player.ended else None
        record = sqlite_server.get_json(f"/tables/{table}/record")
        known, every = knowledge(game_id, record["options"], record)
        public = [set.intersection(*(known[s][n] for s in range(seats))) for n in range(len(known[0]))]
        for seat, player in enumerate(players):
            assert scan(player.frames, known[seat], every) == [], f"seat {seat}"
        assert scan(watcher.frames, public, every) == [], "spectator"
        for player in [*players, watcher]:
            player.socket.close()
        games_played += 1
    assert games_played == GAMES
