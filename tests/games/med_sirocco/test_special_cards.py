"""2.3 Bonus cards, 2.41–2.48 Supply, Special and Storm cards, and "Explanation of significant cards"."""

from __future__ import annotations

import pytest
from tests.games.med_sirocco.helpers import build, is_legal, legal_texts, play, zone

from warcards.engine.api import CHANCE
from warcards.engine.errors import IllegalActionError


def refused(state, text: str) -> str:  # type: ignore[no-untyped-def]
    before = state.fingerprint()
    with pytest.raises(IllegalActionError) as info:
        play(state, text)
    assert state.fingerprint() == before
    return str(info.value)


def on(state, card: str) -> str | None:  # type: ignore[no-untyped-def]
    return next(p["on"] for p in state.observe(0)["plays"] if p["card"] == card)


# ----- 2.3 Bonus cards ---------------------------------------------------------------------------------------------
def test_2_3_axis_bonus_only_with_a_force_card_of_its_nation() -> None:
    state = build({0: ["X42", "X43"]}, operation="O09")  # JG 27 (German), Italian torpedo school
    play(state, "type air", "play X42")
    assert "2.3" in refused(state, "play X43")
    state = build({0: ["X24", "X43"]}, operation="O09")  # SM.79 (Italian)
    play(state, "type air", "play X24", "play X43")
    assert on(state, "X43") == "X24"


def test_2_3_allied_bonus_on_any_allied_nation() -> None:
    state = build({0: ["A39", "A49"]}, operation="O23")  # B-17 (American), British Enigma-guided strike
    play(state, "type air", "play A39", "play A49")
    assert on(state, "A49") == "A39"


def test_2_3_x54_plays_on_allied_cards_and_a53_on_axis_cards() -> None:
    state = build({0: ["A12", "X54"], 1: ["X13", "A53"]}, operation="O05")
    play(state, "type surface", "play A12", "play X54", "done", "play X13", "play A53", "done")
    assert on(state, "X54") == "A12" and on(state, "A53") == "X13"
    assert state.position()["sides"][:2] == ["allies", "axis"]


def test_2_3_bonus_must_match_the_force_cards_type() -> None:
    state = build({0: ["A31", "A46"]}, operation="O05")  # Hurricanes (air), Radar (surface)
    play(state, "type combined", "play A31")
    assert "2.3" in refused(state, "play A46")


def test_2_3_several_bonus_cards_on_one_force_card() -> None:
    state = build({0: ["A12", "A46", "A50"], 1: ["X01"]}, operation="O05")
    play(state, "type surface", "play A12", "play A46", "play A50", "done", "play X01", "done", "pass", "pass")
    # York 3 + Radar 1 + Night training 2 = 6 beats Littorio's 5.
    assert zone(state, "won:0") == ["O05"]


def test_2_3_bonus_on_its_own_only_if_the_card_allows_it() -> None:
    state = build({0: ["A48", "A49"], 1: ["X26"]}, operation="O05")
    play(state, "type air")
    assert is_legal(state, "play A48") and not is_legal(state, "play A49")
    play(state, "play A48", "done", "play X26", "done", "pass", "pass")
    # Air cover alone: 2 v Cant 2 -> replay; the Bonus counts for its side (and stays under the Operation, 3.4).
    assert zone(state, "under") == ["A48", "X26"]


# ----- 2.41 Supply -------------------------------------------------------------------------------------------------
def test_2_41_supply_on_its_own_picks_up_a_ship_of_the_winning_side() -> None:
    state = build({0: ["A56"], 1: ["A01"], 2: ["X13"], 3: []}, operation="O05")
    play(state, "type surface", "play A56", "done", "play A01", "done", "play X13", "done", "pass")
    assert state.position()["phase"] == "supply" and state.current_player() == 0
    assert legal_texts(state) == ["select A01", "pass"]
    play(state, "select A01")
    assert "A01" in zone(state, "hand:0") and zone(state, "won:1") == ["O05"]
    assert state.observe(2)["known_in_hands"][0] == ["A01"]


def test_2_41_supply_pick_up_is_optional() -> None:
    state = build({0: ["A56"], 1: ["A01"], 2: ["X13"], 3: []}, operation="O05")
    play(state, "type surface", "play A56", "done", "play A01", "done", "play X13", "done", "pass", "pass")
    assert "A01" in zone(state, "discard") and "A56" in zone(state, "discard")


def test_2_41_supply_of_the_losing_side_is_destroyed() -> None:
    state = build({0: ["A56", "A12"], 1: ["X01"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A12", "play A56", "done", "play X01", "done", "pass", "pass")
    assert zone(state, "captured:1") == ["A12", "A56"]


# ----- 2.42 / 2.43 Raid on La Spezia, Romanian Fuel ------------------------------------------------------------------
def test_2_42_raid_on_la_spezia_leaves_remaining_players_allied_cards_or_discard() -> None:
    state = build({0: ["A57"], 1: ["X13", "A12", "S03"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A57", "done")
    assert legal_texts(state) == ["play A12", "discard A12", "discard X13", "discard S03", "discard all"]
    assert "2.42/2.43" in refused(state, "play X13")


def test_2_42_raid_only_in_a_surface_or_combined_engagement() -> None:
    state = build({0: ["A57"]}, operation="O05")
    play(state, "type air")
    assert "surface or combined" in refused(state, "play A57")


def test_2_42_raid_goes_with_a_surface_card_only() -> None:
    state = build({0: ["A57", "A31"]}, operation="O05")
    play(state, "type combined", "play A31")
    assert "surface card" in refused(state, "play A57")


def test_2_42_raid_affects_only_the_first_round_of_a_battle() -> None:
    state = build({0: ["A31"], 1: ["X13", "X01"], 2: [], 3: ["A12", "A57"]}, operation="O03")
    play(state, "play A31", "done", "play X13", "done", "pass", "play A12", "play A57")
    assert state.position()["restriction"] == "allies"
    play(state, "done")
    play(state, "draw A34", "draw X26", "draw A48", "draw X14")
    assert state.position()["restriction"] is None
    play(state, "play A34", "done", "play X01", "done", "play A48", "done", "play X14", "done")
    # Littorio is valid in round 2: the Allies win 13 to 11 and York's player takes it.
    assert "X01" in zone(state, "captured:3") and "X14" in zone(state, "discard")


def test_2_43_romanian_fuel_leaves_remaining_players_axis_cards() -> None:
    state = build({0: ["X55", "X13"], 1: ["A12", "X26"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play X13", "play X55", "done")
    assert legal_texts(state) == ["play X26", "discard A12", "discard X26", "discard all"]


# ----- 2.44 Sirocco ------------------------------------------------------------------------------------------------
def test_2_44_sirocco_1_to_3_cancels_a_players_involvement() -> None:
    state = build({0: ["A01"], 1: ["X13", "S01"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A01", "done", "play X13", "play S01", "done")
    assert state.current_player() == CHANCE
    play(state, "roll 2")
    assert state.position()["phase"] == "sirocco-target" and legal_texts(state) == ["seat 0", "seat 2", "seat 3"]
    play(state, "seat 0")
    assert "A01" in zone(state, "discard") and "S01" in zone(state, "discard")
    play(state, "pass", "pass")
    assert zone(state, "won:1") == ["O05"] and zone(state, "captured:1") == []


def test_2_44_sirocco_4_to_6_passes_to_the_left_who_uses_or_discards_it() -> None:
    state = build({0: ["A01", "S01"], 1: ["X13"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A01", "play S01", "done", "roll 5")
    assert state.position()["sirocco_holder"] == 1 and zone(state, "sirocco") == ["S01"]
    play(state, "play X13", "done")
    assert state.position()["phase"] == "held-sirocco" and legal_texts(state) == ["pass", "use sirocco"]
    play(state, "use sirocco", "roll 1", "seat 0")
    assert "A01" in zone(state, "discard") and state.position()["cancelled"][0]


def test_2_44_a_cancelled_player_does_not_play() -> None:
    state = build({0: ["A01", "S01"], 1: ["X13"], 2: ["X01"], 3: []}, operation="O05")
    play(state, "type surface", "play A01", "play S01", "done", "roll 3", "seat 2")
    assert state.current_player() == 1
    play(state, "play X13", "done")
    assert state.current_player() == 3  # seat 2 is skipped


def test_2_44_iachino_reverts_when_cancelled_by_sirocco() -> None:
    state = build({0: ["X19", "X53"], 1: ["A34", "S01"], 2: [], 3: []}, operation="O05")
    play(state, "type sub", "play X19", "play X53")
    assert legal_texts(state) == ["admiral combined", "admiral two"]
    play(state, "admiral combined", "done")
    assert state.position()["engagement_type"] == "combined"
    play(state, "play A34", "play S01", "done", "roll 1", "seat 0")
    assert state.position()["engagement_type"] == "sub"
    play(state, "pass", "pass")
    assert zone(state, "won:1") == ["O05"]  # Wellingtons: Sub 1


def test_2_44_sirocco_discarded_when_the_left_player_has_no_turn_to_come() -> None:
    state = build({0: ["A01"], 3: ["X13", "S01"]}, operation="O05")
    play(state, "type surface", "play A01", "done", "pass", "pass", "play X13", "play S01", "done", "roll 6")
    assert state.position()["sirocco_holder"] is None and "S01" in zone(state, "discard")


def test_2_44_sirocco_carried_into_a_battles_second_round() -> None:
    state = build({0: ["A12"], 1: [], 2: [], 3: ["X13", "S01"]}, operation="O03")
    play(state, "play A12", "done", "pass", "pass", "play X13", "play S01", "done", "roll 4")
    assert state.position()["sirocco_holder"] == 0


# ----- 2.45 Intelligence -------------------------------------------------------------------------------------------
def test_2_45_intelligence_plays_again_after_everyone() -> None:
    state = build({0: ["A58", "A12"], 1: ["X14"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A58")
    assert not is_legal(state, "play A12")  # in place of a Force card
    play(state, "done", "play X14", "done", "pass", "pass")
    assert state.current_player() == 0 and legal_texts(state) == ["play A12", "pass"]
    play(state, "play A12", "done")
    assert zone(state, "won:0") == ["O05"]


def test_2_45_intelligence_player_loses_a_drawn_combat() -> None:
    state = build({0: ["A58", "A12"], 1: ["X13"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A58", "done", "play X13", "done", "pass", "pass", "play A12", "done")
    # 3 = 3: the Intelligence card's side loses.
    assert zone(state, "won:1") == ["O05"] and zone(state, "captured:1") == ["A12"]


def test_2_45_intelligence_denied_by_romanian_fuel() -> None:
    state = build({0: ["A58", "A12"], 1: ["X13", "X55"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A58", "done", "play X13", "play X55", "done", "pass", "pass")
    assert state.current_player() == 0 and legal_texts(state) == ["pass"]
    play(state, "pass")
    assert "A58" in zone(state, "discard") and zone(state, "won:1") == ["O05"]


def test_2_45_intelligence_only_in_the_first_round_of_a_battle() -> None:
    state = build({0: ["A12", "A58"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw X14")
    play(state, "play A58", "done", "play X26", "done", "play A34", "done", "play X14", "done")
    assert "A58" in zone(state, "discard")


# ----- 2.46 Admirals -------------------------------------------------------------------------------------------------
def test_2_46_a_admiral_makes_the_engagement_combined_for_all() -> None:
    state = build({0: ["X19", "X53"], 1: ["A01"], 2: [], 3: []}, operation="O05")
    play(state, "type sub", "play X19", "play X53", "admiral combined", "done", "play A01", "done", "pass", "pass")
    # combined: Warspite 7 beats Scirè 4.
    assert zone(state, "won:1") == ["O05"]


def test_2_46_b_admiral_lets_his_player_play_two_force_cards() -> None:
    state = build({0: ["A12", "A59", "A01", "A03"], 1: ["X01"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A12")
    assert not is_legal(state, "play A01")
    play(state, "play A59", "admiral two", "play A01")
    assert "1.4 C" in refused(state, "play A03")
    play(state, "done", "play X01", "done", "pass", "pass")
    assert zone(state, "won:0") == ["O05"] and zone(state, "captured:0") == ["X01"]


def test_2_46_admiral_is_played_in_addition_to_a_force_card() -> None:
    state = build({0: ["A12", "A59"]}, operation="O05")
    play(state, "type surface")
    assert "2.46" in refused(state, "play A59")


def test_2_46_admiral_in_a_battle_gives_two_force_cards() -> None:
    state = build({0: ["A12", "A59", "A01"]}, operation="O03")
    play(state, "play A12", "play A59")
    assert is_legal(state, "play A01") and state.position()["phase"] == "play"


# ----- 2.47 Explosion (S03) ------------------------------------------------------------------------------------------
def test_2_47_explosion_below_7_destroys_the_right_neighbours_force_card() -> None:
    state = build({1: ["X13"], 2: ["A12", "S03"], 3: []}, operation="O05")
    play(state, "type surface", "pass", "play X13", "done", "play A12", "play S03", "done", "pass")
    play(state, "roll 2", "roll 3")
    assert zone(state, "captured:2") == ["X13"] and zone(state, "won:2") == ["O05"]


def test_2_47_explosion_above_7_destroys_the_left_neighbours_force_card() -> None:
    state = build({1: ["X13"], 2: ["A12", "S03"], 3: ["X14"]}, operation="O05")
    play(state, "type surface", "pass", "play X13", "done", "play A12", "play S03", "done", "play X14", "done")
    play(state, "roll 5", "roll 4")
    assert "X14" in zone(state, "captured:2")


def test_2_47_explosion_on_7_sinks_one_of_your_own_cards() -> None:
    state = build({1: ["X13"], 2: ["A12", "S03"], 3: []}, operation="O05")
    play(state, "type surface", "pass", "play X13", "done", "play A12", "play S03", "done", "pass")
    play(state, "roll 3", "roll 4")
    assert zone(state, "sunk") == ["A12"] and zone(state, "won:1") == ["O05"]


def test_2_47_explosion_only_affects_the_force_card_of_its_round() -> None:
    state = build({0: ["A12", "S03"], 1: ["X01"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X01", "done", "pass", "pass")
    play(state, "draw A31", "draw X14", "draw X26", "draw X02")
    play(state, "play S03", "done", "play X14", "done", "play X26", "done", "play X02", "done")
    play(state, "roll 6", "roll 6")  # left neighbour (seat 1): his 2nd-round card, not Littorio
    assert zone(state, "captured:0") == ["X14"]
    assert zone(state, "won:1") == ["O03"] and "X01" in zone(state, "discard")


# ----- 2.48 Bomb alley (S06) and O32 -----------------------------------------------------------------------------------
def test_2_48_bomb_alley_on_o32_doubles_then_adds_one() -> None:
    state = build({0: ["A34", "A49", "S06"], 1: ["X27"], 2: [], 3: []}, operation="O32")
    play(state, "type air", "play A34", "play A49", "play S06")
    assert legal_texts(state) == ["select A34"]
    play(state, "select A34", "done", "play X27", "done", "pass", "pass")
    assert state.entry_values[0] == 7  # (Wellingtons 2 + Bonus 1) x 2 + 1
    assert state.entry_values[3] == 5  # Macchi 4 + 1
    assert zone(state, "won:0") == ["O32"]


def test_o32_adds_one_to_every_air_value_including_bonus_cards() -> None:
    state = build({0: ["A34", "A49"], 1: ["X27"], 2: [], 3: []}, operation="O32")
    play(state, "type air", "play A34", "play A49", "done", "play X27", "done", "pass", "pass")
    assert state.entry_values[0] == 5  # 2 + 1 + (1 + 1)
    assert state.entry_values[2] == 5


def test_o32_bonus_only_when_air_values_count() -> None:
    state = build({0: ["A34"], 1: ["X13"], 2: [], 3: []}, operation="O32")
    play(state, "type surface", "play A34", "done", "play X13", "done", "pass", "pass")
    assert state.entry_values[0] == 1


def test_s06_bomb_alley_turns_a_question_mark_into_two_dice() -> None:
    state = build({0: ["A33", "S06"], 1: ["X27"], 2: [], 3: []}, operation="O23")  # Beauforts: Air ?
    play(state, "type air", "play A33", "play S06", "select A33", "done", "play X27", "done", "pass", "pass")
    assert state.action_to_string(state.legal_actions()[0]) == "roll 1"
    play(state, "roll 2", "roll 3")
    assert state.entry_values[0] == 5


# ----- S02 Lost, S04 Fog, S05 Night action, S07 Shallows ---------------------------------------------------------------
def test_s02_lost_exchanges_two_cards_at_random_with_two_players() -> None:
    state = build({0: ["S02", "A12", "A31", "A34"], 1: ["X13", "X26"], 2: ["X14"], 3: []}, operation="O05")
    play(state, "type surface", "play S02")
    assert legal_texts(state) == ["select A12", "select A31", "select A34"]
    play(state, "select A12", "select A31")
    assert legal_texts(state) == ["seat 1", "seat 2"]
    play(state, "seat 1", "seat 2")
    assert state.current_player() == CHANCE
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == ["draw X13", "draw X26"]
    play(state, "draw X26", "draw X14")
    assert zone(state, "hand:0") == ["A34", "X14", "X26"]
    assert zone(state, "hand:1") == ["A12", "X13"] and zone(state, "hand:2") == ["A31"]
    assert state.observe(0)["known_in_hands"][1] == ["A12"]
    assert "S02" in zone(state, "discard") and state.position()["phase"] == "play"


def test_s04_fog_cancels_one_bonus_card() -> None:
    state = build({0: ["A12", "A46"], 1: ["X13", "S04"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A12", "play A46", "done", "play X13", "play S04", "select A46", "done",
         "pass", "pass")
    assert "A46" in zone(state, "discard")
    # 3 = 3 without the Radar; Fog stays under the Operation with the Force cards (3.4 Tie).
    assert zone(state, "under") == ["A12", "S04", "X13"]


def test_s04_fog_needs_a_bonus_in_play() -> None:
    state = build({0: ["S04", "A12"]}, operation="O05")
    play(state, "type surface")
    assert "S04" in refused(state, "play S04")


def test_s05_night_action_lets_the_second_round_change_sides() -> None:
    state = build({0: ["A12", "S05", "X05"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    assert "S05" in refused(state, "play S05")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw A47")
    play(state, "play S05", "play X05", "done", "play X26", "done", "play A34", "done", "play A47", "done")
    # X05 fights for the Axis: 4 + 5 + 3 = 12 against 4 + 4 (Asdic has no Force card: discarded). Conte di
    # Cavour is the Axis' highest card, so seat 0 takes the trick, with his own round-1 York.
    assert zone(state, "won:0") == ["O03"] and zone(state, "captured:0") == ["A12", "A34"]


def test_s05_without_night_action_the_other_side_is_discarded() -> None:
    state = build({0: ["A12", "X05"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw A47")
    play(state, "play X05", "done", "play X26", "done", "play A34", "done", "play A47", "done")
    # X05 is discarded at the reveal: the Allies win 8 to 7 and York (first played) takes the trick.
    assert zone(state, "won:0") == ["O03"] and zone(state, "captured:0") == ["X13", "X26"]


def test_s07_shallows_discards_submarines_and_bars_later_periscope_cards() -> None:
    state = build({0: ["X19"], 1: ["A34", "S07"], 2: ["X22"], 3: []}, operation="O05")
    play(state, "type sub", "play X19", "done", "play A34", "play S07", "done")
    assert "X19" in zone(state, "discard")
    assert "S07" in refused(state, "play X22")
    play(state, "discard X22", "pass")
    assert zone(state, "won:1") == ["O05"]


def test_s07_shallows_not_in_a_battles_second_round() -> None:
    state = build({0: ["A12", "S07", "A31"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A34", "draw X26", "draw A48", "draw X14")
    assert not is_legal(state, "play S07")
