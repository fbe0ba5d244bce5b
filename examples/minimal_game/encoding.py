"""The Minimal Game's RL observation encoder (`EncoderSpec.from_module`): one seat's view as a float32 vector.

Layout, per card of the deck: in my hand, face up on the trick, played in a finished trick, discarded face
down by me (four blocks of `size` flags); then per seat its tricks won and its hand size (scaled by the
deck's size), then the pile size (scaled). Raise `OBSERVATION_VERSION` whenever the layout changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from minimal_game.game import MinimalGame
from warcards.engine.api import Game

OBSERVATION_VERSION = 1
"""The encoding's version; raised with every change of the layout or the meaning of an entry."""
OBSERVATION_BOUNDS = (0.0, 1.0)
"""Every entry lies in this range."""


def _game(game: Game) -> MinimalGame:
    if not isinstance(game, MinimalGame):
        raise TypeError(f"the minimal-game encoder encodes minimal-game, not {game.game_id}")
    return game


def observation_shape(game: Game) -> tuple[int, ...]:
    """Four flags per card, two numbers per seat, the pile size."""
    minimal = _game(game)
    return (4 * minimal.table.size + 2 * minimal.num_players + 1,)


def encode_observation(observation: Mapping[str, Any], game: Game) -> np.ndarray:
    """The view `observation` (of `game`) as a vector of `observation_shape(game)`."""
    minimal = _game(game)
    size = minimal.table.size
    numbers = minimal.card_numbers
    vector = np.zeros(observation_shape(minimal), dtype=np.float32)
    blocks = (observation["hand"], [c for c in observation["trick"] if c not in (None, "face down")],
              observation["played"], observation["my_face_down"])
    for block, cards in enumerate(blocks):
        for ident in cards:
            vector[block * size + numbers[ident.lower()]] = 1.0
    base = 4 * size
    for seat in range(minimal.num_players):
        vector[base + 2 * seat] = observation["tricks_won"][seat] / size
        vector[base + 2 * seat + 1] = observation["hand_sizes"][seat] / size
    vector[-1] = observation["pile_size"] / size
    return vector
