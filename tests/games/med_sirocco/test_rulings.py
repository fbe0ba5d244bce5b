"""Rulings on points the rule text leaves open (RULES.md names each test)."""

from __future__ import annotations

import pytest
from tests.games.med_sirocco.helpers import build, is_legal, legal_texts, play, settle, zone

from warcards.engine.errors import IllegalActionError


def test_ruling_s02_lost_with_two_players_exchanges_twice_with_the_opponent() -> None:
    state = build({0: ["S02", "A12", "A31", "A34"], 1: ["X13", "X26", "X14"]}, players=2, operation="O05")
    play(state, "type surface", "play S02", "select A12", "select A31", "draw X26")
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == ["draw X13", "draw X14"]
    play(state, "draw X14")
    assert zone(state, "hand:0") == ["A34", "X14", "X26"] and zone(state, "hand:1") == ["A12", "A31", "X13"]


def test_ruling_storm_cards_are_side_neutral_and_may_be_played_alone() -> None:
    state = build({0: ["S03", "X13"], 1: ["A12"]}, operation="O05")
    play(state, "type surface", "play S03")
    assert state.position()["sides"][0] is None and is_legal(state, "play X13")
    play(state, "done")
    assert state.current_player() == 1


def test_ruling_sirocco_cancels_a_players_cards_of_both_battle_rounds() -> None:
    state = build({0: ["A12", "A01"], 1: ["X13", "S01", "X26"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X14", "draw A34", "draw X02")
    play(state, "play A01", "done", "play X26", "play S01", "done", "roll 1", "seat 0")
    assert {"A12", "A01"} <= set(zone(state, "discard")) and zone(state, "play:0") == []


def test_ruling_intelligence_extra_play_in_a_battle_comes_at_the_end_of_round_1() -> None:
    state = build({0: ["A58", "A12"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A58", "done", "play X13", "done", "pass", "pass")
    assert state.current_player() == 0 and state.position()["round"] == 1
    assert legal_texts(state) == ["play A12", "pass"]
    play(state, "play A12", "done")
    assert {"seat": 0, "card": "A12", "face_down": False, "round": 1, "on": None} in state.observe(1)["plays"]


def test_ruling_both_intelligence_cards_played_a_draw_is_replayed() -> None:
    state = build({0: ["A58", "A12"], 1: ["X52", "X13"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A58", "done", "play X52", "done", "pass", "pass",
         "play A12", "done", "play X13", "done")
    # 3.4 Tie (R15): the Intelligence cards stay under the Operation with the Force cards.
    assert zone(state, "under") == ["A12", "A58", "X13", "X52"]


def test_ruling_admiral_b_each_force_card_counts_alone_for_the_trick() -> None:
    state = build({0: ["A12", "A59", "A34"], 1: ["X13"], 2: ["A03"], 3: []}, operation="O05")
    play(state, "type surface", "play A12", "play A59", "admiral two", "play A34", "done", "play X13", "done",
         "play A03", "done", "pass")
    assert zone(state, "won:2") == ["O05"]  # Barham 4 beats York 3 (York + Wellingtons together would be 4)


def test_ruling_restricted_battle_player_with_no_valid_card_sits_out() -> None:
    state = build({0: ["A12", "A57"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "play A57", "done")
    assert legal_texts(state) == ["discard all"]


def test_ruling_raid_played_face_down_in_round_2_is_discarded() -> None:
    state = build({0: ["A12", "A57", "A01"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw X14")
    play(state, "play A01", "play A57", "done", "play X26", "done", "play A34", "done", "play X14", "done")
    assert "A57" in zone(state, "discard") and "X14" in zone(state, "captured:0")


def test_ruling_rectangular_card_counts_as_surface_for_the_raid() -> None:
    state = build({0: ["A36", "A57"]}, operation="O05")
    play(state, "type combined", "play A36")
    assert is_legal(state, "play A57")


def test_ruling_explosion_without_a_neighbour_force_card_has_no_effect() -> None:
    state = build({0: ["A12", "S03"], 1: ["X14"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A12", "play S03", "done", "play X14", "done", "pass", "pass", "roll 1",
         "roll 1")
    assert zone(state, "captured:0") == ["X14"] and "S03" in zone(state, "discard")


def test_ruling_bomb_alley_may_target_an_enemy_card() -> None:
    state = build({0: ["X13"], 1: ["A12", "S06"]}, operation="O05")
    play(state, "type surface", "play X13", "done", "play A12", "play S06")
    assert legal_texts(state) == ["select A12", "select X13"]


def test_ruling_o32_adds_one_even_to_air_0_cards() -> None:
    state = build({0: ["A22"], 1: [], 2: [], 3: []}, operation="O32")
    play(state, "type air", "play A22", "done", "pass", "pass", "pass")
    assert state.entry_values[0] == 1 and zone(state, "won:0") == ["O32"]


def test_ruling_6_1_does_not_apply_with_two_players() -> None:
    state = build({0: ["A12", "X05"], 1: ["X13", "X26"]}, players=2, operation="O03",
                  options={"change_sides": True})
    play(state, "play A12", "done", "play X13", "done")
    settle(state)
    play(state, "play X05", "done", "play X26", "done")
    assert "X05" in zone(state, "discard")


def test_ruling_supply_picks_binoculars_frames_only() -> None:
    state = build({0: ["A56", "A36"], 1: ["X14"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A36", "play A56", "done", "play X14", "done", "pass", "pass")
    assert state.position()["phase"] != "supply"
    assert {"A36", "A56"} <= set(zone(state, "discard"))


def test_ruling_bonus_only_on_its_players_own_force_card() -> None:
    state = build({0: ["A12"], 1: ["A46"]}, operation="O05")
    play(state, "type surface", "play A12", "done")
    with pytest.raises(IllegalActionError, match=r"2\.3"):
        play(state, "play A46")


def test_ruling_invalid_destiny_card_at_the_reveal_destroys_nothing() -> None:
    state = build({0: ["A12"], 1: ["X05", "A29"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X05", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw X14")
    play(state, "play A31", "done", "play A29", "done", "play A34", "done", "play X14", "done")
    assert "A29" in zone(state, "discard") and "X05" in zone(state, "captured:0")


def test_ruling_battle_freighters_count_for_hand_size() -> None:
    state = build({0: ["A01"], 1: ["X13"], 2: [], 3: []}, operation="O03")  # Calabria: half freighter
    play(state, "play A01", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw X14")
    play(state, "play A31", "done", "play X26", "done", "play A34", "done", "play X14", "done")
    assert zone(state, "won:0") == ["O03"] and state.freighters_half[0] == 1


def test_ruling_lone_supply_satisfies_a_battles_compulsory_play() -> None:
    state = build({0: ["A56", "A12"]}, operation="O03")
    assert is_legal(state, "play A56")
    play(state, "play A56")
    assert legal_texts(state)[-1] == "done"
