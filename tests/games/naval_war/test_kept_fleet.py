"""Each task force's gun bits and carriers, kept by the state (`fleet_guns`, `fleet_carriers`) between the fleet's
changes instead of walked at every play and every turn: always what a walk over the fleet gives."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.games.naval_war.helpers import game

from warcards.engine.api import CHANCE
from warcards.games.naval_war.state import NavalWarState

OPTION_SETS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {}),
    (6, {"fleets": "3x2", "kamikaze": True}),
    (8, {"fleets": "4x2", "night": True}),
]


def _stale(state: NavalWarState) -> list[str]:
    """The seats whose kept gun bits or carriers differ from a walk over their fleet."""
    t = state.table
    wrong = []
    for j, fleet in enumerate(state.fleets):
        guns = 0
        for s in fleet:
            guns |= t.ship_gunbit[s]
        carriers = tuple(s for s in fleet if t.ship_carrier[s])
        if state.fleet_guns[j] not in (-1, guns):
            wrong.append(f"seat {j} guns {state.fleet_guns[j]} != {guns}")
        if state.fleet_carriers[j] not in (None, carriers):
            wrong.append(f"seat {j} carriers {state.fleet_carriers[j]} != {carriers}")
    return wrong


@pytest.mark.parametrize(("players", "options"), OPTION_SETS)
def test_kept_fleet_guns_and_carriers_match_the_fleet_after_every_step(players: int, options: dict[str, Any]) -> None:
    g = game(players, **options)
    for seed in range(6):
        rng = random.Random(seed)
        state = g.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_chance(rng.random())
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                # a copy and a sampled world keep them right too (a sampled world moves face-down ships at night)
                if steps % 7 == 0:
                    seat = state.current_player()
                    twin = state.clone()
                    assert _stale(twin) == []
                    if seat >= 0:
                        world = state.determinize(seat, rng)
                        assert _stale(world) == []
                        assert world.legal_actions()  # fills the caches for the seat to act
                        assert _stale(world) == []
            assert _stale(state) == [], f"seed {seed}, step {steps}"
            steps += 1


def test_a_snapshot_rebuilds_the_kept_fleet_caches_empty() -> None:
    g = game(4)
    rng = random.Random(3)
    state = g.new_initial_state()
    for _ in range(300):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_chance(rng.random())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    state.legal_actions()
    restored = g.state_from_snapshot(state.snapshot())
    assert isinstance(restored, NavalWarState)
    assert restored.fleet_guns == [-1] * 4 and restored.fleet_carriers == [None] * 4
    assert restored.legal_actions() == state.legal_actions()
