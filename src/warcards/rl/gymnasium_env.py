"""Gymnasium single-agent environment: one seat of a warcards game, the other seats played by bots.

>>> import gymnasium, warcards.rl
>>> env = gymnasium.make("warcards/RaceToMessina-v1", opponents="random")    # doctest: +SKIP
>>> obs, info = env.reset(seed=0)                                            # doctest: +SKIP
>>> obs, reward, terminated, truncated, info = env.step(
...     env.action_space.sample(obs["action_mask"]))                         # doctest: +SKIP

Each registered game has an id `warcards/<CamelName>-v<N>` (`N` from `warcards.rl.encoding.env_version`),
registered when `warcards.rl` is imported (or use `gymnasium.make("warcards.rl:warcards/RaceToMessina-v1")`).
Observations are dicts: `observation` (the seat's encoded view) and `action_mask` (int8 over the fixed
action space); the mask is also in `info["action_mask"]`, and `action_masks()` returns it for
sb3-contrib's MaskablePPO. The reward is the seat's return, given when the game ends. Chance and the
bots' choices are seeded from `reset(seed=...)`. `illegal_action` works as in the PettingZoo env.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from warcards.bots import make_agent
from warcards.engine.agents import Agent, SeatView
from warcards.engine.api import CHANCE, TERMINAL, Game
from warcards.engine.errors import OptionError, SeatError
from warcards.engine.registry import game_spec, games
from warcards.match import chance_rng, derive_seed, step_chance
from warcards.rl.common import (
    as_action,
    camel_name,
    check_illegal_policy,
    legal_mask,
    resolve_game,
    try_apply,
)
from warcards.rl.encoding import encoder_for, env_version, spec_env_version, spec_for

AgentFactory = Callable[[Game, int, int], Agent]
MAX_SKIPPED = 1000
Opponents = str | AgentFactory | Sequence[str | AgentFactory]


class WarcardsGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a warcards game against bots."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 (Gymnasium reads the class attribute)

    def __init__(
        self,
        game: Game | str,
        seat: int = 0,
        opponents: Opponents = "heuristic",
        *,
        illegal_action: str = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode={render_mode!r}; allowed: {', '.join(self.metadata['render_modes'])}"
            )
        self.game = resolve_game(game, options)
        try:
            self.seat = self.game.check_seat(seat)
        except SeatError:
            raise OptionError(
                f"seat={repr(seat)[:40]} is not a seat of {self.game.game_id}; seats are 0..{self.game.num_players - 1}"
            ) from None
        self.opponent_factories = _opponent_factories(opponents, self.game, seat)
        self.illegal_action = check_illegal_policy(illegal_action)
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.version = env_version(self.encoder)
        size = self.game.num_distinct_actions
        self._num_actions = size
        self.action_space = spaces.Discrete(size)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    self.encoder.low, self.encoder.high, self.encoder.shape, np.float32
                ),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self._state = self.game.new_initial_state()
        self._agents: dict[int, Agent] = {}
        self._rng = chance_rng(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game in which this seat has a decision to make; a game that ends before the seat's first
        decision (seen in nine-player Naval War) is skipped, counted in `info["skipped"]`."""
        super().reset(seed=seed)
        skipped = 0
        while True:
            episode_seed = int(self.np_random.integers(0, 2**62))
            self._rng = chance_rng(episode_seed)
            self._agents = {
                other: factory(self.game, other, derive_seed(episode_seed, "agent", other))
                for other, factory in self.opponent_factories.items()
            }
            self._state = self.game.new_initial_state()
            self._advance()
            if self._state.current_player() == self.seat:
                break
            skipped += 1
            if skipped == MAX_SKIPPED:
                raise RuntimeError(
                    f"{self.game!r}: seat {self.seat} had no decision in {MAX_SKIPPED} games in a row"
                )
        info = self._info()
        info["skipped"] = skipped
        return self._observation(), info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        state = self._state
        if state.current_player() != self.seat:
            raise RuntimeError("the episode is over; call reset() before step()")
        chosen = as_action(action)
        if self.illegal_action == "raise":
            state.apply_action(chosen)
            refusal = None
        else:
            refusal = try_apply(state, chosen)
        if refusal is not None:
            info = self._info()
            info["illegal_action"] = refusal
            terminated = self.illegal_action == "terminate"
            return self._observation(), self.illegal_reward, terminated, False, info
        self._advance()
        terminated = state.current_player() == TERMINAL
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (the hook sb3-contrib's MaskablePPO calls)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """`ansi`: the seat's table as text (the game's `render`, else its view as JSON)."""
        if self.render_mode is None:
            return None
        view = self._state.observe(self.seat)
        spec = spec_for(self.game)
        if spec is not None and spec.render is not None:
            text = str(spec.render.load()(view, self.seat))
        else:
            text = json.dumps(view, sort_keys=True)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ----- internals ----------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Play chance and the bots until this seat must act or the game ends."""
        state = self._state
        seat = self.seat
        while True:
            player = state.current_player()
            if player in (seat, TERMINAL):
                return
            if player == CHANCE:
                step_chance(state, self._rng)
            else:
                state.apply_action(self._agents[player].step(SeatView(state, player)))

    def _mask(self) -> np.ndarray:
        if self._state.current_player() == self.seat:
            return legal_mask(self._state, self._num_actions)
        return np.zeros(self._num_actions, dtype=np.int8)

    def _observation(self) -> dict[str, Any]:
        return {
            "observation": self.encoder.encode(self._state.observe(self.seat)),
            "action_mask": self._mask(),
        }

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask()}
        if self._state.current_player() == TERMINAL:
            info["returns"] = list(self._state.returns())
        return info


def _opponent_factories(opponents: Opponents, game: Game, seat: int) -> dict[int, AgentFactory]:
    """One bot factory per other seat: a bot name for all, a factory, or one entry per other seat."""
    others = [other for other in range(game.num_players) if other != seat]
    if isinstance(opponents, str) or callable(opponents):
        chosen: list[str | AgentFactory] = [opponents] * len(others)
    else:
        chosen = list(opponents)
        if len(chosen) != len(others):
            raise OptionError(
                f"opponents: {len(chosen)} given for {len(others)} other seats ({', '.join(map(str, others))})"
            )
    factories: dict[int, AgentFactory] = {}
    for other, entry in zip(others, chosen, strict=True):
        if isinstance(entry, str):
            make_agent(entry, game, other, 0)  # an unknown bot name fails here, with the list of bots
            factories[other] = _named(entry)
        else:
            factories[other] = entry
    return factories


def _named(name: str) -> AgentFactory:
    def build(game: Game, seat: int, seed: int) -> Agent:
        return make_agent(name, game, seat, seed)

    return build


def gymnasium_env(
    game: Game | str, seat: int = 0, opponents: Opponents = "heuristic", **options: Any
) -> WarcardsGymEnv:
    """A single-agent Gymnasium env for `seat` of `game`, the other seats played by `opponents`.

    Keyword options other than `illegal_action`, `illegal_reward` and `render_mode` go to `load_game`.
    """
    return WarcardsGymEnv(game, seat, opponents, **options)


def env_id(game: Game | str) -> str:
    """The Gymnasium id of a game's env, e.g. `warcards/RaceToMessina-v1`."""
    if isinstance(game, str):
        return f"warcards/{camel_name(game)}-v{spec_env_version(game_spec(game))}"
    return f"warcards/{camel_name(game.game_id)}-v{spec_env_version(spec_for(game))}"


def register_envs() -> list[str]:
    """Register every game of the registry with Gymnasium (idempotent); returns the ids."""
    ids: list[str] = []
    for game_id in games():
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point="warcards.rl.gymnasium_env:WarcardsGymEnv",
                kwargs={"game": game_id},
                disable_env_checker=False,
            )
        ids.append(name)
    return ids


__all__ = ["WarcardsGymEnv", "env_id", "gymnasium_env", "register_envs"]
