"""The stand-in deck meets every constraint of reference/cards-of-war-deck.md; deck files are validated."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

import warcards
from warcards.engine.errors import CardDataError
from warcards.games.cards_of_war.cards import DEFAULT_CARDS, THEATRES, load_cards

T = load_cards()
LETTERS = list(T.legend)


def types_of(kind: int) -> set[str]:
    return {letter for bit, letter in enumerate(LETTERS) if T.typemask[kind] >> bit & 1}


def kills_of(kind: int) -> set[str]:
    return {letter for bit, letter in enumerate(LETTERS) if T.killmask[kind] >> bit & 1}


def kind_named(name: str) -> int:
    return T.names.index(name)


def test_the_cards_52_cards_13_per_theatre_marked_stand_in() -> None:
    assert T.n == 52
    assert Counter(T.theatre) == {0: 13, 1: 13, 2: 13, 3: 13}
    assert T.stand_in is True
    assert "STAND-IN" in DEFAULT_CARDS.read_text().splitlines()[0]


def test_the_cards_pillbox_is_ground_type_f_kill_i_score_2() -> None:
    pillbox = kind_named("Pillbox")
    assert THEATRES[T.theatre[pillbox]] == "ground"
    assert types_of(pillbox) == {"F"}
    assert kills_of(pillbox) == {"I"}
    assert T.score[pillbox] == 2
    assert not T.reinforce[pillbox] and not T.recon[pillbox]


def test_the_cards_legend_keeps_f_i_s_and_radar_is_every_type_in_intel() -> None:
    assert {"F", "I", "S"} <= set(LETTERS)
    assert "fortif" in T.legend["F"].lower() and "infantry" in T.legend["I"].lower()
    assert "ship" in T.legend["S"].lower()
    radar = kind_named("Radar")
    assert types_of(radar) == set(LETTERS)
    assert THEATRES[T.theatre[radar]] == "intel"


def test_r19_radar_stand_in_score_agrees_in_the_rulings_and_the_cards_file() -> None:
    rulings = warcards.load_game("cards-of-war").rulings_path()
    assert rulings is not None
    r19 = rulings.read_text().split("## R19.")[1].split("\n## ")[0]
    stated = re.findall(r"Stand-in values: score (\d+)", r19)
    with DEFAULT_CARDS.open("rb") as handle:
        radar = [card for card in tomllib.load(handle)["card"] if card["name"] == "Radar"]
    assert len(stated) == 1 and len(radar) == 1
    assert int(stated[0]) == radar[0]["score"] == T.score[kind_named("Radar")] == 4


def test_1_kill_every_type_has_predators_of_two_other_types_and_none_kills_its_own() -> None:
    predators: dict[str, set[str]] = {letter: set() for letter in LETTERS}
    for kind in range(T.n):
        assert not (kills_of(kind) & types_of(kind)) or kind == kind_named("Radar"), T.names[kind]
        for target in kills_of(kind):
            predators[target] |= types_of(kind)
    for letter, by in predators.items():
        assert len(by - {letter}) >= 2, f"type {letter} is killed only by {by}"
    # A web, not a chain: the type graph has a cycle (I is killed by A, A by I via the Bazooka Team).
    assert "A" in predators["I"] and "I" in predators["A"]


def test_the_cards_scores_mostly_1_to_5_and_the_strongest_carry_no_ability() -> None:
    scores = Counter(T.score)
    assert sum(v for state, v in scores.items() if 1 <= state <= 5) >= 50
    top = max(T.score)
    for kind in range(T.n):
        if T.score[kind] >= 5:
            assert not (T.killmask[kind] or T.reinforce[kind] or T.recon[kind]), T.names[kind]
    assert top <= 6


def test_the_cards_reinforce_and_recon_on_a_handful_each() -> None:
    assert 4 <= sum(T.reinforce) <= 8
    assert 4 <= sum(T.recon) <= 8


def test_joint_deployment_every_named_pair_exists_within_one_theatre() -> None:
    wanted = [("Paratroop", "Gliders"), ("Marines", "Amphib"), ("Fighters", "Dive Bomber"),
              ("Fighters", "Torpedo Bomber"), ("Fighters", "Long Range Bomber"), ("Battleship", "Shore Bombardment")]
    for first, second in wanted:
        a, b = kind_named(first), kind_named(second)
        assert T.partners[a] >> b & 1 and T.partners[b] >> a & 1, (first, second)
        assert T.theatre[a] == T.theatre[b]
    assert not T.partners[kind_named("Pillbox")]


def test_deck_file_errors_name_the_card_and_field(tmp_path: Path) -> None:
    text = DEFAULT_CARDS.read_text().replace('id = "G01"\nname = "Pillbox"\ntheatre = "ground"',
                                              'id = "G01"\nname = "Pillbox"\ntheatre = "land"')
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(CardDataError, match=r"card G01: field theatre"):
        load_cards(bad)
    unknown = tmp_path / "unknown.toml"
    unknown.write_text(DEFAULT_CARDS.read_text().replace('kill = ["I"]', 'kill = ["Q"]', 1))
    with pytest.raises(CardDataError, match=r"'Q' is not in the \[types\] legend"):
        load_cards(unknown)
    with pytest.raises(CardDataError, match="does not exist"):
        load_cards(tmp_path / "missing.toml")


def test_deck_file_option_cards_loads_an_owners_list(tmp_path: Path) -> None:
    own = tmp_path / "own.toml"
    own.write_text(DEFAULT_CARDS.read_text().replace('name = "Cards of War stand-in deck"\nstand_in = true',
                                                     'name = "My printed deck"\nstand_in = false'))
    game = warcards.load_game("cards-of-war", cards=str(own))
    state = game.new_initial_state()
    assert state.observe(0)["deck"] == "My printed deck"
