"""The core rules of Cards of War, one test per clause, named after the rule text's sections."""

from __future__ import annotations

import pytest

from warcards.engine.api import CHANCE
from warcards.engine.errors import IllegalActionError

from .helpers import fresh_state, hand, legal_texts, play, settle, setup

H0 = ["G02", "G03", "G04", "G05", "G06", "G07", "G08", "G09"]
H1 = ["S02", "S03", "S05", "S06", "S07", "S08", "S10", "S13"]


# ----- SETUP ----------------------------------------------------------------------------------------------
def test_setup_highest_drawn_score_goes_first_and_the_cards_go_back() -> None:
    state = fresh_state()
    play(state, "draw G01", "draw S01")  # Pillbox scores 2, Battleship 6
    assert state.position()["first_player"] == 1
    assert len(state.zones()["draw"]) == 52
    settle(state)
    assert state.current_player() == 1
    assert len(hand(state, 0)) == 8 and len(hand(state, 1)) == 8
    assert len(state.zones()["draw"]) == 36


def test_setup_first_draw_tie_sets_both_aside_and_draws_again() -> None:
    state = fresh_state()
    play(state, "draw G02", "draw G03")  # Infantry 3 and Infantry 3
    assert state.zones()["first_draw:tied"] == ["G02", "G03"]
    assert state.current_player() == CHANCE and state.position()["phase"] == "first_draw"
    play(state, "draw S01", "draw G01")
    assert state.position()["first_player"] == 0
    assert state.zones()["first_draw:tied"] == [] and len(state.zones()["draw"]) == 52


def test_setup_eight_card_hands_one_common_deck_three_battles_each() -> None:
    state = settle(play(fresh_state(), "draw S01", "draw G01"))
    zones = state.zones()
    assert len(zones["hand:0"]) == len(zones["hand:1"]) == 8
    assert set(zones) >= {"draw", "discard"} and "draw:0" not in zones
    assert sorted(z for z in zones if z.startswith("battle:")) == sorted(
        f"battle:{seat}:{b}" for seat in (0, 1) for b in ("left", "centre", "right"))


# ----- PLAYING A ROUND -------------------------------------------------------------------------------------
def test_playing_a_round_deploy_one_card_face_up_then_refill_to_8() -> None:
    state = setup({"hand:0": H0, "hand:1": H1})
    play(state, "deploy G06 left")
    assert state.zones()["battle:0:left"] == ["G06"]
    assert state.observe(1)["battles"][0]["piles"][0] == ["G06"]
    assert len(hand(state, 0)) == 7 and state.current_player() == CHANCE
    play(state, "draw A01")
    assert "A01" in hand(state, 0) and len(hand(state, 0)) == 8
    assert state.current_player() == 1


def test_playing_a_round_pile_down_to_one_card_is_shuffled_into_the_discards() -> None:
    state = setup({"hand:0": H0, "hand:1": H1, "draw": ["A01", "A02"], "discard": "rest"})
    discards = len(state.zones()["discard"])
    play(state, "deploy G06 left", "draw A01")
    zones = state.zones()
    assert zones["discard"] == []
    assert "A02" in zones["draw"] and len(zones["draw"]) == discards + 1


def test_playing_a_round_a_player_with_an_empty_hand_passes() -> None:
    state = setup({"hand:0": [], "hand:1": H1, "draw": [], "discard": []} | {"won:0:left": "rest"})
    assert legal_texts(state) == ["pass"]
    with pytest.raises(IllegalActionError, match="not in your hand"):
        state.apply_action(state.parse_action("deploy G06 centre"))
    play(state, "pass")
    assert state.current_player() == 1


# ----- SPECIAL ABILITIES 1) KILL -----------------------------------------------------------------------------
def test_1_kill_pillbox_kills_infantry_on_top_and_goes_into_that_battle() -> None:
    state = setup({"hand:0": ["G01", *H0[1:]], "hand:1": H1, "battle:1:left": ["G02"]}, {"player": 0})
    assert state.position()["totals"][1][0] == 3
    play(state, "deploy G01 left")
    zones = state.zones()
    assert zones["battle:1:left"] == [] and zones["discard"] == ["G02"]
    assert zones["battle:0:left"] == ["G01"]
    assert state.position()["totals"] == [[2, 0, 0], [0, 0, 0]]
    assert state.position()["kills"] == [1, 0]


def test_1_kill_only_the_top_card_can_be_killed() -> None:
    state = setup({"hand:0": ["G01", *H0[1:]], "hand:1": H1, "battle:1:left": ["G02", "G13"]})
    play(state, "deploy G01 left")
    assert state.zones()["battle:1:left"] == ["G02", "G13"]


def test_1_kill_radar_belongs_to_all_groups() -> None:
    for killer, letter in (("G01", "I"), ("G07", "A"), ("S07", "S"), ("A01", "B")):
        hand0 = [killer, *(c for c in H0 if c != killer)][:8]
        state = setup({"hand:0": hand0, "hand:1": ["I02"], "battle:1:centre": ["I01"]})
        play(state, f"deploy {killer} centre")
        assert state.zones()["battle:1:centre"] == [], letter
        assert state.zones()["discard"] == ["I01"]


def test_1_kill_is_automatic_and_kills_once_with_several_letters() -> None:
    # Ground Attack kills A and I: only the Tank on top dies, not the Infantry below it.
    state = setup({"hand:0": ["A12"], "hand:1": H1, "battle:1:left": ["G02", "G04"]})
    assert len([a for a in state.legal_actions() if state.action_to_string(a).endswith("left")]) == 1
    play(state, "deploy A12 left")
    assert state.zones()["battle:1:left"] == ["G02"]
    assert state.zones()["discard"] == ["G04"]


def test_1_kill_never_hits_the_players_own_cards() -> None:
    state = setup({"hand:0": ["G01", *H0[1:]], "hand:1": H1, "battle:0:left": ["G02"]})
    play(state, "deploy G01 left")
    assert state.zones()["battle:0:left"] == ["G02", "G01"]


# ----- SPECIAL ABILITIES 2) REINFORCE -----------------------------------------------------------------------
def test_2_reinforce_draws_a_card_then_deploys_any_card_and_refills_once() -> None:
    state = setup({"hand:0": ["A09", *H0[1:]], "hand:1": H1})
    play(state, "deploy A09 left")
    assert state.current_player() == CHANCE and state.position()["phase"] == "reinforce_draw"
    play(state, "draw A04")
    assert state.current_player() == 0 and state.position()["phase"] == "reinforce"
    assert len(hand(state, 0)) == 8
    assert "deploy G03 (Infantry) right" in legal_texts(state)
    play(state, "deploy G03 right")
    assert len(hand(state, 0)) == 7 and state.position()["phase"] == "refill"
    play(state, "draw A01")
    assert len(hand(state, 0)) == 8 and state.current_player() == 1


def test_2_reinforce_the_extra_cards_ability_works_as_normal() -> None:
    state = setup({"hand:0": ["A09", "G01", "S12"], "hand:1": H1, "battle:1:centre": ["G02"]})
    play(state, "deploy A09 left", "draw A01", "deploy G01 centre")
    assert state.zones()["discard"] == ["G02"]  # the Pillbox's KILL worked
    state = setup({"hand:0": ["A09", "S12", "G02"], "hand:1": H1})
    play(state, "deploy A09 left", "draw A01", "deploy S12 left")  # Convoy is a REINFORCE too: it chains
    assert state.position()["phase"] == "reinforce_draw"
    play(state, "draw A02", "deploy G02 right")
    assert state.position()["phase"] == "refill"


# ----- SPECIAL ABILITIES 3) RECON --------------------------------------------------------------------------
def test_3_recon_the_opponent_states_the_theatres_of_the_hand_publicly() -> None:
    hand1 = ["A01", "A02", "S01", "S02", "S03", "G02", "G03", "I11"]
    state = setup({"hand:0": ["A10", "G04", "G05", "G06", "G07", "G08", "G09", "G10"], "hand:1": hand1})
    play(state, "deploy A10 left")
    expected = [{"round": 1, "by": 0, "of": 1, "counts": {"air": 2, "sea": 3, "ground": 2, "intel": 1}}]
    assert state.observe(0)["recon"] == expected
    assert state.observe(1)["recon"] == expected


# ----- WINNING A BATTLE -------------------------------------------------------------------------------------
def test_winning_a_battle_first_to_15_loser_discarded_winner_face_down() -> None:
    state = setup({"hand:0": ["A06", "G02", "G03"], "hand:1": ["S02", "S03"], "battle:0:left": ["G13", "S09"],
               "battle:1:left": ["S13"]})
    play(state, "deploy A06 left")  # 5 + 5 + 5 = 15
    zones = state.zones()
    assert zones["won:0:left"] == ["G13", "S09", "A06"] and zones["battle:0:left"] == []
    assert zones["battle:1:left"] == [] and zones["discard"] == ["S13"]
    assert state.position()["battle_winners"] == [0, None, None]


def test_winning_a_battle_closes_it_to_further_deployments() -> None:
    state = setup({"hand:0": H0, "hand:1": H1, "won:1:left": ["A06", "A07", "S09"]})
    assert not any(t.endswith(" left") for t in legal_texts(state))
    with pytest.raises(IllegalActionError, match="left battle is resolved"):
        state.apply_action(state.parse_action("deploy G02 left"))


# ----- WINNING A ROUND / WINNING THE GAME -------------------------------------------------------------------
def _round_point(**position: object) -> dict[str, object]:
    """Seat 0 has won left, seat 1 centre; seat 0 has 10 on the right and deploys a 5 to take the round."""
    return {"won:0:left": ["G06", "S09", "S01"], "won:1:centre": ["A01", "A02", "A03", "A04", "A08"],
            "battle:0:right": ["G13", "I12", "S12"], "battle:1:right": ["G02"], "hand:0": ["I13", "G03", "G04"],
            "hand:1": H1}


def test_winning_a_round_continues_until_all_three_battles_are_resolved() -> None:
    zones = _round_point()
    zones["won:0:centre"], zones["won:1:centre"] = zones["won:1:centre"], []
    state = setup(zones, {"player": 0, "first_player": 1})  # seat 0 has won two battles already
    play(state, "deploy G04 right")  # 10 + 3 = 13: the right battle is still open
    settle(state)
    assert state.position()["round"] == 1 and state.current_player() == 1
    assert state.position()["battle_winners"] == [0, 0, None]


def test_winning_a_round_face_down_cards_discarded_hands_kept_winner_first() -> None:
    zones = _round_point()
    zones["hand:0"] = ["A05", "G03"]  # Long Range Bomber: 4 points
    zones["battle:0:right"] = ["G13", "I12", "S12", "A13"]  # 5 + 4 + 1 + 1 = 11
    state = setup(zones, {"player": 1, "first_player": 1})
    play(state, "deploy S02 right")  # seat 1 plays first, on the right
    settle(state)
    assert state.current_player() == 0
    hand1 = hand(state, 1)
    play(state, "deploy A05 right")  # 11 + 4 = 15
    settle(state)
    position = state.position()
    assert position["round"] == 2 and position["rounds_won"] == [1, 0]
    assert position["first_player"] == 0 and state.current_player() == 0
    assert hand(state, 1) == hand1
    zones_after = state.zones()
    assert all(not cards for name, cards in zones_after.items() if name.startswith(("won:", "battle:")))
    for card in ("G06", "S09", "S01", "A01", "A02", "A08", "A05"):
        assert card in zones_after["discard"] or card in hand(state, 0)
        assert card not in zones_after["draw"]  # not shuffled back at the round's end


def test_winning_the_game_short_game_is_one_round() -> None:
    zones = _round_point()
    zones["hand:0"] = ["A06", "G03"]
    state = setup(zones, {"player": 0}, length="short")
    play(state, "deploy A06 right")
    settle(state)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_winning_the_game_normal_game_ends_at_two_rounds_to_nil() -> None:
    zones = _round_point()
    zones["hand:0"] = ["A06", "G03"]
    state = setup(zones, {"player": 0, "round": 2, "rounds_won": [1, 0]}, length="normal")
    play(state, "deploy A06 right")
    settle(state)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    state = setup(zones, {"player": 0, "round": 2, "rounds_won": [0, 1]}, length="normal")
    play(state, "deploy A06 right")
    settle(state)
    assert not state.is_terminal() and state.position()["round"] == 3


def test_winning_the_game_long_game_until_three_rounds_ahead() -> None:
    zones = _round_point()
    zones["hand:0"] = ["A06", "G03"]
    state = setup(zones, {"player": 0, "round": 3, "rounds_won": [1, 0]}, length="long")
    play(state, "deploy A06 right")
    settle(state)
    assert not state.is_terminal() and state.position()["rounds_won"] == [2, 0]
    state = setup(zones, {"player": 0, "round": 6, "rounds_won": [3, 1]}, length="long")
    play(state, "deploy A06 right")
    settle(state)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


# ----- rulings on the text's gaps (RULES.md) -----------------------------------------------------------------
def test_r5_a_reinforce_that_ends_the_round_lapses_and_the_player_refills() -> None:
    zones = _round_point()
    zones["hand:0"] = ["G12", "G03"]  # Motorised Supply: REINFORCE, 1 point
    zones["battle:0:right"] = ["G13", "I12", "S12", "G11", "A13"]  # 5 + 4 + 1 + 3 + 1 = 14
    state = setup(zones, {"player": 0}, length="normal")
    play(state, "deploy G12 right")  # 15: the third battle is resolved, the round is over
    assert state.position()["phase"] == "refill" and state.position()["pending_reinforce"] == 0
    settle(state)
    assert state.position()["round"] == 2 and len(hand(state, 0)) == 8


def test_r6_a_battle_is_settled_by_the_first_card_before_the_second_lands() -> None:
    state = setup({"hand:0": ["A09", "G03", "G04"], "hand:1": H1, "battle:0:left": ["G13", "S09", "A05"]})
    play(state, "deploy A09 left", "draw A01")  # 5 + 5 + 4 + 2 = 16: won at once, REINFORCE goes on
    assert state.position()["battle_winners"] == [0, None, None]
    assert not any(t.endswith(" left") for t in legal_texts(state))
    play(state, "deploy G03 centre")
    assert state.zones()["battle:0:centre"] == ["G03"]
