"""The ISMCTS bot: it sees only its seat's view, it is reproducible, and it plays better than chance."""

from __future__ import annotations

import functools
import math
import random
import time
from dataclasses import replace

import pytest

import warcards
from warcards.arena import TournamentSpec, agent_summaries, run_tournament
from warcards.bots import agent_names, make_agent
from warcards.bots.ismcts import AGENT_BUILDERS, LEVELS, ISMCTSAgent, SearchConfig, build, level_config
from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE, Game, Rng, State
from warcards.match import step_chance

from .toygame import ToyGame, ToyState, toy_heuristic, toy_search

SMALL = {"iterations": 300, "action_budget": 40_000}
"""A small plain search (what the `medium` level was before the ladder): cheap enough for the toy game."""


def _decision_point(game: Game, seed: int, skip: int) -> State:
    """Play random moves from a seeded start until `skip` decisions have passed and a seat must act."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while True:
        if state.is_terminal():
            raise AssertionError("the game ended before the decision point")
        if state.current_player() == CHANCE:
            step_chance(state, rng)
            continue
        legal = state.legal_actions()
        if decisions >= skip and len(legal) > 1:
            return state
        state.apply_action(legal[rng.randrange(len(legal))])
        decisions += 1


def _twin(state: State, seed: int) -> State:
    """A true state the acting seat cannot tell from `state`: its own determinization."""
    twin = _maybe_twin(state, seed)
    if twin is None:
        raise AssertionError("determinize never moved a hidden card")
    return twin


def _maybe_twin(state: State, seed: int) -> State | None:
    """The acting seat's determinization of `state` that differs from it, if one turns up in 20 tries (a
    position where the seat knows every card has none)."""
    seat = state.current_player()
    for attempt in range(20):
        other = state.determinize(seat, random.Random(seed + attempt))
        if other.zones() != state.zones():
            return other
    return None


def test_choices_identical_for_states_the_seat_cannot_tell_apart() -> None:
    game = ToyGame(3)
    for seed in range(5):
        state = _decision_point(game, seed, skip=seed % 3)
        seat = state.current_player()
        twin = _twin(state, seed)
        assert isinstance(twin, ToyState) and isinstance(state, ToyState)
        assert twin.hands != state.hands, "precondition: the other seats' hands differ"
        assert twin.observe(seat) == state.observe(seat)
        first = build("ismcts", game, seat, seed, **SMALL)
        second = build("ismcts", game, seat, seed, **SMALL)
        assert first.step(SeatView(state, seat)) == second.step(SeatView(twin, seat))
        assert first.last.visits == second.last.visits


def _loaded(game_id: str) -> Game:
    try:
        return warcards.load_game(game_id)
    except (ImportError, AttributeError) as error:
        pytest.skip(f"{game_id} is not complete yet: {error}")


@pytest.mark.parametrize("game_id", warcards.games())
def test_registered_game_choices_depend_only_on_the_seat_view(game_id: str) -> None:
    game = _loaded(game_id)
    checked = 0
    for seed in range(11, 40):
        if checked == 3:
            break
        skip = (3, 25, 60)[checked]
        state = _decision_point(game, seed, skip=skip)
        seat = state.current_player()
        twin = _maybe_twin(state, seed)
        if twin is None:
            continue
        checked += 1
        assert twin.observe(seat) == state.observe(seat)
        # `hard` with a small budget: the heuristic prior, the heuristic rollouts and the game's evaluation
        # all run on determinizations; a plain RNG (no canonical shuffle) relies on the game's determinize
        first = build("hard", game, seat, 3, iterations=20)
        second = build("hard", game, seat, 3, iterations=20)
        first.rng = random.Random(3)
        second.rng = random.Random(3)
        assert first.step(SeatView(state, seat)) == second.step(SeatView(twin, seat)), (game_id, skip)
        assert first.last.visits == second.last.visits
    assert checked == 3


def test_same_seed_same_search() -> None:
    game = ToyGame(2)
    state = _decision_point(game, 4, skip=0)
    seat = state.current_player()
    runs = [build("ismcts", game, seat, 9, **SMALL) for _ in range(2)]
    actions = [agent.step(SeatView(state.clone(), seat)) for agent in runs]
    assert actions[0] == actions[1]
    assert runs[0].last.visits == runs[1].last.visits


def test_search_leaves_the_true_state_unchanged() -> None:
    game = ToyGame(3)
    state = _decision_point(game, 2, skip=1)
    before = (state.history(), state.zones(), state.position())
    build("ismcts", game, state.current_player(), 0, **SMALL).step(SeatView(state, state.current_player()))
    assert (state.history(), state.zones(), state.position()) == before


def test_root_visits_add_up_to_the_iterations() -> None:
    game = ToyGame(2)
    state = _decision_point(game, 1, skip=0)
    seat = state.current_player()
    agent = ISMCTSAgent(game, seat, 0, SearchConfig(iterations=200))
    action = agent.step(SeatView(state, seat))
    visits = agent.last.visits or {}
    assert agent.last.iterations == 200
    assert sum(visits.values()) == 200
    assert set(visits) == set(state.legal_actions())
    assert visits[action] == max(visits.values())


def test_a_forced_move_is_played_without_search() -> None:
    game = ToyGame(2, deck=4, hand=2)
    state = _decision_point(game, 0, skip=0)
    while len(state.legal_actions()) > 1 or state.current_player() == CHANCE:
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    agent = build("hard", game, seat, 0)
    assert agent.step(SeatView(state, seat)) == state.legal_actions()[0]
    assert agent.last.iterations == 0


def test_time_limit_stops_the_search() -> None:
    game = ToyGame(3)
    state = _decision_point(game, 3, skip=0)
    seat = state.current_player()
    agent = ISMCTSAgent(game, seat, 0, SearchConfig(iterations=10**9, time_limit=0.05))
    start = time.perf_counter()
    agent.step(SeatView(state, seat))
    assert time.perf_counter() - start < 1.0
    assert 0 < agent.last.iterations < 10**9


def test_heuristic_rollouts_with_a_horizon_use_the_evaluator() -> None:
    game = ToyGame(2)
    state = _decision_point(game, 5, skip=0)
    seat = state.current_player()
    calls: list[int] = []

    def evaluate(s: State) -> list[float]:
        calls.append(1)
        assert isinstance(s, ToyState)
        return [float(t) for t in s.tricks]

    config = SearchConfig(iterations=50, rollout="heuristic", horizon=1)
    agent = ISMCTSAgent(game, seat, 0, config, heuristic=toy_heuristic, evaluator=evaluate)
    assert agent.step(SeatView(state, seat)) in state.legal_actions()
    assert len(calls) > 0


def test_bad_configuration_is_refused_with_the_allowed_values() -> None:
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        SearchConfig(iterations=0)
    with pytest.raises(ValueError, match="rollout must be 'random' or 'heuristic'"):
        SearchConfig(rollout="greedy")
    with pytest.raises(ValueError, match="time_limit must be positive"):
        SearchConfig(time_limit=0)
    with pytest.raises(ValueError, match="levels are: ismcts, hard"):
        level_config("expert", ToyGame(2))


def test_a_player_count_budget_takes_precedence_over_the_game_level() -> None:
    three = level_config("hard", warcards.load_game("naval-war", players=3))
    four = level_config("hard", warcards.load_game("naval-war", players=4))
    assert (three.iterations, four.iterations) == (400, 100)
    assert replace(three, iterations=four.iterations) == four


def test_levels_are_bots_by_name() -> None:
    assert list(LEVELS) == ["ismcts", "hard"]
    for level in LEVELS:
        assert level in agent_names()
        assert level in AGENT_BUILDERS
    agent = make_agent("hard", ToyGame(2), 1, 5)
    assert agent.name == "hard"


@pytest.mark.parametrize(("players", "games"), [(2, 150), (3, 300)])
def test_search_beats_random_in_the_toy_game(players: int, games: int) -> None:
    spec = TournamentSpec(
        "toy-tricks",
        ("search", "random"),
        games,
        seed=2,
        factory=functools.partial(ToyGame, players),
        builders={"search": toy_search},
    )
    summaries = {s.agent: s for s in agent_summaries(run_tournament(spec).records)}
    win = summaries["search"].win
    assert win.low > win.even, f"search {win}"


def test_openspiel_ismcts_plays_legal_moves_from_its_view() -> None:
    pytest.importorskip("pyspiel")
    from warcards.rl.ismcts import OpenSpielISMCTSAgent

    game_id = next((g for g in warcards.games() if g == "cards-of-war"), None)
    if game_id is None:
        pytest.skip("cards-of-war is not registered yet")
    game = _loaded(game_id)
    state = _decision_point(game, 2, skip=2)
    seat = state.current_player()
    agent = OpenSpielISMCTSAgent(game, seat, 1, simulations=8)
    before = state.history()
    action = agent.step(SeatView(state, seat))
    assert action in state.legal_actions()
    assert agent.own == [action] and state.history() == before
    assert "openspiel-ismcts" in agent_names()


def test_the_heuristic_prior_is_expanded_first() -> None:
    game = ToyGame(2)
    state = _decision_point(game, 6, skip=1)
    seat = state.current_player()
    hint = toy_heuristic(game, seat, 0).step(SeatView(state, seat))
    assert len(state.legal_actions()) > 1 and hint in state.legal_actions()
    agent = ISMCTSAgent(game, seat, 0, SearchConfig(iterations=1, prior=1.0), heuristic=toy_heuristic)
    agent.step(SeatView(state, seat))
    assert agent.last.visits == {hint: 1}
    with pytest.raises(ValueError, match="prior must be 0"):
        SearchConfig(prior=-1)


def test_without_evidence_the_heuristic_move_stands() -> None:
    game = ToyGame(3)
    for seed in range(4):
        state = _decision_point(game, seed, skip=seed % 2)
        seat = state.current_player()
        hint = toy_heuristic(game, seat, 0).step(SeatView(state, seat))
        stubborn = SearchConfig(iterations=200, prior=0.1, override=1e9)
        agent = ISMCTSAgent(game, seat, seed, stubborn, heuristic=toy_heuristic)
        assert agent.step(SeatView(state, seat)) == hint
        free = ISMCTSAgent(game, seat, seed, replace(stubborn, prior=0.0), heuristic=toy_heuristic)
        action = free.step(SeatView(state, seat))
        visits = free.last.visits or {}
        assert visits[action] == max(visits.values())


def test_paired_sampling_rolls_every_move_out_on_the_same_determinizations() -> None:
    game = ToyGame(3)
    state = _decision_point(game, 7, skip=1)
    seat = state.current_player()
    legal = state.legal_actions()
    seen: list[tuple[int, ...]] = []

    def evaluate(s: State) -> list[float]:
        assert isinstance(s, ToyState)
        seen.append(tuple(s.hands))
        return [float(t) for t in s.tricks]

    class CountingView(SeatView):
        __slots__ = ("samples",)

        def determinize(self, rng: Rng) -> State:
            self.samples += 1
            return super().determinize(rng)

    view = CountingView(state, seat)
    view.samples = 0
    config = SearchConfig(iterations=10 * len(legal), paired=True, rollout="heuristic", horizon=1, prior=1.0)
    agent = ISMCTSAgent(game, seat, 4, config, heuristic=toy_heuristic, evaluator=evaluate)
    assert agent.step(view) in legal
    assert view.samples == 10, "one determinization per sample, shared by every move"
    assert len(seen) == 10 * len(legal)
    assert agent.last.iterations == 10 * len(legal)
    assert agent.last.visits == dict.fromkeys(legal, 10)
    assert state.history() == _decision_point(game, 7, skip=1).history()


def test_paired_evidence_needs_a_consistent_gain_over_the_heuristic_move() -> None:
    agent = ISMCTSAgent(ToyGame(2), 0, 0, SearchConfig(paired=True, override=2.0))
    assert not agent._paired_evidence([0.0] * 20)
    assert not agent._paired_evidence([1.0, -1.0] * 10)
    assert agent._paired_evidence([0.2, 0.3, 0.25, 0.2] * 5)
    assert not agent._paired_evidence([0.5])
    assert agent._paired_score([1e-170, 2e-170, 1e-170]) == 0.0, "underflowing spread: no evidence, no crash"


def test_paired_without_evidence_keeps_the_heuristic_move() -> None:
    game = ToyGame(3)
    for seed in range(4):
        state = _decision_point(game, seed, skip=seed % 2)
        seat = state.current_player()
        hint = toy_heuristic(game, seat, 0).step(SeatView(state, seat))
        config = SearchConfig(iterations=100, paired=True, prior=1.0, override=1e9)
        agent = ISMCTSAgent(game, seat, seed, config, heuristic=toy_heuristic)
        assert agent.step(SeatView(state, seat)) == hint


def test_paired_search_beats_random_in_the_toy_game() -> None:
    def paired(game: Game, seat: int, seed: int) -> ISMCTSAgent:
        return ISMCTSAgent(game, seat, seed, SearchConfig(iterations=60, paired=True), name="paired")

    spec = TournamentSpec(
        "toy-tricks",
        ("paired", "random"),
        150,
        seed=3,
        factory=functools.partial(ToyGame, 2),
        builders={"paired": paired},
    )
    win = {s.agent: s for s in agent_summaries(run_tournament(spec).records)}["paired"].win
    assert win.low > win.even, f"paired {win}"


def test_successive_halving_spends_the_rollouts_on_the_contenders() -> None:
    game = ToyGame(3)
    for seed in range(6):
        state = _decision_point(game, seed, skip=0)
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) < 3:
            continue
        hint = toy_heuristic(game, seat, 0).step(SeatView(state, seat))
        config = SearchConfig(iterations=40 * len(legal), paired=True, halving=True, prior=1.0)
        agent = ISMCTSAgent(game, seat, seed, config, heuristic=toy_heuristic)
        assert agent.step(SeatView(state, seat)) in legal
        samples = agent.last.visits or {}
        assert samples[hint] == max(samples.values()), "the heuristic's move is never dropped"
        assert min(samples.values()) == 8 < max(samples.values()), "the worse moves stop after a round"
        stubborn = ISMCTSAgent(game, seat, seed, replace(config, override=1e9), heuristic=toy_heuristic)
        assert stubborn.step(SeatView(state, seat)) == hint
        return
    raise AssertionError("no position with three moves in the toy game")


class _ScriptedGain(ISMCTSAgent):
    """Rollouts worth `gain` after `favoured` and 0 after any other move (the toy's own play unused)."""

    favoured = -1
    gain = 0.0

    def _rollout(self, state: State) -> tuple[list[float], int]:
        value = self.gain if state.history()[-1] == self.favoured else 0.0
        return [value] * self.game.num_players, 0


def test_extend_settles_a_close_call_with_more_determinizations() -> None:
    game = ToyGame(3)
    state = _decision_point(game, 7, skip=1)
    seat = state.current_player()
    best, hint = state.legal_actions()[:2]
    close = [0.3, -0.1] * 4  # mean 0.1, 1.41 standard errors: between half the override and the override
    for extend, gain, confirmed in ((0, 0.3, False), (64, 0.3, True), (64, 0.0, False)):
        agent = _ScriptedGain(game, seat, 1, SearchConfig(paired=True, override=2.0, extend=extend))
        agent.favoured, agent.gain = best, gain
        values = {best: list(close), hint: [0.0] * len(close)}
        assert agent._paired_score(close) == pytest.approx(0.1 / (0.2138 / 8**0.5), rel=1e-3)
        verdict, spent = agent._settle(SeatView(state, seat), best, hint, values, math.inf)
        assert verdict is confirmed
        assert spent <= 2 * extend and len(values[best]) == len(values[hint]) == len(close) + spent // 2
        if extend:
            assert spent > 0, "a close call is sampled further"
    clear = ISMCTSAgent(game, seat, 1, SearchConfig(paired=True, override=2.0, extend=64))
    values = {best: [0.0] * 8, hint: [0.0] * 8}
    assert clear._settle(SeatView(state, seat), best, hint, values, math.inf) == (False, 0), "no gain: no more work"
    with pytest.raises(ValueError, match="extend"):
        SearchConfig(extend=-1)


def test_confirm_judges_the_override_on_fresh_determinizations_only() -> None:
    game = ToyGame(3)
    state = _decision_point(game, 7, skip=1)
    seat = state.current_player()
    best, hint = state.legal_actions()[:2]
    view = SeatView(state, seat)
    picked = {best: [1.0] * 8, hint: [0.0] * 8}  # the samples that picked `best` rate it far above
    for gain, confirmed in ((0.0, False), (0.3, True)):
        agent = _ScriptedGain(game, seat, 1, SearchConfig(paired=True, override=2.0, confirm=16))
        agent.favoured, agent.gain = best, gain
        assert agent._settle(view, best, hint, {a: list(v) for a, v in picked.items()}, math.inf) == (confirmed, 32)
    doubted = {best: [0.0] * 8, hint: [1.0] * 8}  # the picking samples do not count either way
    agent = _ScriptedGain(game, seat, 1, SearchConfig(paired=True, override=2.0, confirm=16))
    agent.favoured, agent.gain = best, 0.3
    assert agent._settle(view, best, hint, doubted, math.inf) == (True, 32)
    for bad in (-1, 1):
        with pytest.raises(ValueError, match="confirm"):
            SearchConfig(confirm=bad)
