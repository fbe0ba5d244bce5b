"""The bots' published ratings (`warcards.bots.ratings`): a fixed rating for every game, group and ladder level,
in the ladder's order, on the scale docs/bots.md describes, and the openskill conversion the players' ratings
use."""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise

import pytest

import warcards
from warcards.bots import ladder_names
from warcards.bots.ratings import (
    ANCHOR_LEVEL,
    ANCHOR_RATING,
    DEFAULT_GROUP,
    NOT_SHOWN,
    PUBLISHED,
    display,
    elo_step,
    mu_from_rating,
    published_rating,
    rating_from_mu,
    rating_group,
)
from warcards.engine.registry import option_specs


def test_the_published_ratings_cover_every_game_group_and_level() -> None:
    assert sorted(PUBLISHED) == sorted(warcards.games())
    for game_id, groups in PUBLISHED.items():
        assert DEFAULT_GROUP[game_id] in groups
        for group, ratings in groups.items():
            assert list(ratings) == ladder_names(), (game_id, group)
            assert ratings[ANCHOR_LEVEL] == ANCHOR_RATING, (game_id, group)
            assert all(isinstance(value, int) for value in ratings.values())


def test_the_published_ratings_rise_in_the_ladder_order() -> None:
    names = ladder_names()
    for game_id, groups in PUBLISHED.items():
        for group, ratings in groups.items():
            for lower, upper in pairwise(names):
                if (game_id, group, upper) in NOT_SHOWN:
                    assert ratings[upper] >= ratings[lower], (game_id, group, upper)
                else:
                    assert ratings[upper] > ratings[lower], (game_id, group, upper)
    assert {(game, group) for game, group, _ in NOT_SHOWN} <= {(g, group) for g in PUBLISHED for group in PUBLISHED[g]}
    assert {level for _, _, level in NOT_SHOWN} <= set(names[1:])


def test_every_game_and_player_count_a_table_can_have_gets_a_rating() -> None:
    for game_id in warcards.games():
        counts = {warcards.load_game(game_id).num_players}
        for spec in option_specs(game_id):
            if spec.name == "players" and spec.allowed:
                counts |= {n for n in spec.allowed if isinstance(n, int)}
        for players in [None, *sorted(counts)]:
            for level in [*ladder_names(), "heuristic"]:
                assert published_rating(game_id, level, players) >= 0


def test_groups_follow_the_player_count_and_the_variant() -> None:
    assert rating_group("race-to-messina") == "invasion"
    assert rating_group("race-to-messina", 3) == "sicily"
    assert rating_group("race-to-messina", 2, "race") == "race"
    assert rating_group("med-sirocco", 2) == "2p"
    assert rating_group("med-sirocco", 6) == "4p"
    assert rating_group("naval-war") == "4p"
    assert rating_group("naval-war", 2) == "2p"
    assert rating_group("cards-of-war", 2) == "2p"
    assert published_rating("naval-war", "heuristic", 4) == published_rating("naval-war", "medium", 4)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: published_rating("chess", "hard"), "games are: race-to-messina"),
        (lambda: published_rating("naval-war", "grandmaster"), "levels are: random, beginner"),
        (lambda: published_rating("race-to-messina", "hard", variant="blitz"), "variants are: invasion"),
        (lambda: published_rating("naval-war", "hard", variant="race"), "no variants"),
        (lambda: published_rating("naval-war", "hard", players=1), "at least 2"),
        (lambda: published_rating("race-to-messina", "hard", players=3, variant="race"), "2-player game, not 3"),
    ],
)
def test_an_unknown_game_level_variant_or_count_is_refused_naming_what_is_allowed(
    call: Callable[[], int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_display_is_approximate_with_a_thousands_separator() -> None:
    assert display(1650) == "≈ 1,650"
    assert display(980) == "≈ 980"


def test_a_rating_step_is_the_logistic_of_the_score_and_a_sweep_stays_finite() -> None:
    assert elo_step(50, 100) == pytest.approx(0.0)
    assert elo_step(76, 100) == pytest.approx(-elo_step(24, 100))
    assert 1000 < elo_step(400, 400) < 1100
    with pytest.raises(ValueError):
        elo_step(5, 4)


def test_openskill_mu_and_the_published_scale_convert_both_ways() -> None:
    # openskill's starting mu is the anchor; 200 points are a logit of ln(10) / 2 in Plackett-Luce's c = beta * sqrt 2
    assert rating_from_mu(25.0) == ANCHOR_RATING
    assert rating_from_mu(mu_from_rating(1234.0)) == pytest.approx(1234.0)
    assert (mu_from_rating(1700) - mu_from_rating(1500)) / ((25 / 6) * 2**0.5) == pytest.approx(math.log(10) / 2)
