"""scripts/ladder_pairs.py, which measures docs/bots.md's adjacent pairs: a pair's paired score over complete
deals, a stopped run read without its half-played deal, and the published ratings it chains."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from warcards.bots import ladder_names
from warcards.bots.ratings import ANCHOR_RATING, FLOOR, PUBLISHED

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "ladder_pairs.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder_pairs", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def test_a_pair_is_scored_on_complete_deals_and_a_stopped_run_drops_its_half_played_deal(tmp_path: Path) -> None:
    pairs = _script()
    records = pairs.play("cards-of-war/2p", "medium", "easy", 6, 1, tmp_path)
    assert len(records) == 6
    full = pairs.pair_score("cards-of-war/2p", records, "medium", "easy")
    assert (full.games, full.deals) == (6, 3)
    per_game = [pairs.game_score(record, "medium") for record in records]
    assert full.score == pytest.approx(sum(per_game) / 6)
    assert 0.0 <= full.low <= full.score <= full.high <= 1.0
    stopped = pairs.pair_score("cards-of-war/2p", records[:5], "medium", "easy")
    assert (stopped.games, stopped.deals) == (4, 2)
    assert pairs.play("cards-of-war/2p", "medium", "easy", None, 1, tmp_path) == records  # --read plays nothing


def test_the_script_measures_every_published_group_and_chains_ratings_from_the_anchor() -> None:
    pairs = _script()
    assert {config.split("/")[0] for config in pairs.CONFIGS} == set(PUBLISHED)
    assert {tuple(config.split("/")) for config in pairs.CONFIGS} == {
        (game, group) for game, groups in PUBLISHED.items() for group in groups
    }
    names = ladder_names()
    even = {
        (names[i], names[i - 1]): pairs.PairScore("naval-war/2p", names[i], names[i - 1], 100, 50, 0.5, 0.4, 0.6)
        for i in range(1, len(names))
    }
    assert set(pairs.ratings_of("naval-war/2p", even).values()) == {ANCHOR_RATING}
    sweep = {pair: pairs.PairScore("naval-war/2p", *pair, 400, 200, 1.0, 0.98, 1.0) for pair in even}
    assert pairs.ratings_of("naval-war/2p", sweep)["random"] == FLOOR


def test_a_level_that_scored_under_half_is_published_at_the_level_below_not_under_it() -> None:
    pairs = _script()
    names = ladder_names()
    scores = {
        (names[i], names[i - 1]): pairs.PairScore("naval-war/2p", names[i], names[i - 1], 400, 200, 0.75, 0.7, 0.8)
        for i in range(1, len(names))
    }
    scores["hard", "medium"] = pairs.PairScore("naval-war/2p", "hard", "medium", 40, 20, 0.45, 0.3, 0.6)
    ratings = pairs.ratings_of("naval-war/2p", scores)
    assert ratings["hard"] == ratings["medium"] == ANCHOR_RATING
    assert ratings["random"] < ratings["beginner"] < ratings["easy"] < ratings["medium"]
