"""Seat views (observe, determinize), notation, and the heuristic bot against random."""

from __future__ import annotations

import json
import math
import random

import pytest
from tests.games.med_sirocco.helpers import build, game, play, settle

import warcards
from warcards.engine.api import sample_chance
from warcards.engine.errors import IllegalActionError, InvalidActionError, OptionError, SetupError
from warcards.games.med_sirocco.render import render
from warcards.games.med_sirocco.state import MedSiroccoState
from warcards.match import play_match
from warcards.testing import check_clone_names_every_field


def test_observe_shows_own_hand_and_only_counts_of_others() -> None:
    state = build({0: ["A12", "A31"], 1: ["X13", "X26", "X14"]}, operation="O05")
    view = state.observe(0)
    json.dumps(view)
    assert view["hand"] == ["A12", "A31"] and view["hand_sizes"][:2] == [2, 3]
    assert "X13" not in json.dumps(view)


def test_observe_is_blind_to_what_the_seat_cannot_see() -> None:
    a = build({0: ["A12"], 1: ["X13"]}, operation="O05", zones={"pile": "rest"})
    b = build({0: ["A12"], 1: ["X14"]}, operation="O05", zones={"pile": "rest"})
    assert a.observe(0) == b.observe(0)
    assert a.observe(1) != b.observe(1)


def test_observe_face_down_cards_are_backs_until_revealed() -> None:
    state = build({0: ["A12", "A01"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass", "draw A31", "draw X26", "draw A34",
         "draw X14", "play A01", "done")
    assert state.observe(1)["plays"][2]["card"] is None
    assert state.observe(0)["plays"][2]["card"] == "A01"


def test_observe_won_operations_face_up_and_captured_cards_as_a_count() -> None:
    state = build({0: ["A01"], 1: ["X13"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A01", "done", "play X13", "done", "pass", "pass")
    view = state.observe(2)
    assert view["won"][0] == ["O05"] and view["captured_counts"][0] == 1
    assert view["captured"] == [] and state.observe(0)["captured"] == ["X13"]


def test_determinize_keeps_the_seats_knowledge_and_resamples_the_rest() -> None:
    state = settle(game(4).new_initial_state())
    seen = set()
    for seed in range(5):
        sample = state.determinize(0, random.Random(seed))
        assert sample.observe(0) == state.observe(0)
        assert sample.hands[0] == state.hands[0]
        seen.add(tuple(sample.hands[1]))
    assert len(seen) > 1


def test_notation_round_trip_and_errors() -> None:
    state = build({0: ["A12"]}, operation="O05")
    for action in state.legal_actions():
        assert state.parse_action(state.action_to_string(action)) == action
    with pytest.raises(InvalidActionError, match="not a card number"):
        state.parse_action("play Z99")
    with pytest.raises(InvalidActionError, match="forms"):
        state.parse_action("attack")


def test_options_refused_with_their_allowed_values() -> None:
    with pytest.raises(OptionError, match="players"):
        warcards.load_game("med-sirocco", players=7)
    with pytest.raises(OptionError, match="operations"):
        warcards.load_game("med-sirocco", operations=12)


def test_render_shows_the_table() -> None:
    state = build({0: ["A12"], 1: ["X13"]}, operation="O05")
    play(state, "type surface", "play A12", "done")
    text = render(state.observe(1), 1)
    assert "O05 Hats" in text and "A12 HMS York" in text and "X13 Bolzano" in text


def _wilson_low(wins: float, n: int, z: float = 1.96) -> float:
    p = wins / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_heuristic_beats_random(players: int) -> None:
    g = warcards.load_game("med-sirocco", players=players, operations=10)
    games = 24
    wins = 0.0
    for seed in range(games):
        seat = seed % players
        agents = ["random"] * players
        agents[seat] = "heuristic"
        wins += play_match(g, agents, seed).returns[seat]
    assert _wilson_low(wins, games) > 1 / players


def test_after_the_end_out_of_space_actions_are_invalid_and_others_illegal() -> None:
    state = build({0: ["A12"]}, operation="O05", operations_done=21)
    play(state, "type surface", "play A12", "done", "pass", "pass", "pass")
    settle(state)
    assert state.is_terminal()
    with pytest.raises(InvalidActionError):
        state.apply_action(-1)
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(5)


def test_copy_sets_every_field_and_shares_no_list() -> None:
    blank = MedSiroccoState(game(4), blank=True)
    assert not [name for name in MedSiroccoState.__slots__ if hasattr(blank, name)]
    for players, options, seed in [(4, {}, 1), (2, {"faster": True}, 2), (6, {"change_sides": True}, 3),
                                   (3, {"advanced": True, "historicity": True, "operations": 10}, 4),
                                   (5, {"series": True, "operations": 10}, 5)]:
        state = game(players, **options).new_initial_state()
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            if steps % 3 == 0:
                check_clone_names_every_field(state)
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        check_clone_names_every_field(state)


def test_clone_at_a_draw_stays_independent_of_the_original() -> None:
    state = game(4).new_initial_state()
    legal = state.legal_actions()
    copy = state.clone()
    state.apply_action(legal[0])
    copy.apply_action(legal[0])
    assert copy == state


def test_determinize_during_lost_keeps_the_chosen_cards_in_the_players_hand() -> None:
    state = build({0: ["S02", "A12", "A31", "A34"], 1: ["X13", "X26"], 2: ["X14"], 3: []}, operation="O05")
    play(state, "type surface", "play S02", "select A12", "select A31", "seat 1", "seat 2")
    for seed in range(5):
        sample = state.determinize(1, random.Random(seed))
        assert set(sample.lost_cards) <= set(sample.hands[0])
        settle(sample, seed)
        assert sample.observe(1)["hand_sizes"] == state.observe(1)["hand_sizes"]


def test_determinize_while_the_lost_cards_are_being_chosen() -> None:
    state = build({0: ["S02", "A12", "A31", "A34"], 1: ["X13", "X26"], 2: ["X14"], 3: []}, operation="O05")
    state.lost_step = 2  # what an earlier Lost leaves behind must not matter
    play(state, "type surface", "play S02", "select A12")
    for seed in range(5):
        sample = state.determinize(2, random.Random(seed))
        assert set(sample.lost_cards) <= set(sample.hands[0])
        play(sample, sample.action_to_string(sample.legal_actions()[0]), "seat 1", "seat 2")
        settle(sample, seed)


def test_determinize_resamples_face_down_cards_with_their_sides() -> None:
    state = build({0: ["A12", "S05", "X05"], 1: ["X13"], 2: [], 3: []}, operation="O03")
    play(state, "play A12", "done", "play X13", "done", "pass", "pass", "draw A31", "draw X26", "draw A34",
         "draw X14", "play S05", "play X05", "done")
    for seed in range(8):
        sample = state.determinize(1, random.Random(seed))
        for e in range(len(sample.entry_card)):
            assert sample.entry_side[e] == sample.game.played_side[sample.entry_card[e]]
        settle(sample, seed)
        while not sample.is_terminal():
            sample.apply_action(sample.legal_actions()[0])
            settle(sample, seed)


def test_setup_refuses_lost_duplicated_or_misplaced_cards() -> None:
    g = game(4)
    with pytest.raises(SetupError, match="both"):
        g.state_from_setup({"zones": {"hand:0": ["A12"], "hand:1": ["A12"]}})
    with pytest.raises(SetupError, match="unknown zone"):
        g.state_from_setup({"zones": {"table": ["A12"]}})
    with pytest.raises(SetupError, match="Operation card"):
        g.state_from_setup({"zones": {"hand:0": ["O05"]}})
    with pytest.raises(SetupError, match="unknown position field"):
        g.state_from_setup({"zones": {}, "position": {"turn": 3}})
