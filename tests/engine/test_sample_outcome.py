"""The fast chance samplers give exactly `sample_chance`'s outcome (issue 22, speed): `pick_uniform` by a binary
search over per-size running sums, `pick_weighted` over running sums formed in C, and `State.sample_outcome` /
`apply_chance` at the chance nodes of every registered game, so the fast driver loops play the same games as
the slow one."""

from __future__ import annotations

import copy
import math
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import warcards
from tests.bots.toygame import ToyGame
from warcards.engine.api import (
    CHANCE,
    COUNTED_MAX,
    Chance,
    Counted,
    Uniform,
    Weighted,
    apply_logged,
    pick_counted,
    pick_uniform,
    pick_weighted,
    sample_chance,
    uniform_sums,
)
from warcards.engine.registry import conformance_configs
from warcards.testing import random_playout


def largest_pile() -> int:
    """The largest chance outcome space of any registered game: no pile is larger."""
    return max(
        warcards.load_game(game_id, **options).max_chance_outcomes
        for game_id in warcards.games()
        for options in conformance_configs(game_id)[:1]
    )


def boundary_points(sums: list[float]) -> list[float]:
    """Every running sum, the floats just below and above it, and the ends of [0, 1)."""
    points = [0.0, math.nextafter(1.0, 0.0), 1.0, -0.0]
    for total in sums:
        points += [math.nextafter(total, -math.inf), total, math.nextafter(total, math.inf)]
    return points


def test_pick_uniform_equals_the_linear_walk_for_every_size_at_every_boundary() -> None:
    for size in range(1, largest_pile() + 1):
        outcomes = list(range(100, 100 + size))
        pairs = [(outcome, 1.0 / size) for outcome in outcomes]
        # The sums the linear walk forms, written out as it forms them.
        walked: list[float] = []
        total = 0.0
        for _ in range(size):
            total += 1.0 / size
            walked.append(total)
        assert uniform_sums(size) == walked[:-1]
        for u in boundary_points(walked):
            assert pick_uniform(outcomes, u) == sample_chance(pairs, u), (size, u)


def test_pick_uniform_equals_the_linear_walk_beyond_the_unit_interval() -> None:
    for size in (1, 2, 3, 7, 40):
        outcomes = list(range(size))
        pairs = [(outcome, 1.0 / size) for outcome in outcomes]
        for u in (-1.0, 1.5, math.inf, -math.inf, math.nan):
            assert pick_uniform(outcomes, u) == sample_chance(pairs, u)


@settings(max_examples=200, deadline=None)
@given(
    copies=st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=60),
    u=st.floats(min_value=0.0, max_value=1.0, exclude_max=True),
)
def test_pick_weighted_equals_the_linear_walk(copies: list[int], u: float) -> None:
    size = sum(copies)
    probabilities = [(1.0 / size) * c for c in copies]
    outcomes = list(range(len(copies)))
    pairs = list(zip(outcomes, probabilities, strict=True))
    walked: list[float] = []
    total = 0.0
    for p in probabilities:
        total += p
        walked.append(total)
    for point in [u, *boundary_points(walked)]:
        assert pick_weighted(outcomes, probabilities, point) == sample_chance(pairs, point)


def counted_pairs(copies: list[int]) -> tuple[list[int], list[tuple[int, float]]]:
    """A pile (outcome i once per copy, sorted) and its chance pairs `(i, (1.0 / n) * copies)`."""
    size = sum(copies)
    pile = [i for i, c in enumerate(copies) for _ in range(c)]
    return pile, [(i, (1.0 / size) * c) for i, c in enumerate(copies)]


def position_edges(size: int) -> list[float]:
    """Each multiple of 1 / size and the floats just beside it: where `pick_counted` must give way."""
    points = []
    for j in range(size + 1):
        edge = j / size
        points += [math.nextafter(edge, -math.inf), edge, math.nextafter(edge, math.inf)]
    return points


@settings(max_examples=200, deadline=None)
@given(
    copies=st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=40),
    u=st.floats(min_value=0.0, max_value=1.0, exclude_max=True),
)
def test_pick_counted_gives_the_linear_walks_outcome_or_leaves_it_to_the_sums(copies: list[int], u: float) -> None:
    pile, pairs = counted_pairs(copies)
    walked = []
    total = 0.0
    for _, p in pairs:
        total += p
        walked.append(total)
    for point in [u, *boundary_points(walked), *position_edges(len(pile))]:
        picked = pick_counted(pile, point)
        assert picked is None or picked == sample_chance(pairs, point), (copies, point)


def test_pick_counted_reads_nearly_every_u_by_position_and_refuses_the_edges() -> None:
    pile, pairs = counted_pairs([8, 2, 4, 5, 10, 9, 2, 2, 5, 4, 4, 4, 4, 3, 3, 2, 2, 8, 4, 2, 2, 2, 2, 1, 2, 6, 4, 2])
    rng = random.Random(5)
    for _ in range(20_000):
        u = rng.random()
        assert pick_counted(pile, u) == sample_chance(pairs, u)
    assert pick_counted(pile, 0.0) is None
    assert pick_counted(pile, 3 / len(pile)) is None
    for outside in (-0.5, 1.0, math.nan, math.inf):
        assert pick_counted(pile, outside) is None
    assert pick_counted([0] * (COUNTED_MAX + 1), 0.3) is None


@settings(max_examples=200, deadline=None)
@given(
    copies=st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=40),
    u=st.floats(min_value=0.0, max_value=1.0, exclude_max=True),
)
def test_each_chance_description_picks_the_linear_walks_outcome_over_its_own_pairs(copies: list[int], u: float) -> None:
    """`Uniform`, `Counted` and `Weighted` (the one description a game gives of a chance node) each give
    `sample_chance(pairs(), u)` for every `u`, list the same outcomes as their pairs, hold every outcome, and
    give both at once (`pairs_and_numbers`, what `chance_outcomes()` asks) as one by one."""
    pile, pairs = counted_pairs(copies)
    distinct = sorted(set(pile))
    for chance in (Counted(pile), Uniform(distinct), Weighted(pairs)):
        own = chance.pairs()
        assert [outcome for outcome, _ in own] == chance.numbers()
        assert sorted(set(chance.members())) == chance.numbers()
        assert chance.pairs_and_numbers() == (own, chance.numbers())
        walked, total = [], 0.0
        for _, p in own:
            total += p
            walked.append(total)
        for point in [u, *boundary_points(walked), *position_edges(len(pile))]:
            assert chance.pick(point) == sample_chance(own, point), (type(chance).__name__, copies, point)
    assert Counted(pile).pairs() == pairs


def _games() -> list[object]:
    cases: list[object] = [pytest.param(lambda: ToyGame(players=3), id="toy-tricks")]
    for game_id in warcards.games():
        for options in conformance_configs(game_id):
            label = "-".join(f"{k}={v}" for k, v in options.items()) or "default"
            cases.append(
                pytest.param(lambda g=game_id, o=options: warcards.load_game(g, **o), id=f"{game_id}-{label}")
            )
    return cases


@pytest.mark.parametrize("make_game", _games())
def test_sample_outcome_and_apply_chance_equal_sample_chance_at_every_chance_node_of_seeded_games(make_game) -> None:  # type: ignore[no-untyped-def]
    game = make_game()
    rng = random.Random(22)
    for _ in range(2):
        state = game.new_initial_state()
        slow = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                pairs = state.chance_outcomes()
                sums = []
                total = 0.0
                for _, p in pairs:
                    total += p
                    sums.append(total)
                points = [rng.random(), *(rng.choice(boundary_points(sums)) for _ in range(6))]
                for u in points:
                    assert state.sample_outcome(u) == sample_chance(pairs, u), (state.history(), u)
                assert state.apply_chance(points[0]) == sample_chance(pairs, points[0])
                slow.apply_action(sample_chance(slow.chance_outcomes(), points[0]))
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                state.apply_action(action)
                slow.apply_action(action)
        assert state == slow
        assert state.legal_actions() == slow.legal_actions() == []


@pytest.mark.parametrize("make_game", _games())
def test_apply_chance_away_from_a_chance_node_is_refused_in_every_game_and_changes_nothing(make_game) -> None:  # type: ignore[no-untyped-def]
    """A game's own `_apply_chance` (the engine no longer asks `current_player()` first) refuses at every
    decision node and at the end of a seeded game, with the engine's message."""
    game = make_game()
    rng = random.Random(7)
    state = game.new_initial_state()
    while True:
        if state.current_player() != CHANCE:
            before = state.fingerprint()
            with pytest.raises(ValueError, match="apply_chance: this is not a chance node"):
                state.apply_chance(rng.random())
            assert state.fingerprint() == before
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_chance(rng.random())
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def test_sampling_chance_at_a_decision_node_is_refused_and_changes_nothing() -> None:
    state = ToyGame(players=3).new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_chance(0.5)
    before = state.fingerprint()
    with pytest.raises(ValueError, match="not a chance node"):
        state.sample_outcome(0.5)
    with pytest.raises(ValueError, match="not a chance node"):
        state.apply_chance(0.5)
    assert state.fingerprint() == before


@pytest.mark.parametrize("make_game", _games())
def test_a_clone_made_after_chance_outcomes_keeps_its_own_outcomes_when_the_original_draws(make_game) -> None:  # type: ignore[no-untyped-def]
    """`chance_outcomes()` keeps a `Uniform`'s own list (a pile of the state, uncopied) as the legal list until
    the next step: a clone made then must not share it, so after the original draws a card the clone still
    lists and accepts that card, and the original refuses it (the binary search in `apply_action`)."""
    game = make_game()
    rng = random.Random(23)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 20:
        if state.current_player() == CHANCE:
            pairs = state.chance_outcomes()
            copy = state.clone()
            outcome = sample_chance(pairs, rng.random())
            state.apply_action(outcome)
            assert copy.legal_actions() == [number for number, _ in pairs]
            assert [number for number, _ in copy.chance_outcomes()] == [number for number, _ in pairs]
            copy.apply_action(outcome)
            assert copy == state
            checked += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert checked


@pytest.mark.parametrize("description", [Uniform([2, 5, 9]), Counted([1, 1, 4, 7, 7, 7]), Weighted([(0, 0.25), (3, 0.75)])],
                         ids=["uniform", "counted", "weighted"])
def test_a_chance_description_pickles_and_deep_copies(description: Chance) -> None:
    """A game may hold a description (Naval War's die) and a process pool sends games: compiled, a description
    cannot be made without its `__init__`, so each pickles as its constructor and its outcomes."""
    for copied in (pickle.loads(pickle.dumps(description)), copy.deepcopy(description)):
        assert type(copied) is type(description)
        assert copied.pairs() == description.pairs() and copied.numbers() == description.numbers()


@pytest.mark.parametrize("game_id", warcards.games())
def test_every_game_pickles_fresh_and_after_play(game_id: str) -> None:
    """Process pools send games, with whatever a game built on load or keeps from play (Med Sirocco's card
    groups, Naval War's die): each unpickles to a game that plays the same seeded game."""
    game = warcards.load_game(game_id)
    for _ in range(2):
        copied = pickle.loads(pickle.dumps(game))
        assert random_playout(copied, 3).history() == random_playout(game, 3).history()


@pytest.mark.parametrize("game_id", warcards.games())
def test_what_a_step_and_the_end_give_pickles(game_id: str) -> None:
    """`apply_logged`'s `Seen` (with its `LogLine`s), `seen_action`'s `SeenAction` and `result()`'s `GameResult`
    pickle to equal values (a worker process hands them back): compiled, each is a frozen dataclass that the
    default way cannot rebuild."""
    state = warcards.load_game(game_id).new_initial_state()
    rng = random.Random(5)
    seats = [None, *range(state.game.num_players)]
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        seen = state.seen_action(action, 0)
        logged = apply_logged(state, action, seats)
        for value in (seen, *logged.values()):
            assert pickle.loads(pickle.dumps(value)) == value
    result = state.result()
    assert pickle.loads(pickle.dumps(result)) == result
