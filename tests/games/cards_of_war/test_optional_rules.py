"""The optional rules and the 2-deck version, each a `load_game` option."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

import warcards
from warcards.engine.api import CHANCE
from warcards.engine.errors import IllegalActionError, OptionError
from warcards.games.cards_of_war.params import Numbers

from .helpers import fresh_state, hand, legal_texts, play, settle, setup

H1 = ["S02", "S03", "S05", "S06", "S07", "S08", "S10", "S13"]


# ----- Alternative Reinforce ability -----------------------------------------------------------------------
def test_alternative_reinforce_deploy_the_new_card_or_the_top_discard_only() -> None:
    state = setup({"hand:0": ["A09", "G02", "G03"], "hand:1": H1, "discard": ["G04", "G13"]},
              alternative_reinforce=True)
    play(state, "deploy A09 left", "draw A01")
    texts = legal_texts(state)
    assert texts == [
        "deploy A01 (Fighters) left", "deploy A01 (Fighters) centre", "deploy A01 (Fighters) right",
        "deploy discard (G13 Fortress Line) left", "deploy discard (G13 Fortress Line) centre",
        "deploy discard (G13 Fortress Line) right",
    ]
    with pytest.raises(IllegalActionError, match="newly drawn card or the top card"):
        state.apply_action(state.parse_action("deploy G02 left"))


def test_alternative_reinforce_choosing_the_top_discard_discards_the_new_card() -> None:
    state = setup({"hand:0": ["A09", "G02", "G03"], "hand:1": H1, "discard": ["G04", "G13"]},
              alternative_reinforce=True)
    play(state, "deploy A09 left", "draw A01", "deploy discard centre")
    zones = state.zones()
    assert zones["battle:0:centre"] == ["G13"]
    assert zones["discard"] == ["G04", "A01"]
    assert "A01" not in hand(state, 0)


def test_alternative_reinforce_with_an_empty_discard_only_the_new_card() -> None:
    state = setup({"hand:0": ["A09", "G02"], "hand:1": H1}, alternative_reinforce=True)
    play(state, "deploy A09 left", "draw A01")
    assert {t.split(" (")[0] for t in legal_texts(state)} == {"deploy A01"}


# ----- Theatres of War -------------------------------------------------------------------------------------
def test_theatres_of_war_first_card_fixes_the_theatre_only_it_scores_any_card_kills() -> None:
    state = setup({"hand:0": ["G02", "G03"], "hand:1": ["I10", "I11"]}, {"player": 0}, theatres_of_war=True)
    play(state, "deploy G02 left")
    settle(state)
    assert state.position()["theatres"] == ["ground", None, None]
    play(state, "deploy I11 left")  # War Cabinet is Intel: it may be played here but scores nothing
    settle(state)
    assert state.position()["totals"][1][0] == 0
    play(state, "deploy G03 left")
    settle(state)
    assert state.position()["totals"][0][0] == 6
    play(state, "deploy I10 left")  # Double Agent (Intel, KILL I) kills the Infantry on top all the same
    assert state.zones()["battle:0:left"] == ["G02"]
    assert state.position()["totals"] == [[3, 0, 0], [0, 0, 0]]


def test_theatres_of_war_theatres_reset_each_round() -> None:
    zones = {"won:0:left": ["G06", "S09", "S01"], "won:1:centre": ["A01", "A02", "A03", "A04", "A08"],
             "battle:0:right": ["G13", "G12", "G11", "G05"], "hand:0": ["G04"], "hand:1": H1}
    state = setup(zones, {"player": 0, "theatres": ["sea", "air", "ground"]}, theatres_of_war=True)
    play(state, "deploy G04 right")  # 5 + 1 + 3 + 3, and the Tank's 3 makes 15
    settle(state)
    assert state.position()["round"] == 2 and state.position()["theatres"] == [None, None, None]


# ----- Tactical advantage ----------------------------------------------------------------------------------
def _sweep_point() -> dict[str, object]:
    return {"won:0:left": ["G06", "S09", "S01"], "won:0:centre": ["A01", "A02", "A03", "A04", "A08"],
            "battle:0:right": ["G13", "I12", "S12"], "battle:1:right": ["G02"], "hand:0": ["A06", "G03"],
            "hand:1": H1}


def test_tactical_advantage_winning_all_three_battles_gives_a_9_card_hand_next_round() -> None:
    state = setup(_sweep_point(), {"player": 0}, tactical_advantage=True)
    play(state, "deploy A06 right")
    settle(state)
    assert state.position()["round"] == 2 and state.position()["hand_limits"] == [9, 8]
    assert len(hand(state, 0)) == 9 and len(hand(state, 1)) == 8


def test_tactical_advantage_is_off_without_the_option() -> None:
    state = setup(_sweep_point(), {"player": 0})
    play(state, "deploy A06 right")
    settle(state)
    assert state.position()["hand_limits"] == [8, 8] and len(hand(state, 0)) == 8


def test_tactical_advantage_back_to_8_after_a_round_not_swept() -> None:
    zones = {"won:0:left": ["G06", "S09", "S01"], "won:1:centre": ["A01", "A02", "A03", "A04", "A08"],
             "battle:0:right": ["G13", "I12", "S12"], "hand:0": ["A06", "G03"], "hand:1": H1}
    state = setup(zones, {"player": 0, "round": 2, "hand_limits": [9, 8]}, tactical_advantage=True, length="long")
    play(state, "deploy A06 right")
    settle(state)
    assert state.position()["hand_limits"] == [8, 8]


# ----- Strategic exhaustion --------------------------------------------------------------------------------
def test_strategic_exhaustion_the_loser_of_a_3_0_round_loses_a_card_of_hand_size() -> None:
    state = setup(_sweep_point(), {"player": 0}, length="long", strategic_exhaustion=True)
    play(state, "deploy A06 right")
    settle(state)
    assert state.position()["base_hand_limits"] == [8, 7]
    assert len(hand(state, 1)) == 8  # kept: the hand shrinks by refilling to 7 from now on
    settle(play(state, "deploy G03 left"))
    play(state, "deploy S02 left")
    assert len(hand(state, 1)) == 7


def test_strategic_exhaustion_reducing_the_opponent_to_three_cards_wins() -> None:
    state = setup(_sweep_point(), {"player": 0, "base_hand_limits": [8, 4]}, length="long", strategic_exhaustion=True)
    play(state, "deploy A06 right")
    settle(state)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_strategic_exhaustion_only_in_the_long_game_and_not_with_tactical_advantage() -> None:
    with pytest.raises(OptionError, match="length='long'"):
        warcards.load_game("cards-of-war", strategic_exhaustion=True)
    with pytest.raises(OptionError, match="exclude each other"):
        warcards.load_game("cards-of-war", length="long", strategic_exhaustion=True, tactical_advantage=True)


# ----- Joint deployment ------------------------------------------------------------------------------------
def test_joint_deployment_pairs_go_into_adjacent_battles_and_draw_two() -> None:
    state = setup({"hand:0": ["A01", "A03", "G02", "G03", "G04", "G05", "G06", "G07"], "hand:1": H1},
              joint_deployment=True)
    texts = legal_texts(state)
    assert "joint A01 (Fighters) left" in texts and "joint A03 (Dive Bomber) centre" in texts
    assert not any(t.startswith("joint G02") for t in texts)
    play(state, "joint A01 left")
    assert state.position()["phase"] == "joint" and state.current_player() == 0
    assert legal_texts(state) == ["deploy A03 (Dive Bomber) centre"]
    play(state, "deploy A03 centre")
    assert state.current_player() == CHANCE and len(hand(state, 0)) == 6
    play(state, "draw A02", "draw A04")
    assert state.current_player() == 1


def test_joint_deployment_needs_the_option_and_both_cards_in_hand() -> None:
    state = setup({"hand:0": ["A01", "A03"], "hand:1": H1})
    with pytest.raises(IllegalActionError, match="optional rule not in play"):
        state.apply_action(state.parse_action("joint A01 left"))
    state = setup({"hand:0": ["A01", "G02"], "hand:1": H1}, joint_deployment=True)
    with pytest.raises(IllegalActionError, match="needs a partner in hand"):
        state.apply_action(state.parse_action("joint A01 left"))


def test_joint_deployment_with_theatres_two_battles_of_the_pairs_theatre_not_adjacent() -> None:
    state = setup({"hand:0": ["A01", "A03"], "hand:1": H1, "battle:1:centre": ["G02"], "battle:1:left": ["A08"],
               "battle:1:right": ["A10"]},
              {"theatres": ["air", "ground", "air"]}, joint_deployment=True, theatres_of_war=True)
    play(state, "joint A01 left")
    assert legal_texts(state) == ["deploy A03 (Dive Bomber) right"]


def test_joint_deployment_both_cards_abilities_work() -> None:
    state = setup({"hand:0": ["S01", "S02"], "hand:1": H1[2:], "battle:1:centre": ["G13"]}, joint_deployment=True)
    play(state, "joint S01 left", "deploy S02 centre")  # Shore Bombardment kills the Fortress Line
    assert state.zones()["discard"] == ["G13"]


# ----- 2 DECK VERSION --------------------------------------------------------------------------------------
def test_2_deck_version_each_player_has_own_deck_and_discard_pile() -> None:
    state = fresh_state(decks=2)
    zones = state.zones()
    assert len(zones["draw:0"]) == len(zones["draw:1"]) == 52 and "draw" not in zones
    play(state, "draw S01/0", "draw G01/1")
    settle(state)
    assert all(c.endswith("/0") for c in hand(state, 0)) and all(c.endswith("/1") for c in hand(state, 1))
    assert len(state.zones()["draw:0"]) == len(state.zones()["draw:1"]) == 44


def test_2_deck_version_a_killed_card_goes_to_its_owners_discard_pile() -> None:
    state = setup({"hand:0": ["G01/0"], "hand:1": ["S02/1"], "battle:1:left": ["G02/1"]}, decks=2)
    play(state, "deploy G01 left")
    assert state.zones()["discard:1"] == ["G02/1"] and state.zones()["discard:0"] == []


def test_theatres_of_war_an_off_theatre_card_on_top_shields_the_cards_below() -> None:
    state = setup({"hand:0": ["G01"], "hand:1": H1, "battle:1:left": ["G02", "I11"]}, {"theatres": ["ground", None, None]},
              theatres_of_war=True)
    play(state, "deploy G01 left")  # Pillbox kills I, but the top card is the War Cabinet (E)
    assert state.zones()["battle:1:left"] == ["G02", "I11"]
    assert state.position()["totals"][1][0] == 3


def test_numbers_pickle_with_every_field_through_their_reduce() -> None:
    """`Numbers.__reduce__` (a frozen dataclass compiled by mypyc cannot be unpickled the default way) gives
    every field, in order: a changed value of each survives a round trip."""
    changed = Numbers(**{f.name: getattr(Numbers(), f.name) + 1 for f in dataclasses.fields(Numbers)})
    assert changed.__reduce__()[1] == dataclasses.astuple(changed)
    assert pickle.loads(pickle.dumps(changed)) == changed

