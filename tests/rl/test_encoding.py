"""Observation encoders: the generic one is pinned by version, a game's own one is used and checked."""

from __future__ import annotations

import hashlib
import random
import sys
import types
import zlib
from typing import Any

import numpy as np
import pytest

from tests.rl import toygame
from tests.rl.rl_cases import TOY, TOY_ENCODED
from warcards.engine import CHANCE
from warcards.engine.spec import EncoderSpec, GameSpec, Ref, load_reference
from warcards.rl import encoding
from warcards.rl.encoding import GENERIC_SIZE, GENERIC_VERSION, encoder_for, env_version, generic_encoder


def _digest_of_toy_playout() -> str:
    game = TOY.load(players=3)
    encoder = generic_encoder(game)
    state = game.new_initial_state()
    rng = random.Random(7)
    digest = hashlib.sha256()
    while not state.is_terminal():
        for seat in range(game.num_players):
            digest.update(encoder.encode(state.observe(seat)).tobytes())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return digest.hexdigest()


# sha256 of the generic encodings of every view along a seeded toy game, per GENERIC_VERSION: a change to
# the generic encoder must come with a new GENERIC_VERSION and its digest here (so every generic env's
# version changes with it).
PINNED = {0: "009e5e8761a512253b5c0af2da7f51f542bcc70ad46b6995e1e4359d06c051ef"}


def test_generic_encoder_is_pinned_by_its_version() -> None:
    assert _digest_of_toy_playout() == PINNED[GENERIC_VERSION]


def test_generic_encoder_places_cards_by_path_and_id() -> None:
    encoder = generic_encoder(TOY.load())
    vector = encoder.encode({"hand": ["c3", "c5"], "phase": "commit", "counts": [2, 0], "die": None})
    assert vector.shape == (GENERIC_SIZE,) and vector.dtype == np.float32

    def slot(key: str) -> int:
        return zlib.crc32(key.encode()) % GENERIC_SIZE

    assert vector[slot("/hand|c3")] == 1.0
    assert vector[slot("/hand|c5")] == 1.0
    assert vector[slot("/phase=commit")] == 1.0
    assert vector[slot("/counts/0")] == 2.0
    assert np.count_nonzero(vector) == 4


def test_generic_encoder_treats_a_hand_as_a_bag() -> None:
    encoder = generic_encoder(TOY.load())
    first = encoder.encode({"hand": ["c1", "c2", "c7"]})
    second = encoder.encode({"hand": ["c7", "c1", "c2"]})
    assert np.array_equal(first, second)


def test_generic_encoder_clips_to_its_bounds() -> None:
    encoder = generic_encoder(TOY.load())
    vector = encoder.encode({"score": 10**9, "debt": -(10**9)})
    assert vector.max() == encoder.high and vector.min() == encoder.low


def test_generic_views_of_every_toy_state_lie_in_bounds() -> None:
    game = TOY.load(players=3)
    encoder = encoder_for(game)
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        if state.current_player() != CHANCE:
            for seat in range(3):
                vector = encoder.encode(state.observe(seat))
                assert encoder.low <= vector.min() and vector.max() <= encoder.high
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def test_own_encoder_is_used_with_its_version() -> None:
    game = TOY_ENCODED.load()
    encoder = encoder_for(game)
    assert (encoder.name, encoder.version, encoder.shape) == ("toy-commit-encoded", 1, (32,))
    assert (encoder.low, encoder.high) == (0.0, 1.0)
    assert env_version(encoder) == encoding.WRAPPER_VERSION + 1
    assert env_version(encoder_for(TOY.load())) == encoding.WRAPPER_VERSION + GENERIC_VERSION


def _fake_spec(monkeypatch: pytest.MonkeyPatch, **parts: Any) -> Any:
    """The toy game, its hooks replaced by a spec whose encoder parts live in a module `fake_hooks`."""
    module = types.ModuleType("fake_hooks")
    for name, value in parts.items():
        setattr(module, name, value)
    monkeypatch.setitem(sys.modules, "fake_hooks", module)
    load_reference.cache_clear()
    encoder = EncoderSpec(**{name: Ref(f"fake_hooks:{name}") for name in parts})
    spec = GameSpec(
        id="fake-hooks",
        title="",
        options=toygame.OPTIONS,
        factory=toygame.make_game,
        conformance_configs=toygame.CONFORMANCE_CONFIGS,
        encoder=encoder,
    )
    monkeypatch.setattr(encoding, "spec_for", lambda game: spec)
    return TOY.load()


def _shape_of(size: int) -> Any:
    return lambda game: (size,)


def test_own_encoder_of_the_wrong_shape_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _fake_spec(
        monkeypatch, encode=lambda view, game: np.zeros(3), shape=_shape_of(4), version=1
    )
    encoder = encoder_for(game)
    with pytest.raises(ValueError, match=r"returned shape \(3,\); declared \(4,\)"):
        encoder.encode(game.new_initial_state().observe(0))


def test_own_encoder_with_an_empty_shape_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _fake_spec(monkeypatch, encode=lambda view, game: np.zeros(3), shape=lambda game: (), version=1)
    with pytest.raises(TypeError, match="gave an empty shape"):
        encoder_for(game)


def test_own_encoder_version_must_be_positive(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _fake_spec(monkeypatch, encode=lambda view, game: np.zeros(3), shape=_shape_of(3), version=0)
    with pytest.raises(ValueError, match="must be at least 1, not 0"):
        encoder_for(game)


def test_card_vocabulary_is_every_card_of_the_game() -> None:
    assert encoding.card_vocabulary(TOY.load()) == frozenset(toygame.CARD_IDS)
