"""4.0 two players, 5.0 advanced rules and the optional rules 6.1–6.4."""

from __future__ import annotations

from tests.games.med_sirocco.helpers import build, game, is_legal, legal_texts, play, settle, zone

from warcards.engine.api import CHANCE

TWO = {"players": 2}


# ----- 4.0 two players ----------------------------------------------------------------------------------------------
def test_4_0_convoy_two_face_up_rounds_with_hands_made_up_after_each() -> None:
    state = build({0: ["A12", "A01"], 1: ["X13", "X14"]}, players=2, operation="O05")
    play(state, "type surface", "play A12", "done", "play X13", "done")
    assert state.current_player() == CHANCE and state.draw_queue == [0] * 5 + [1] * 5
    settle(state)
    assert state.position()["round"] == 2 and state.current_player() == 0
    assert "A12" in [p["card"] for p in state.observe(1)["plays"]]
    play(state, "play A01", "done", "play X14", "done")
    # Allies 3 + 5 = 8 against 3 + 2 = 5.
    assert zone(state, "won:0") == ["O05"] and zone(state, "captured:0") == ["X13", "X14"]


def test_4_0_battle_second_round_face_down() -> None:
    state = build({0: ["A12", "A01"], 1: ["X13", "X14"]}, players=2, operation="O03")
    play(state, "play A12", "done", "play X13", "done")
    settle(state)
    play(state, "play A01", "done")
    assert state.observe(1)["plays"][-1]["card"] is None


def test_4_0_no_side_change_between_the_two_rounds() -> None:
    state = build({0: ["A12", "X01"], 1: ["X13"]}, players=2, operation="O05")
    play(state, "type surface", "play A12", "done", "play X13", "done")
    settle(state)
    assert not is_legal(state, "play X01")


def test_4_0_raid_on_la_spezia_lasts_both_rounds() -> None:
    state = build({0: ["A12", "A57"], 1: ["X13", "A31"]}, players=2, operation="O05")
    play(state, "type surface", "play A12", "play A57", "done")
    assert legal_texts(state)[:1] == ["play A31"] and not is_legal(state, "play X13")
    play(state, "discard X13")
    settle(state)
    play(state, "discard all")
    assert state.position()["restriction"] == "allies"
    assert all(not t.startswith("play X") for t in legal_texts(state))


def test_4_0_sirocco_passes_from_one_round_to_the_other() -> None:
    state = build({0: ["A12"], 1: ["X13", "S01"]}, players=2, operation="O05")
    play(state, "type surface", "play A12", "done", "play X13", "play S01", "done", "roll 4")
    assert state.position()["sirocco_holder"] == 0
    settle(state)
    play(state, "discard all")
    assert state.position()["phase"] == "held-sirocco" and state.current_player() == 0


def test_4_0_tie_continues_for_two_more_rounds() -> None:
    state = build({0: ["A12"], 1: ["X13"]}, players=2, operation="O05")
    play(state, "type surface", "play A12", "done", "play X13", "done")
    settle(state)
    play(state, "discard all", "discard all")
    assert zone(state, "under") == ["A12", "X13"]
    settle(state)
    assert state.position()["round"] == 1 and state.rounds == 2 and state.current_player() == 1


def test_4_0_twin_specials_one_per_player_per_engagement() -> None:
    state = build({0: ["A12", "A57", "S05", "X55", "X13"], 1: ["X26"]}, players=2, operation="O03")
    play(state, "play A12", "play A57", "done", "discard all")
    settle(state)
    play(state, "play S05", "play X55", "play X13", "done")
    settle(state)
    assert "X55" in zone(state, "discard")


# ----- 5.0 advanced rules --------------------------------------------------------------------------------------------
def test_5_0_the_first_player_draws_two_operations_and_keeps_one() -> None:
    state = settle(game(4, advanced=True).new_initial_state())
    assert state.position()["phase"] == "choose-operation"
    options = legal_texts(state)
    assert len(options) == 2 and all(t.startswith("select O") for t in options)
    keep = options[1][7:]
    play(state, options[1])
    assert state.position()["operation"] == keep
    assert zone(state, "operations:out") == [options[0][7:]]
    assert state.observe(1)["operations_out"] == [options[0][7:]]


def test_5_0_the_winner_shares_the_spoils_round_robin() -> None:
    state = build({0: ["A01"], 1: ["X13"], 2: ["A12"], 3: ["X14"]}, operation="O05", options={"advanced": True})
    play(state, "type surface", "play A01", "done", "play X13", "done", "play A12", "done", "play X14", "done")
    assert state.position()["phase"] == "share" and state.current_player() == 0
    assert legal_texts(state) == ["seat 0", "seat 2"]
    play(state, "seat 2")  # the Operation to seat 2; the next card must go to seat 0
    assert legal_texts(state) == ["seat 0", "seat 2"]
    play(state, "seat 0")
    assert zone(state, "won:2") == ["O05"] and len(zone(state, "captured:0")) == 2


def test_5_0_only_players_with_a_card_of_value_1_or_more_share() -> None:
    state = build({0: ["A01"], 1: ["X13"], 2: ["A29"], 3: []}, operation="O05", options={"advanced": True})
    play(state, "type surface", "play A01", "done", "play X13", "done", "play A29", "done", "pass")
    assert zone(state, "won:0") == ["O05"] and zone(state, "captured:0") == ["X13"]


def test_5_0_destiny_victims_get_no_prize_and_their_card_is_not_shared() -> None:
    state = build({0: ["A01"], 1: [], 2: ["A03", "A59", "A12"], 3: ["X29"]}, operation="O09",
                  options={"advanced": True})
    play(state, "type combined", "play A01", "done", "pass", "play A03", "play A59", "play A12",
         "done", "play X29", "done")
    assert zone(state, "captured:3") == ["A03"]
    assert zone(state, "won:0") == ["O09"] and zone(state, "captured:0") == ["X29"]


def test_5_0_sirocco_cancelled_players_get_no_prize() -> None:
    state = build({0: ["A01", "S01"], 1: ["X13"], 2: ["A12"], 3: []}, operation="O05",
                  options={"advanced": True})
    play(state, "type surface", "play A01", "play S01", "done", "roll 6", "play X13", "done", "use sirocco",
         "roll 2", "seat 2", "pass")
    assert zone(state, "won:0") == ["O05"] and zone(state, "captured:0") == ["X13"]


# ----- 6.x optional rules --------------------------------------------------------------------------------------------
def test_6_1_changing_sides_during_battles() -> None:
    state = build({0: ["A12", "X05"], 1: ["X13"], 2: [], 3: []}, operation="O03", options={"change_sides": True})
    play(state, "play A12", "done", "play X13", "done", "pass", "pass")
    play(state, "draw A31", "draw X26", "draw A34", "draw A47")
    play(state, "play X05", "done", "play X26", "done", "play A34", "done", "play A47", "done")
    assert zone(state, "won:0") == ["O03"] and zone(state, "captured:0") == ["A12", "A34"]


def test_6_2_length_of_the_game() -> None:
    state = build({0: ["A12"]}, operation="O05", operations_done=9, options={"operations": 10})
    play(state, "type surface", "play A12", "done", "pass", "pass", "pass")
    settle(state)
    assert state.is_terminal() and state.returns() == [1.0, 0.0, 0.0, 0.0]


def test_6_3_faster_game_battles_as_convoys() -> None:
    state = build({0: ["A12"]}, operation="O03", options={"faster": True})
    assert state.position()["kind"] == "convoy" and state.position()["phase"] == "declare-type"
    play(state, "type surface", "discard all")
    assert state.rounds == 1


def test_6_4_historicity_battle_type_from_the_card() -> None:
    taranto = build({0: ["A29"]}, operation="O06", options={"historicity": True})
    assert taranto.position()["engagement_type"] == "air"
    agreement = build({0: ["A34"]}, operation="O28", options={"historicity": True})
    assert agreement.position()["engagement_type"] == "air & surface"
    plain = build({0: ["A34"]}, operation="O28")
    assert plain.position()["engagement_type"] == "combined"
