"""How much engine work the server's act path does per accepted act: the calls of `_apply` (the rules applying
an action or a chance outcome, however it is reached), `apply_action`, `clone`, `legal_actions` and
`observe`/`public_view` made inside `TableHub.act`, averaged per act, and the comparisons of a recipient's
views before and after an event that gave it no log line (to tell whether the event is nothing to it: the
hub's `_sees_nothing` before issue 32, the engine's `apply_logged` since, which mostly need not compare).

Plays N seeded games of each game (and Race to Messina variant) through a `TableHub` on a throwaway SQLite
store, every seat a person choosing a seeded random legal move, one connection on every seat and a
spectator, with counting wrappers around the game's `State` methods (on only while `act` runs). The wall
time per act is printed too, but it depends on how busy the machine is; the counts do not.

    PYTHONPATH=src python3 scripts/speed/act_counts.py --games 3
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import warcards.engine.api as engine_api
from warcards.engine.registry import load_game
from warcards.server import protocol as p
from warcards.server.db import Store
from warcards.server.hub import Connection, TableHub

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("cards-of-war", {}),
    ("med-sirocco", {}),
    ("naval-war", {"players": 2}),
    ("naval-war", {}),
    ("race-to-messina", {"variant": "invasion"}),
    ("race-to-messina", {"variant": "race"}),
    ("race-to-messina", {"variant": "sicily"}),
]
COUNTED = ("_apply", "apply_action", "clone", "legal_actions", "observe", "public_view")


class ViewComparisons:
    """Counting wrapper around what compares a recipient's views: `TableHub._sees_nothing` where the hub
    has it (one call, one comparison), else the engine's `_view` (two calls, one comparison)."""

    def __init__(self) -> None:
        self.calls = 0
        self.on = False
        owner: Any = TableHub if hasattr(TableHub, "_sees_nothing") else engine_api
        name = "_sees_nothing" if owner is TableHub else "_view"
        self.per_comparison = 1 if owner is TableHub else 2
        method = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            if self.on:
                self.calls += 1
            return method(*args, **kwargs)

        setattr(owner, name, counted)

    @property
    def comparisons(self) -> float:
        return self.calls / self.per_comparison


COMPARISONS = ViewComparisons()


class Counting:
    """Counting wrappers around `COUNTED` on one state class, counting only while `on`."""

    def __init__(self, cls: type) -> None:
        self.calls: Counter[str] = Counter()
        self.on = False
        for name in COUNTED:
            setattr(cls, name, self._wrap(name, getattr(cls, name)))

    def _wrap(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            if self.on:
                self.calls[name] += 1
            return method(*args, **kwargs)

        return counted


async def play(store: Store, game_id: str, options: dict[str, Any], seed: int,
               counting: dict[type, Counting]) -> tuple[int, Counter[str], float]:
    """One game of `game_id` through a hub: the acts, the counted calls and the seconds spent in `act`."""
    seats = load_game(game_id, **options).num_players
    table_id, _ = store.create_table(game_id, options, seed, True, None, [("person", None)] * seats)
    for seat in range(seats):
        store.take_seat(table_id, seat, f"p{seat}")
    info = store.table(table_id)
    assert info is not None
    hub = TableHub(info, store)
    cls = type(hub.state)
    if cls not in counting:
        counting[cls] = Counting(cls)
    count = counting[cls]
    connections = {who: Connection(who) for who in [*range(seats), None]}
    for connection in connections.values():
        await hub.attach(connection, 0)
    await hub.start()
    rng = random.Random(seed)
    acts = 0
    spent = 0.0
    before = Counter(count.calls)
    while not hub.finished:
        seat = hub.state.current_player()
        action = rng.choice(hub.state.legal_actions())
        message = p.Act(type="act", id=f"a{acts}", answers=hub.position(seat), action=action)
        for connection in connections.values():
            while not connection.outbox.empty():
                connection.outbox.get_nowait()
        count.on = COMPARISONS.on = True
        started = time.perf_counter()
        accepted = await hub.act(connections[seat], message)
        spent += time.perf_counter() - started
        count.on = COMPARISONS.on = False
        assert accepted, f"{game_id}: act {acts} refused"
        acts += 1
    return acts, count.calls - before, spent


async def main(games: int) -> None:
    counting: dict[type, Counting] = {}
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'counts.sqlite3'}")
        store.migrate()
        print(f"{'game':<26} {'acts':>6} " + " ".join(f"{name:>13}" for name in COUNTED) + "   view compares   µs/act")
        for game_id, options in CONFIGS:
            acts = 0
            calls: Counter[str] = Counter()
            spent = 0.0
            compared = COMPARISONS.comparisons
            for seed in range(games):
                played, counted, seconds = await play(store, game_id, options, 1000 + seed, counting)
                acts += played
                calls += counted
                spent += seconds
            label = game_id + (f" {next(iter(options.values()))}" if options else "")
            compared = COMPARISONS.comparisons - compared
            print(f"{label:<26} {acts:>6} " + " ".join(f"{calls[name] / acts:>13.2f}" for name in COUNTED)
                  + f"   {compared / acts:13.2f}   {spent / acts * 1e6:7.0f}")
        store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="seeded games per game and variant (default 3)")
    asyncio.run(main(parser.parse_args().games))
    sys.exit(0)
