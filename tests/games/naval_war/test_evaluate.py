"""The search's position evaluation (`warcards.games.naval_war.evaluate`): an estimate of the returns."""

from __future__ import annotations

import math
import random
from typing import Any

from tests.games.naval_war.helpers import build, damage, game, play

import warcards
from warcards.bots.calibration import calibrate
from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE, sample_chance
from warcards.games.naval_war import CONFORMANCE_CONFIGS
from warcards.games.naval_war.evaluate import (
    CONSTANTS,
    FIREPOWER,
    TOUGHNESS,
    TWO_PLAYER_CONSTANTS,
    combine,
    evaluate,
    features,
)
from warcards.games.naval_war.heuristic import heuristic_agent
from warcards.games.naval_war.state import NavalWarState

FLEETS = {"fleet:0": ["NELSON", "LUTZOW"], "fleet:1": ["MARYLAND", "ROMA"], "fleet:2": ["TEXAS", "SCHEER"],
          "hand:0": ["SALVO16x2-1", "SALVO11x1-1"], "hand:1": ["SALVO16x1-1"], "hand:2": ["SALVO11x2-1"]}

TWO = {"fleet:0": ["NELSON", "LUTZOW"], "fleet:1": ["MARYLAND", "ROMA"],
       "hand:0": ["SALVO16x2-1", "SALVO11x1-1"], "hand:1": ["SALVO16x1-1"]}


def _games(options: dict[str, Any], seed: int, count: int, every: int = 23) -> list[list[NavalWarState]]:
    """Positions (every `every`-th, chance nodes included) of `count` seeded games played to the end by the
    heuristic with a fifth of random moves; each list ends with the terminal state."""
    loaded = game(**options)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        agents = [heuristic_agent(loaded, seat, rng.randrange(1 << 30)) for seat in range(loaded.num_players)]
        state = loaded.new_initial_state()
        taken: list[NavalWarState] = []
        while not state.is_terminal():
            if len(state.history()) % every == 0:
                taken.append(state.clone())
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            elif rng.random() < 0.2:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            else:
                state.apply_action(agents[player].step(SeatView(state, player)))
        out.append([*taken, state])
    return out


def _sides(state: NavalWarState) -> list[int]:
    return [team if team >= 0 else seat for seat, team in enumerate(state.team)]


def test_evaluate_is_the_returns_at_the_end_and_win_shares_before_for_every_option_set() -> None:
    for index, options in enumerate(CONFORMANCE_CONFIGS):
        for positions in _games({**options, "target": 20}, index, 2, every=11):
            *during, end = positions
            assert end.is_terminal() and evaluate(end) == end.returns()
            sides = _sides(end)
            assert any(state.is_chance_node() for state in during)
            for state in during:
                values = evaluate(state)
                assert len(values) == state.num_players and all(0.0 <= v <= 1.0 and math.isfinite(v) for v in values)
                share = {side: values[seat] for seat, side in enumerate(sides)}
                # One share per side (a fleet's members share its win), and the sides' shares sum to one.
                assert all(values[seat] == share[side] for seat, side in enumerate(sides))
                assert math.isclose(sum(share.values()), 1.0, rel_tol=1e-9)


def _lists(state: NavalWarState) -> dict[str, str]:
    """Each list the state holds, written out: its fields are slots (no `__dict__` to read)."""
    return {name: repr(value) for name in NavalWarState.__slots__
            if isinstance(value := getattr(state, name), list)}


def test_evaluate_never_changes_the_state() -> None:
    for positions in _games({"players": 5, "night": True, "kamikaze": True}, 3, 1, every=7):
        for state in positions:
            before = state.clone()
            lists = _lists(state)
            evaluate(state)
            assert lists == _lists(state)
            assert state == before and state.legal_actions() == before.legal_actions()


def test_evaluate_ranks_a_winning_position_above_a_losing_one() -> None:
    # Near the target: the leader is favoured, the more so the less of the round is left to play.
    ahead = build(FLEETS, phase="turn", turn=1, scores=[95, 40, 40])
    behind = build(FLEETS, phase="turn", turn=1, scores=[40, 95, 40])
    level = build(FLEETS, phase="turn", turn=1, scores=[60, 60, 60])
    assert evaluate(ahead)[0] > 0.6 > 0.4 > evaluate(level)[0] > 0.25 > evaluate(behind)[0]
    assert max(evaluate(level)) - min(evaluate(level)) < 0.05
    last_turn = build({**FLEETS, "discard": "rest"}, phase="play", turn=1, scores=[95, 40, 40])  # last card drawn
    assert evaluate(last_turn)[0] > 0.9
    # Within a round at level scores: a Deep Six pile of sunk ships and a fleet afloat beat an elimination.
    sinking = build({**FLEETS, "deep6:0": ["YAMATO", "MUSASHI"], "fleet:1": ["MARYLAND"]},
                    phase="turn", turn=1, scores=[70, 70, 70])
    sunk = build({**FLEETS, "fleet:0": [], "hand:0": [], "deep6:1": ["NELSON", "LUTZOW"]},
                 phase="turn", turn=1, scores=[70, 70, 70])
    assert evaluate(sinking)[0] > 0.45 > 0.2 > evaluate(sunk)[0]


def test_evaluate_beats_the_constant_guess() -> None:
    result = calibrate(warcards.load_game("naval-war", players=3), evaluate, games=50, seed=7)
    assert result.skill > 0.08
    assert result.stage_mse[3] < 0.7 * result.stage_baseline_mse[3]


def test_a_salvo_that_does_not_sink_keeps_the_firer_level_with_its_target() -> None:
    # The hits leave the firer's hand and land on the target: FIREPOWER is tied to TOUGHNESS in the fit, so
    # firing leaves the two seats' expected totals as far apart as holding the salvo (Nelson's 16" salvo of 2
    # on Maryland, against discarding Smoke); only the spread moves a little with the leader's total.
    ready = play(build(FLEETS, phase="turn", turn=0, scores=[30, 30, 30]), "draw SMOKE")
    fired = play(ready.clone(), "fire SALVO16x2 at MARYLAND")
    held = play(ready.clone(), "discard SMOKE")
    assert damage(fired, "MARYLAND") == 2 and fired.current_player() == held.current_player()
    assert FIREPOWER == TOUGHNESS

    def standing(constants: tuple[float, ...]) -> float:
        """How much firing changes the firer's win share relative to the target's."""
        after, before = combine(features(fired), constants), combine(features(held), constants)
        return (after[0] / after[1]) / (before[0] / before[1]) - 1.0

    assert abs(standing(CONSTANTS)) < 1e-3
    untied = (0.099, 2.244, 0.427, 1.191, -10.333, 19.496, 3.928, 7.597)  # the fit before the tie
    assert standing(untied) < -0.01


def test_with_two_players_the_seat_behind_on_score_is_the_underdog() -> None:
    # The many-player fit marks down the leader, whom everyone attacks; with two players no one else does, and
    # it rated the seat 10 points behind the favourite. The 2-player fit does not.
    behind = build(TWO, players=2, phase="turn", turn=0, scores=[30, 40])
    assert combine(features(behind), CONSTANTS)[0] > 0.5
    assert evaluate(behind) == combine(features(behind), TWO_PLAYER_CONSTANTS)
    assert 0.4 < evaluate(behind)[0] < 0.49
    three = build(FLEETS, phase="turn", turn=1, scores=[40, 30, 30])
    assert evaluate(three) == combine(features(three), CONSTANTS)


def test_with_two_players_a_salvo_that_does_not_sink_keeps_the_firer_level_with_its_target() -> None:
    ready = play(build(TWO, players=2, phase="turn", turn=0, scores=[30, 30]), "draw SMOKE")
    fired = play(ready.clone(), "fire SALVO16x2 at MARYLAND")
    held = play(ready.clone(), "discard SMOKE")
    assert damage(fired, "MARYLAND") == 2
    assert TWO_PLAYER_CONSTANTS[2] == TWO_PLAYER_CONSTANTS[3]  # TOUGHNESS and FIREPOWER, tied as in the fit
    assert math.isclose(evaluate(fired)[0], evaluate(held)[0], abs_tol=1e-3)


def test_evaluate_beats_the_constant_guess_with_two_players() -> None:
    result = calibrate(warcards.load_game("naval-war", players=2), evaluate, games=50, seed=7)
    assert result.skill > 0.1
    assert result.stage_mse[3] < 0.7 * result.stage_baseline_mse[3]
