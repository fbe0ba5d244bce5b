"""Resolution (force totals, modifiers, ties, PT) and the victory conditions of each variant."""

from __future__ import annotations

from .helpers import build, play, zone


def resolve(variant: str, tables: dict[str, list[str]], pt: list[int] | None = None, **position: object) -> dict:
    """Build an Action phase with these tables, let every slot pass, return the position after Resolution."""
    state = build(variant, tables, phase="action", **({"pt": pt} if pt else {}), **position)
    while state.position()["phase"] == "action":
        play(state, "pass")
    return state.position()


def totals(variant: str, tables: dict[str, list[str]]) -> dict:
    state = build(variant, tables, phase="action")
    return state.observe(0)["totals"]


def test_resolution_greater_total_wins_the_hand_and_the_allies_gain_1_pt() -> None:
    assert resolve("invasion", {"table:allies": ["A15"], "table:axis": ["X24"]})["pt"] == [1, 0]


def test_r6_resolution_if_tied_the_axis_player_wins() -> None:
    assert resolve("invasion", {"table:allies": ["A15"], "table:axis": ["X21"]})["pt"] == [0, 0]


def test_r39_the_axis_gains_no_pt_for_winning_a_hand() -> None:
    assert resolve("invasion", {"table:allies": ["A02"], "table:axis": ["X21"]})["pt"] == [0, 0]


def test_r2_deployed_cards_are_discarded_after_resolution() -> None:
    state = build("invasion", {"table:allies": ["A15"], "table:axis": ["X21"], "hand:axis": ["X01"]},
                  phase="action")
    play(state, "pass", "pass")
    assert zone(state, "table:allies") == [] and zone(state, "table:axis") == []
    assert zone(state, "discard:allies") == ["A15"] and zone(state, "discard:axis") == ["X21"]
    assert zone(state, "hand:axis") == ["X01"]


def test_r14_modifiers_are_passive_kesserlring_gives_defense_and_terrain_2() -> None:
    # Kesserlring 10 + Bottleneck 7+2 + Mountain Town 9+2 + Etna Line 9+2 (once, R13) + Infiltration 7
    assert totals("invasion", {"table:axis": ["X36", "X10", "X20", "X47", "X22"]})["table:axis"] == {"total": 48}


def test_r11_general_alexander_boosts_every_leader_himself_included() -> None:
    # Alexander 4+1, Montgomery 9+1, Patton 10+1 (Patton's Inf/Tank bonus touches neither leader)
    assert totals("invasion", {"table:allies": ["A42", "A03", "A38"]})["table:allies"] == {"total": 26}


def test_r11_r12_guzzoni_boosts_the_four_italian_cards_not_himself() -> None:
    # Guzzoni 5; Italian 6th Army 3+1, Italian Tanks 3+1, Italian Guns 3+1, Italian Fleet 3+1; Garrisons 2
    assert totals("invasion", {"table:axis": ["X41", "X37", "X42", "X44", "X45", "X38"]})["table:axis"] == {
        "total": 5 + 4 * 4 + 2}


def test_modifiers_montgomery_airfields_tactical_air_support_patton() -> None:
    assert totals("invasion", {"table:allies": ["A03", "A21", "A07"]})["table:allies"] == {"total": 9 + 8 + 7}
    assert totals("invasion", {"table:allies": ["A08", "A05", "A19"]})["table:allies"] == {"total": 3 + 9 + 6}
    assert totals("invasion", {"table:allies": ["A41", "A04", "A19"]})["table:allies"] == {"total": 7 + 9 + 6}
    assert totals("invasion", {"table:allies": ["A38", "A02", "A04", "A16"]})["table:allies"] == {
        "total": 10 + 5 + 8 + 7}


def test_r10_modifiers_never_boost_the_opponents_cards() -> None:
    tables = {"table:allies": ["A03"], "table:axis": ["X13"]}
    assert totals("invasion", tables) == {"table:allies": {"total": 9}, "table:axis": {"total": 7}}


def test_r9_race_modifiers_boost_only_their_own_side_of_their_owners_table() -> None:
    # British: Montgomery (Ally) with Assault (Ally Strategy) and Ambush (Axis Strategy).
    tables = {"table:british": ["A03", "A21", "X13"], "table:americans": ["X36", "X10"]}
    shown = totals("race", tables)
    assert shown["table:british"] == {"ally": 9 + 8, "axis": 7}
    assert shown["table:americans"] == {"ally": 0, "axis": 10 + 9}


def test_r10_sicily_kesserlring_boosts_only_his_own_set() -> None:
    tables = {"table:axis:americans": ["X36", "X10"], "table:axis:british": ["X20"]}
    shown = totals("sicily", tables)
    assert shown["table:axis:americans"] == {"total": 19}
    assert shown["table:axis:british"] == {"total": 9}


def test_race_your_ally_total_against_the_opponents_axis_total() -> None:
    # British Ally 10 beats American Axis 9; American Ally 7 does not beat British Axis 7.
    position = resolve("race", {"table:british": ["A15", "X22"], "table:americans": ["A04", "X20"]})
    assert position["pt"] == [1, 0]


def test_race_both_players_may_win_the_turn() -> None:
    position = resolve("race", {"table:british": ["A15"], "table:americans": ["A04"]})
    assert position["pt"] == [1, 1]


def test_r6_race_a_tie_wins_nothing() -> None:
    position = resolve("race", {"table:british": ["A04"], "table:americans": ["X22"]})
    assert position["pt"] == [0, 0]


def test_r8_race_progress_pays_when_its_owner_wins_the_turn_even_on_the_axis_side() -> None:
    state = build("race", {"table:british": ["A15", "X25"], "table:americans": ["X03"]}, phase="action",
                  seat="british", passed=["table:americans"])
    play(state, "activate Evacuation", "pass")
    assert state.position()["pt"] == [2, 0]


def test_sicily_each_ally_plays_its_own_hand_against_its_set() -> None:
    tables = {"table:americans": ["A15"], "table:axis:americans": ["X22"],
              "table:british": ["A25"], "table:axis:british": []}
    assert resolve("sicily", tables)["pt"] == [1, 1, 0]
    tables = {"table:americans": ["A04"], "table:axis:americans": ["X22"], "table:british": [],
              "table:axis:british": []}
    assert resolve("sicily", tables)["pt"] == [0, 0, 0]


def test_invasion_victory_allies_reach_10_with_the_axis_at_15_or_less() -> None:
    position = resolve("invasion", {"table:allies": ["A15"]}, pt=[9, 15])
    assert position["phase"] == "over" and position["winner"] == "allies"


def test_r3_invasion_victory_is_checked_at_resolution_before_the_end_of_turn_pt() -> None:
    position = resolve("invasion", {"table:allies": ["A15"]}, pt=[9, 15])
    assert position["pt"] == [10, 15]


def test_r4_invasion_allies_reach_10_with_the_axis_at_16_the_axis_wins() -> None:
    position = resolve("invasion", {"table:allies": ["A15"]}, pt=[9, 16])
    assert position["phase"] == "over" and position["winner"] == "axis"


def test_invasion_axis_reaches_20_at_the_end_of_a_turn() -> None:
    state = build("invasion", {}, phase="recovery", seat="axis", pt=[5, 19])
    play(state, "done", "done")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_r3_hube_ends_the_game_at_once_when_the_axis_reaches_20() -> None:
    state = build("invasion", {"table:axis": ["X19"], "table:allies": ["A15"]}, phase="action", pt=[3, 19])
    play(state, "activate Hube")
    assert state.is_terminal() and state.position()["winner"] == "axis"


def test_race_first_to_10_wins() -> None:
    position = resolve("race", {"table:americans": ["A04"]}, pt=[5, 9])
    assert position["winner"] == "americans"


def test_r7_race_both_reach_10_together_more_pt_wins_equal_is_a_draw() -> None:
    tables = {"table:british": ["A15"], "table:americans": ["A04"]}
    assert resolve("race", tables, pt=[9, 9])["winner"] == "draw"
    state = build("race", tables, phase="action", pt=[9, 9])
    play(state, "pass", "pass")
    assert state.returns() == [0.0, 0.0]


def test_r7_race_both_reach_10_with_progress_the_higher_total_wins() -> None:
    state = build("race", {"table:british": ["A15", "A17"], "table:americans": ["A04"]}, phase="action",
                  pt=[9, 9], seat="british", passed=["table:americans"])
    play(state, "activate Breakthrough", "pass")
    assert state.position()["pt"] == [11, 10]
    assert state.position()["winner"] == "british"


def test_r37_race_table_limit_leader_wins() -> None:
    state = build("race", {}, phase="recovery", seat="americans", pt=[4, 6], turn=50)
    play(state, "done", "done")
    assert state.position()["winner"] == "americans"


def test_sicily_axis_wins_at_16() -> None:
    state = build("sicily", {}, phase="recovery", seat="axis", pt=[9, 9, 15])
    play(state, "done", "done", "done")
    assert state.position()["winner"] == "axis"
    assert state.returns() == [-1.0, -1.0, 1.0]


def test_sicily_an_ally_reaching_10_wins() -> None:
    position = resolve("sicily", {"table:americans": ["A04"]}, pt=[9, 9, 14])
    assert position["winner"] == "americans"


def test_r4_sicily_both_allies_reach_10_together_the_axis_wins_the_tie() -> None:
    position = resolve("sicily", {"table:americans": ["A04"], "table:british": ["A25"]}, pt=[9, 9, 3])
    assert position["pt"] == [10, 10, 3]
    assert position["winner"] == "axis"


def test_r32_the_pt_pool_is_unlimited() -> None:
    position = resolve("sicily", {"table:americans": ["A04"]}, pt=[9, 9, 15])
    assert position["pt"] == [9, 10, 15]  # a 34th token is still there to take


def test_r41_returns_winner_plus_one_every_other_seat_minus_one() -> None:
    state = build("sicily", {"table:british": ["A04"]}, phase="action", pt=[9, 3, 7])
    while not state.is_terminal():
        play(state, "pass")
    assert state.returns() == [1.0, -1.0, -1.0]
    assert build("sicily", {}, phase="action").returns() == [0.0, 0.0, 0.0]
