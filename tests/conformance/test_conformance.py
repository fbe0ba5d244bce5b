"""Runs the conformance battery on every registered game and every option set it declares.

Every variant and player count (an option set that changes nothing else) gets `WARCARDS_CONFORMANCE_GAMES`
seeded games (default 2,000, what CI runs); every other option combination a game declares gets
`WARCARDS_CONFORMANCE_OPTION_GAMES` (default 60), so that all combinations are covered inside CI's budget.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

import warcards
from warcards.engine.registry import conformance_configs, is_variant_config
from warcards.testing import run_battery

GAMES_PER_VARIANT = int(os.environ.get("WARCARDS_CONFORMANCE_GAMES", "2000"))
GAMES_PER_OPTION_SET = int(os.environ.get("WARCARDS_CONFORMANCE_OPTION_GAMES", "60"))

CASES = [
    pytest.param(
        game_id, options, id=f"{game_id}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}"
    )
    for game_id in warcards.games()
    for options in conformance_configs(game_id)
]


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_conformance(game_id: str, options: dict[str, Any]) -> None:
    games = (
        GAMES_PER_VARIANT
        if is_variant_config(game_id, options)
        else min(GAMES_PER_VARIANT, GAMES_PER_OPTION_SET)
    )
    tally = run_battery(game_id, options, games)
    assert tally.games == games
    assert tally.sampled_states > 0 and tally.determinizations > 0
    assert tally.replays >= games // 10


def test_every_game_declares_conformance_configs() -> None:
    for game_id in warcards.games():
        configs = conformance_configs(game_id)
        assert configs, f"{game_id} declares no conformance option sets"
        assert any(is_variant_config(game_id, c) for c in configs), f"{game_id}: no plain variant is covered"
        for options in configs:
            warcards.load_game(game_id, **options)
