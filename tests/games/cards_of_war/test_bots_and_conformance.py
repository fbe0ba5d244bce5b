"""The heuristic beats random clearly; the conformance option sets cover every allowed combination (the shared
battery in tests/conformance plays each of them)."""

from __future__ import annotations

from typing import Any

import pytest

import warcards
from warcards.engine.errors import OptionError
from warcards.games.cards_of_war import CONFORMANCE_CONFIGS
from warcards.match import play_match, replay
from warcards.simulate import wilson_interval


@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "theatres_of_war": True,
            "joint_deployment": True,
            "alternative_reinforce": True,
            "decks": 2,
            "length": "short",
        },
    ],
)
def test_heuristic_beats_random_clearly(options: dict[str, Any]) -> None:
    game = warcards.load_game("cards-of-war", **options)
    games = 120
    wins = 0
    for index in range(games):
        seat = index % 2
        agents = ["heuristic", "random"] if seat == 0 else ["random", "heuristic"]
        record = play_match(game, agents, seed=1000 + index)
        wins += record.returns[seat] > 0
    assert wilson_interval(wins, games)[0] > 0.75, f"heuristic won {wins}/{games}"


def test_conformance_configs_cover_every_allowed_combination() -> None:
    assert len(CONFORMANCE_CONFIGS) == 3 * 16 * 2 + 16
    assert all(
        not c["strategic_exhaustion"] or (c["length"] == "long" and not c["tactical_advantage"])
        for c in CONFORMANCE_CONFIGS
    )
    keys = {tuple(sorted(c.items())) for c in CONFORMANCE_CONFIGS}
    assert len(keys) == len(CONFORMANCE_CONFIGS)


def test_a_match_record_replays_and_bad_options_are_refused() -> None:
    record = play_match("cards-of-war", ["heuristic", "random"], seed=5)
    assert replay(record).returns() == record.returns
    with pytest.raises(OptionError, match="allowed values: 1, 2"):
        warcards.load_game("cards-of-war", decks=3)
    with pytest.raises(OptionError, match="allowed values: 2"):
        warcards.load_game("cards-of-war", players=3)
    with pytest.raises(OptionError, match="must be a path"):
        warcards.load_game("cards-of-war", cards=7)
