"""Toy Commit with the per-game hooks a real game declares in its `SPEC` (own encoder, utility declaration).

It is not registered: the RL adapters find `SPEC` in the module that defines the game's class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tests.rl.toygame import CARD_IDS, CONFORMANCE_CONFIGS, NUM_CARDS, OPTIONS, PHASE_NAMES, ToyGame
from warcards.engine import Game
from warcards.engine.spec import EncoderSpec, GameSpec, Ref

OBSERVATION_VERSION = 1
MAX_SEATS = 3
_CARD_INDEX = {card: index for index, card in enumerate(CARD_IDS)}


class EncodedToyGame(ToyGame):
    """The same rules; only the module (and so the hooks) differs."""

    game_id = "toy-commit-encoded"


def make_game(options: Mapping[str, Any]) -> EncodedToyGame:
    return EncodedToyGame(options)


def observation_shape(game: Game) -> tuple[int, ...]:
    """hand (8) + own commits (8) + commit counts per seat (3) + phase (4) + revealed (8) + die (1)."""
    return (2 * NUM_CARDS + MAX_SEATS + len(PHASE_NAMES) + NUM_CARDS + 1,)


def encode_observation(observation: Mapping[str, Any], game: Game) -> np.ndarray:
    vector = np.zeros(observation_shape(game), dtype=np.float32)
    for card in observation["hand"]:
        vector[_CARD_INDEX[card]] = 1.0
    for card in observation["committed"]:
        vector[NUM_CARDS + _CARD_INDEX[card]] = 1.0
    base = 2 * NUM_CARDS
    for seat, count in enumerate(observation["committed_counts"]):
        vector[base + seat] = count / 2
    base += MAX_SEATS
    vector[base + PHASE_NAMES.index(observation["phase"])] = 1.0
    base += len(PHASE_NAMES)
    for cards in observation["revealed"] or []:
        for card in cards:
            vector[base + _CARD_INDEX[card]] = 1.0
    vector[-1] = (observation["die"] or 0) / 6
    return vector


def utility_bounds(game: Game) -> tuple[float, float]:
    """Rule 5: a sole winner gets 1 - 1/n, a loser -1/n."""
    players = game.num_players
    return -1.0 / players, 1.0 - 1.0 / players


SPEC = GameSpec(
    id=EncodedToyGame.game_id,
    title=EncodedToyGame.title,
    options=OPTIONS,
    factory=make_game,
    conformance_configs=CONFORMANCE_CONFIGS,
    encoder=EncoderSpec(
        encode=Ref(f"{__name__}:encode_observation"),
        shape=Ref(f"{__name__}:observation_shape"),
        version=Ref(f"{__name__}:OBSERVATION_VERSION"),
    ),
    utility="zero_sum",
    utility_bounds=Ref(f"{__name__}:utility_bounds"),
)

__all__ = [
    "CONFORMANCE_CONFIGS",
    "OBSERVATION_VERSION",
    "OPTIONS",
    "SPEC",
    "EncodedToyGame",
    "encode_observation",
    "make_game",
    "observation_shape",
    "utility_bounds",
]
