"""What the state keeps instead of recomputing at every node, always right: each task force's gun bits and
carriers (`fleet_guns`, `fleet_carriers`), kept between the fleet's changes instead of walked at every play and
every turn, and a draw's description (`draw_chance`), kept instead of made at every draw, reading the state's own
draw pile lists."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.games.naval_war.helpers import game

from warcards.engine.api import CHANCE
from warcards.games.naval_war.codes import DRAW_PHASES
from warcards.games.naval_war.state import NavalWarState

OPTION_SETS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {}),
    (6, {"fleets": "3x2", "kamikaze": True}),
    (8, {"fleets": "4x2", "night": True}),
]


def _stale(state: NavalWarState) -> list[str]:
    """The seats whose kept gun bits or carriers differ from a walk over their fleet, and a kept draw description
    that reads another state's draw pile."""
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
    chance = state.draw_chance
    if chance is not None and not (chance.pile is state.draw_pile and chance.kinds is state.draw_kinds
                                   and chance.keys is state.draw_keys):
        wrong.append("the kept draw description reads lists that are not this state's draw pile")
    return wrong


@pytest.mark.parametrize(("players", "options"), OPTION_SETS)
def test_kept_fleet_data_and_draw_description_stay_right_after_every_step(players: int, options: dict[str, Any]) -> None:
    g = game(players, **options)
    for seed in range(6):
        rng = random.Random(seed)
        state = g.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                if steps % 2:  # the loop researchers use: the outcomes described, then applied
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                else:
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


def test_a_snapshot_rebuilds_the_kept_caches_from_its_own_lists() -> None:
    g = game(4)
    rng = random.Random(3)
    state = g.new_initial_state()
    for _ in range(300):
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.phase not in DRAW_PHASES or state.current_player() != CHANCE:
        state.apply_action(rng.choice(state.legal_actions()))
    expected = state.chance_outcomes()
    assert state.draw_chance is not None and state.fleet_guns != [-1] * 4
    restored = g.state_from_snapshot(state.snapshot())
    assert isinstance(restored, NavalWarState)
    assert _stale(restored) == []  # the position check may describe the draw: from the restored lists
    assert restored.chance_outcomes() == expected
    assert restored.draw_chance is not None and _stale(restored) == []
    assert restored.draw_chance is not state.draw_chance
