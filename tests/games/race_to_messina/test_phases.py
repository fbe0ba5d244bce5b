"""Logistics, Strategy, Deployment and Recovery (rule text phases 1, 2, 3 and 6)."""

from __future__ import annotations

import pytest

import warcards
from warcards.engine.api import CHANCE
from warcards.engine.errors import OptionError, SetupError

from .helpers import build, game, is_legal, legal_texts, play, zone


def fill_hands(state: warcards.State) -> None:
    """Draw the lowest card at every Logistics chance node."""
    while state.current_player() == CHANCE and state.position()["phase"] == "logistics":
        state.apply_action(state.legal_actions()[0])


@pytest.mark.parametrize(
    ("variant", "sizes"),
    [("invasion", {"allies": 10, "axis": 10}), ("race", {"british": 12, "americans": 12}),
     ("sicily", {"british": 7, "americans": 7, "axis": 14})],
)
def test_logistics_fills_each_hand_to_the_variant_size(variant: str, sizes: dict[str, int]) -> None:
    state = game(variant).new_initial_state()
    assert state.current_player() == CHANCE
    fill_hands(state)
    assert state.position()["phase"] == "strategy"
    for seat, size in sizes.items():
        assert len(zone(state, f"hand:{seat}")) == size


def test_logistics_two_decks_allies_draw_ally_cards_axis_draw_axis_cards() -> None:
    state = game("invasion").new_initial_state()
    fill_hands(state)
    assert all(c.startswith("A") for c in zone(state, "hand:allies"))
    assert all(c.startswith("X") for c in zone(state, "hand:axis"))


def test_logistics_race_uses_one_mixed_deck() -> None:
    state = game("race").new_initial_state()
    assert set(state.zones()) >= {"deck", "discard"}
    assert len(zone(state, "deck")) == 94
    assert state.chance_outcomes()[0][0] == 0 and len(state.chance_outcomes()) == 94


def test_r21_sicily_logistics_fills_to_14_7_7_not_draws_14_7_7() -> None:
    state = build("sicily", {"hand:axis": ["X01", "X02"], "hand:british": ["A01"]}, phase="logistics")
    fill_hands(state)
    assert len(zone(state, "hand:axis")) == 14
    assert len(zone(state, "hand:british")) == 7
    assert len(zone(state, "hand:americans")) == 7


def test_logistics_note_a_deck_that_runs_out_is_refilled_from_its_discard() -> None:
    axis_cards = [f"X{i:02d}" for i in range(1, 48)]
    state = build("invasion", {"hand:axis": axis_cards[:9], "discard:axis": axis_cards[9:], "deck:axis": []},
                  phase="logistics", seat="axis")
    assert state.current_player() == CHANCE
    assert len(zone(state, "deck:axis")) == 38 and zone(state, "discard:axis") == []
    play(state, "draw X47")
    assert len(zone(state, "hand:axis")) == 10


def test_r27_each_deck_reshuffles_only_its_own_discard_pile() -> None:
    ally = [f"A{i:02d}" for i in range(1, 48)]
    state = build("invasion", {"hand:allies": ally[:9], "discard:allies": ally[9:], "deck:allies": [],
                               "discard:axis": ["X01"]}, phase="logistics", seat="allies")
    assert zone(state, "discard:axis") == ["X01"]
    assert all(card.startswith("A") for card, _ in
               [(state.game.table.ids[a], p) for a, p in state.chance_outcomes()])


def test_r36_draws_stop_when_deck_and_discard_are_both_empty() -> None:
    # Every Allied card is in play, so a Supply draw (A06 Aerodromes) finds nothing and the turn passes on.
    # (A short hand in Logistics cannot be set up: the cards not in it would have to be in the deck.)
    ally = [f"A{i:02d}" for i in range(1, 48) if i != 6]
    state = build("invasion", {"table:allies": ["A06"], "table:axis": ["X10"], "hand:allies": ally,
                               "discard:allies": [], "deck:allies": []},
                  phase="action", seat="allies", passed=["table:axis"])
    play(state, "activate Aerodromes")
    assert state.current_player() == 0 and state.position()["supply"] is None
    assert zone(state, "hand:allies") == ally and zone(state, "deck:allies") == []


def test_r34_strategy_order_follows_the_activation_order_axis_first() -> None:
    state = game("invasion").new_initial_state()
    fill_hands(state)
    assert state.current_player() == 1
    state = game("race").new_initial_state()
    fill_hands(state)
    assert state.current_player() == 1  # the Americans
    state = game("sicily").new_initial_state()
    fill_hands(state)
    assert state.current_player() == 2  # the Axis


@pytest.mark.parametrize(("variant", "limit"), [("invasion", 5), ("race", 4), ("sicily", 3)])
def test_strategy_discard_limit_per_variant(variant: str, limit: int) -> None:
    state = game(variant).new_initial_state()
    fill_hands(state)
    for _ in range(limit):
        assert len(state.legal_actions()) > 1
        state.apply_action(state.legal_actions()[0])
    assert legal_texts(state) == ["done"]
    with pytest.raises(warcards.IllegalActionError, match=f"up to {limit} cards"):
        state.apply_action(state.parse_action(f"discard {state.observe(state.current_player())['hand'][0]}"))


def test_r26_strategy_replacements_are_drawn_after_done_and_cannot_be_discarded() -> None:
    axis = [f"X{i:02d}" for i in range(1, 11)]
    state = build("invasion", {"hand:axis": axis}, phase="strategy", seat="axis")
    play(state, "discard X01", "discard X02", "done")
    assert zone(state, "discard:axis") == ["X01", "X02"]
    assert state.current_player() == CHANCE
    play(state, "draw X20", "draw X30")
    assert state.current_player() == 0  # the Allies' Strategy: the Axis may not discard X20 now
    assert sorted(zone(state, "hand:axis")) == sorted([*axis[2:], "X20", "X30"])


def test_r42_strategy_discards_are_public() -> None:
    state = build("invasion", {"hand:axis": ["X01", "X02"]}, phase="strategy", seat="axis")
    play(state, "discard X01")
    assert state.observe(0)["discards"]["discard:axis"] == ["X01"]
    assert "axis discards X01 Rubble" in state.observe(0)["log"]


def test_r31_deployment_choices_stay_hidden_until_all_are_done() -> None:
    state = build("invasion", {"hand:axis": ["X01", "X02", "X03"], "hand:allies": ["A01", "A02"]},
                  phase="deployment", seat="axis")
    before = state.observe(0)
    play(state, "deploy X01", "deploy X02", "done")
    after = state.observe(0)
    assert after["hand_sizes"] == before["hand_sizes"] == {"allies": 2, "axis": 3}
    assert after["table"] == before["table"]
    assert "X01" not in str(after)
    assert state.observe(1)["deploying"] == {"deploying:axis": ["X01", "X02"]}
    play(state, "deploy A01", "done")
    assert state.position()["phase"] == "action"
    assert zone(state, "table:axis") == ["X01", "X02"]
    assert zone(state, "table:allies") == ["A01"]


def test_r31_a_player_may_deploy_no_card() -> None:
    state = build("invasion", {"hand:axis": ["X01"], "hand:allies": ["A01"]}, phase="deployment", seat="axis")
    play(state, "done", "done")
    assert state.position()["phase"] == "action"
    assert zone(state, "table:axis") == [] and zone(state, "table:allies") == []
    assert zone(state, "hand:axis") == ["X01"]


def test_deployment_cards_not_played_stay_in_hand() -> None:
    state = build("invasion", {"hand:axis": ["X01", "X02"], "hand:allies": ["A01"]}, phase="deployment",
                  seat="axis")
    play(state, "deploy X01", "done", "done")
    assert zone(state, "hand:axis") == ["X02"]


def test_r20_invasion_ally_player_may_deploy_aa_and_ab_cards() -> None:
    state = build("invasion", {"hand:allies": ["A03", "A38"]}, phase="deployment", seat="allies")
    assert is_legal(state, "deploy Montgomery") and is_legal(state, "deploy General Patton")


def test_r20_race_aa_cards_only_americans_ab_cards_only_british() -> None:
    state = build("race", {"hand:british": ["A03", "A38", "X01"]},
                  phase="deployment", seat="british")
    assert is_legal(state, "deploy Montgomery")
    assert is_legal(state, "deploy Rubble")
    assert not is_legal(state, "deploy General Patton")
    with pytest.raises(warcards.IllegalActionError, match="only be used by the American player"):
        play(state, "deploy General Patton")


def test_r20_sicily_aa_card_cannot_be_deployed_by_the_british() -> None:
    state = build("sicily", {"hand:british": ["A12", "A13"]}, phase="deployment", seat="british")
    assert legal_texts(state) == ["deploy A13 1st Canadian Division", "done"]


def test_sicily_deployment_axis_deploys_two_sets_of_at_most_7() -> None:
    axis = [f"X{i:02d}" for i in range(1, 15)]
    state = build("sicily", {"hand:axis": axis}, phase="deployment", seat="axis")
    for card in axis[:7]:
        play(state, f"deploy {card} vs americans")
    assert not any(t.startswith("deploy") and t.endswith("vs americans") for t in legal_texts(state))
    with pytest.raises(warcards.IllegalActionError, match="max of 7"):
        play(state, "deploy X08 vs americans")
    for card in axis[7:]:
        play(state, f"deploy {card} vs british")
    assert legal_texts(state) == ["done"]


def test_r22_sicily_axis_may_leave_a_set_empty() -> None:
    state = build("sicily", {"hand:axis": ["X10"], "hand:americans": ["A04"], "hand:british": ["A25"]},
                  phase="deployment", seat="axis")
    play(state, "deploy X10 vs americans", "done", "deploy A04", "done", "deploy A25", "done")
    assert zone(state, "table:axis:british") == []
    assert state.position()["phase"] == "action"


def test_sicily_axis_deploy_without_a_set_is_refused_with_the_forms() -> None:
    state = build("sicily", {"hand:axis": ["X10"]}, phase="deployment", seat="axis")
    with pytest.raises(warcards.InvalidActionError, match="vs british"):
        state.parse_action("deploy X10")


def test_recovery_discard_down_to_2_then_axis_gains_1_pt() -> None:
    state = build("invasion", {"hand:axis": ["X01", "X02", "X03"], "hand:allies": ["A01"]}, phase="recovery",
                  seat="axis", pt=[0, 3])
    assert legal_texts(state) == ["discard X01 Rubble", "discard X02 AA Guns", "discard X03 Counter Attack"]
    with pytest.raises(warcards.IllegalActionError, match="down to 2 cards or less"):
        play(state, "done")
    play(state, "discard X01", "done", "done")
    assert state.position()["pt"] == [0, 4]
    assert state.position()["turn"] == 2
    assert state.position()["phase"] == "logistics"


def test_r28_recovery_may_discard_below_2() -> None:
    state = build("invasion", {"hand:axis": ["X01", "X02"]}, phase="recovery", seat="axis")
    play(state, "discard X01", "discard X02", "done")
    assert zone(state, "hand:axis") == []


def test_r5_race_has_no_end_of_turn_pt() -> None:
    state = build("race", {}, phase="recovery", seat="americans", pt=[3, 4])
    play(state, "done", "done")
    assert state.position()["pt"] == [3, 4]
    assert state.position()["turn"] == 2


def test_sicily_recovery_axis_gains_1_pt_at_end_of_turn() -> None:
    state = build("sicily", {}, phase="recovery", seat="axis", pt=[1, 2, 3])
    play(state, "done", "done", "done")
    assert state.position()["pt"] == [1, 2, 4]


def test_options_variant_and_players() -> None:
    assert game("sicily").num_players == 3
    assert warcards.load_game("race-to-messina", variant="race", players=2).num_players == 2
    with pytest.raises(OptionError, match="variant"):
        warcards.load_game("race-to-messina", variant="normandy")
    with pytest.raises(OptionError, match="players"):
        warcards.load_game("race-to-messina", variant="sicily", players=2)
    assert game().seat_names() == ["allies", "axis"]
    assert game("race").seat_names() == ["british", "americans"]
    assert game("sicily").seat_names() == ["british", "americans", "axis"]


def test_setup_refuses_lost_duplicated_or_misplaced_cards() -> None:
    with pytest.raises(SetupError, match="placed twice"):
        build("invasion", {"hand:axis": ["X01"], "discard:axis": ["X01"]})
    with pytest.raises(SetupError, match="unknown card"):
        build("invasion", {"hand:axis": ["X99"]})
    with pytest.raises(SetupError, match="other deck"):
        build("invasion", {"hand:axis": ["A01"]})
    with pytest.raises(SetupError, match="unknown zone"):
        build("invasion", {"hand:british": ["A01"]})
    with pytest.raises(SetupError, match="unknown position field"):
        build("invasion", {}, score=3)
    with pytest.raises(SetupError, match="AA/AB"):
        build("race", {"table:british": ["A38"]}, phase="action")
