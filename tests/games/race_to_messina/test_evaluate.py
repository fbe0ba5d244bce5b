"""evaluate(state): the search's estimate of the returns (RULES.md R41) — exact at the end, on the returns'
scale everywhere, read-only, and better than a constant guess."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from warcards.bots.calibration import calibrate
from warcards.engine.api import CHANCE
from warcards.games.race_to_messina.codes import NO_WINNER
from warcards.games.race_to_messina.evaluate import evaluate, winner
from warcards.games.race_to_messina.state import RaceToMessinaState
from warcards.testing import sample_states

from .helpers import build, game, play

VARIANTS = ("invasion", "race", "sicily")


def random_positions(variant: str, games: int, seed: int) -> Iterator[RaceToMessinaState]:
    """Every position of seeded uniformly random games, chance nodes and the final state included."""
    for state in sample_states(game(variant), seed, games=games):
        assert isinstance(state, RaceToMessinaState)
        yield state


@pytest.mark.parametrize("variant", VARIANTS)
def test_terminal_states_give_exactly_the_returns(variant: str) -> None:
    ends = 0
    for state in random_positions(variant, 20, 1):
        if state.is_terminal():
            assert evaluate(state) == state.returns()
            ends += 1
    assert ends == 20


def test_a_drawn_race_evaluates_to_zero() -> None:
    state = build("race", {}, phase="strategy", pt=[10, 10])
    assert state.is_terminal() and state.position()["winner"] == "draw"
    assert evaluate(state) == [0.0, 0.0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_values_have_one_entry_per_seat_in_range_and_sum_like_the_returns(variant: str) -> None:
    """Invasion and Race are zero-sum (a draw is 0 to both); in Sicily one seat wins, so the returns sum
    to 1 - 2 = -1, and so must their expectation."""
    players = game(variant).num_players
    expected_sum = 0.0 if players == 2 else 2.0 - players
    phases = set()
    for state in random_positions(variant, 6, 2):
        values = evaluate(state)
        assert len(values) == players
        assert all(isinstance(x, float) and math.isfinite(x) and -1.0 <= x <= 1.0 for x in values)
        assert sum(values) == pytest.approx(expected_sum, abs=1e-9)
        phases.add((state.position()["phase"], state.current_player() == CHANCE))
    assert {phase for phase, _ in phases} == {
        "logistics",
        "strategy",
        "deployment",
        "action",
        "recovery",
        "over",
    }
    assert ("action", True) in phases


@pytest.mark.parametrize("variant", VARIANTS)
def test_evaluate_never_changes_the_state(variant: str) -> None:
    for index, state in enumerate(random_positions(variant, 3, 3)):
        if index % 5:
            continue
        before = state.clone()
        views = [state.observe(seat) for seat in range(state.game.num_players)]
        legal = state.legal_actions()
        evaluate(state)
        assert state == before
        assert state.zones() == before.zones() and state.legal_actions() == legal
        assert [state.observe(seat) for seat in range(state.game.num_players)] == views


@pytest.mark.parametrize("variant", VARIANTS)
def test_winner_mirrors_the_rules_end_conditions(variant: str) -> None:
    """The model's end check agrees with `rules.check_victory` (R3, R4, R7) on PT vectors near the goals."""
    g = game(variant)
    ranges = {
        "invasion": [range(7, 12), range(13, 22)],
        "race": [range(7, 12), range(7, 12)],
        "sicily": [range(8, 11), range(8, 11), range(14, 17)],
    }[variant]
    vectors: list[tuple[int, ...]] = [()]
    for values in ranges:
        vectors = [(*vector, n) for vector in vectors for n in values]
    for pt in vectors:
        state = build(variant, {}, phase="strategy", pt=list(pt))
        expected = state.winner if state.is_terminal() else NO_WINNER
        assert winner(g.variant, pt) == expected, pt


@pytest.mark.parametrize("variant", VARIANTS)
def test_evaluate_beats_the_constant_guess(variant: str) -> None:
    result = calibrate(game(variant), evaluate, games=60, seed=12)
    late = 1.0 - result.stage_mse[-1] / result.stage_baseline_mse[-1]
    assert result.skill > 0.05, result.table()
    assert late > 0.2, result.table()


def test_a_clearly_winning_position_ranks_above_a_clearly_losing_one() -> None:
    # Invasion, Action phase: the Allies one PT short with a strong table against a weak one, or far behind.
    ahead = build(
        "invasion",
        {"table:allies": ["A38", "A15", "A04"], "table:axis": ["X38"]},
        phase="action",
        pt=[9, 6],
        slot="table:allies",
        passed=["table:axis"],
    )
    behind = build(
        "invasion", {"table:allies": ["A11"], "table:axis": ["X36", "X21", "X20"]}, phase="action", pt=[2, 14]
    )
    assert evaluate(ahead)[0] > 0.8 > -0.8 > evaluate(behind)[0]
    assert evaluate(ahead)[1] < evaluate(behind)[1]
    # Race, Strategy: more PT and the stronger hand for the British, then for the Americans.
    strong, weak = ["A15", "A04", "A05", "X21", "X20"], ["A11", "X38"]
    british = build("race", {"hand:british": strong, "hand:americans": weak}, phase="strategy", pt=[8, 3])
    americans = build("race", {"hand:british": weak, "hand:americans": strong}, phase="strategy", pt=[3, 8])
    assert evaluate(british)[0] > 0.5 > -0.5 > evaluate(americans)[0]
    # Sicily, Recovery: an Ally at 9 PT with the Axis far from 16 leads; the Axis at 15 is nearly home.
    ally = build("sicily", {}, phase="recovery", pt=[9, 2, 5])
    axis = build("sicily", {}, phase="recovery", pt=[2, 2, 15])
    assert max(range(3), key=lambda seat: evaluate(ally)[seat]) == 0
    assert evaluate(axis)[2] > 0.95
    assert evaluate(ally)[2] < evaluate(axis)[2]


def test_the_table_decides_the_action_phase_and_evaluate_follows_its_hand() -> None:
    """The same PT, the Allies' table far stronger or far weaker than the Axis': the Ally value moves with
    it, and the Allies' 10th PT on a won hand nearly ends the game in their favour (R3, R4)."""
    strong = build(
        "invasion",
        {"table:allies": ["A38", "A15"], "table:axis": ["X38"]},
        phase="action",
        pt=[9, 15],
        slot="table:allies",
        passed=["table:axis"],
    )
    weak = build(
        "invasion",
        {"table:allies": ["A11"], "table:axis": ["X36", "X21"]},
        phase="action",
        pt=[9, 15],
        slot="table:allies",
        passed=["table:axis"],
    )
    assert evaluate(strong)[0] > 0.9
    assert evaluate(weak)[0] < evaluate(strong)[0] - 0.3
    play(strong, "pass")
    assert strong.is_terminal() and evaluate(strong) == strong.returns() == [1.0, -1.0]


def test_r29_an_unused_supply_card_adds_a_draw_to_its_side_of_the_battle() -> None:
    """Supply ("Draw 1 card: Put it in you hand or Reveal it Immediately", R29) is worth about the mean
    force a draw adds (SUPPLY_WEIGHT, fitted): the Allies with Harbor (force 4, Supply) rate above the
    Allies with Riflemen (force 4, no ability), in the Action phase until Harbor is activated, and in
    Strategy, where the search would otherwise trade Supply cards away for plain force."""
    axis = ["X36", "X21"]
    supply = build("invasion", {"table:allies": ["A09", "A04"], "table:axis": axis}, phase="action", pt=[5, 8])
    plain = build("invasion", {"table:allies": ["A25", "A04"], "table:axis": axis}, phase="action", pt=[5, 8])
    used = build(
        "invasion",
        {"table:allies": ["A09", "A04"], "table:axis": axis},
        phase="action",
        pt=[5, 8],
        activated=["A09"],
    )
    assert evaluate(supply)[0] > evaluate(plain)[0] + 0.02
    assert evaluate(used)[0] == pytest.approx(evaluate(plain)[0])
    held = build("race", {"hand:british": ["A09", "A04", "X21"], "hand:americans": ["A15", "X20"]}, phase="strategy", pt=[4, 4])
    bare = build("race", {"hand:british": ["A25", "A04", "X21"], "hand:americans": ["A15", "X20"]}, phase="strategy", pt=[4, 4])
    assert evaluate(held)[0] > evaluate(bare)[0]


def test_r8_progress_and_hube_in_hand_count_their_pt_before_the_action_phase() -> None:
    """"Progress = Gain 1 PT if you win this Turn", Hube "Gain 1 PT" (R8): before the Action phase the
    turn's stakes come from the cards each side will field, so a Progress card kept in hand outranks a
    plain card of the same force (Competition and Field Artillery, force 5), and so does Hube (force 5)
    against Counter Attack (force 5) for the Axis — the search no longer discards them for force alone."""
    opponent = ["A15", "X20"]
    progress = build("race", {"hand:british": ["A31", "A04", "X21"], "hand:americans": opponent}, phase="strategy", pt=[7, 7])
    plain = build("race", {"hand:british": ["A30", "A04", "X21"], "hand:americans": opponent}, phase="strategy", pt=[7, 7])
    assert evaluate(progress)[0] > evaluate(plain)[0] + 0.02
    allies = ["A15", "A04"]
    hube = build("invasion", {"hand:axis": ["X19", "X21"], "hand:allies": allies}, phase="strategy", pt=[5, 12])
    counter = build("invasion", {"hand:axis": ["X03", "X21"], "hand:allies": allies}, phase="strategy", pt=[5, 12])
    assert evaluate(hube)[1] > evaluate(counter)[1] + 0.02
