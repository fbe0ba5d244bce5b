"""What a player of Cards of War reads (issue 23, docs/contributing/log.md): the log names every draw a seat
saw and every change of a score, and no card a seat may not know; the board fits 80x24; the result gives the
winner and the rule; move labels start with the notation."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.cards_of_war.helpers import game, play, setup

from warcards.bots import make_agent
from warcards.engine import CHANCE, LogLine, apply_logged_lines, sample_chance
from warcards.engine.agents import SeatView
from warcards.engine.errors import InvalidActionError
from warcards.games.cards_of_war import SPEC
from warcards.games.cards_of_war.codes import BATTLE_NAMES, NUM_BATTLES, Phase
from warcards.games.cards_of_war.render import HEIGHT, STATUS_WIDTH, WIDTH, render, status
from warcards.games.cards_of_war.state import CardsOfWarState
from warcards.testing.leaks import LeakScan

SEATS: list[int | None] = [0, 1, None]

GAMES: list[tuple[dict[str, Any], str, int]] = [
    ({"length": "normal"}, "random", 1),
    ({"length": "short", "theatres_of_war": True, "joint_deployment": True}, "random", 2),
    ({"length": "normal", "alternative_reinforce": True, "decks": 2, "tactical_advantage": True}, "random", 3),
    ({"length": "long", "strategic_exhaustion": True, "joint_deployment": True}, "random", 4),
    ({"length": "normal", "theatres_of_war": True, "alternative_reinforce": True}, "heuristic", 5),
    ({"length": "short", "decks": 2, "joint_deployment": True}, "heuristic", 6),
]


def _names(state: CardsOfWarState) -> dict[str, str]:
    """Every card id and its name, for the leak scans."""
    return {state.card_id(card): state.table.names[card % state.num_kinds]
            for card in range(state.num_kinds * state.num_decks)}


def _texts(lines: list[LogLine]) -> str:
    return "\n".join(line.text for line in lines)


def _check_board(state: CardsOfWarState, scans: dict[int | None, LeakScan]) -> None:
    """The board and the prompt line of each seat fit and name no card the seat may not know; the public view
    holds no card of either hand."""
    for seat in (0, 1):
        observation = state.observe(seat)
        board = render(observation, seat)
        lines = board.split("\n")
        assert len(lines) <= HEIGHT, board
        assert all(len(line) <= WIDTH for line in lines), board
        assert scans[seat].leaks(board) == [], board
        line = status(observation, seat)
        assert len(line) <= STATUS_WIDTH and scans[seat].leaks(line) == [], line
    public = json.dumps(state.public_view())
    held = {state.card_id(card) for hand in state.hands for card in hand}
    assert not scans[None].ids_in(public) & held


def _check_labels(state: CardsOfWarState, scan: LeakScan) -> None:
    """The mover's move list: each label starts with the notation, which reads back, and names only cards the
    mover knows."""
    for action in state.legal_actions():
        notation = state.action_to_string(action)
        label = state.action_label(action)
        assert label.startswith(notation)
        assert state.parse_action(notation) == action
        assert scan.leaks(label) == [], label


def _check_step(before: CardsOfWarState, action: int, after: CardsOfWarState,
                logged: dict[int | None, list[LogLine]]) -> None:
    """The draw is named to its drawer (to both in the first-player draw) and hidden from the rest; every change
    of a battle's points, of rounds won and of a hand size appears in every seat's lines."""
    if before.to_act == CHANCE:
        name = before.table.names[action % before.num_kinds]
        drawer = before.drawer if before.phase in (Phase.DEAL, Phase.FIRST_DRAW) else before.mover
        for seat in SEATS:
            first = logged[seat][0]
            assert first.kind == "chance"
            if seat == drawer or before.phase == Phase.FIRST_DRAW:
                assert name in first.text, (seat, first)
            else:
                assert first.text.startswith(f"Player {drawer} draws a card"), (seat, first)
    round_over = len(after.round_results) > len(before.round_results)
    for seat in SEATS:
        text = _texts(logged[seat])
        if round_over:
            assert f"Round {before.round_number} " in text and "Rounds won: " in text
            assert all(str(count) in text for count in after.rounds_won)
            continue
        for b in range(NUM_BATTLES):
            totals = [after.battle_totals[s * NUM_BATTLES + b] for s in (0, 1)]
            if totals == [before.battle_totals[s * NUM_BATTLES + b] for s in (0, 1)]:
                continue
            if after.battle_winner[b] >= 0:
                assert re.search(f"The {BATTLE_NAMES[b]} battle goes to .*, {totals[after.battle_winner[b]]} to ",
                                 text), text
            else:
                assert f"{BATTLE_NAMES[b]} stands at" in text, text
                assert all(re.search(rf"\b{total}\b", text) for total in totals), text
    if after.phase == Phase.OVER:
        assert all("Game over: " in _texts(logged[seat]) for seat in SEATS)


def _play(options: dict[str, Any], bot: str, seed: int) -> tuple[CardsOfWarState, list[dict[int | None, list[LogLine]]]]:
    """A whole game with every check at every step; the steps' lines."""
    g = game(**options)
    state = g.new_initial_state()
    assert isinstance(state, CardsOfWarState)
    names = _names(state)
    scans = {seat: LeakScan(state, seat, names) for seat in SEATS}
    agents = [make_agent(bot, g, seat, seed * 10 + seat) for seat in (0, 1)]
    rng = random.Random(seed)
    hidden_seen = False
    steps = []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = sample_chance(state.chance_outcomes(), rng.random())
        else:
            _check_labels(state, scans[player])
            action = agents[player].step(SeatView(state, player))
        before = state.clone()
        logged = apply_logged_lines(state, action, SEATS)
        for seat in SEATS:
            scans[seat].see(state)
            if before.phase == Phase.FIRST_DRAW:
                # R1: the first-player draw is shown to all, but the deciding card goes back into the pile in
                # the same step, so no view ever holds it.
                scans[seat].known.add(before.card_id(action))
            for line in logged[seat]:
                assert line.text and "\n" not in line.text
                assert scans[seat].leaks(line.text) == [], (seat, line)
            hidden_seen = hidden_seen or bool(scans[seat].hidden())
        _check_step(before, action, state, logged)
        if state.current_player() != CHANCE:
            _check_board(state, scans)
        steps.append(logged)
    assert hidden_seen
    return state, steps


@pytest.mark.parametrize(("options", "bot", "seed"), GAMES)
def test_whole_games_log_every_draw_and_score_and_leak_no_card(options: dict[str, Any], bot: str, seed: int) -> None:
    state, steps = _play(options, bot, seed)
    result = state.result()
    assert result.winners and result.reason
    assert len(result.scores) == 2 and all(score.endswith("won") for score in result.scores)
    assert "WINNING THE GAME" in result.reason or re.search(r"R\d+", result.reason)
    last = _texts(steps[-1][None])
    assert "Game over: " in last


def test_a_seat_reads_its_own_moves_as_you_and_the_others_by_name() -> None:
    state = setup({"hand:0": ["G04"], "hand:1": ["G03"], "battle:1:left": ["G02"]})
    after = state.clone()
    action = state.parse_action("deploy G04 left")
    after.apply_action(action)
    mine = _texts(state.log_lines(action, after, 0))
    theirs = _texts(state.log_lines(action, after, 1))
    assert mine.startswith("You deploy Tank to the left battle")
    assert theirs.startswith("Player 0 deploys Tank to the left battle")
    assert "it kills player 1's Infantry (-3 points)" in mine
    assert "it kills your Infantry (-3 points)" in theirs
    assert "left stands at you 3, player 1 0" in mine


def test_a_battle_won_is_summarised_with_both_totals() -> None:
    state = setup({"hand:0": ["S09"], "battle:0:right": ["G13", "S01"], "battle:1:right": ["G02"]},
                  {"player": 0})
    lines = apply_logged_lines(state, state.parse_action("deploy S09 right"), [1])[1]
    assert [line.kind for line in lines] == ["move", "summary"]
    assert lines[1].text == "The right battle goes to player 0, 16 to 3"


def test_a_hidden_draw_is_named_only_to_its_drawer() -> None:
    state = setup({"hand:0": ["G04"], "hand:1": ["G02"]})
    play(state, "deploy G04 centre")
    assert state.current_player() == CHANCE
    card = state.chance_outcomes()[0][0]
    name = state.table.names[card]
    logged = apply_logged_lines(state, card, SEATS)
    assert logged[0][0].text == f"You draw {name} (refill)"
    assert logged[1][0].text == logged[None][0].text == "Player 0 draws a card (refill)"


def test_recon_and_reinforce_are_in_the_line_of_the_card() -> None:
    state = setup({"hand:0": ["I04", "G02"], "hand:1": ["A01", "S01", "G01"]})
    text = _texts(apply_logged_lines(state, state.parse_action("deploy I04 left"), [1])[1])
    assert text.split("\n") == [
        "Player 0 deploys Codebreakers to the left battle; left stands at player 0 1, you 0; REINFORCE: player 0 "
        "deploys again",
        "RECON: you hold 1 Air, 1 Sea, 1 Ground, 0 Intel (R8)",
    ]


def test_the_first_player_draw_is_public_and_a_tie_says_both_draw_again() -> None:
    state = game().new_initial_state()
    assert isinstance(state, CardsOfWarState)
    table = state.table
    tens = [k for k in range(state.num_kinds) if table.score[k] == table.score[0]]
    first = apply_logged_lines(state, tens[0], SEATS)
    assert all(table.names[tens[0]] in first[seat][0].text for seat in SEATS)
    second = apply_logged_lines(state, tens[1], SEATS)
    assert second[1][1].text.startswith(f"A tie at {table.score[0]} points: both cards are set aside")
    low = min(range(state.num_kinds), key=lambda k: table.score[k])
    high = max(range(state.num_kinds), key=lambda k: table.score[k])
    apply_logged_lines(state, high, SEATS)
    third = apply_logged_lines(state, low, SEATS)
    texts = [line.text for line in third[0]]
    assert texts[1].startswith("You go first, ") and texts[2] == "Round 1 begins: you deploy first"


def test_a_stalled_round_settles_its_battles_in_the_log() -> None:
    state = setup({"hand:0": [], "hand:1": [], "draw": [], "discard": [], "won:1:right": "rest",
                   "battle:0:left": ["G02"], "battle:1:left": ["G04"], "battle:0:centre": ["A08"]}, {"player": 0})
    assert state.legal_actions() == [state.layout.pass_turn]
    lines = [line.text for line in apply_logged_lines(state, state.layout.pass_turn, [0])[0]]
    assert lines[0] == "You pass: no card in hand and none to draw (R11)"
    assert lines[1].startswith("The round stalls: neither player has a card to deploy or draw")
    assert "The left battle is void, 3 to 3" in lines
    assert "The centre battle goes to you, 3 to 0" in lines
    assert "Round 1 is drawn, 1 battle each (1 void)" in lines
    assert lines[-2:] == ["The discard pile (52 cards) is shuffled into a new draw pile (R10)",
                          "Round 2 begins: you deploy first"]


def test_the_result_names_the_winner_the_rounds_and_the_rule() -> None:
    state = setup({"hand:0": ["S09"], "battle:0:right": ["G13", "S01"], "battle:1:right": ["G02"],
                   "won:0:left": ["I11"], "won:1:centre": ["G03"]},
                  {"player": 0, "rounds_won": [1, 0], "round": 2}, length="normal")
    text = ""
    action = state.parse_action("deploy S09 right")
    while not state.is_terminal():
        text += _texts(apply_logged_lines(state, action, [0])[0]) + "\n"
        if not state.is_terminal():
            action = state.chance_outcomes()[0][0]
    result = state.result()
    assert result.winners == (0,)
    assert result.scores == ("2 rounds won", "0 rounds won")
    assert result.reason == "Player 0 wins 2 rounds to 0 (WINNING THE GAME: the most of three rounds; R12)"
    assert "The right battle goes to you, 16 to 3" in text
    assert "Round 2 goes to you, 2 battles to 1" in text
    assert "Game over: you win 2 rounds to 0" in text


def test_the_board_fits_80_by_24_at_its_fullest() -> None:
    state = setup({"hand:0": ["A01", "A02", "A03", "A04", "A05", "A06", "A07", "A08", "A09"],
                   "battle:0:left": ["G02", "G03", "S09"], "battle:1:left": ["G05", "S13"],
                   "battle:0:centre": ["I01", "G12"], "battle:1:centre": ["S02", "S03"]},
                  {"player": 0, "hand_limits": [9, 8]}, tactical_advantage=True, decks=1)
    state.recon_answers.append((1, 1, 2, 2, 2, 2))
    state.phase = Phase.REINFORCE
    board = render(state.observe(0), 0)
    lines = board.split("\n")
    assert len(lines) <= HEIGHT and max(map(len, lines)) <= WIDTH, board
    assert "REINFORCE: you deploy again" in board and "last RECON" in board
    assert "your hand (9/9" in board


def test_the_status_line_fits_at_its_longest() -> None:
    state = setup({"hand:0": ["A01"], "hand:1": ["A02"]}, {"player": 1, "round": 99, "rounds_won": [48, 49]},
                  length="long")
    state.phase = Phase.JOINT_SECOND
    line = status(state.observe(0), 0)
    assert len(line) <= STATUS_WIDTH and line.startswith("Round 99 · player 1: deploy the joint partner")


def test_the_spec_registers_the_status_line() -> None:
    assert SPEC.status is not None and SPEC.status.load() is status


def test_a_draw_label_names_the_card_and_the_notation_reads_back() -> None:
    state = game().new_initial_state()
    card = state.chance_outcomes()[0][0]
    label = state.action_label(card)
    assert label == f"{state.action_to_string(card)} ({state.table.names[card]})"
    assert state.parse_action(state.action_to_string(card)) == card


def _sweep(**options: Any) -> tuple[CardsOfWarState, str]:
    """Player 0 wins the right battle having won the other two (a 3-0 round); seat 1's lines to the next turn."""
    position = {"player": 0, **({"base_hand_limits": [8, 4], "hand_limits": [8, 4]}
                                if options.get("strategic_exhaustion") else {})}
    state = setup({"hand:0": ["S09"], "battle:0:right": ["G13", "S01"], "battle:1:right": ["G02"],
                   "won:0:left": ["I11"], "won:0:centre": ["G03"]}, position, **options)
    text = ""
    action = state.parse_action("deploy S09 right")
    while True:
        text += _texts(apply_logged_lines(state, action, [1])[1]) + "\n"
        if state.current_player() != CHANCE:
            return state, text
        action = state.chance_outcomes()[0][0]


def test_tactical_advantage_is_announced_with_the_round() -> None:
    _, text = _sweep(tactical_advantage=True)
    assert "Round 1 goes to player 0, 3 battles to 0" in text
    assert "Player 0 plays the next round with a 9-card hand (Tactical advantage)" in text


def test_strategic_exhaustion_ends_the_game_with_its_reason() -> None:
    state, text = _sweep(length="long", strategic_exhaustion=True)
    assert "Your hand size drops to 3 for good (Strategic exhaustion)" in text
    assert "Game over: your hand is down to 3 cards: player 0 wins (Strategic exhaustion, R14)" in text
    assert state.result().reason == "Player 1's hand is down to 3 cards: player 0 wins (Strategic exhaustion, R14)"


def test_a_joint_deployment_reads_as_two_cards_of_one_pair() -> None:
    state = setup({"hand:0": ["A01", "A03"], "hand:1": ["G02"]}, {"player": 0}, joint_deployment=True)
    first = _texts(apply_logged_lines(state, state.parse_action("joint A01 left"), [1])[1])
    assert first.startswith("Player 0 deploys Fighters to the left battle (the first card of a joint deployment)")
    assert first.endswith("now player 0 deploys its partner")
    second = _texts(apply_logged_lines(state, state.parse_action("deploy A03 centre"), [1])[1])
    assert second.startswith("Player 0 deploys Dive Bomber to the centre battle (joint deployment with Fighters)")


def test_alternative_reinforce_names_the_discard_deployed_and_the_drawn_card_discarded() -> None:
    state = setup({"hand:0": ["G12", "G02"], "hand:1": ["G03"], "discard": ["S01"]}, {"player": 0},
                  alternative_reinforce=True)
    play(state, "deploy G12 left")
    drawn = state.chance_outcomes()[0][0]
    state.apply_action(drawn)
    lines = apply_logged_lines(state, state.parse_action("deploy discard centre"), SEATS)
    assert [line.text for line in lines[1]] == [
        "Player 0 deploys Battleship from the discard pile to the centre battle (Alternative Reinforce); centre "
        "stands at player 0 6, you 0",
        f"Player 0's newly drawn {state.table.names[drawn]} is discarded instead (R9)",
    ]
    assert lines[0][1].text.startswith("Your newly drawn ")


@settings(max_examples=100, deadline=None)
@given(steps=st.integers(0, 60), action=st.integers(-3, 400), seed=st.integers(0, 3))
def test_any_action_number_gets_a_label_or_a_clear_error(steps: int, action: int, seed: int) -> None:
    """`action_label` takes numbers from outside (the server's move lists): one in the action space gets a label
    starting with its notation, any other a clear error naming the range."""
    state = game(length="short").new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    if state.is_terminal():
        return
    try:
        label = state.action_label(action)
    except InvalidActionError as error:
        assert "0.." in str(error)
    else:
        assert label.startswith(state.action_to_string(action))


def test_a_deploy_label_says_what_it_does_to_its_battle() -> None:
    """Issue 34: Race to Messina's labels said "55F → 48F", Cards of War's only named the card and the battle."""
    state = game().new_initial_state()
    rng = random.Random(3)
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    labels = [state.action_label(action) for action in state.legal_actions()]
    assert labels and all(re.search(r"\((kills .+; )?(left|centre|right) \d+ → \d+ vs \d+\)$|\(.*wins ", label)
                          or "no card to deploy" in label for label in labels), labels
