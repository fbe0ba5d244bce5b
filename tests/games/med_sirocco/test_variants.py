"""4.0 two players, 5.0 advanced rules and the optional rules 6.1–6.4."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from tests.games.med_sirocco.helpers import build, game, is_legal, legal_texts, play, settle, zone

from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE
from warcards.games.med_sirocco.heuristic import heuristic_agent
from warcards.games.med_sirocco.params import Numbers
from warcards.games.med_sirocco.render import render
from warcards.games.med_sirocco.state import MedSiroccoState

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


def test_5_0_the_winner_names_the_receiver_of_each_prize_card() -> None:
    state = build({0: ["A01"], 1: ["X13"], 2: ["A12"], 3: ["X14"]}, operation="O05", options={"advanced": True})
    play(state, "type surface", "play A01", "done", "play X13", "done", "play A12", "done", "play X14", "done")
    assert state.position()["phase"] == "share" and state.current_player() == 0
    assert zone(state, "operation") == ["O05"] and zone(state, "prizes") == ["X13", "X14"]
    board = " ".join(render(state.observe(0), 0).split())
    assert "Prizes to share (5.0), next first: O05 Hats, X13 Bolzano, X14 Navigatori dest…" in board
    assert legal_texts(state) == ["seat 0", "seat 2"]
    play(state, "seat 2")  # the Operation (and its half freighter, 1.5) to seat 2
    assert legal_texts(state) == ["seat 0", "seat 2"]
    play(state, "seat 2")  # X13 to seat 2 as well: X14 must now go to seat 0, without asking
    assert zone(state, "won:2") == ["O05"] and zone(state, "captured:2") == ["X13"]
    assert zone(state, "captured:0") == ["X14"] and state.freighters_half[2] == 1 and state.freighters_half[0] == 0


def _text_splits(pool: list[str], players: list[int]) -> set[frozenset[tuple[str, int]]]:
    """5.0 read literally: the winner hands the cards out one by one in any order he likes, each to any
    player who has received the fewest so far ("Each player ... must receive at least one card before any
    player can receive a 2nd card ... and so on"). Every split that process can end in."""
    out: set[frozenset[tuple[str, int]]] = set()

    def deal(left: tuple[str, ...], given: frozenset[tuple[str, int]]) -> None:
        if not left:
            out.add(given)
            return
        counts = {q: sum(1 for _, r in given if r == q) for q in players}
        low = min(counts.values())
        for i, card in enumerate(left):
            for q in players:
                if counts[q] == low:
                    deal(left[:i] + left[i + 1:], given | {(card, q)})

    deal(tuple(pool), frozenset())
    return out


def _reachable_splits(state: MedSiroccoState) -> set[frozenset[tuple[str, int]]]:
    """Every split the winner can reach from a position in the share phase (all his choices explored)."""
    pool = set(zone(state, "operation") + zone(state, "prizes"))
    out: set[frozenset[tuple[str, int]]] = set()

    def explore(s: MedSiroccoState) -> None:
        if s.position()["phase"] == "share":
            for action in s.legal_actions():
                child = s.clone()
                child.apply_action(action)
                explore(child)
            return
        out.add(frozenset((card, q) for q in range(s.num_players) for card in zone(s, f"won:{q}") + zone(s, f"captured:{q}")
                          if card in pool))

    explore(state)
    return out


@pytest.mark.parametrize(("hands", "winners", "count"), [
    ({0: ["A01"], 1: ["X13"], 2: ["A12"], 3: ["X14"]}, [0, 2], 6),
    ({0: ["A01"], 1: ["X13"], 2: ["A12"], 3: ["X14"], 4: ["A13"], 5: ["X15"]}, [0, 2, 4], 36),
], ids=["4p-3-cards-2-players", "6p-4-cards-3-players"])
def test_5_0_every_split_the_text_allows_is_reachable(hands: dict[int, list[str]], winners: list[int],
                                                      count: int) -> None:
    state = build(hands, players=len(hands), operation="O05", options={"advanced": True})
    play(state, "type surface")
    for seat in range(len(hands)):
        play(state, f"play {hands[seat][0]}", "done")
    assert state.position()["phase"] == "share" and state.share_eligible == winners
    pool = zone(state, "operation") + zone(state, "prizes")
    text = _text_splits(pool, winners)
    assert len(text) == count
    assert _reachable_splits(state) == text


def test_5_0_each_split_is_reached_by_one_sequence_of_choices() -> None:
    hands = {0: ["A01"], 1: ["X13"], 2: ["A12"], 3: ["X14"], 4: ["A13"], 5: ["X15"]}
    state = build(hands, players=6, operation="O05", options={"advanced": True})
    play(state, "type surface", *(text for seat in range(6) for text in (f"play {hands[seat][0]}", "done")))
    leaves = 0
    stack = [state]
    while stack:
        s = stack.pop()
        if s.position()["phase"] != "share":
            leaves += 1
            continue
        for action in s.legal_actions():
            child = s.clone()
            child.apply_action(action)
            stack.append(child)
    assert leaves == 36


def test_5_0_the_heuristic_keeps_the_most_valuable_prize_cards() -> None:
    hands = {0: ["A01"], 1: ["X13"], 2: ["A12"], 3: ["X14"], 4: ["A13"], 5: ["X15"]}
    state = build(hands, players=6, operation="O05", options={"advanced": True})
    play(state, "type surface", *(text for seat in range(6) for text in (f"play {hands[seat][0]}", "done")))
    bot = heuristic_agent(state.game, 0, 1)
    while state.position()["phase"] == "share":
        state.apply_action(bot.step(SeatView(state, 0)))
    # Four cards for three players: the winner may keep two, and keeps the two worth most (O05 3 VP and a half
    # freighter, X13 and X15 2 VP each: O05 and the lower-numbered of the two).
    assert zone(state, "won:0") == ["O05"] and zone(state, "captured:0") == ["X13"]
    assert len(zone(state, "captured:2")) == len(zone(state, "captured:4")) == 1


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


def test_numbers_pickle_with_every_field_through_their_reduce() -> None:
    """`Numbers.__reduce__` (a frozen dataclass compiled by mypyc cannot be unpickled the default way) gives
    every field, in order: a changed value of each survives a round trip."""
    changed = Numbers(**{f.name: getattr(Numbers(), f.name) + 1 for f in dataclasses.fields(Numbers)})
    assert changed.__reduce__()[1] == dataclasses.astuple(changed)
    assert pickle.loads(pickle.dumps(changed)) == changed

