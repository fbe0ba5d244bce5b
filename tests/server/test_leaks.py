"""Leak scan: whole games through a real `warcards serve`, a recording client on every seat and a
spectator. Every frame is scanned against a local replay of the game: a card id reaches a seat only if that
seat's own observation showed it at or before that event, and reaches a spectator only if every seat's did.

Each recipient's frames are also checked against its event stream (docs/protocol.md): it receives exactly
the events it does not see as nothing, numbered 1, 2, 3… without gaps, and each event frame's view equals
`observe(seat)` (the public view for a spectator) at that moment, so no count or order reaches it that its
own observation does not show.

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

from warcards.engine.api import CHANCE, State, apply_logged_lines, sample_chance
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
    """One connection: every frame it received, tagged with its stream's event number at that point, and
    the events of its stream (from `event` and `catchup` frames) with the view each event frame carried."""

    def __init__(self, server: ServerProcess, table: str, token: str | None) -> None:
        self.socket: ClientConnection = connect(f"{server.ws}/tables/{table}/ws", max_size=None, legacy=True)
        self.socket.send(json.dumps({"protocol": 1, "type": "hello", "token": token, "last_seen": 0}))
        self.frames: list[tuple[int, str]] = []
        self.events: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
        self.event_no = 0
        self.latest: dict[str, Any] = {}
        self.ended = False

    def read(self) -> dict[str, Any]:
        text = str(self.socket.recv(timeout=60))
        message: dict[str, Any] = json.loads(text)
        kind = message["type"]
        if kind == "event":
            self.event_no = message["event"]["event_no"]
            self.latest = message
            self.events.append((message["event"], message))
        elif kind == "view":
            self.event_no = message["event_no"]
            self.latest = message
        elif kind == "catchup":
            self.events.extend((body, None) for body in message["events"])
            self.event_no = message["view"]["event_no"]
            self.latest = message["view"]
        elif kind == "end":
            self.ended = True
        if kind != "pong":
            self.frames.append((self.event_no, text))
        return message


def looks(state: State, recipient: int | None) -> tuple[Any, ...]:
    """What a recipient's view frame shows of `state` (protocol `View`): observation, to move, legal."""
    player = state.current_player()
    to_move = player if player >= 0 else None
    legal = state.legal_actions() if recipient is not None and recipient == to_move else None
    try:
        view = state.observe(recipient) if recipient is not None else state.public_view()
    except NotImplementedError:
        view = None
    return view, to_move, legal


def check_streams(
    game_id: str, options: dict[str, Any], record: dict[str, Any], recorders: dict[int | None, Recorder]
) -> dict[int | None, list[int]]:
    """Replay the record: each recipient's stream is the events it does not see as nothing (a log line, or a
    changed view); it must have received exactly those, numbered 1, 2, 3…, each with its log lines, and
    every event frame's view must equal its `observe(seat)` (the public view for a spectator) right after
    that event — so every hand size, pile size and order it shows is one the seat may know. Returns each
    recipient's map from stream position to the table's event number."""
    state: State = load_game(game_id, **options).new_initial_state()
    streams: dict[int | None, list[int]] = {who: [] for who in recorders}
    received = {who: {body["event_no"]: (body, frame) for body, frame in rec.events} for who, rec in recorders.items()}
    for who, rec in recorders.items():
        assert [body["event_no"] for body, _ in rec.events] == list(range(1, len(rec.events) + 1)), who
    for number, action in enumerate(record["actions"], 1):
        before = state.clone()
        seen_before = {who: looks(before, who) for who in recorders}
        state.apply_action(action)
        for who in recorders:
            lines = before.log_lines(action, state, who)
            after = looks(state, who)
            if not lines and after == seen_before[who]:
                continue  # nothing to this recipient: no frame may carry it
            streams[who].append(number)
            body, frame = received[who][len(streams[who])]
            assert [line["text"] for line in body["lines"]] == [line.text for line in lines], (who, number)
            if frame is not None:
                legal = None if frame["legal"] is None else [choice["action"] for choice in frame["legal"]]
                assert (frame["view"], frame["to_move"], legal) == after, (who, number)
    for who, rec in recorders.items():
        assert len(rec.events) == len(streams[who]), f"recipient {who} got events it saw as nothing"
    return streams


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
        lines = apply_logged_lines(state, action, list(seats))
        for seat in seats:
            known[seat].append(known[seat][-1] | seen[seat] | ids([line.text for line in lines[seat]]) | ids(state.observe(seat)))
    return known, every


def scan(frames: list[tuple[int, str]], allowed: list[set[str]], every: set[str], stream: list[int]) -> list[str]:
    """Each card id a frame names that its recipient may not know at that event (`stream` maps the
    recipient's event numbers to the table's)."""
    pattern = id_pattern(every)
    leaks = []
    for position, text in frames:
        number = stream[position - 1] if position else 0
        for card in set(pattern.findall(text)) - allowed[min(number, len(allowed) - 1)]:
            at = text.find(card)
            leaks.append(f"event {number}: {card}: …{text[max(0, at - 300):at + 100]}…")
    return leaks


def choice_cards_outside_the_view(frame: dict[str, Any]) -> list[tuple[str, str]]:
    """Each (notation, card id) of a frame's legal moves whose card the frame's own view does not show."""
    shown = set(re.findall(r'"((?:[^"\\]|\\.)*)"', json.dumps(frame["view"])))
    return [(choice["notation"], card) for choice in frame["legal"] or [] for card in choice["cards"] if card not in shown]


@pytest.mark.parametrize(("game_id", "options"), CONFIGS, ids=[f"{g}-{o.get('variant', o.get('players', ''))}" for g, o in CONFIGS])
def test_a_choices_card_ids_are_all_in_the_seats_own_view(
    sqlite_server: ServerProcess, game_id: str, options: dict[str, Any]
) -> None:
    """The legal moves a seat is offered name their cards (`cards`), and only cards its own view shows: the
    page marks them without reading the notation, and learns nothing more from them. Played (random legal
    moves) until a move names a card."""
    rng = random.Random(game_id)
    seats = load_game(game_id, **options).num_players
    table = sqlite_server.post(
        "/tables", {"game": game_id, "options": options, "seats": [{"kind": "person"}] * seats}
    )["id"]
    tokens = [sqlite_server.post(f"/tables/{table}/seats/{s}", {"name": f"p{s}"})["token"] for s in range(seats)]
    players = [Recorder(sqlite_server, table, token) for token in tokens]
    for player in players:
        while not player.latest:
            player.read()
    seat, named = players[0].latest["to_move"], []
    for step in range(200):
        mover = players[seat]
        while mover.latest.get("to_move") != seat or not mover.latest.get("legal"):
            mover.read()
        legal = mover.latest["legal"]
        assert choice_cards_outside_the_view(mover.latest) == [], step
        named = [(choice["notation"], card) for choice in legal for card in choice["cards"]]
        if named:
            break
        mover.socket.send(json.dumps({"protocol": 1, "type": "act", "id": f"a{step}", "answers": mover.event_no,
                                      "action": rng.choice(legal)["action"]}))
        while mover.read()["type"] != "ack":
            pass
        seat = mover.latest["to_move"]
    assert named, "no move named a card in 200 moves"
    assert all(card in notation or card.split("-")[0].lower() in notation.lower() for notation, card in named)
    for player in players:
        player.socket.close()


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
            while not player.latest:
                player.read()
        seat = players[0].latest["to_move"]
        step = 0
        while seat is not None:
            # An act's ack comes after every frame of its events (and after `end`), so the mover's own
            # frames tell who moves next; the others' frames queue until read.
            mover = players[seat]
            while mover.latest.get("to_move") != seat or not mover.latest.get("legal"):
                mover.read()
            assert choice_cards_outside_the_view(mover.latest) == [], (game_id, step)
            choice = rng.choice(mover.latest["legal"])["action"]
            mover.socket.send(json.dumps(
                {"protocol": 1, "type": "act", "id": f"a{step}", "answers": mover.event_no, "action": choice}
            ))
            step += 1
            while mover.read()["type"] != "ack":
                pass
            seat = None if mover.ended else mover.latest["to_move"]
        for recorder in [*players, watcher]:
            while not recorder.ended:
                recorder.read()
        record = sqlite_server.get_json(f"/tables/{table}/record")
        streams = check_streams(game_id, record["options"], record, {**dict(enumerate(players)), None: watcher})
        known, every = knowledge(game_id, record["options"], record)
        public = [set.intersection(*(known[s][n] for s in range(seats))) for n in range(len(known[0]))]
        for seat, player in enumerate(players):
            assert scan(player.frames, known[seat], every, streams[seat]) == [], f"seat {seat}"
        assert scan(watcher.frames, public, every, streams[None]) == [], "spectator"
        for player in [*players, watcher]:
            player.socket.close()
        games_played += 1
    assert games_played == GAMES
