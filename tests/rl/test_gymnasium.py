"""The Gymnasium single-seat env: Gymnasium's `check_env` on every game, and its behaviours."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import warcards
from tests.rl.rl_cases import COVERING_CASES as CASES
from tests.rl.rl_cases import TOY, TOY_ENCODED, Case
from tests.rl.toygame import DONE, PHASE_COMMIT, PHASE_OVER, ToyGame, ToyState
from warcards.engine import RandomAgent
from warcards.rl import env_id, gymnasium_env
from warcards.rl.gymnasium_env import WarcardsGymEnv

IDS = [case.label for case in CASES]


def _made(case: Case, seat: int) -> gymnasium.Env[dict[str, np.ndarray], np.int64]:
    """The env as users get it: `gymnasium.make` on the registered id (the toys register one here)."""
    name = env_id(case.game())
    opponents = "heuristic" if case.registered else "random"
    if not case.registered and name not in gymnasium.registry:
        gymnasium.register(id=name, entry_point="warcards.rl.gymnasium_env:WarcardsGymEnv")
    if case.registered:
        return gymnasium.make(name, seat=seat, opponents=opponents, **case.config)
    return gymnasium.make(name, game=case.game(), seat=seat, opponents=opponents)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_gymnasium_check_env_every_seat(case: Case) -> None:
    for seat in range(case.game().num_players):
        env = _made(case, seat)
        check_env(env.unwrapped)
        env.close()


def test_every_registered_game_has_a_gymnasium_id() -> None:
    for game_id in warcards.games():
        name = env_id(game_id)
        camel = "".join(part.capitalize() for part in game_id.split("-"))
        assert name.startswith(f"warcards/{camel}-v")
        assert name in gymnasium.registry
        env = gymnasium.make(f"warcards.rl:{name}", opponents="random")
        assert env.unwrapped.game.game_id == game_id  # type: ignore[attr-defined]
        env.close()


def _toy(seat: int = 0, **kwargs: object) -> WarcardsGymEnv:
    return gymnasium_env(TOY.load(), seat, "random", **kwargs)  # type: ignore[arg-type]


def test_mask_is_in_the_observation_and_in_info() -> None:
    env = _toy()
    obs, info = env.reset(seed=2)
    legal = env._state.legal_actions()
    assert list(np.flatnonzero(obs["action_mask"])) == legal
    assert np.array_equal(info["action_mask"], obs["action_mask"])
    assert list(np.flatnonzero(env.action_masks())) == legal


def test_reward_is_the_seat_return_at_the_end() -> None:
    for seat in (0, 1):
        env = _toy(seat)
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(seat)
        terminated = False
        total = 0.0
        while not terminated:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            assert not truncated
            total += reward
        assert total == pytest.approx(env._state.returns()[seat])
        assert info["returns"] == env._state.returns()
        assert not obs["action_mask"].any()
        with pytest.raises(RuntimeError, match="call reset"):
            env.step(0)


def test_opponents_play_until_the_seat_must_act() -> None:
    env = _toy(seat=1)
    env.reset(seed=4)
    assert env._state.current_player() == 1
    assert len(env._state.observe(1)["hand"]) == 2  # the deal (rule 2) is done
    assert env._state.observe(1)["committed_counts"][0] >= 1  # seat 0 committed first (rule 3)


def test_illegal_action_is_penalized_with_the_rule_in_info() -> None:
    env = _toy()
    env.reset(seed=1)
    before = env._state.clone()
    _, reward, terminated, truncated, info = env.step(DONE)
    assert reward == -1.0
    assert not terminated and not truncated
    assert "3 Commit" in info["illegal_action"]
    assert env._state == before


def test_illegal_action_with_terminate_policy_ends_the_episode() -> None:
    env = _toy(illegal_action="terminate")
    env.reset(seed=1)
    _, reward, terminated, _, _ = env.step(DONE)
    assert terminated and reward == -1.0


def test_illegal_action_with_raise_policy_raises() -> None:
    env = _toy(illegal_action="raise")
    env.reset(seed=1)
    with pytest.raises(warcards.IllegalActionError, match="3 Commit"):
        env.step(DONE)


def test_seeded_episodes_replay_and_differ_by_seed() -> None:
    def opening(seed: int) -> list[int]:
        env = _toy(seat=1)
        env.reset(seed=seed)
        return env._state.history()

    assert opening(8) == opening(8)
    assert opening(8) != opening(9)


def test_opponents_may_be_one_factory_or_bot_per_other_seat() -> None:
    game = TOY.load(players=3)
    made: list[int] = []

    def factory(game: warcards.Game, seat: int, seed: int) -> RandomAgent:
        made.append(seat)
        return RandomAgent(seat, seed)

    env = gymnasium_env(game, 1, ["random", factory])
    env.reset(seed=0)
    assert made == [2]
    with pytest.raises(warcards.OptionError, match="2 other seats"):
        gymnasium_env(game, 0, ["random"])


def test_bad_seat_and_unknown_bot_are_refused() -> None:
    with pytest.raises(warcards.OptionError, match=r"seats are 0\.\.1"):
        gymnasium_env(TOY.load(), 2, "random")
    with pytest.raises(ValueError, match="unknown bot 'genius'; bots are: random"):
        gymnasium_env(TOY.load(), 0, "genius")


def test_id_version_follows_the_encoder() -> None:
    assert env_id(TOY.load()) == "warcards/ToyCommit-v0"
    assert env_id(TOY_ENCODED.load()) == "warcards/ToyCommitEncoded-v1"


class _EndsEarlyState(ToyState):
    """Toy Commit where the game ends straight after the deal when seat 1 holds c1 (so seat 1 never acts)."""

    def _apply(self, action: int) -> None:
        super()._apply(action)
        if self.phase == PHASE_COMMIT and self.hands[1] & 1:
            self.phase = PHASE_OVER


class _EndsEarlyGame(ToyGame):
    def new_initial_state(self) -> _EndsEarlyState:
        return _EndsEarlyState(self)


def test_reset_skips_games_that_end_before_the_seat_acts() -> None:
    game = _EndsEarlyGame({"players": 2, "hand_size": 2})
    env = gymnasium_env(game, 1, "random")
    skipped = 0
    for seed in range(12):
        _, info = env.reset(seed=seed)
        assert env._state.current_player() == 1
        assert not env._state.hands[1] & 1
        skipped += info["skipped"]
    assert skipped > 0
