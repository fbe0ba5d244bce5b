"""3.0–3.4: Convoys, Battles, Victims of Destiny and the outcome of an Engagement."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.games.med_sirocco.helpers import build, is_legal, legal_texts, play, settle, zone

import warcards
from warcards.engine.api import CHANCE
from warcards.engine.errors import IllegalActionError
from warcards.games.med_sirocco import codes, rules
from warcards.games.med_sirocco.cards import DEFAULT_CARDS


def refused(state, text: str) -> str:  # type: ignore[no-untyped-def]
    before = state.fingerprint()
    with pytest.raises(IllegalActionError) as info:
        play(state, text)
    assert state.fingerprint() == before
    return str(info.value)


# ----- 3.1 Convoy -------------------------------------------------------------------------------------------------
def test_3_1_convoy_is_one_round_and_playing_is_optional() -> None:
    state = build({0: ["A31"], 1: ["X26"], 2: ["A34"], 3: ["X13"]}, operation="O05")
    play(state, "type air", "play A31", "done")
    assert "discard X26" in legal_texts(state) and "discard all" in legal_texts(state)
    play(state, "discard X26", "discard A34", "discard X13")
    assert zone(state, "won:0") == ["O05"]


def test_3_1_the_year_refuses_a_force_card_of_another_year() -> None:
    state = build({0: ["A12", "A34"]}, operation="O23")  # M43, 1942
    play(state, "type surface")
    assert not is_legal(state, "play A12")
    message = refused(state, "play A12")
    assert message == "3.1 The year: A12 HMS York is playable in 1940, 1941; this Operation is 1942"


def test_3_1_only_the_declared_type_counts() -> None:
    # Air: Hurricanes 3 beats Littorio 2 (Littorio's Surface 5 does not count).
    state = build({0: ["A31"], 1: ["X01"]}, operation="O05")
    play(state, "type air", "play A31", "done", "play X01", "done", "pass", "pass")
    assert zone(state, "won:0") == ["O05"] and zone(state, "captured:0") == ["X01"]


def test_3_1_combined_adds_the_three_values() -> None:
    # Combined: Hurricanes 3 loses to Littorio 2 + 5.
    state = build({0: ["A31"], 1: ["X01"]}, operation="O05")
    play(state, "type combined", "play A31", "done", "play X01", "done", "pass", "pass")
    assert zone(state, "won:1") == ["O05"] and zone(state, "captured:1") == ["A31"]


def test_3_1_invalid_face_up_card_refused_before_it_is_played() -> None:
    state = build({0: ["A12", "X13"]}, operation="O05")
    play(state, "type surface", "play A12")
    message = refused(state, "play X13")
    assert "3.1/3.2" in message
    assert zone(state, "hand:0") == ["X13"]


# ----- 3.2 Battle -------------------------------------------------------------------------------------------------
def test_3_2_battle_first_round_compulsory_face_up() -> None:
    state = build({0: ["A12", "A31"]}, operation="O03")  # Calabria, 1940
    assert legal_texts(state) == ["play A12", "play A31"]
    message = refused(state, "discard A12")
    assert "3.2" in message


def test_3_2_only_invalid_cards_in_round_1_discard_all_and_sit_out() -> None:
    state = build({0: ["A12"], 1: ["X39", "X40"], 2: ["A31"], 3: ["X13"]}, operation="O03")
    play(state, "play A12", "done")
    assert legal_texts(state) == ["discard all"]  # II. Fliegerkorps and He 111 are 1942–43 cards
    play(state, "discard all", "play A31", "done", "play X13", "done")
    assert state.current_player() == CHANCE
    assert state.draw_queue == [0, 1, 2, 3]  # 3.2: each player draws one card, from the 1st player
    play(state, "draw A34", "draw X26", "draw A48", "draw X44")
    assert state.current_player() == 0
    play(state, "play A34", "done")
    assert state.current_player() == 2  # seat 1 does not take part in this Engagement


def test_3_2_second_round_face_down_then_revealed_together() -> None:
    state = build({0: ["A12", "A01"], 1: ["X13", "X01"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw X14")
    play(state, "play A01", "done")
    seen = state.observe(1)["plays"]
    assert {"seat": 0, "card": None, "face_down": True, "round": 2, "on": None} in seen
    assert any(p["card"] == "A01" for p in state.observe(0)["plays"])
    play(state, "play X01", "done", "play A34", "done", "play X14", "done")
    # Allies A12 4 + A01 7 + A34 4 = 15; Axis X13 4 + X01 7 + X14 5 = 16.
    assert zone(state, "won:1") == ["O03"]
    assert zone(state, "captured:1") == ["A01", "A12", "A34"]


def test_3_2_invalid_face_down_card_discarded_at_the_reveal() -> None:
    state = build({0: ["A12", "A32"], 1: ["X13", "X05"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw X14")
    # A32 Spitfires are a 1942–43 card: accepted face down, discarded at the reveal.
    assert is_legal(state, "play A32")
    play(state, "play A32", "done", "play X05", "done", "play A34", "done", "play X14", "done")
    # Allies: York 4 (A32 discarded) + Wellingtons 4 = 8; Axis: 4 + 5 + 5 = 14.
    assert zone(state, "won:1") == ["O03"]
    assert "A32" in zone(state, "discard") and "A32" not in zone(state, "captured:1")


def test_3_2_second_round_with_only_invalid_cards_plays_any_card_face_down() -> None:
    state = build({0: ["A12", "X40"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A39", "draw X26", "draw A34", "draw X14")
    assert "play X40" in legal_texts(state) and "discard X40" not in legal_texts(state)


def test_3_2_a_battle_is_always_combined() -> None:
    state = build({0: ["A12"]}, operation="O03")
    assert state.position()["engagement_type"] == "combined"
    assert state.position()["phase"] == "turn"


def test_3_2_sides_kept_over_both_rounds() -> None:
    state = build({0: ["A12", "X01"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw X14")
    play(state, "play X01", "done", "play X26", "done", "play A34", "done", "play X14", "done")
    # X01 (Axis) by an Allied player is discarded at the reveal; 4 + 4 vs 4 + 3 + 5: the Axis win, and
    # Navigatori (5) is the highest card.
    assert "X01" in zone(state, "discard") and zone(state, "won:3") == ["O03"]


def test_3_2_storm_cards_face_up_in_the_second_round() -> None:
    state = build({0: ["A12", "A31", "S01"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A34", "draw X26", "draw A48", "draw X14")
    play(state, "play A31", "play S01")
    plays = state.observe(1)["plays"]
    assert {"seat": 0, "card": "S01", "face_down": False, "round": 2, "on": None} in plays


# ----- 3.3 Victims of Destiny ------------------------------------------------------------------------------------
def test_3_3_destiny_card_played_after_its_victim_destroys_it() -> None:
    state = build({0: ["X05"], 1: ["A29"], 2: [], 3: []}, operation="O05")
    play(state, "type air", "play X05", "done", "play A29", "done")
    assert zone(state, "captured:1") == ["X05"]
    assert zone(state, "play:0") == []


def test_3_3_destiny_card_played_before_its_victim_has_no_effect() -> None:
    state = build({0: ["A29"], 1: ["X05"], 2: [], 3: []}, operation="O05")
    play(state, "type air", "play A29", "done", "play X05", "done")
    assert zone(state, "play:1") == ["X05"] and zone(state, "captured:0") == []


def test_3_3_battle_victim_destroyed_whatever_the_order() -> None:
    state = build({0: ["A29"], 1: ["X05"], 2: [], 3: []}, operation="O03")
    play(state, "play A29", "done", "play X05", "done")
    assert zone(state, "captured:0") == ["X05"]


def test_3_3_battle_face_down_victim_destroyed_at_the_reveal() -> None:
    state = build({0: ["A12", "A29"], 1: ["X13", "X05"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw X14")
    play(state, "play A29", "done", "play X05", "done")
    assert zone(state, "captured:0") == []
    play(state, "play A34", "done", "play X14", "done")
    assert "X05" in zone(state, "captured:0")


def test_3_3_the_victims_bonus_card_is_discarded() -> None:
    state = build({0: ["X05", "X44"], 1: ["A29"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play X05", "play X44", "done", "play A29", "done")
    assert zone(state, "captured:1") == ["X05"] and "X44" in zone(state, "discard")


def test_3_3_destiny_destroys_a_zero_value_victim() -> None:
    state = build({0: ["X05"], 1: ["A29"], 2: [], 3: []}, operation="O05")
    play(state, "type sub", "play X05", "done", "play A29", "done")  # Conte di Cavour: Sub 0
    assert zone(state, "captured:1") == ["X05"]


def test_3_3_operation_victim_doubles_the_destiny_cards_value() -> None:
    # Force K (1/4/1) on the Duisburg convoy: 12 in combined, beating Littorio's 7.
    state = build({0: ["A35"], 1: ["X01"], 2: [], 3: []}, operation="O18")
    play(state, "type combined", "play A35", "done", "play X01", "done", "pass", "pass")
    assert zone(state, "won:0") == ["O18"]
    other = build({0: ["A35"], 1: ["X01"], 2: [], 3: []}, operation="O14")  # not its victim: 6 < 7
    play(other, "type combined", "play A35", "done", "play X01", "done", "pass", "pass")
    assert zone(other, "won:1") == ["O14"]


def test_3_3_operation_victim_doubles_the_roll_not_the_bonus(tmp_path: Path) -> None:
    text = DEFAULT_CARDS.read_text()
    old = 'name = "HMS Upholder", side = "allies", nation = "british", kind = "force", frame = "sub", air = 0, ' \
          'surface = 1, sub = 3'
    assert old in text
    deck = tmp_path / "deck.toml"
    deck.write_text(text.replace(old, old[:-1] + '"?"'))
    g = warcards.load_game("med-sirocco", players=4, cards=str(deck))
    state = g.state_from_setup({"zones": {"hand:0": ["A24", "A47"], "hand:1": ["X29", "X19"], "hand:2": [],
                                          "hand:3": [], "pile": "rest"},
                                "position": {"operation": "O16"}})
    play(state, "type sub", "play A24", "play A47", "done", "play X29", "done", "pass", "pass", "roll 3")
    # Upholder: roll 3 doubled = 6, plus Asdic's 2 (not doubled) = 8 against U-331's 4.
    assert state.entry_values[0] == 8
    assert zone(state, "won:0") == ["O16"]


def test_3_3_cards_under_the_operation_are_safe_from_destiny() -> None:
    state = build({0: ["X05"], 1: ["A03"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play X05", "done", "play A03", "done", "pass", "pass")  # 4 = 4: replay
    assert zone(state, "under") == ["A03", "X05"]
    play(state, "draw A29")  # seat 1, the new 1st player, draws first
    settle(state)
    play(state, "play A29", "done")
    assert zone(state, "captured:1") == [] and "X05" in zone(state, "under")


# ----- 3.4 Outcome -------------------------------------------------------------------------------------------------
def test_3_4_dice_are_rolled_only_after_all_plays() -> None:
    state = build({0: ["A04"], 1: ["X13"], 2: [], 3: []}, operation="O09")  # Excess 1941; Nelson ?
    play(state, "type surface", "play A04", "done")
    assert state.current_player() == 1
    play(state, "play X13", "done", "pass", "pass")
    assert state.current_player() == CHANCE and state.action_to_string(state.legal_actions()[0]) == "roll 1"
    play(state, "roll 6")
    assert zone(state, "won:0") == ["O09"]


def test_3_4_two_question_marks_roll_two_dice() -> None:
    state = build({0: ["A28"], 1: ["X29"], 2: [], 3: []}, operation="O09")  # 10th Flotilla: Sub ??
    play(state, "type sub", "play A28", "done", "play X29", "done", "pass", "pass", "roll 1", "roll 2")
    assert zone(state, "won:1") == ["O09"]  # 1 + 2 = 3 < 4


def test_3_4_question_mark_outside_the_declared_type_is_not_rolled() -> None:
    state = build({0: ["A04"], 1: ["X13"], 2: [], 3: []}, operation="O09")
    play(state, "type air", "play A04", "done", "play X13", "done", "pass", "pass")
    assert zone(state, "won:0") == ["O09"]  # air 2 v 1, no die


def test_3_4_losing_force_and_supply_destroyed_bonus_and_specials_discarded() -> None:
    state = build({0: ["A01", "A46"], 1: ["X13", "X44", "X51"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A01", "play A46", "done", "play X13", "play X44", "play X51", "done",
         "pass", "pass")
    assert zone(state, "captured:0") == ["X13", "X51"]
    assert set(zone(state, "discard")) >= {"A01", "A46", "X44"}


def test_3_4_trick_to_the_highest_single_card_of_the_winning_side() -> None:
    state = build({0: ["A12"], 1: ["X13"], 2: ["A01"], 3: []}, operation="O05")
    play(state, "type surface", "play A12", "done", "play X13", "done", "play A01", "done", "pass")
    assert zone(state, "won:2") == ["O05"] and zone(state, "captured:2") == ["X13"]


def test_3_4_tie_for_the_highest_card_goes_to_the_earliest_player() -> None:
    state = build({0: ["A02"], 1: ["X14"], 2: ["A03"], 3: []}, operation="O05", first=2)
    # Barham (seat 2) and Valiant & Queen Elizabeth (seat 0) both have Surface 4; seat 2 played first.
    play(state, "type surface", "play A03", "done", "pass", "play A02", "done", "play X14", "done")
    assert zone(state, "won:2") == ["O05"] and zone(state, "captured:2") == ["X14"]


def test_3_4_bonus_counts_toward_the_highest_card() -> None:
    state = build({0: ["A12", "A50"], 1: ["X14"], 2: ["A03"], 3: []}, operation="O05")
    # York 3 + Night training 2 = 5 beats Barham's 4 for the trick.
    play(state, "type surface", "play A12", "play A50", "done", "play X14", "done", "play A03", "done", "pass")
    assert zone(state, "won:0") == ["O05"]


def test_3_4_draw_replayed_with_cards_under_the_operation_and_a_new_first_player() -> None:
    state = build({0: ["A12"], 1: ["X13"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A12", "done", "play X13", "done", "pass", "pass")
    assert zone(state, "under") == ["A12", "X13"] and state.first_player == 1
    assert state.draw_queue[:6] == [1] * 6  # the new 1st player draws first
    settle(state)
    assert state.current_player() == 1 and state.position()["engagement_type"] == "surface"
    assert state.position()["sides"] == [None, None, None, None]  # sides may change


def test_3_4_winner_of_a_replay_takes_the_losing_cards_of_every_round() -> None:
    state = build({0: ["A12", "A01"], 1: ["X13"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A12", "done", "play X13", "done", "pass", "pass")
    settle(state)
    assert state.current_player() == 1
    play(state, "discard all", "discard all", "discard all", "play A01", "done")
    assert zone(state, "won:0") == ["O05"] and zone(state, "captured:0") == ["X13"]
    assert "A12" in zone(state, "discard")


def test_3_4_tie_played_cards_stay_under_the_operation_until_the_engagement_ends() -> None:
    # 3 players, O16 Sub: P1 A24 (Destiny on O16: Sub 3 doubled) with the Bonus A51 (+1) = 7, P2 X29 (4) and
    # P3 X21 (3) = 7: a draw. 3.4 Tie: "the cards that have already been played are placed under the
    # Operation card"; at the end "The winner takes ... the Force/Supply cards of the losing side ... and
    # discards the other cards (i.e. any Bonus, Storm and Special cards)".
    state = build({0: ["A24", "A51", "A42"], 1: ["X29"], 2: ["X21"]}, players=3, operation="O16")
    play(state, "type sub", "play A24", "play A51", "done", "play X29", "done", "play X21", "done")
    assert state.log[-2:] == [(codes.EV_TOTALS, 7, 7), (codes.EV_DRAW, -1, state.table.index["O16"])]
    assert zone(state, "under") == ["A24", "A51", "X21", "X29"]
    assert zone(state, "discard") == []
    settle(state)
    assert state.current_player() == 1 and state.observe(2)["under_operation"] == ["A24", "A51", "X29", "X21"]
    # The replay: A51 under the Operation adds nothing; A42's Sub 3 alone wins it.
    play(state, "discard all", "discard all", "play A42", "done")
    assert zone(state, "won:0") == ["O16"] and zone(state, "captured:0") == ["X21", "X29"]
    assert {"A24", "A51", "A42"} <= set(zone(state, "discard")) and zone(state, "under") == []


def test_3_4_tie_special_and_storm_cards_stay_under_the_operation_and_no_longer_act() -> None:
    # An Admiral (Special, option B) and Bomb alley (Storm) of a drawn round stay under the Operation with
    # the Force and Bonus cards; in the replay the Admiral's two Force cards are gone (one Force card per
    # play again) and the cards under the Operation are discarded at the end.
    state = build({0: ["A24", "A59", "A51", "A42", "A45"], 1: ["X29"], 2: ["X21", "S06"]}, players=3,
                  operation="O16")
    play(state, "type sub", "play A24", "play A59", "admiral two", "play A51", "done", "play X29", "done",
         "play X21", "play S06", "select X21", "done")
    assert zone(state, "under") == ["A24", "A51", "A59", "S06", "X21", "X29"]
    assert zone(state, "discard") == []
    settle(state)
    play(state, "discard all", "discard all", "play A42")
    assert not is_legal(state, "play A45")
    play(state, "done")
    assert zone(state, "won:0") == ["O16"] and zone(state, "captured:0") == ["X21", "X29"]
    assert {"A24", "A51", "A59", "S06", "A42"} <= set(zone(state, "discard"))


def test_3_4_tie_a_passed_sirocco_not_yet_used_stays_under_the_operation() -> None:
    # 2.44 "The Sirocco card is discarded at the end of the Engagement": held by a player when a round is
    # drawn (play never leaves it held that late; the draw is called directly), it goes under the Operation.
    state = build({0: ["A12"], 1: ["X13"], 2: [], 3: []}, operation="O05",
                  zones={"hand:1": ["X13", "S01"]})
    play(state, "type surface", "play A12", "done")
    state.hands[1].remove(state.table.index["S01"])
    state.sirocco_holder = 1
    rules.draw(state)
    assert zone(state, "under") == ["A12", "S01"] and zone(state, "sirocco") == []
    assert "S01" not in zone(state, "discard")


def test_3_4_no_combat_discards_the_operation_and_the_cards_under_it() -> None:
    state = build({0: ["A12"], 1: ["X13"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A12", "done", "play X13", "done", "pass", "pass")
    settle(state)
    seat = state.current_player()
    assert seat == 1
    for _ in range(4):
        p = state.current_player()
        play(state, "discard all" if state.hands[p] else "pass")
    assert zone(state, "operations:out") == ["O05"]
    assert {"A12", "X13"} <= set(zone(state, "discard")) and zone(state, "under") == []


def test_3_4_supply_applied_at_the_very_end() -> None:
    state = build({0: ["A12", "A56", "A01"], 1: ["X13"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A12", "play A56", "done", "play X13", "done", "pass", "pass")
    assert zone(state, "under") == ["A12", "A56", "X13"]
    settle(state)
    play(state, "discard all", "discard all", "discard all", "play A01", "done")
    assert state.position()["phase"] == "supply" and state.current_player() == 0
    assert legal_texts(state) == ["select A01", "select A12", "pass"]
    play(state, "select A12")
    assert "A12" in zone(state, "hand:0") and "A56" in zone(state, "discard")
    assert zone(state, "captured:0") == ["X13"]


def test_3_4_combined_rolls_one_die_per_question_mark_per_value(tmp_path: Path) -> None:
    text = DEFAULT_CARDS.read_text()
    old = 'name = "Beauforts", side = "allies", nation = "british", kind = "force", frame = "air", air = "?", ' \
          'surface = 1, sub = 1'
    assert old in text
    deck = tmp_path / "deck.toml"
    deck.write_text(text.replace(old, old[:-1] + '"??"'))
    g = warcards.load_game("med-sirocco", players=4, cards=str(deck))
    state = g.state_from_setup({"zones": {"hand:0": ["A33"], "hand:1": ["X01"], "hand:2": [], "hand:3": [],
                                          "pile": "rest"}, "position": {"operation": "O09"}})
    play(state, "type combined", "play A33", "done", "play X01", "done", "pass", "pass")
    rolls = 0
    while state.current_player() == CHANCE and state.action_to_string(state.legal_actions()[0]) == "roll 1":
        play(state, "roll 2")
        rolls += 1
    assert rolls == 3  # Air '?' and Sub '??': three dice; 2 + 1 + 2 + 2 = 7 = Littorio's 7
    assert zone(state, "under") == ["A33", "X01"]
