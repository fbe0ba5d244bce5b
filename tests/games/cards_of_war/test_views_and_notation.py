"""Seat views, determinize (with RECON answers), notation, errors on bad input, stalemates."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from warcards.engine.errors import IllegalActionError, InvalidActionError, SetupError
from warcards.games.cards_of_war.cards import THEATRES, load_cards

from .helpers import fresh_state, game, hand, play, settle, setup

T = load_cards()
H0 = ["G02", "G03", "G04", "G05", "G06", "G07", "G08", "G09"]
H1 = ["S02", "S03", "S05", "S06", "S07", "S08", "S10", "S13"]


def theatre_counts(cards: list[str]) -> Counter[str]:
    return Counter(THEATRES[T.theatre[T.ids.index(c.split("/")[0])]] for c in cards)


def test_observe_shows_own_hand_battles_opponent_count_and_pile_size_only() -> None:
    state = setup({"hand:0": H0, "hand:1": H1, "battle:1:left": ["A01"]})
    view = state.observe(0)
    assert view["hand"] == H0 and view["hand_counts"] == [8, 8]
    assert view["battles"][0]["piles"] == [[], ["A01"]]
    assert view["draw_pile"] == [len(state.zones()["draw"])]
    assert "S02" not in repr(view)
    other = setup({"hand:0": H0, "hand:1": ["S01", *H1[1:]], "battle:1:left": ["A01"]})
    assert other.observe(0) == view  # differs only in what seat 0 cannot see
    assert other.observe(1) != state.observe(1)


def test_3_recon_determinize_keeps_the_announced_theatre_counts() -> None:
    hand1 = ["I02", "I03", "I05", "I06", "I07", "I08", "I09", "I10"]  # all Intel
    state = setup({"hand:0": ["A10", *H0[1:]], "hand:1": hand1})
    play(state, "deploy A10 left")
    settle(state)
    rng = random.Random(5)
    for _ in range(20):
        sample = state.determinize(0, rng)
        assert theatre_counts(hand(sample, 1))["intel"] == 8
        assert hand(sample, 0) == hand(state, 0)
        assert sample.observe(0) == state.observe(0)
    play(state, "deploy I02 centre")  # seat 1 plays an Intel card: at least 7 Intel cards remain known
    settle(state)
    samples = [theatre_counts(hand(state.determinize(0, rng), 1))["intel"] for _ in range(30)]
    assert min(samples) >= 7
    assert len(set(map(tuple, (hand(state.determinize(0, rng), 1) for _ in range(10))))) > 1


def test_determinize_without_recon_resamples_the_opponents_hand() -> None:
    state = setup({"hand:0": H0, "hand:1": H1})
    rng = random.Random(1)
    hands = {tuple(hand(state.determinize(0, rng), 1)) for _ in range(10)}
    assert len(hands) > 1
    assert all(len(h) == 8 and not set(h) & set(H0) for h in hands)


def test_notation_round_trips_and_accepts_names_and_numbers() -> None:
    state = setup({"hand:0": ["G01", "A01", "A03"], "hand:1": H1}, joint_deployment=True)
    for action in state.legal_actions():
        assert state.parse_action(state.action_to_string(action)) == action
    assert state.parse_action("deploy Pillbox 1") == state.parse_action("deploy G01 left")
    assert state.parse_action("G01 centre") == state.parse_action("deploy g01 center")
    assert state.parse_action("pass") == 6 * 52 + 3
    assert state.parse_action("5") == 5


def test_bad_input_gets_a_clear_error_and_changes_nothing() -> None:
    state = setup({"hand:0": H0, "hand:1": H1})
    before = state.fingerprint()
    with pytest.raises(InvalidActionError, match="forms: deploy <card> <battle>"):
        state.parse_action("attack G02")
    with pytest.raises(InvalidActionError, match="no card 'tiger tank'"):
        state.parse_action("deploy Tiger Tank left")
    with pytest.raises(IllegalActionError, match="S02 Shore Bombardment is not in your hand"):
        state.apply_action(state.parse_action("deploy S02 left"))
    with pytest.raises(IllegalActionError, match="pass is allowed only with an empty hand"):
        state.apply_action(state.parse_action("pass"))
    with pytest.raises(InvalidActionError, match=r"actions are 0\.\.315"):
        state.apply_action(999)
    assert state.fingerprint() == before


def test_setup_errors_name_the_problem() -> None:
    g = game()
    with pytest.raises(SetupError, match="placed twice"):
        g.state_from_setup({"zones": {"hand:0": ["G01"], "hand:1": ["G01"]}})
    with pytest.raises(SetupError, match="unknown card"):
        g.state_from_setup({"zones": {"hand:0": ["Z99"]}})
    with pytest.raises(SetupError, match="so the battle was won"):
        g.state_from_setup({"zones": {"battle:0:left": ["S01", "G06", "G13"]}})


def test_r11_stalemate_settles_open_battles_by_total_and_a_tie_is_void() -> None:
    zones = {"won:0:left": "rest", "battle:0:centre": ["G06"], "battle:1:centre": ["G02"],
             "battle:0:right": ["G04"], "battle:1:right": ["G05"], "hand:0": ["G13"], "hand:1": [],
             "draw": [], "discard": []}
    state = setup(zones, {"player": 0}, length="short")
    play(state, "deploy G13 centre")  # both hands and the pile are now empty
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert state.position()["round_results"] == [0]


def test_r11_forty_moves_without_a_card_scoring_settle_the_round() -> None:
    zones = {"battle:0:left": ["I11"], "hand:0": H0, "hand:1": H1}
    position = {"theatres": ["intel", None, None], "idle_moves": 38}
    state = setup(zones, position, theatres_of_war=True, length="short")
    settle(play(state, "deploy G02 left"))  # Ground in an Intel battle: no score, 39 idle moves
    assert not state.is_terminal() and state.position()["idle_moves"] == 39
    play(state, "deploy S02 left")  # the 40th: the round is settled as a stalemate (R11)
    settle(state)
    assert state.is_terminal() and state.position()["round_results"] == [0]
    state = setup(zones, position, theatres_of_war=True, length="short")
    settle(play(state, "deploy G02 centre"))  # a scoring card (it fixes the centre as Ground) resets the count
    assert state.position()["idle_moves"] == 0


def test_r22_every_option_set_has_a_finite_length_bound() -> None:
    assert game(length="short").max_game_length < game(length="normal").max_game_length
    assert game(length="long").max_game_length < 100_000


def test_first_draw_cards_are_public_in_both_views() -> None:
    state = play(fresh_state(), "draw G01")
    assert state.observe(1)["first_draw"] == ["G01", None] == state.observe(0)["first_draw"]


def test_determinize_keeps_a_partner_after_a_declared_joint_deployment() -> None:
    state = setup({"hand:0": ["A01", "A03", "G02", "G03", "G04", "G05", "G06", "G07"], "hand:1": H1},
              joint_deployment=True)
    play(state, "joint A01 left")
    rng = random.Random(3)
    for _ in range(30):
        sample = state.determinize(1, rng)
        assert sample.legal_actions(), "the joint partner must still be in hand"
        assert sample.observe(1) == state.observe(1)
        assert any(c in hand(sample, 0) for c in ("A02", "A03", "A04", "A05"))
