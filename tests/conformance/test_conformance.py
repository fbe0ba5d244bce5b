"""Runs the conformance battery on every registered game and every option set it declares.

`WARCARDS_CONFORMANCE_GAMES` sets the number of seeded games per option set (the CI run uses the default,
2,000).
"""

from __future__ import annotations

import os

import pytest

import warcards
from tests.conformance.battery import run_battery
from warcards.engine.registry import conformance_configs

GAMES_PER_CONFIG = int(os.environ.get("WARCARDS_CONFORMANCE_GAMES", "2000"))

CASES = [
    pytest.param(
        game_id, options, id=f"{game_id}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}"
    )
    for game_id in warcards.games()
    for options in conformance_configs(game_id)
]


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_conformance(game_id: str, options: dict[str, object]) -> None:
    tally = run_battery(game_id, options, GAMES_PER_CONFIG)
    assert tally.games == GAMES_PER_CONFIG
    assert tally.sampled_states > 0 and tally.determinizations > 0
    assert tally.replays >= GAMES_PER_CONFIG // 10


def test_every_game_declares_conformance_configs() -> None:
    for game_id in warcards.games():
        configs = conformance_configs(game_id)
        assert configs, f"{game_id} declares no conformance option sets"
        for options in configs:
            warcards.load_game(game_id, **options)
