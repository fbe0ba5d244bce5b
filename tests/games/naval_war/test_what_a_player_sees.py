"""Issue 23, "What a player sees", for Naval War: the per-seat log in player's words (every deal, draw, die,
ship sunk and score change a seat saw, and no card it may not know), the result with its reason, move labels
(the notation first, then names), the spectator's view, and the board and prompt line that fit 80x24."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from tests.games.naval_war.helpers import build, game, play

from warcards.engine import CHANCE, GameResult, LogLine, apply_logged_lines, sample_chance
from warcards.engine.agents import SeatView
from warcards.games.naval_war.codes import DEEP, Phase
from warcards.games.naval_war.heuristic import heuristic_agent
from warcards.games.naval_war.log import card_names, kind_name
from warcards.games.naval_war.notation import parse_action
from warcards.games.naval_war.render import STATUS_WIDTH, WIDTH, render, status
from warcards.games.naval_war.rules import deal_seat
from warcards.games.naval_war.state import NavalWarState
from warcards.testing.leaks import LeakScan

Seat = int | None

GAMES: list[tuple[dict[str, Any], str, int]] = [
    ({"players": 3, "target": 20}, "random", 1),
    ({"players": 2, "target": 20, "kamikaze": True, "draw_past_specials": True}, "heuristic", 2),
    ({"players": 4, "target": 20, "night": True, "kamikaze": True, "fleets": "2x2"}, "random", 3),
    ({"players": 3, "target": 20, "night": True, "mines_two": True}, "heuristic", 4),
    ({"players": 5, "target": 20, "gunnery": True}, "heuristic", 5),
    ({"players": 6, "target": 20, "fleets": "3x2", "extra_cards": 1}, "random", 6),
    ({"players": 9, "target": 20, "additional_ship": False}, "random", 9),
]
"""(options, bots, seed): a few player counts, night actions, fleets and every other option, random and
heuristic bots; each is played to its end."""

_PHASE_IDS = re.compile(r"\b(deal-ships|deal-cards|dd-target|dd-sink|additional-ship|air-strike)\b")


def _sunk(before: NavalWarState, after: NavalWarState) -> list[int]:
    """The ships the step sank, read off the positions (the round's end positions when the step ended it)."""
    ended = after.round_index != before.round_index or after.phase == Phase.END != before.phase
    ships = after.ended_ships if ended else after.ship_position
    return [s for s, (was, now) in enumerate(zip(before.ship_position, ships, strict=True)) if was < DEEP <= now]


def _round_ended(before: NavalWarState, after: NavalWarState) -> bool:
    return after.round_index != before.round_index or (after.phase == Phase.END and before.phase != Phase.END)


def _check_events(before: NavalWarState, action: int, after: NavalWarState, logs: dict[Seat, list[LogLine]]) -> None:
    """Every seat's lines name the card it drew (others read 'a card'), the die, every ship sunk and every
    score change."""
    table = before.table
    texts = {seat: "\n".join(line.text for line in lines) for seat, lines in logs.items()}
    chance = before.game.chance_layout
    if before.to_act == CHANCE and before.phase in (Phase.DEAL_CARD, Phase.REFILL, Phase.DRAW):
        kind = action - chance.card
        name = kind_name(table, kind)
        drawer = before.turn_player if before.phase != Phase.DEAL_CARD else deal_seat(before)
        for seat, text in texts.items():
            if seat == drawer or (before.phase == Phase.DRAW and table.kind_red[kind]):
                assert name in text, (seat, text)
            else:
                assert re.search(r"(draws|is dealt) a card", text), (seat, text)
    if before.to_act == CHANCE and before.phase == Phase.ROLL:
        for text in texts.values():
            assert f"Die {action - chance.die + 1}:" in text
    for s in _sunk(before, after):
        for text in texts.values():
            assert f"{table.ship_names[s]} is sunk: {table.ship_hits[s]} points to" in text, text
    for j in range(before.num_players):
        if after.scores[j] != before.scores[j]:
            for seat, text in texts.items():
                who = "You" if seat == j else f"Player {j}"
                assert f"{who}: {after.scores[j] - before.scores[j]:+d} (" in text
                assert f"= {after.scores[j]} points" in text
    if _round_ended(before, after):
        for lines in logs.values():
            assert any(line.kind == "summary" and line.text.startswith("Round ") for line in lines)


def _play_and_scan(options: dict[str, Any], bots: str, seed: int) -> NavalWarState:
    loaded = game(**options)
    state = loaded.new_initial_state()
    n = loaded.num_players
    seats: list[Seat] = [*range(n), None]
    names = card_names(state.table)
    scans = {seat: LeakScan(state, seat, names) for seat in seats}
    agents = [heuristic_agent(loaded, seat, seed) for seat in range(n)] if bots == "heuristic" else None
    rng = random.Random(seed)
    hidden_seen = False
    steps = 0
    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            action = sample_chance(state.chance_outcomes(), rng.random())
        elif agents is not None:
            action = agents[actor].step(SeatView(state, actor))
        else:
            action = rng.choice(state.legal_actions())
        before = state.clone()
        logs = apply_logged_lines(state, action, seats)
        steps += 1
        _check_events(before, action, state, logs)
        public = json.dumps(state.public_view(), sort_keys=True)
        for seat, scan in scans.items():
            scan.see(state)
            if _round_ended(before, state):
                # The ships sunk in a round's last step lie face up in the Deep Six piles (Sinking) until the
                # next deal clears the table: every seat has seen them.
                scan.known |= {state.table.ship_ids[s] for s, pos in enumerate(state.ended_ships) if pos >= DEEP}
            for line in logs[seat]:
                assert not scan.leaks(line.text), (seat, line.text, scan.leaks(line.text))
            assert scan.ids_in(public) <= scan.known, (seat, scan.ids_in(public) - scan.known)
            hidden_seen = hidden_seen or bool(scan.hidden())
            if steps % 7 and not state.is_terminal():
                continue
            view = state.public_view() if seat is None else state.observe(seat)
            board = render(view, seat)
            assert not scan.leaks(board) and not scan.ids_in(board), (seat, board)
            assert not _PHASE_IDS.search(board), board
            assert all(len(line) <= WIDTH for line in board.splitlines()), board
            prompt = status(view, seat)
            assert len(prompt) <= STATUS_WIDTH and not scan.leaks(prompt), prompt
            if state.current_player() == seat:
                for legal in state.legal_actions():
                    label = state.action_label(legal)
                    notation = state.action_to_string(legal)
                    assert label.startswith(notation) and state.parse_action(notation) == legal
                    assert not scan.leaks(label), (seat, label)
    assert hidden_seen
    return state


@pytest.mark.parametrize(("options", "bots", "seed"), GAMES, ids=lambda value: str(value))
def test_each_seat_reads_every_draw_die_sinking_and_score_change_and_no_card_it_may_not_know(
    options: dict[str, Any], bots: str, seed: int
) -> None:
    state = _play_and_scan(options, bots, seed)
    result = state.result()
    assert result.winners == tuple(j for j, r in enumerate(state.returns()) if r > 0)
    assert all(text.startswith(f"{state.scores[j]} points") for j, text in enumerate(result.scores))
    assert result.reason.endswith(("(Goal)", "(R28)"))


def _fired_at_hood() -> tuple[NavalWarState, NavalWarState, int]:
    state = play(build({"fleet:0": ["BISMARCK"], "fleet:1": ["HOOD", "NELSON"], "fleet:2": ["LUTZOW"],
                        "hand:0": ["SALVO15x3-1"], "on:HOOD": ["SALVO14x2-1"]}, phase="turn", turn=0),
                 "draw SMOKE", "fire SALVO15x3")
    action = state.parse_action("at HOOD")
    after = state.clone()
    after.apply_action(action)
    return state, after, action


def test_a_salvo_reads_as_the_issue_says_with_the_firer_the_target_and_the_sinking() -> None:
    before, after, action = _fired_at_hood()
    target = [line.text for line in before.log_lines(action, after, 1)]
    assert target == ["Player 0's Bismarck fires 15-inch ×3 at your Hood: 3 hits, 5 of 5",
                      "Your Hood is sunk: 5 points to player 0"]
    firer = [line.text for line in before.log_lines(action, after, 0)]
    assert firer[0] == "Your Bismarck fires 15-inch ×3 at player 1's Hood: 3 hits, 5 of 5"
    assert [line.kind for line in before.log_lines(action, after, None)] == ["move", "move"]


def test_a_draw_names_the_card_to_the_drawer_only() -> None:
    state = build({"fleet:0": ["BISMARCK"], "fleet:1": ["HOOD"], "fleet:2": ["LUTZOW"]}, phase="turn", turn=0)
    action = state.parse_action("draw SALVO14x2")
    after = state.clone()
    after.apply_action(action)
    assert [line.text for line in state.log_lines(action, after, 0)] == ["You draw 14-inch ×2"]
    assert [line.text for line in state.log_lines(action, after, 2)] == ["Player 0 draws a card"]
    assert state.log_lines(action, after, None)[0].kind == "chance"


def test_night_deals_name_a_face_down_ship_to_its_owner_only() -> None:
    state = game(3, night=True).new_initial_state()
    action = state.chance_outcomes()[0][0]
    after = state.clone()
    after.apply_action(action)
    owner = deal_seat(state)
    name = state.table.ship_names[action]
    assert name in state.log_lines(action, after, owner)[-1].text
    for seat in (None, *(j for j in range(3) if j != owner)):
        lines = [line.text for line in state.log_lines(action, after, seat)]
        assert lines[0] == ("Round 1: you deal" if seat == 0 else "Round 1: player 0 deals")
        assert lines[-1] == f"Player {owner} is dealt a ship face down"


def test_the_round_end_and_the_result_give_every_seats_points_and_the_goal_reached() -> None:
    state = play(build({"fleet:0": ["BISMARCK"], "fleet:1": ["LUTZOW"], "hand:0": ["SALVO15x3-1"]}, players=2,
                       phase="turn", turn=0, scores=[114, 73]), "draw SMOKE", "fire SALVO15x3")
    action = state.parse_action("at LUTZOW")
    before = state.clone()
    state.apply_action(action)
    assert state.result() == GameResult(
        winners=(0,), scores=("127 points", "63 points"),
        reason="player 0 reached 127 points, the target being 100, alone on top (Goal)")
    assert [line.text for line in before.log_lines(action, state, 1)] == [
        "Player 0's Bismarck fires 15-inch ×3 at your Lutzow: 3 hits, 3 of 3",
        "Your Lutzow is sunk: 3 points to player 0",
        "You have no ship left: out for the round (-10 points), the hand discarded unseen",
        "Round 1 ends: only player 0 afloat",
        "Player 0: +13 (Deep Six 3, +10 sole survivor) = 127 points",
        "You: -10 (Deep Six 0, -10 out) = 63 points",
        "Game over: player 0 wins — player 0 reached 127 points, the target being 100, alone on top (Goal)",
    ]
    assert [line.kind for line in before.log_lines(action, state, None)][-4:] == ["summary"] * 4


def test_action_labels_give_the_notation_then_the_names() -> None:
    before, _, _ = _fired_at_hood()
    labels = {before.action_to_string(a): before.action_label(a) for a in before.legal_actions()}
    assert labels["at HOOD"] == "at HOOD (player 1's Hood, 2 of 5 hits)"
    assert labels["at NELSON"] == "at NELSON (player 1's Nelson, 0 of 9 hits)"
    for notation, label in labels.items():
        assert label.startswith(notation) and parse_action(before, notation) == before.parse_action(notation)


def test_the_spectators_view_hides_every_hand_and_face_down_ship() -> None:
    state = game(3, night=True).new_initial_state()
    rng = random.Random(4)
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    public = state.public_view()
    assert "hand" not in public and public["seat"] is None
    assert all(ship["id"] is None for force in public["task_forces"] for ship in force["ships"])


def _boards(players: int, seed: int) -> list[int]:
    """The board's height at a spread of positions of one random game, every seat's view."""
    loaded = game(players, target=50)
    state = loaded.new_initial_state()
    rng = random.Random(seed)
    heights = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if rng.random() < 0.05:
            for seat in range(players):
                board = render(state.observe(seat), seat).splitlines()
                assert max(map(len, board)) <= WIDTH
                heights.append(len(board))
    return heights


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_board_fits_80_columns_and_14_lines_up_to_five_players(players: int) -> None:
    assert max(_boards(players, players)) <= 14


def test_the_board_names_ships_cards_and_phases_and_the_prompt_line_the_turn_and_points() -> None:
    before, _, _ = _fired_at_hood()
    board = render(before.observe(0), 0)
    assert "Bismarck 15\" 0/8" in board and "Hood 2/5" in board
    assert "your move: aim the 15-inch ×3" in board
    assert "Your hand: Smoke" in board
    assert "BISMARCK" not in board and "SALVO" not in board
    line = status(before.observe(1), 1)
    assert line.startswith("R1 P0: aim") and "you 0" in line


def _last_salvo(state: NavalWarState, target: str) -> NavalWarState:
    """`state` after its turn player draws Smoke and fires the 15-inch ×3 in hand at `target`."""
    return play(state, "draw SMOKE", f"fire SALVO15x3 at {target}")


def test_a_fleet_that_reaches_the_target_wins_together_and_is_named_with_its_members() -> None:
    state = build({"fleet:0": ["BISMARCK"], "fleet:1": ["LUTZOW"], "fleet:2": ["HOOD"], "fleet:3": [],
                   "hand:0": ["SALVO15x3-1"]}, players=4, options={"fleets": "2x2"}, phase="turn", turn=0,
                  scores=[50, 0, 40, 0])
    result = _last_salvo(state, "LUTZOW").result()
    assert result.winners == (0, 2)
    assert result.scores == ("63 points (fleet A: 113)", "-10 points (fleet B: -20)", "50 points (fleet A: 113)",
                             "-10 points (fleet B: -20)")
    assert result.reason == ("fleet A (player 0 and player 2) reached 113 points, the target being 100, alone on "
                             "top (Goal)")


def test_the_round_bound_ends_the_game_with_the_leader_winning_under_the_target() -> None:
    state = build({"fleet:0": ["BISMARCK"], "fleet:1": ["LUTZOW"], "hand:0": ["SALVO15x3-1"]}, players=2,
                  phase="turn", turn=0, round=20)
    result = _last_salvo(state, "LUTZOW").result()
    assert result.winners == (0,) and result.scores == ("13 points", "-10 points")
    assert result.reason == ("20 rounds played with no side alone on top at the target of 100: player 0 leads "
                             "with 13 (R28)")


def test_at_night_a_minefield_names_the_ships_it_turns_face_up_and_no_other() -> None:
    state = play(build({"fleet:0": ["BISMARCK"], "fleet:1": ["HOOD", "NELSON"], "fleet:2": ["LUTZOW", "ROMA"]},
                       options={"night": True}, phase="turn", turn=0,
                       face_down=["BISMARCK", "HOOD", "NELSON", "LUTZOW", "ROMA"]), "draw", "draw MINE1")
    action = state.parse_action("MINE1 at 1")
    after = state.clone()
    after.apply_action(action)
    assert [line.text for line in state.log_lines(action, after, 2)] == [
        "Player 0 lays Minefield 1 before player 1's task force: 1 hit on every ship",
        "Turned face up: player 1's Nelson, Hood",
    ]
    assert [line.text for line in state.log_lines(action, after, 1)][1] == "Turned face up: your Nelson, Hood"


def test_overkill_reads_as_enough_to_sink_not_more_hits_than_the_ship_has() -> None:
    """Issue 34: "4 hits, 4 of 3" read as if a ship took more hits than its Hit Number."""
    from warcards import load_game
    from warcards.bots import make_agent
    from warcards.match import follow

    naval_war = load_game("naval-war")
    overkills = 0
    for seed in range(6):
        followed = follow(naval_war, seed, [], [0])
        state, rng = followed.state, followed.rng
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = state.sample_outcome(rng.random())
            else:
                action = make_agent("random", naval_war, player, seed).step(SeatView(state, player))
            for line in apply_logged_lines(state, action, [0])[0]:
                for taken, hit_number in re.findall(r"hits?, (\d+) of (\d+)", line.text):
                    assert int(taken) <= int(hit_number), line.text
                overkills += "enough to sink it" in line.text
    assert overkills, "no overkill in these games"
