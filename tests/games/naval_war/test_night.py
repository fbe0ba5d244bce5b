"""Night actions (Variations: "night actions (ships face down, exposed when firing or hit; carriers may then
be hit)") and R38–R40."""

from __future__ import annotations

import random

from tests.games.naval_war.helpers import build, game, is_legal, legal_texts, play, zone

from warcards.engine.api import CHANCE, sample_chance

NIGHT = {"night": True}
ZONES = {"fleet:0": ["NELSON", "LUTZOW"], "fleet:1": ["MARYLAND", "ENTERPRISE"], "fleet:2": ["ROMA"],
         "hand:0": ["SALVO16x2-1", "SALVO11x1-1"]}


def test_night_ships_are_dealt_face_down_and_hidden_from_the_others() -> None:
    state = game(4, night=True).new_initial_state()
    rng = random.Random(2)
    while state.current_player() == CHANCE and state.position()["phase"] in ("deal-ships", "deal-cards"):
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    view = state.observe(0)
    mine, theirs = view["task_forces"][0]["ships"], view["task_forces"][1]["ships"]
    assert all(s["face_down"] and s["id"] is not None for s in mine)
    assert all(s["id"] is None and s["gun"] is None for s in theirs)
    assert "face_down" not in view


def test_ruling_38_a_face_down_ship_is_targeted_by_its_slot_and_even_a_carrier_may_be_hit() -> None:
    state = build(ZONES, options=NIGHT, phase="play", turn=0, face_down=["MARYLAND", "ENTERPRISE", "ROMA"])
    play(state, "fire SALVO16x2")
    assert sorted(legal_texts(state)) == ["at 1/1", "at 1/2", "at 2/1"]
    play(state, "at 1/2")  # the second face-down ship of seat 1: Enterprise, a carrier (3 hits)
    assert zone(state, "on:ENTERPRISE") == ["SALVO16x2-1"]
    # Hit, so turned face up; now it is a screened carrier.
    assert state.position()["face_down"] == ["MARYLAND", "ROMA"]


def test_ruling_39_firing_turns_a_ship_of_that_gun_size_face_up() -> None:
    state = build(ZONES, options=NIGHT, phase="play", turn=0,
                  face_down=["NELSON", "LUTZOW", "MARYLAND", "ENTERPRISE", "ROMA"])
    play(state, "fire SALVO16x2 at 2/1")
    down = set(state.position()["face_down"])
    assert "NELSON" not in down and "ROMA" not in down  # the firer and the target
    assert {"LUTZOW", "MARYLAND", "ENTERPRISE"} == down
    assert state.observe(1)["task_forces"][0]["ships"][0]["id"] == "NELSON"


def test_ruling_39_a_minefield_turns_the_whole_task_force_face_up() -> None:
    state = build({**ZONES, "hand:0": []}, options=NIGHT, phase="turn", turn=0,
                  face_down=["MARYLAND", "ENTERPRISE"])
    play(state, "draw", "draw MINE1", "MINE1 at 1")
    assert state.position()["face_down"] == []


def test_ruling_40_a_face_up_carrier_is_screened_by_face_down_ships() -> None:
    state = build(ZONES, options=NIGHT, phase="play", turn=0, face_down=["MARYLAND"])
    assert not is_legal(state, "fire SALVO16x2 at ENTERPRISE")
    assert is_legal(state, "fire SALVO16x2 at 1/1")


def test_night_an_additional_ship_joins_face_down() -> None:
    state = build(ZONES, options=NIGHT, phase="turn", turn=0)
    play(state, "draw", "draw ADDSHIP", "ship YAMATO")
    assert state.position()["face_down"] == ["YAMATO"]
    assert state.observe(1)["task_forces"][0]["ships"][-1]["id"] is None


def test_night_determinize_resamples_face_down_identities_only_among_unseen_ships() -> None:
    state = build(ZONES, options=NIGHT, phase="play", turn=0, face_down=["MARYLAND", "ENTERPRISE", "ROMA", "NELSON"])
    rng = random.Random(4)
    seen = set()
    for _ in range(20):
        other = state.determinize(0, rng)
        assert other.observe(0) == state.observe(0)
        assert other.zones()["fleet:0"] == ["NELSON", "LUTZOW"]
        seen.add(tuple(other.zones()["fleet:1"]))
    assert len(seen) > 1


def test_ruling_41_every_night_turn_starts_with_the_draw_choice() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["ROMA", "AKAGI"]}, options=NIGHT,
                  phase="turn", turn=0, face_down=["NELSON", "MARYLAND", "ROMA", "AKAGI"])
    assert state.current_player() == 0 and legal_texts(state) == ["draw"]
    play(state, "draw", "draw SALVO14x1", "discard SALVO14x1", "draw", "draw SALVO14x1", "discard SALVO14x1")
    assert state.current_player() == 2 and "draw" in legal_texts(state) and len(legal_texts(state)) > 1
    assert state.observe(0)["carriers_to_name"] is None and state.observe(2)["carriers_to_name"] == ["AKAGI"]


def test_ruling_42_another_seats_sample_at_the_strike_choice_keeps_none_of_the_strikers_face_down_ships() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["ROMA", "AKAGI"]}, options=NIGHT,
                  phase="turn", turn=0, face_down=["NELSON", "MARYLAND", "ROMA", "AKAGI"])
    play(state, "draw", "draw SALVO14x1", "discard SALVO14x1", "draw", "draw SALVO14x1", "discard SALVO14x1")
    assert state.current_player() == 2 and state.position()["phase"] == "choice"
    rng = random.Random(6)
    fleets = set()
    for _ in range(30):
        other = state.determinize(0, rng)
        assert other.observe(0) == state.observe(0)
        fleet = other.zones()["fleet:2"]
        fleets.add(tuple(fleet))
        carriers = other.observe(2)["carriers_to_name"]
        assert set(carriers) <= set(fleet), "the carriers to name are the sample's own"
        assert other.legal_actions() and "draw" in legal_texts(other)
    assert len(fleets) > 3, "the striker's face-down ships are resampled for another seat"
    assert all(state.determinize(2, random.Random(k)).zones()["fleet:2"] == ["ROMA", "AKAGI"] for k in range(5))
