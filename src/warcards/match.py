"""The match runner: plays agents against each other, samples chance from a seeded RNG, keeps a record.

A `MatchRecord` (game id, options, seed, actions, returns, engine version) replays exactly: `replay`
re-applies every action to a fresh state and checks that each is legal and the returns agree.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from warcards import __version__
from warcards.bots import make_agent
from warcards.engine.agents import Agent, SeatView
from warcards.engine.api import CHANCE, Game, State, sample_chance
from warcards.engine.registry import load_game


class MatchRecord(BaseModel):
    """Everything needed to replay one game exactly."""

    game: str
    options: dict[str, Any]
    seed: int
    actions: list[int]
    returns: list[float]
    agents: list[str] = Field(default_factory=list)
    engine_version: str = __version__


def derive_seed(master: int, *parts: object) -> int:
    """A per-game or per-agent seed derived from a master seed, independent of process layout."""
    text = ":".join(str(p) for p in (master, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def chance_rng(seed: int) -> random.Random:
    """The RNG that samples a match's chance nodes (separate from every agent's RNG)."""
    return random.Random(derive_seed(seed, "chance"))


def step_chance(state: State, rng: random.Random) -> int:
    """Sample and apply one chance outcome; returns it."""
    outcome = sample_chance(state.chance_outcomes(), rng.random())
    state.apply_action(outcome)
    return outcome


def play_match(
    game: Game | str,
    agents: Sequence[Agent | str],
    seed: int,
    max_actions: int | None = None,
) -> MatchRecord:
    """Play one game. `agents` holds one agent (or bot name) per seat; names get per-seat derived seeds."""
    if isinstance(game, str):
        game = load_game(game)
    if len(agents) != game.num_players:
        raise ValueError(f"{game.game_id} needs {game.num_players} agents, got {len(agents)}")
    seated: list[Agent] = [
        make_agent(a, game, seat, derive_seed(seed, "agent", seat)) if isinstance(a, str) else a
        for seat, a in enumerate(agents)
    ]
    state = game.new_initial_state()
    rng = chance_rng(seed)
    limit = max_actions if max_actions is not None else game.max_game_length
    steps = 0
    while not state.is_terminal():
        if steps >= limit:
            raise RuntimeError(f"{game.game_id}: no end after {limit} actions (seed {seed})")
        player = state.current_player()
        if player == CHANCE:
            step_chance(state, rng)
        else:
            state.apply_action(seated[player].step(SeatView(state, player)))
        steps += 1
    return MatchRecord(
        game=game.game_id,
        options=game.options,
        seed=seed,
        actions=state.history(),
        returns=state.returns(),
        agents=[getattr(a, "name", type(a).__name__) for a in seated],
    )


def replay(record: MatchRecord) -> State:
    """Re-apply a record's actions to a fresh game; raises `ValueError` where it diverges."""
    game = load_game(record.game, **record.options)
    state = game.new_initial_state()
    for index, action in enumerate(record.actions):
        try:
            state.apply_action(action)
        except ValueError as error:
            raise ValueError(f"replay diverges at action {index} ({action}): {error}") from error
    if not state.is_terminal():
        raise ValueError(f"replay ends after {len(record.actions)} actions but the game is not over")
    if [round(r, 9) for r in state.returns()] != [round(r, 9) for r in record.returns]:
        raise ValueError(f"replay returns {state.returns()} differ from the record's {record.returns}")
    return state
