"""Golden seeded games replay identically (issue 22: behaviour unchanged by the refactor).

Each recorded game (tests/golden/data/, written by `python3 scripts/record_golden.py`) is replayed from its
action list on a fresh state: the digests of the position, the zones and every seat's view agree at each
recorded checkpoint, the game ends where it ended with the same returns, the random policy re-draws the
same actions, and the heuristic bot games play out the same under `play_match`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import warcards
from tests.golden import golden
from warcards.engine.registry import conformance_configs

CASES = [
    pytest.param(
        game_id, options, seed, agents, id=f"{game_id}-{golden.config_id(options)}-{agents}-seed{seed}"
    )
    for game_id in warcards.games()
    for options, seed, agents in golden.cases(game_id)
]


@cache
def stored(game_id: str) -> dict[str, golden.Record]:
    return golden.load_records(game_id)


def stored_or_fail(game_id: str) -> dict[str, golden.Record]:
    try:
        return stored(game_id)
    except (FileNotFoundError, ValueError) as error:
        pytest.fail(str(error), pytrace=False)


@pytest.mark.parametrize(("game_id", "options", "seed", "agents"), CASES)
def test_golden_game_replays_identically(
    game_id: str, options: dict[str, Any], seed: int, agents: str
) -> None:
    key = golden.record_key(options, seed, agents)
    record = stored_or_fail(game_id).get(key)
    if record is None:
        pytest.fail(f"no golden record for {game_id} {key}: re-record with `{golden.RECORD_COMMAND}`")
    difference = golden.check_record(record)
    if difference is not None:
        pytest.fail(difference, pytrace=False)


@pytest.mark.parametrize("game_id", warcards.games())
def test_golden_data_covers_every_conformance_config(game_id: str) -> None:
    records = stored_or_fail(game_id)
    recorded = {golden.canonical(r["options"]) for r in records.values() if r["agents"] == golden.RANDOM}
    declared = {golden.canonical(options) for options in conformance_configs(game_id)}
    assert recorded == declared, (
        f"{game_id}: option sets recorded but no longer declared: {sorted(recorded - declared)}; "
        f"declared but not recorded: {sorted(declared - recorded)}"
    )
    expected = {golden.record_key(options, seed, agents) for options, seed, agents in golden.cases(game_id)}
    assert records.keys() == expected, f"{game_id}: stored cases differ from golden.cases: re-record"
