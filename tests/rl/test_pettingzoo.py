"""The PettingZoo AEC env: PettingZoo's own checks on every game and option set, and its behaviours."""

from __future__ import annotations

import types

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

import warcards
from tests.rl.rl_cases import COVERING_CASES as CASES
from tests.rl.rl_cases import TOY, TOY_ENCODED, Case
from tests.rl.toygame import DONE, ToyState
from warcards.rl import pettingzoo_env, pettingzoo_parallel_env
from warcards.rl.pettingzoo_env import WarcardsAECEnv

IDS = [case.label for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pettingzoo_api_test(case: Case) -> None:
    api_test(pettingzoo_env(case.game()), num_cycles=1000)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pettingzoo_seed_test(case: Case) -> None:
    game = case.game()
    seed_test(lambda: pettingzoo_env(game), num_cycles=500)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pettingzoo_max_cycles_test(case: Case) -> None:
    """PettingZoo samples unmasked actions here, so illegal ones are penalized (the default policy)."""
    game = case.game()

    def parallel(max_cycles: int) -> object:
        return pettingzoo_parallel_env(game, max_cycles=max_cycles)

    def aec(max_cycles: int) -> object:
        return parallel_to_aec(pettingzoo_parallel_env(game, max_cycles=max_cycles))

    max_cycles_test(types.SimpleNamespace(parallel_env=parallel, env=aec))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pettingzoo_parallel_api_test(case: Case) -> None:
    parallel_api_test(pettingzoo_parallel_env(case.game()), num_cycles=1000)


def test_registered_games_take_options_by_name() -> None:
    for game_id in warcards.games():
        env = pettingzoo_env(game_id)
        assert env.game.game_id == game_id
        assert str(env).startswith(f"warcards_{game_id.replace('-', '_')}_v")


def test_bad_option_is_refused_with_the_allowed_values() -> None:
    with pytest.raises(warcards.OptionError, match="illegal_action='ignore' is not allowed; allowed values: penalize"):
        pettingzoo_env(TOY.load(), illegal_action="ignore")


def _toy_env(**kwargs: object) -> WarcardsAECEnv:
    env = pettingzoo_env(TOY.load(), **kwargs)  # type: ignore[arg-type]
    env.reset(seed=3)
    return env


def _play_to_end(env: WarcardsAECEnv) -> dict[str, float]:
    """Play masked random actions; return the rewards handed out on the last step."""
    final: dict[str, float] = {}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return final


def test_rewards_are_the_game_returns_given_at_the_end() -> None:
    env = _toy_env()
    state = env._state
    final = _play_to_end(env)
    assert state.is_terminal()
    assert final == {f"player_{seat}": value for seat, value in enumerate(state.returns())}
    assert sum(final.values()) == pytest.approx(0.0)


def test_mask_is_the_legal_actions_for_the_agent_to_act_and_empty_for_the_others() -> None:
    env = _toy_env()
    state = env._state
    actor = env.agent_selection
    other = next(agent for agent in env.agents if agent != actor)
    assert list(np.flatnonzero(env.observe(actor)["action_mask"])) == state.legal_actions()
    assert not env.observe(other)["action_mask"].any()


def test_illegal_action_is_penalized_and_changes_nothing() -> None:
    env = _toy_env()
    state: ToyState = env._state  # type: ignore[assignment]
    before = state.clone()
    agent = env.agent_selection
    assert DONE not in state.legal_actions()  # no card committed yet (rule 3)
    env.step(DONE)
    assert state == before
    assert env.agent_selection == agent
    assert env.rewards[agent] == -1.0
    assert env._cumulative_rewards[agent] == -1.0
    assert "3 Commit: done is legal only after committing a card" in env.infos[agent]["illegal_action"]
    assert not any(env.terminations.values())


def test_illegal_action_with_terminate_policy_ends_the_episode() -> None:
    env = _toy_env(illegal_action="terminate", illegal_reward=-2.0)
    agent = env.agent_selection
    env.step(DONE)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -2.0
    assert all(value == 0.0 for other, value in env.rewards.items() if other != agent)


def test_illegal_action_with_raise_policy_raises_and_changes_nothing() -> None:
    env = _toy_env(illegal_action="raise")
    before = env._state.clone()
    cumulative = dict(env._cumulative_rewards)
    with pytest.raises(warcards.IllegalActionError, match="3 Commit"):
        env.step(DONE)
    with pytest.raises(warcards.InvalidActionError, match=r"actions are 0\.\.8"):
        env.step(99)
    assert env._state == before
    assert env._cumulative_rewards == cumulative


def test_numpy_integer_actions_are_accepted() -> None:
    env = _toy_env()
    legal = env._state.legal_actions()
    env.step(np.int32(legal[0]))
    assert env._state.history()[-1] == legal[0]


def test_max_cycles_truncates_after_that_many_decisions() -> None:
    env = _toy_env(max_cycles=2)
    for _ in range(2):
        assert not any(env.truncations.values())
        env.step(DONE)  # penalized: the game does not move, but the step counts
    assert all(env.truncations.values())
    assert not any(env.terminations.values())


def test_same_seed_same_game_and_new_seed_new_game() -> None:
    histories = []
    for seed in (5, 5, 6):
        env = pettingzoo_env(TOY.load())
        env.reset(seed=seed)
        histories.append(env._state.history())
    assert histories[0] == histories[1]
    assert histories[0] != histories[2]


def test_own_encoder_is_used_when_the_game_exports_one() -> None:
    env = pettingzoo_env(TOY_ENCODED.load())
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)["observation"]
    assert obs.shape == (32,)
    assert obs[:8].sum() == 2  # the two cards in hand (rule 2)
    assert str(env) == "warcards_toy_commit_encoded_v1"


def test_render_ansi_shows_the_acting_seat_view() -> None:
    env = _toy_env(render_mode="ansi")
    text = env.render()
    assert isinstance(text, str)
    assert '"phase": "commit"' in text
