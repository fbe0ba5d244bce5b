"""Options from the rules' Variations and Fleet play, and the two-player option."""

from __future__ import annotations

from tests.games.naval_war.helpers import build, game, is_legal, legal_texts, play, zone

from warcards.engine.api import CHANCE


def test_variation_target_score_is_an_option() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"],
                   "hand:2": ["SALVO11x1-1"], "deck": ["SALVO16x1-1"], "discard": "rest", "deep6:2": ["YAMATO"]},
                  options={"target": 50}, phase="turn", turn=2, scores=[0, 0, 45])
    play(state, "draw SALVO16x1", "discard SALVO16x1")
    assert state.is_terminal() and state.returns() == [0.0, 0.0, 1.0]


def test_variation_no_additional_ship_removes_the_8_cards() -> None:
    state = game(4, additional_ship=False).new_initial_state()
    assert sorted(zone(state, "box")) == [f"ADDSHIP-{i}" for i in range(1, 9)]
    assert len(zone(state, "deck")) == 100


def test_variation_more_cards_dealt() -> None:
    g = game(5, extra_cards=2)
    assert g.params.deal == 7
    state = g.new_initial_state()
    for _ in range(2 * 5 * 7):
        state.apply_action(state.legal_actions()[0])
    assert all(len(zone(state, f"fleet:{i}")) == 7 for i in range(5))


def test_variation_gunnery_game_removes_specials_dd_minesweepers_and_carriers() -> None:
    state = game(4, gunnery=True).new_initial_state()
    box = zone(state, "box")
    assert len(box) == 21 + 2 + 2 + 4
    assert {"SHOKAKU", "ENTERPRISE", "ARK_ROYAL", "AKAGI", "DD-1", "SWEEP-2", "MINE1-1", "ADDSHIP-8"} <= set(box)
    assert len(zone(state, "deck")) == 108 - 25 and len(zone(state, "harbor")) == 50


def test_variation_all_minefields_count_2() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND", "LUTZOW"], "fleet:2": ["ROMA"]},
                  options={"mines_two": True}, phase="turn", turn=0)
    play(state, "draw MINE1", "MINE1 at 1")
    assert state.observe(0)["task_forces"][1]["mine_hits"] == 2


def test_variation_kamikaze_japanese_carrier_hits_on_1_or_2_then_rests_roll_plus_1_turns() -> None:
    zones = {"fleet:0": ["NELSON", "AKAGI"], "fleet:1": ["MARYLAND", "TEXAS"], "fleet:2": ["ROMA"],
             "hand:0": ["SALVO16x1-1"], "hand:1": ["SALVO16x1-2"], "hand:2": ["SALVO15x1-1"]}
    state = build(zones, options={"kamikaze": True}, phase="turn", turn=0)
    assert is_legal(state, "kamikaze MARYLAND") and is_legal(state, "strike MARYLAND")
    play(state, "kamikaze MARYLAND", "roll 2")
    assert zone(state, "deep6:0") == ["MARYLAND"]
    kinds = iter(["SALVO14x1"] * 10 + ["SALVO14x2"] * 9)

    def pass_turn() -> None:
        kind = next(kinds)
        play(state, f"draw {kind}", f"discard {kind}")

    # Success with a 2: the carrier sits out 3 of its owner's turns.
    for _ in range(3):
        pass_turn()  # seat 1
        pass_turn()  # seat 2
        assert state.position()["turn"] == 0 and state.current_player() == CHANCE  # no strike offered
        pass_turn()
    pass_turn()
    pass_turn()
    assert state.current_player() == 0 and state.position()["phase"] == "choice"


def test_ruling_16_a_failed_kamikaze_rests_one_turn_and_other_carriers_may_still_fly() -> None:
    zones = {"fleet:0": ["NELSON", "AKAGI", "ENTERPRISE"], "fleet:1": ["MARYLAND"], "fleet:2": ["ROMA"],
             "hand:1": ["SALVO16x1-2"], "hand:2": ["SALVO15x1-1"]}
    state = build(zones, options={"kamikaze": True}, phase="turn", turn=0)
    # Carriers are named in task-force order (a setup lists ships by id): Enterprise (US) cannot fly Kamikaze; Akagi (Japan) may choose either.
    assert state.position()["carriers_to_name"] == ["ENTERPRISE", "AKAGI"]
    assert not any(t.startswith("kamikaze") for t in legal_texts(state))
    play(state, "skip")
    assert is_legal(state, "kamikaze MARYLAND") and is_legal(state, "strike MARYLAND")
    play(state, "kamikaze MARYLAND", "roll 4")
    assert state.position()["kamikaze_wait"] == {"AKAGI": 1}
    play(state, "draw SALVO14x1", "discard SALVO14x1", "draw SALVO14x1", "discard SALVO14x1")
    assert state.position()["carriers_to_name"] == ["ENTERPRISE"]


def test_variation_draw_past_specials_keeps_drawing_after_a_red_card() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["ROMA"], "hand:0": ["SALVO16x2-1"]},
                  options={"draw_past_specials": True}, phase="turn", turn=0)
    play(state, "draw ADDSHIP", "ship YAMATO")
    assert state.current_player() == CHANCE and state.position()["turn"] == 0
    play(state, "draw SALVO18x4", "fire SALVO18x4 at MARYLAND")
    assert state.position()["turn"] == 1


FLEET_ZONES = {"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["ROMA"], "fleet:3": ["LUTZOW"]}


def test_fleet_play_mates_never_fire_on_each_other() -> None:
    # 2x2: seats 0 and 2 form fleet A, seats 1 and 3 fleet B.
    state = build({**FLEET_ZONES, "hand:0": ["SALVO16x4-1"]}, players=4, options={"fleets": "2x2"},
                  phase="play", turn=0)
    assert not is_legal(state, "fire SALVO16x4 at ROMA")
    assert is_legal(state, "fire SALVO16x4 at MARYLAND") and is_legal(state, "fire SALVO16x4 at LUTZOW")
    play(state, "discard SALVO16x4", "draw MINE2")
    assert sorted(legal_texts(state)) == ["MINE2 at 0", "MINE2 at 2"]


def test_fleet_play_a_salvo_may_be_swapped_with_a_mate_instead_of_firing() -> None:
    state = build({**FLEET_ZONES, "hand:0": ["SALVO11x2-1"], "hand:2": ["SALVO16x3-1", "SMOKE-1"]}, players=4,
                  options={"fleets": "2x2"}, phase="play", turn=0)
    assert is_legal(state, "swap SALVO11x2 with 2") and not is_legal(state, "swap SALVO11x2 with 1")
    play(state, "swap SALVO11x2 with 2")
    assert state.current_player() == 2 and legal_texts(state) == ["give SALVO16x3"]
    play(state, "give SALVO16x3")
    assert zone(state, "hand:0") == ["SALVO16x3-1"] and sorted(zone(state, "hand:2")) == ["SALVO11x2-1", "SMOKE-1"]
    # The exchange is open (R32): every seat knows where those two cards are.
    assert state.observe(1)["task_forces"][2]["known_in_hand"] == ["SALVO11x2-1"]
    assert state.position()["turn"] == 1


def test_fleet_play_round_ends_when_one_fleet_remains_and_fleets_score_together() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["ROMA"], "fleet:3": [],
                   "deep6:2": ["LUTZOW"], "hand:0": ["SALVO16x4-1"], "on:MARYLAND": ["SALVO14x1-1"]},
                  players=4, options={"fleets": "2x2", "target": 20}, phase="play", turn=0)
    play(state, "fire SALVO16x4 at MARYLAND")
    # Fleet A: Maryland 5 + 10 (seat 0) and Lutzow 3 + 10 (seat 2); fleet B: -10 each.
    assert state.position()["last_round"] == [15, -10, 13, -10]
    assert state.is_terminal() and state.returns() == [1.0, 0.0, 1.0, 0.0]


def test_ruling_26_two_players_the_sole_survivor_takes_the_bonus() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "hand:0": ["SALVO16x4-1"],
                   "on:MARYLAND": ["SALVO14x1-1"]}, players=2, phase="play", turn=0)
    play(state, "fire SALVO16x4 at MARYLAND")
    assert state.position()["last_round"] == [15, -10]


def test_fleet_play_a_mate_with_no_salvo_gives_nothing_back() -> None:
    state = build({**FLEET_ZONES, "hand:0": ["SALVO11x2-1"], "hand:2": ["SMOKE-1"]}, players=4,
                  options={"fleets": "2x2"}, phase="play", turn=0)
    play(state, "swap SALVO11x2 with 2")
    assert legal_texts(state) == ["give none"]
    play(state, "give none")
    assert zone(state, "hand:0") == [] and sorted(zone(state, "hand:2")) == ["SALVO11x2-1", "SMOKE-1"]
