"""Reinforcement-learning and research adapters: PettingZoo, Gymnasium and OpenSpiel (the `rl` extra).

- `pettingzoo_env(game_id, **options)`: a PettingZoo AEC env over every seat;
- `gymnasium_env(game_id, seat=0, opponents="heuristic", **options)`: one seat against bots; the ids
  `warcards/<Game>-v<N>` are registered with Gymnasium when this package is imported;
- `warcards.rl.openspiel.register()`: every game as an OpenSpiel Python game (imported on demand, as
  it needs `pyspiel`).
Observation vectors come from `warcards.rl.encoding`. See docs/rl.md.
"""

try:
    from warcards.rl.gymnasium_env import WarcardsGymEnv, env_id, gymnasium_env, register_envs
    from warcards.rl.pettingzoo_env import WarcardsAECEnv, pettingzoo_env, pettingzoo_parallel_env
except ModuleNotFoundError as error:
    if error.name not in ("gymnasium", "pettingzoo"):
        raise
    raise ModuleNotFoundError(
        f'warcards.rl needs the rl extra (pip install -e ".[rl]" in the warcards checkout): {error.name} is not installed',
        name=error.name,
    ) from error

register_envs()

__all__ = [
    "WarcardsAECEnv",
    "WarcardsGymEnv",
    "env_id",
    "gymnasium_env",
    "pettingzoo_env",
    "pettingzoo_parallel_env",
    "register_envs",
]
