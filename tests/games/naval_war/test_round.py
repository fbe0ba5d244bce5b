"""Sinking, Round end and Scoring a round (summary: Sinking; Round end; Scoring a round; Goal; Dealer)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tests.games.naval_war.helpers import build, game, play, zone

from warcards.engine.api import CHANCE, Counted, sample_chance
from warcards.games.naval_war.rules import draw_kinds, draw_pile

if TYPE_CHECKING:
    from warcards.games.naval_war.state import NavalWarState

BASE = {"fleet:0": ["NELSON", "LUTZOW"], "fleet:1": ["MARYLAND"], "fleet:2": ["ROMA", "TEXAS"]}


def test_sinking_credit_goes_to_whoever_delivers_the_final_hits() -> None:
    state = build({**BASE, "hand:0": ["SALVO11x2-1"], "on:MARYLAND": ["SALVO16x4-1"]}, phase="play", turn=0)
    play(state, "fire SALVO11x2 at MARYLAND")  # seat 2's salvo did 4 of the 5 hits; seat 0 gets the ship
    assert zone(state, "deep6:0") == ["MARYLAND"]
    assert {"SALVO11x2-1", "SALVO16x4-1"} <= set(zone(state, "discard"))


def test_sinking_elimination_discards_the_hand_unseen() -> None:
    state = build({**BASE, "hand:0": ["SALVO16x4-1"], "on:MARYLAND": ["SALVO14x1-1"],
                   "hand:1": ["SMOKE-1", "REPAIR-1"]}, phase="play", turn=0)
    play(state, "fire SALVO16x4 at MARYLAND")
    assert state.position()["eliminated"] == [1]
    assert sorted(zone(state, "discard:unseen")) == ["REPAIR-1", "SMOKE-1"]
    view = state.observe(2)
    assert view["unseen_discards"] == 2 and "SMOKE-1" not in view["discard"]


def test_round_end_when_one_survivor_remains_and_scoring_with_bonus_and_penalty() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"], "deep6:0": ["ROMA"],
                   "deep6:1": ["SCHEER"], "hand:0": ["SALVO16x4-1"], "on:MARYLAND": ["SALVO14x1-1"]},
                  phase="play", turn=0, scores=[10, 20, 30], round=1)
    play(state, "fire SALVO16x4 at MARYLAND")  # seat 1 out
    assert state.position()["round"] == 1
    play(state, "draw SALVO11x2", "fire SALVO11x2 at NELSON")  # seat 2 plays on
    play(state, "draw SALVO16x3", "fire SALVO16x3 at LUTZOW")  # seat 0 sinks Lutzow: sole survivor
    pos = state.position()
    # Seat 0: Roma 6 + Maryland 5 + Lutzow 3 + 10; seat 1: Scheer 3 - 10; seat 2: -10.
    assert pos["last_round"] == [24, -7, -10]
    assert pos["scores"] == [34, 13, 20]
    assert pos["round"] == 2 and pos["phase"] == "deal-ships"


def test_round_end_when_the_last_card_is_drawn_and_that_turn_finished() -> None:
    state = build({**BASE, "deck": ["SALVO14x1-1"], "discard": "rest", "hand:1": ["SALVO16x2-1"],
                   "deep6:1": ["SCHEER"]}, phase="turn", turn=1)
    play(state, "draw SALVO14x1")
    assert state.position()["round"] == 1 and state.current_player() == 1
    play(state, "fire SALVO16x2 at TEXAS")
    pos = state.position()
    assert pos["round"] == 2 and pos["last_round"] == [0, 3, 0]  # nobody eliminated, no bonus


def test_ruling_23_an_eliminated_players_deep_six_still_scores() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"], "deep6:1": ["YAMATO"],
                   "hand:0": ["SALVO16x4-1", "SALVO16x3-1"], "on:MARYLAND": ["SALVO14x1-1"]},
                  phase="play", turn=0)
    play(state, "fire SALVO16x4 at MARYLAND", "draw SALVO11x1", "discard SALVO11x1",
         "draw SALVO16x1", "fire SALVO16x3 at LUTZOW")
    assert state.position()["last_round"] == [5 + 3 + 10, 9 - 10, -10]


def test_goal_the_game_ends_when_a_player_reaches_the_target_alone_on_top() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"],
                   "hand:0": ["SALVO16x4-1"], "on:MARYLAND": ["SALVO14x1-1"], "deck": ["SALVO16x1-1"],
                   "discard": "rest"}, phase="play", turn=0, scores=[96, 95, 0])
    play(state, "fire SALVO16x4 at MARYLAND")  # +5 for seat 0, seat 1 -10; seat 2 draws the last card
    assert state.returns() == [0.0, 0.0, 0.0]
    play(state, "draw SALVO16x1", "discard SALVO16x1")
    assert state.is_terminal()
    assert state.position()["scores"] == [101, 85, 0]
    assert state.returns() == [1.0, 0.0, 0.0]


def test_ruling_19_a_tie_at_the_top_plays_one_more_round() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"],
                   "hand:2": ["SALVO11x1-1"], "deck": ["SALVO16x1-1"], "discard": "rest"},
                  phase="turn", turn=2, scores=[100, 100, 0], dealer=2)
    play(state, "draw SALVO16x1", "discard SALVO16x1")
    assert not state.is_terminal()
    pos = state.position()
    assert pos["round"] == 2 and pos["scores"] == [100, 100, 0]
    # R20: among tied leaders the deal passes clockwise from the previous dealer.
    assert pos["dealer"] == 0


def test_dealer_the_leader_deals_the_next_round() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"],
                   "hand:2": ["SALVO11x1-1"], "deck": ["SALVO16x1-1"], "discard": "rest"},
                  phase="turn", turn=2, scores=[10, 40, 0], dealer=0)
    play(state, "draw SALVO16x1", "discard SALVO16x1")
    assert state.position()["dealer"] == 1
    # The next deal starts at the dealer's left.
    assert state.position()["phase"] == "deal-ships"


def _mirrors_counts(state: NavalWarState) -> bool:
    """Whether the draw pile's mirrors are `deck_count` written out: the pile (one entry per card), the kinds
    present and their pair keys, and the size."""
    return (
        state.draw_pile == draw_pile(state.table, state.deck_count)
        and (state.draw_kinds, state.draw_keys) == draw_kinds(state.table, state.deck_count)
        and len(state.draw_pile) == state.deck_size
    )


def test_the_draw_pile_mirrors_the_counts_in_play_setups_and_determinized_states() -> None:
    """`draw_pile` (a draw's chance outcomes, read by position), `draw_kinds` and `draw_keys` (a draw's legal list
    and pairs) are `deck_count` written out, wherever the counts change."""
    rng = random.Random(3)
    for players in (2, 4, 9):
        state = game(players, target=20).new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 600:
            assert _mirrors_counts(state)
            if steps % 50 == 7:
                for seat in range(players):
                    assert _mirrors_counts(state.determinize(seat, rng))
            if state.current_player() == CHANCE:
                state.apply_chance(rng.random())
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    assert _mirrors_counts(build({**BASE, "hand:0": ["SALVO16x1-1"]}, players=3))


def test_the_draw_piles_pairs_from_the_kept_keys_are_the_pairs_counted_gives_for_its_pile() -> None:
    """`rules.DrawPile` gathers a draw's `chance_outcomes()` from a table of pairs per pile size at the keys the
    state keeps (`draw_keys`) and copies its legal list from `draw_kinds`: exactly the pairs (the same floats)
    and numbers the engine's `Counted` counts off the pile, at every draw of random games played through the
    OpenSpiel-shaped loop (`chance_outcomes()`, then `apply_action`) and through `apply_chance`."""
    rng = random.Random(5)
    for players in (2, 4, 9):
        for openspiel_loop in (False, True):
            state = game(players, target=20).new_initial_state()
            while not state.is_terminal():
                if state.current_player() == CHANCE:
                    chance = state._chance()
                    if isinstance(chance, Counted):
                        counted = Counted(list(chance.pile))
                        assert chance.pairs() == counted.pairs()
                        assert chance.numbers() == counted.numbers()
                        assert state.chance_outcomes() == counted.pairs()
                        assert state.legal_actions() == counted.numbers()
                    if openspiel_loop:
                        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                    else:
                        state.apply_chance(rng.random())
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
