"""PettingZoo AEC environment for any warcards game (turn-based; chance is resolved inside from the seed).

>>> from warcards.rl import pettingzoo_env
>>> env = pettingzoo_env("race-to-messina")                          # doctest: +SKIP
>>> env.reset(seed=1)                                                # doctest: +SKIP
>>> for agent in env.agent_iter():                                   # doctest: +SKIP
...     obs, reward, terminated, truncated, info = env.last()
...     env.step(None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"]))

Agents are `player_0` … `player_{n-1}` (seat order). Each observation is a dict: `observation`, the
seat's view encoded by `warcards.rl.encoding` (the game's own layout, or the generic one), and
`action_mask`, an int8 vector over the game's fixed action space (all zeros when it is not that agent's
turn). Rewards are the game's returns, given on the step that ends the game.

`illegal_action` says what an action outside the mask does: `"penalize"` (default) gives the agent
`illegal_reward`, leaves the game unchanged and puts the engine's message (the rule it breaks) in
`infos[agent]["illegal_action"]`; `"terminate"` also ends the episode (PettingZoo's classic-game rule);
`"raise"` raises the engine's `IllegalActionError`/`InvalidActionError`.

`max_cycles` truncates the episode after that many agent steps (decisions). `pettingzoo_parallel_env`
gives the same game in PettingZoo's parallel form (one decision per parallel step, PettingZoo's
`turn_based_aec_to_parallel`: only the acting agent's action is used).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from warcards.engine.api import TERMINAL, Game
from warcards.match import chance_rng
from warcards.rl.common import (
    as_action,
    check_illegal_policy,
    legal_mask,
    resolve_game,
    settle_chance,
    snake_name,
    try_apply,
)
from warcards.rl.encoding import encoder_for, env_version, spec_for

Observation = dict[str, np.ndarray]


class WarcardsAECEnv(AECEnv[str, Observation, int | None]):  # type: ignore[misc]  # PettingZoo ships no type hints: AECEnv is Any, and subclassing Any is what mypy flags
    """A warcards game as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads the class attribute)
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: Game,
        *,
        max_cycles: int | None = None,
        illegal_action: str = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode={render_mode!r}; allowed: {', '.join(self.metadata['render_modes'])}"
            )
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be a positive number of steps, not {max_cycles}")
        self.game = game
        self.encoder = encoder_for(game)
        self.version = env_version(self.encoder)
        self.metadata = {**self.metadata, "name": f"warcards_{snake_name(game.game_id)}_v{self.version}"}
        self.max_cycles = max_cycles
        self.illegal_action = check_illegal_policy(illegal_action)
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        self.agents = self.possible_agents[:]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = game.num_distinct_actions
        self._num_actions = size
        encoder = self.encoder
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(encoder.low, encoder.high, encoder.shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self._state = game.new_initial_state()
        self._rng = random.Random(0)
        self._steps = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]

    # ----- spaces -------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # ----- episode ------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game; `seed` fixes every chance outcome of this and the following unseeded episodes."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        episode_seed = int(self._np_random.integers(0, 2**62))
        self._rng = chance_rng(episode_seed)
        self._state = self.game.new_initial_state()
        settle_chance(self._state, self._rng)
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> Observation:
        seat = self._seats[agent]
        state = self._state
        view = state.observe(seat)
        if state.current_player() == seat:
            mask = legal_mask(state, self._num_actions)
        else:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        return {"observation": self.encoder.encode(view), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state
        if self.illegal_action == "raise":
            state.apply_action(as_action(action))
            refusal = None
        else:
            refusal = try_apply(state, as_action(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.infos[agent] = {}
        if refusal is not None:
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {"illegal_action": refusal}
            if self.illegal_action == "terminate":
                self.terminations = dict.fromkeys(self.agents, True)
        else:
            settle_chance(state, self._rng)
            if state.current_player() == TERMINAL:
                for other, value in zip(self.possible_agents, state.returns(), strict=True):
                    self.rewards[other] = float(value)
                self.terminations = dict.fromkeys(self.agents, True)
        self._steps += 1
        if (
            self.max_cycles is not None
            and self._steps >= self.max_cycles
            and not any(self.terminations.values())
        ):
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        player = self._state.current_player()
        if player >= 0:
            self.agent_selection = self.possible_agents[player]

    # ----- presentation -------------------------------------------------------------------------------
    def render(self) -> str | None:
        """`ansi`: the acting seat's table as text (the game's `render`, else its view as JSON)."""
        if self.render_mode is None:
            return None
        seat = self._seats.get(self.agent_selection, 0)
        view = self._state.observe(seat)
        spec = spec_for(self.game)
        if spec is not None and spec.render is not None:
            text = spec.render.load()(view, seat)
        else:
            text = json.dumps(view, sort_keys=True)
        text = str(text)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no subprocess)."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


def pettingzoo_env(
    game: Game | str,
    *,
    max_cycles: int | None = None,
    illegal_action: str = "penalize",
    illegal_reward: float = -1.0,
    render_mode: str | None = None,
    **options: Any,
) -> WarcardsAECEnv:
    """A PettingZoo AEC environment for `game` (an id with its `load_game` options, or a built `Game`)."""
    return WarcardsAECEnv(
        resolve_game(game, options),
        max_cycles=max_cycles,
        illegal_action=illegal_action,
        illegal_reward=illegal_reward,
        render_mode=render_mode,
    )


def pettingzoo_parallel_env(game: Game | str, **kwargs: Any) -> ParallelEnv[str, Observation, int | None]:
    """The same environment in PettingZoo's parallel form (turn-based: one decision per step)."""
    return turn_based_aec_to_parallel(pettingzoo_env(game, **kwargs))


__all__ = ["WarcardsAECEnv", "pettingzoo_env", "pettingzoo_parallel_env"]
