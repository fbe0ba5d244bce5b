"""The Action phase: activation order, passing, Discard Target, Supply, Recon, Progress and Hube."""

from __future__ import annotations

import pytest

import warcards
from warcards.engine.api import CHANCE

from .helpers import build, is_legal, legal_texts, play, zone


def test_action_invasion_axis_activates_first_then_players_alternate() -> None:
    state = build("invasion", {"table:axis": ["X19", "X23"], "table:allies": ["A17", "A40"]}, phase="action")
    assert state.current_player() == 1
    play(state, "activate Hube")
    assert state.current_player() == 0
    play(state, "activate Breakthrough")
    assert state.current_player() == 1


def test_action_race_americans_go_first() -> None:
    state = build("race", {"table:americans": ["A17"], "table:british": ["A31"]}, phase="action")
    assert state.current_player() == 1


def test_action_sicily_order_axis_vs_americans_americans_axis_vs_british_british() -> None:
    state = build("sicily", {"table:axis:americans": ["X25"], "table:axis:british": ["X26"],
                             "table:americans": ["A17"], "table:british": ["A31"]}, phase="action")
    slots = []
    for text in ("activate X25", "activate A17", "activate X26", "activate A31"):
        slots.append(state.position()["slot"])
        play(state, text)
    assert slots == ["table:axis:americans", "table:americans", "table:axis:british", "table:british"]
    assert state.position()["slot"] == "table:axis:americans"


def test_action_a_single_card_can_only_be_activated_once() -> None:
    state = build("invasion", {"table:axis": ["X25"], "table:allies": []}, phase="action")
    play(state, "activate Evacuation", "pass")
    assert legal_texts(state) == ["pass"]
    with pytest.raises(warcards.IllegalActionError, match="only be activated once"):
        play(state, "activate Evacuation")


def test_r1_a_pass_is_final_for_the_phase() -> None:
    state = build("invasion", {"table:axis": ["X25", "X26"], "table:allies": ["A17"]}, phase="action")
    play(state, "pass")
    assert state.current_player() == 0
    play(state, "activate Breakthrough")
    assert state.current_player() == 0  # the Axis passed: the Allies go on alone
    assert state.position()["passed"] == ["table:axis"]


def test_action_phase_ends_when_both_players_pass() -> None:
    state = build("invasion", {"table:axis": ["X10"], "table:allies": ["A04"]}, phase="action")
    play(state, "pass", "pass")
    assert state.position()["phase"] == "recovery"


def test_r24_sicily_axis_must_pass_twice_once_per_set() -> None:
    state = build("sicily", {"table:axis:americans": ["X25"], "table:axis:british": ["X26"]}, phase="action")
    play(state, "pass")
    assert state.position()["slot"] == "table:americans"
    play(state, "pass")
    assert state.position()["slot"] == "table:axis:british"
    assert is_legal(state, "activate X26") and not is_legal(state, "activate X25")
    play(state, "pass", "pass")
    assert state.position()["phase"] == "recovery"


def test_dt_discards_a_target_opponent_card_with_the_trait() -> None:
    state = build("invasion", {"table:axis": ["X28"], "table:allies": ["A02", "A04"]}, phase="action")
    assert legal_texts(state) == ["activate X28 Antitank Guns target A02 Sherman Tanks", "pass"]
    play(state, "activate Antitank Guns target Sherman Tanks")
    assert zone(state, "table:allies") == ["A04"]
    assert zone(state, "discard:allies") == ["A02"]


def test_dt_of_either_of_two_traits() -> None:
    state = build("invasion", {"table:axis": ["X11"], "table:allies": ["A02", "A04", "A05"]}, phase="action")
    assert legal_texts(state) == ["activate X11 Minefields target A02 Sherman Tanks",
                                  "activate X11 Minefields target A04 Infantry Division", "pass"]


def test_dt_a_target_without_the_trait_is_refused_citing_dt() -> None:
    state = build("invasion", {"table:axis": ["X28"], "table:allies": ["A04"]}, phase="action")
    with pytest.raises(warcards.IllegalActionError, match="DT"):
        play(state, "activate X28 target A04")


def test_r35_a_card_with_no_legal_target_cannot_be_activated() -> None:
    state = build("invasion", {"table:axis": ["X28"], "table:allies": ["A04"]}, phase="action")
    assert legal_texts(state) == ["pass"]


def test_r35_a_dt_card_must_name_a_target() -> None:
    state = build("invasion", {"table:axis": ["X28"], "table:allies": ["A02"]}, phase="action")
    with pytest.raises(warcards.IllegalActionError, match="target CARD"):
        play(state, "activate X28")


def test_dt_targets_the_also_trait() -> None:
    state = build("invasion", {"table:axis": ["X05"], "table:allies": ["A07"]}, phase="action")
    assert is_legal(state, "activate Luftwaffe target Operation Husky")


def test_cards_without_sa_cannot_be_activated() -> None:
    state = build("invasion", {"table:axis": ["X36", "X10"], "table:allies": []}, phase="action")
    assert legal_texts(state) == ["pass"]
    with pytest.raises(warcards.IllegalActionError, match="no special ability"):
        play(state, "activate Kesserlring")


def test_r18_night_bombing_is_immune_to_anti_air() -> None:
    state = build("invasion", {"table:axis": ["X02", "X40"], "table:allies": ["A20", "A05"]}, phase="action")
    texts = legal_texts(state)
    assert "activate X02 AA Guns target A05 Allied Bombs" in texts
    assert not any("A20" in t for t in texts)
    with pytest.raises(warcards.IllegalActionError, match="Immune to Anti-Air"):
        play(state, "activate AA Guns target Night Bombing")


def test_r18_night_bombing_immune_in_race_too() -> None:
    state = build("race", {"table:americans": ["X40"], "table:british": ["A20", "A19"]}, phase="action")
    assert legal_texts(state) == ["activate X40 Friendly Fire target A19 Paratroop Drop", "pass"]


def test_race_ally_cards_target_only_axis_cards_and_axis_cards_only_ally_cards() -> None:
    state = build("race", {"table:americans": ["A23", "X04"], "table:british": ["A18", "X08"]}, phase="action")
    texts = legal_texts(state)
    assert "activate A23 Grenades target X08 Blow Bridges" in texts
    assert "activate X04 Pill Boxes target A18 Engineers" in texts
    assert len(texts) == 3
    with pytest.raises(warcards.IllegalActionError, match="only to target your opponents revealed Axis"):
        play(state, "activate X04 target X08")


def test_r23_sicily_allies_target_only_the_set_facing_them() -> None:
    state = build("sicily", {"table:axis:americans": ["X08"], "table:axis:british": ["X09"],
                             "table:americans": ["A18"], "table:british": ["A23"]}, phase="action",
                  slot="table:americans")
    assert legal_texts(state) == ["activate A18 Engineers target X08 Blow Bridges", "pass"]


def test_r24_sicily_axis_set_targets_only_the_opponent_it_faces() -> None:
    state = build("sicily", {"table:axis:americans": ["X28"], "table:americans": ["A04"],
                             "table:british": ["A28"]}, phase="action")
    assert legal_texts(state) == ["pass"]


def test_supply_draw_then_keep_in_hand() -> None:
    state = build("invasion", {"table:allies": ["A06"], "table:axis": []}, phase="action", seat="allies",
                  passed=["table:axis"])
    play(state, "activate Aerodromes")
    assert state.current_player() == CHANCE
    play(state, "draw A15")
    assert legal_texts(state) == ["keep", "reveal"]
    assert state.observe(0)["supply"]["card"] == "A15"
    assert state.observe(1)["supply"]["card"] is None
    play(state, "keep")
    assert zone(state, "hand:allies") == ["A15"]


def test_r29_supply_revealed_card_joins_the_table_and_may_be_activated() -> None:
    state = build("invasion", {"table:allies": ["A06"], "table:axis": ["X10"]}, phase="action", seat="allies",
                  passed=["table:axis"])
    play(state, "activate Aerodromes", "draw A18", "reveal")
    assert zone(state, "table:allies") == ["A06", "A18"]
    assert is_legal(state, "activate Engineers target Bottleneck")


def test_r29_race_player_may_not_reveal_a_card_he_may_not_use() -> None:
    state = build("race", {"table:british": ["A09"]}, phase="action", seat="british",
                  passed=["table:americans"])
    play(state, "activate Harbor", "draw A38")
    assert legal_texts(state) == ["keep"]
    with pytest.raises(warcards.IllegalActionError, match="keep"):
        play(state, "reveal")


def test_race_supply_draws_from_the_mixed_deck_and_an_axis_card_may_be_revealed() -> None:
    state = build("race", {"table:americans": ["A09"]}, phase="action")
    play(state, "activate Harbor", "draw X21", "reveal")
    assert sorted(zone(state, "table:americans")) == ["A09", "X21"]


def test_r25_sicily_supply_revealed_axis_card_joins_the_supply_cards_set_up_to_7() -> None:
    full = ["X16", "X01", "X02", "X03", "X04", "X05", "X06"]
    state = build("sicily", {"table:axis:americans": full, "table:axis:british": ["X07"]}, phase="action")
    play(state, "activate German Buildup", "draw X20")
    assert legal_texts(state) == ["keep"]
    state = build("sicily", {"table:axis:british": ["X16"]}, phase="action", slot="table:axis:british")
    play(state, "activate German Buildup", "draw X20", "reveal")
    assert zone(state, "table:axis:british") == ["X16", "X20"]


def test_r33_recon_shows_the_opponent_hand_and_the_knowledge_is_kept() -> None:
    state = build("invasion", {"table:axis": ["X23"], "hand:allies": ["A01", "A02"], "table:allies": []},
                  phase="action")
    play(state, "activate Reconnaissance")
    obs = state.observe(1)
    assert obs["known_hands"] == {"allies": ["A01", "A02"]}
    assert any("Recon: allies hand is A01 Flanking Maneuver, A02 Sherman Tanks" in line for line in obs["log"])
    assert "A01" not in str(state.observe(0)["log"])
    play(state, "pass", "pass", "done", "discard A01", "done")
    assert state.observe(1)["known_hands"] == {"allies": ["A02"]}


def test_r25_sicily_recon_looks_at_the_hand_of_the_sets_opponent() -> None:
    state = build("sicily", {"table:axis:british": ["X23"], "hand:british": ["A03"], "hand:americans": ["A12"]},
                  phase="action", slot="table:axis:british")
    play(state, "activate Reconnaissance")
    assert state.observe(2)["known_hands"] == {"british": ["A03"]}


def test_hube_gains_1_pt_immediately() -> None:
    state = build("invasion", {"table:axis": ["X19"]}, phase="action", pt=[2, 5])
    play(state, "activate Hube")
    assert state.position()["pt"] == [2, 6]


def test_r8_race_hube_gives_its_owner_a_pt() -> None:
    state = build("race", {"table:british": ["X19"]}, phase="action", seat="british")
    play(state, "activate Hube")
    assert state.position()["pt"] == [1, 0]


def test_r30_progress_must_be_activated_to_count() -> None:
    state = build("invasion", {"table:allies": ["A17", "A15"], "table:axis": ["X30"]}, phase="action")
    play(state, "pass", "pass")
    assert state.position()["pt"] == [1, 0]


def test_progress_gains_1_pt_if_you_win_this_turn() -> None:
    state = build("invasion", {"table:allies": ["A17", "A15"], "table:axis": ["X30"]}, phase="action")
    play(state, "pass", "activate Breakthrough", "pass")
    assert state.position()["pt"] == [2, 0]


def test_progress_gives_nothing_when_the_hand_is_lost() -> None:
    state = build("invasion", {"table:allies": ["A17"], "table:axis": ["X21"]}, phase="action")
    play(state, "pass", "activate Breakthrough", "pass")
    assert state.position()["pt"] == [0, 0]


def test_r38_progress_card_discarded_before_resolution_pays_nothing() -> None:
    state = build("invasion", {"table:allies": ["A17", "A15"], "table:axis": ["X01", "X19"]}, phase="action")
    play(state, "activate Hube", "activate Breakthrough", "activate Rubble target Breakthrough", "pass", "pass")
    assert zone(state, "discard:allies") == ["A15", "A17"]
    assert state.position()["pt"] == [1, 1]  # the hand (10 vs 8) but not the discarded Breakthrough


def test_r25_sicily_axis_progress_pays_for_the_set_that_holds_its_hand() -> None:
    state = build("sicily", {"table:axis:americans": ["X26"], "table:americans": [],
                             "table:axis:british": [], "table:british": ["A04"]}, phase="action")
    play(state, "activate Fighting Withdrawal", "pass", "pass", "pass", "pass")
    assert state.position()["pt"] == [1, 0, 1]


def test_r40_a_supply_card_kept_may_take_the_hand_above_its_size() -> None:
    hand = [f"A{i:02d}" for i in range(20, 30)]
    state = build("invasion", {"table:allies": ["A06"], "hand:allies": hand}, phase="action", seat="allies",
                  passed=["table:axis"])
    play(state, "activate Aerodromes", "draw A15", "keep")
    assert len(zone(state, "hand:allies")) == 11


def test_invasion_axis_progress_pays_when_the_axis_holds_the_hand_even_on_a_tie() -> None:
    state = build("invasion", {"table:allies": ["A15"], "table:axis": ["X25", "X24"]}, phase="action")
    play(state, "activate Evacuation", "pass", "pass")
    assert state.position()["pt"] == [0, 1]  # 10 against 2 + 8: a tie, held by the Axis
