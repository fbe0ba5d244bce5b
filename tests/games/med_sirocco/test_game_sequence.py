"""1.0–1.5: preparation, the game sequence, hand size, drawing, discards, scoring and the end of the game."""

from __future__ import annotations

from tests.games.med_sirocco.helpers import build, game, legal_texts, play, settle, zone

from warcards.engine.api import CHANCE


def test_1_3_six_cards_dealt_to_each_player_from_the_force_pile() -> None:
    for players in (2, 4, 6):
        state = settle(game(players).new_initial_state())
        assert [len(h) for h in state.hands] == [6] * players
        assert len(state.pile) == 121 - 6 * players
        assert len(state.operations_pile) == 43 and state.operation >= 121  # first Operation turned over


def test_1_3_operations_are_never_in_the_force_pile() -> None:
    state = game(4).new_initial_state()
    assert state.current_player() == CHANCE
    assert all(c < 121 for c, _ in state.chance_outcomes())
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1.0) < 1e-9


def test_1_4_a_dealer_starts_then_the_player_to_his_left() -> None:
    state = settle(game(4).new_initial_state())
    assert state.position()["dealer"] == 0 and state.first_player == 0 and state.current_player() == 0
    state = build({0: ["A12"], 1: [], 2: [], 3: []}, operation="O05", first=0)
    play(state, "type surface", "play A12", "done", "pass", "pass", "pass")
    settle(state)
    assert state.first_player == 1 and state.position()["operations_done"] == 1


def test_1_4_b_the_operation_card_says_convoy_or_battle() -> None:
    convoy = build({0: ["A12"]}, operation="O05")
    assert convoy.position()["kind"] == "convoy" and convoy.position()["phase"] == "declare-type"
    battle = build({0: ["A12"]}, operation="O03")
    assert battle.position()["kind"] == "battle" and battle.position()["engagement_type"] == "combined"
    assert battle.position()["phase"] == "turn"


def test_1_4_c_play_discard_one_or_discard_all() -> None:
    state = build({0: ["A12", "A31", "X13"]}, operation="O05")
    play(state, "type surface")
    assert legal_texts(state) == ["play A12", "play A31", "play X13", "discard A12", "discard A31",
                                  "discard X13", "discard all"]
    play(state, "discard all")
    assert zone(state, "hand:0") == [] and zone(state, "discard") == ["A12", "A31", "X13"]
    assert state.current_player() == 1


def test_1_4_c_one_side_per_player_per_engagement() -> None:
    state = build({0: ["A12", "X44", "A46"]}, operation="O05")
    play(state, "type surface", "play A12")
    assert "play X44" not in legal_texts(state)
    err = _error(state, "play X44")
    assert "3.1/3.2" in err and "Allies" in err
    play(state, "play A46", "done")
    assert state.position()["sides"][0] == "allies"


def test_1_5_hands_refilled_in_order_from_the_first_player() -> None:
    state = build({0: ["A12"], 1: ["X13"], 2: [], 3: []}, operation="O05", first=2)
    play(state, "type surface", "pass", "pass", "play A12", "done", "discard X13")
    assert state.current_player() == CHANCE
    assert state.draw_queue[:6] == [2] * 6  # seat 2 (the 1st player) draws first, six cards
    assert state.draw_queue == [2] * 6 + [3] * 6 + [0] * 6 + [1] * 6


def test_1_5_hand_size_grows_with_freighters_to_nine() -> None:
    state = build({0: []}, operation="O05")
    state.freighters_full[0], state.freighters_half[0] = 1, 3
    assert state.position()["hand_limits"][0] == 8
    state.freighters_full[0] = 5
    assert state.position()["hand_limits"][0] == 9


def test_1_5_won_freighters_count() -> None:
    state = build({0: ["A12"], 1: [], 2: [], 3: []}, operation="O10")  # Sonnenblume: full freighter
    play(state, "type surface", "play A12", "done", "pass", "pass", "pass")
    assert state.freighters_full[0] == 1 and state.position()["hand_limits"][0] == 7


def test_1_5_discards_reshuffled_when_the_pile_is_exhausted() -> None:
    rest = [f"A{i:02d}" for i in range(13, 60)] + [f"X{i:02d}" for i in range(1, 56)] + \
        [f"S{i:02d}" for i in range(1, 8)] + ["A02", "A03", "A04", "A05", "A06", "A07", "A08", "A09", "A10", "A11"]
    state = build({0: ["A12"], 1: [], 2: [], 3: []}, operation="O05", zones={"discard": rest, "pile": ["A01"]})
    play(state, "type surface", "play A12", "done", "pass", "pass", "pass")
    play(state, "draw A01")  # the last card of the pile
    assert state.current_player() == CHANCE and zone(state, "hand:0") == ["A01"]
    outcomes = sorted(state.action_to_string(c)[5:] for c, _ in state.chance_outcomes())
    assert outcomes == sorted([*rest, "A12"]) and zone(state, "discard") == []


def test_1_0_destroyed_cards_kept_by_their_destroyer() -> None:
    state = build({0: ["A01"], 1: ["X13"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A01", "done", "play X13", "done", "pass", "pass")
    assert zone(state, "captured:0") == ["X13"] and zone(state, "won:0") == ["O05"]
    assert "X13" not in zone(state, "discard") and "A01" in zone(state, "discard")


def test_1_1_vp_for_operations_and_sunk_cards() -> None:
    state = build({0: ["A01"], 1: ["X13"], 2: [], 3: []}, operation="O05")
    play(state, "type surface", "play A01", "done", "play X13", "done", "pass", "pass")
    assert state.position()["vp"][0] == 3 + 2  # Hats 3 VP + Bolzano 2 VP


def test_1_2_end_after_the_last_operation_and_tie_break_on_operations_won() -> None:
    state = build({0: ["A12"], 1: ["X13"], 2: [], 3: []}, operation="O05", operations_done=21,
                  zones={"won:1": ["O01", "O03"], "won:2": ["O07"], "captured:2": ["A31", "A34"]})
    # before: seat 1 has 1 + 4 = 5 VP in two Operations; seat 2 has 3 + 1 + 1 = 5 VP in one.
    play(state, "type surface", "discard A12", "discard X13", "pass", "pass")
    settle(state)
    assert state.is_terminal()
    assert state.position()["vp"][1] == state.position()["vp"][2] == 5
    assert state.returns() == [0.0, 1.0, 0.0, 0.0]


def test_1_2_full_tie_shares_the_win() -> None:
    state = build({}, operation="O05", operations_done=21,
                  zones={"won:1": ["O07"], "won:2": ["O02"]})
    play(state, "type surface", "pass", "pass", "pass", "pass")
    settle(state)
    assert state.returns() == [0.0, 0.5, 0.5, 0.0]


def test_1_2_series_play_to_75_vp() -> None:
    g = game(2, series=True, operations=10)
    state = settle(g.new_initial_state())
    state.operations_done = 10
    state.series_vp = [70, 10]
    state.won[0] = []
    state.operation = -1
    state.stage = 0
    state.phase = 0
    state.chance_kind = -1
    state.entry_card = []
    from warcards.games.med_sirocco import rules

    state.captured[0].append(state.table.index["A01"])  # 5 VP: series total 75
    rules.advance(state)
    assert state.is_terminal() and state.returns() == [1.0, 0.0]
    state2 = settle(g.new_initial_state())
    state2.operations_done = 10
    state2.series_vp = [10, 10]
    state2.operation = -1
    state2.stage = 0
    state2.phase = 0
    state2.chance_kind = -1
    rules.advance(state2)
    settle(state2)
    assert not state2.is_terminal() and state2.position()["game"] == 2 and state2.dealer == 1


def _error(state, text: str) -> str:  # type: ignore[no-untyped-def]
    try:
        play(state, text)
    except ValueError as error:
        return str(error)
    raise AssertionError(f"{text} was accepted")
