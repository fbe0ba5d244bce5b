"""Observation vectors for the RL adapters: each game's own encoder, or the documented generic one.

A game provides its own encoder in its `GameSpec` (`encoder=EncoderSpec(...)`, see `warcards.engine.spec`),
each part named as a lazily imported `"module:attribute"`:

- `encode`: `encode_observation(observation: dict, game: Game) -> numpy.ndarray` — the vector for one
  seat's view (`state.observe(seat)`), float32, of the declared shape;
- `shape`: `observation_shape(game: Game) -> tuple[int, ...]`;
- `version`: an int (≥ 1), raised whenever the layout or meaning of the vector changes;
- optionally `bounds = (low, high)`: every entry lies in this range (default `(0.0, 1.0)`).

A game without an encoder gets the generic encoder (`GENERIC_VERSION`): feature hashing of the view
into `GENERIC_SIZE` floats. Every leaf of the view dict is named by its key path (dict keys joined by `/`,
list positions kept for lists of at most `SHORT_LIST` items and dropped for longer ones):

- a list of strings (a hand, a pile) is a bag: its items take the list's own path;
- a string that is a card id of the game, at path P: slot `crc32(P + "|" + card) % GENERIC_SIZE` += 1;
- any other string s without whitespace (a phase, a side): slot `crc32(P + "=" + s) % GENERIC_SIZE` += 1;
  strings with whitespace are prose (log lines) and are left out;
- a number or bool x: slot `crc32(P) % GENERIC_SIZE` += x;
- `None` adds nothing;
- a list of more than `SHORT_LIST` items keeps only its plain items (numbers, strings) as a bag: its dicts
  and lists are left out, as such a list is a log of past events (the present is in the other fields).
Every slot is clipped to [-GENERIC_BOUND, GENERIC_BOUND]. The generic layout follows the game's view, so a
change to `observe()` changes it; games should ship their own encoder for a stable, readable layout.

Environment versions: an env's version is `WRAPPER_VERSION + encoder version` (both only ever increase),
so it changes exactly when the wrapper's behaviour or the observation encoding does.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from warcards.engine.api import Game
from warcards.engine.registry import spec_of
from warcards.engine.spec import EncoderSpec, GameSpec

WRAPPER_VERSION = 0
GENERIC_VERSION = 0
GENERIC_SIZE = 2048
GENERIC_BOUND = 1000.0
SHORT_LIST = 12
DEFAULT_BOUNDS = (0.0, 1.0)


@dataclass(frozen=True)
class Encoder:
    """How one game's views become vectors: `encode(view)` gives a float32 array of `shape` in [low, high]."""

    name: str
    version: int
    shape: tuple[int, ...]
    low: float
    high: float
    encode: Callable[[Mapping[str, Any]], np.ndarray]


def spec_for(game: Game) -> GameSpec | None:
    """The spec holding a game's hooks: its registered one, else the `SPEC` of the module defining its
    class (see `warcards.engine.registry.spec_of`), else None (no hooks)."""
    return spec_of(game)


def encoder_for(game: Game) -> Encoder:
    """The game's own encoder when its spec declares one, else the generic encoder."""
    spec = spec_for(game)
    if spec is None or spec.encoder is None:
        return generic_encoder(game)
    hooks = spec.encoder
    encode_hook = hooks.encode.load()
    shape = tuple(hooks.shape.load()(game))
    if not shape:
        raise TypeError(f"{hooks.shape.path}(game) gave an empty shape; the RL adapters need the vector's shape")
    version = _encoder_version(hooks)
    low, high = hooks.bounds.load() if hooks.bounds is not None else DEFAULT_BOUNDS

    def encode(view: Mapping[str, Any]) -> np.ndarray:
        vector = np.asarray(encode_hook(view, game), dtype=np.float32)
        if vector.shape != shape:
            raise ValueError(f"{hooks.encode.path} returned shape {vector.shape}; declared {shape}")
        return vector

    return Encoder(game.game_id, version, shape, float(low), float(high), encode)


def card_vocabulary(game: Game) -> frozenset[str]:
    """Every card id of the game (the god view of a fresh state names each physical card once)."""
    return frozenset(card for cards in game.new_initial_state().zones().values() for card in cards)


def generic_encoder(game: Game) -> Encoder:
    """The generic feature-hashing encoder (see the module docstring)."""
    hasher = _Hasher(card_vocabulary(game))
    return Encoder("generic", GENERIC_VERSION, (GENERIC_SIZE,), -GENERIC_BOUND, GENERIC_BOUND, hasher.encode)


def env_version(encoder: Encoder) -> int:
    """The version number of an env using `encoder`."""
    return WRAPPER_VERSION + encoder.version


def _encoder_version(encoder: EncoderSpec) -> int:
    """The version of a game's own encoder, checked to be at least 1."""
    version = int(encoder.version.load())
    if version < 1:
        raise ValueError(f"{encoder.version.path} (the encoder version) must be at least 1, not {version}")
    return version


def spec_env_version(spec: GameSpec | None) -> int:
    """The env version for a game's spec, read without building the game (None: no hooks, the generic
    encoder)."""
    if spec is None or spec.encoder is None:
        return WRAPPER_VERSION + GENERIC_VERSION
    return WRAPPER_VERSION + _encoder_version(spec.encoder)


class _Hasher:
    """Feature hashing with the slot of each (path, value) key cached."""

    def __init__(self, cards: frozenset[str]) -> None:
        self.cards = cards
        self.slots: dict[str, int] = {}
        self.bags: dict[str, dict[str, int]] = {}

    def slot(self, key: str) -> int:
        index = self.slots.get(key)
        if index is None:
            index = zlib.crc32(key.encode()) % GENERIC_SIZE
            self.slots[key] = index
        return index

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        values: dict[int, float] = {}
        self._walk(view, "", values)
        vector = np.zeros(GENERIC_SIZE, dtype=np.float32)
        if values:
            vector[list(values)] = list(values.values())
            np.clip(vector, -GENERIC_BOUND, GENERIC_BOUND, out=vector)
        return vector

    def _strings(self, texts: Any, path: str, values: dict[int, float]) -> None:
        """A bag of strings at `path`; each (path, string) slot is cached per path."""
        table = self.bags.get(path)
        if table is None:
            table = self.bags[path] = {}
        for text in texts:
            slot = table.get(text)
            if slot is None:
                if text in self.cards:
                    slot = self.slot(f"{path}|{text}")
                elif " " in text or "\n" in text:
                    continue
                else:
                    slot = self.slot(f"{path}={text}")
                table[text] = slot
            values[slot] = values.get(slot, 0.0) + 1.0

    def _number(self, value: float, path: str, values: dict[int, float]) -> None:
        slot = self.slots.get(path)
        if slot is None:
            slot = self.slot(path)
        values[slot] = values.get(slot, 0.0) + value

    def _walk(self, node: Any, path: str, values: dict[int, float]) -> None:
        kind = type(node)
        if kind is str:
            self._strings((node,), path, values)
        elif kind is int or kind is float or kind is bool:
            self._number(float(node), path, values)
        elif kind is dict or isinstance(node, Mapping):
            for key, child in node.items():
                child_kind = type(child)
                if child_kind is int or child_kind is float or child_kind is bool:
                    self._number(float(child), f"{path}/{key}", values)
                elif child is not None:
                    self._walk(child, f"{path}/{key}", values)
        elif kind is list or kind is tuple:
            if set(map(type, node)) <= _STRINGS:
                self._strings(node, path, values)
            elif len(node) <= SHORT_LIST:
                for index, child in enumerate(node):
                    if child is not None:
                        self._walk(child, f"{path}/{index}", values)
            else:
                for child in node:
                    if type(child) in _PLAIN:
                        self._walk(child, f"{path}/*", values)
        elif isinstance(node, bool | int | float):
            self._number(float(node), path, values)


_PLAIN = frozenset((bool, int, float, str))
_STRINGS = frozenset((str,))


__all__ = [
    "DEFAULT_BOUNDS",
    "GENERIC_BOUND",
    "GENERIC_SIZE",
    "GENERIC_VERSION",
    "WRAPPER_VERSION",
    "Encoder",
    "card_vocabulary",
    "encoder_for",
    "env_version",
    "generic_encoder",
    "spec_env_version",
    "spec_for",
]
