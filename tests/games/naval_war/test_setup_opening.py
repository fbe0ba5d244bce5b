"""Setup and Opening (printed-rules summary: Setup; Opening)."""

from __future__ import annotations

import random

import pytest
from tests.games.naval_war.helpers import build, game, is_legal, legal_texts, play, zone

from warcards.engine.api import CHANCE, sample_chance
from warcards.engine.errors import OptionError


def _deal(players: int, seed: int = 1, **options: object):
    """A new round dealt by chance up to the first player decision."""
    state = game(players, **options).new_initial_state()
    rng = random.Random(seed)
    while state.current_player() == CHANCE and state.position()["phase"] in ("deal-ships", "deal-cards"):
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    return state


@pytest.mark.parametrize(("players", "each"), [(3, 5), (5, 5), (8, 5), (9, 4)])
def test_setup_deals_5_ships_and_5_cards_each_4_and_4_with_9(players: int, each: int) -> None:
    state = game(players).new_initial_state()
    rng = random.Random(3)
    for _ in range(2 * players * each):
        assert state.current_player() == CHANCE
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    zones = state.zones()
    for seat in range(players):
        assert len(zones[f"fleet:{seat}"]) == each
    # The opening may already have played red cards; hands are refilled to the same size.
    assert len(zones["harbor"]) == 54 - players * each
    assert state.position()["phase"] in ("opening", "refill", "roll", "additional-ship", "draw", "choice")


def test_setup_harbor_pile_and_draw_pile_are_counts_in_the_view() -> None:
    state = _deal(4)
    view = state.observe(0)
    assert view["harbor_size"] == 54 - 20
    assert view["deck_size"] == 108 - 20 - len(view["discard"])
    assert len(view["hand"]) == 5
    assert all(f["hand_count"] == 5 for f in view["task_forces"])


def test_setup_carriers_in_the_rear_cannot_be_attacked_while_the_owner_has_another_ship() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["ENTERPRISE", "MARYLAND"], "fleet:2": ["LUTZOW"],
                   "hand:0": ["SALVO16x4-1"], "on:MARYLAND": ["SALVO16x1-1"]}, phase="play", turn=0)
    assert is_legal(state, "fire SALVO16x4 at MARYLAND")
    assert not is_legal(state, "fire SALVO16x4 at ENTERPRISE")
    play(state, "fire SALVO16x4 at MARYLAND")
    assert zone(state, "deep6:0") == ["MARYLAND"]
    # Unscreened now: the carrier is the only ship left.
    state2 = build({"fleet:0": ["NELSON"], "fleet:1": ["ENTERPRISE"], "fleet:2": ["LUTZOW"],
                    "hand:0": ["SALVO16x4-1"]}, phase="play", turn=0)
    assert is_legal(state2, "fire SALVO16x4 at ENTERPRISE")


def test_setup_ships_are_laid_out_by_gun_size_in_the_view() -> None:
    state = build({"fleet:0": ["NELSON", "LUTZOW", "ENTERPRISE"], "fleet:1": ["MARYLAND"], "fleet:2": ["TEXAS"]},
                  phase="play", turn=1)
    ships = state.observe(1)["task_forces"][0]["ships"]
    assert {s["id"]: s["gun"] for s in ships} == {"NELSON": "16", "LUTZOW": "11", "ENTERPRISE": "carrier"}


def test_ruling_1_the_dealer_opens_and_takes_the_first_turn() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["TEXAS"],
                   "hand:0": ["SALVO16x1-1", "SALVO16x1-2", "SALVO16x1-3", "SALVO16x1-4", "SMOKE-1"],
                   "hand:1": ["MINE1-1", "SALVO14x1-1", "SALVO14x1-2", "SALVO14x1-3", "SALVO14x1-4"],
                   "hand:2": ["SALVO11x1-1", "SALVO11x1-2", "SALVO11x1-3", "SALVO11x1-4", "SALVO11x1-5"]},
                  phase="opening", dealer=2, turn=2)
    # Seats 2 and 0 hold no red card; seat 1 plays its minefield; then the dealer (2) takes the first turn.
    assert state.current_player() == 1
    assert legal_texts(state) == ["MINE1 at 0", "MINE1 at 2"]
    play(state, "MINE1 at 0", "draw SALVO15x2")
    assert state.position()["turn"] == 2 and state.position()["phase"] == "draw"


def _opening_hands() -> dict[str, list[str]]:
    return {
        "fleet:0": ["NELSON", "RODNEY"], "fleet:1": ["MARYLAND", "TEXAS"], "fleet:2": ["LUTZOW", "SCHEER"],
        "hand:0": ["MINE1-1", "ADDDMG1-1", "SALVO16x2-1", "SALVO16x2-2", "SMOKE-1"],
        "hand:1": ["MINE2-1", "SALVO14x1-1", "SALVO14x1-2", "SALVO14x1-3", "SALVO14x1-4"],
        "hand:2": ["MINE2-2", "SALVO11x1-1", "SALVO11x1-2", "SALVO11x1-3", "SALVO11x1-4"],
    }


def test_opening_additional_damage_is_discarded_and_replaced() -> None:
    state = build(_opening_hands(), phase="opening", dealer=0, turn=0)
    assert "ADDDMG1-1" in zone(state, "discard")
    assert state.current_player() == CHANCE and state.position()["phase"] == "refill"
    play(state, "draw SALVO14x2")
    assert len(zone(state, "hand:0")) == 5
    assert state.current_player() == 0


def test_opening_red_cards_are_played_and_replaced_until_none_remain() -> None:
    state = build(_opening_hands(), phase="opening", dealer=0, turn=0)
    play(state, "draw SUB")  # the refill brings another red card: it is played in this stage too
    assert sorted(legal_texts(state))[0] == "MINE1 at 1"
    play(state, "MINE1 at 1", "draw SALVO14x2")
    assert state.current_player() == 0
    assert is_legal(state, "sub at MARYLAND")
    play(state, "sub at MARYLAND", "roll 2", "draw SALVO14x3")
    # Seat 0 has no red card left: seat 1 opens.
    assert state.current_player() == 1
    assert zone(state, "mines:1") == ["MINE1-1"]
    assert "SUB-1" in zone(state, "discard")


def test_opening_at_most_one_minefield_per_task_force() -> None:
    state = build(_opening_hands(), phase="opening", dealer=0, turn=0)
    play(state, "draw SALVO14x2", "MINE1 at 1", "draw SALVO14x3")
    assert state.current_player() == 1
    assert legal_texts(state) == ["MINE2 at 0", "MINE2 at 2"]
    play(state, "MINE2 at 0", "draw SALVO15x1")
    # Seat 2's minefield could go only before task forces 0 and 1, both mined in this stage: it is discarded.
    assert "MINE2-2" in zone(state, "discard")
    assert zone(state, "mines:2") == [] and state.position()["mined_in_opening"] == [0, 1]


def test_ruling_18_the_draw_pile_running_out_in_the_opening_ends_the_round_after_it() -> None:
    hands = _opening_hands()
    hands["deck"] = ["SALVO18x2-1"]
    hands["discard"] = "rest"
    state = build(hands, phase="opening", dealer=0, turn=0)
    play(state, "draw SALVO18x2")
    assert state.position()["phase"] == "opening" and state.position()["opening"]
    play(state, "MINE1 at 1")  # no refill: the pile is empty
    play(state, "MINE2 at 0")
    # Seat 2 discards its unplayable minefield; the opening ends with an empty pile: the round is scored.
    assert state.position()["round"] == 2
    assert state.position()["last_round"] == [0, 0, 0]


def test_options_bad_values_and_fleet_shapes_are_refused_with_the_allowed_values() -> None:
    with pytest.raises(OptionError, match=r"players=10 is not allowed; allowed values: 2, 3"):
        game(10)
    with pytest.raises(OptionError, match=r"fleets='2x2' needs 4 players, not 5"):
        game(5, fleets="2x2")
    with pytest.raises(OptionError, match=r"ship deck holds only 54"):
        game(8, extra_cards=2)
