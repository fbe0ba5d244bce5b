"""What a Med Sirocco player reads (issue 23): the per-seat log, move labels, the board, the status line, the
public view and the result, played through whole seeded games and scanned for hidden cards."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from tests.games.med_sirocco.helpers import build, play

import warcards
from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE, LogLine, apply_logged_lines, sample_chance
from warcards.games.med_sirocco import rules
from warcards.games.med_sirocco.codes import ChanceKind, Phase
from warcards.games.med_sirocco.game import MedSiroccoGame
from warcards.games.med_sirocco.heuristic import heuristic_agent
from warcards.games.med_sirocco.notation import DIE
from warcards.games.med_sirocco.render import STATUS_WIDTH, WIDTH, render, status
from warcards.games.med_sirocco.state import MedSiroccoState
from warcards.testing.leaks import LeakScan

TERMINAL_WIDTH = 80
BOARD_HEIGHT = {2: 14, 3: 14, 4: 15, 5: 17, 6: 19}
"""The board's height bound by player count: 14 lines at two and three players; at four, 14 in all but about
1% of positions (15 at most); the largest measured at five and six (issue 23 asks for those figures)."""


@dataclass
class Played:
    """A whole logged game: each step's lines per reader (the seats and the spectator, None), and what the
    scans found."""

    state: MedSiroccoState
    steps: list[dict[int | None, list[LogLine]]] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    hidden_seen: set[int | None] = field(default_factory=set)
    tallest: int = 0


def _names(game: MedSiroccoGame) -> dict[str, str]:
    return dict(zip(game.table.ids, game.table.names, strict=True))


def _who(seat: int | None, p: int) -> str:
    return "you" if p == seat else f"player {p}"


def _check_step(before: MedSiroccoState, action: int, after: MedSiroccoState,
                lines: dict[int | None, list[LogLine]], problems: list[str]) -> None:
    """The chance results and score changes of one step appear in every reader's lines as it saw them."""
    table = before.table
    if before.phase == Phase.CHANCE and before.chance_kind == ChanceKind.DRAW:
        drawer = before.draw_queue[0]
        for seat, said in lines.items():
            text = " ".join(line.text for line in said)
            # At the end of a game of a series the last refill is dealt anew at once: a card, unnamed.
            named = seat == drawer and before.game_number == after.game_number
            wanted = table.label(action) if named else f"{_who(seat, drawer)} draw{'' if seat == drawer else 's'} a card"
            if wanted not in text:
                problems.append(f"draw: {seat} reads {text!r}, wanted {wanted!r}")
    if before.phase == Phase.CHANCE and before.chance_kind in (ChanceKind.ROLL, ChanceKind.SIROCCO,
                                                                   ChanceKind.EXPLOSION):
        for seat, said in lines.items():
            text = " ".join(line.text for line in said)
            if not re.search(rf"(rolls?|die for .*:) {action - DIE + 1}\b", text):
                problems.append(f"roll {action - DIE + 1}: {seat} reads {text!r}")
    vp_before, vp_after = rules.victory_points(before), rules.victory_points(after)
    for p in range(before.num_players):
        if vp_before[p] != vp_after[p] and before.game_number == after.game_number:
            for seat, said in lines.items():
                if not any("VP" in line.text and _who(seat, p) in line.text for line in said):
                    problems.append(f"VP of {p} {vp_before[p]}->{vp_after[p]} not in {seat}'s {said}")
    if before.operation >= 0 > after.operation:
        for seat, said in lines.items():
            if not any(line.kind == "summary" and line.text.startswith("end of Operation") for line in said):
                problems.append(f"no Operation summary for {seat}")


def _revealed(before: MedSiroccoState, after: MedSiroccoState) -> set[str]:
    """3.2: the cards every player saw turned over at the end of a Battle's 2nd round in this step. The views
    cannot show them when the same step goes on to the outcome: the losing side's cards go face down to
    the winner (3.4) before any view is taken."""
    down = [e for e in range(len(before.entry_card)) if before.entry_alive[e] and before.entry_face_down[e]]
    if not down:
        return set()
    ended = after.operation != before.operation or len(after.entry_card) < len(before.entry_card)
    if not ended and any(after.entry_face_down[e] for e in down):
        return set()
    return {before.table.ids[before.entry_card[e]] for e in down}


def _scan_views(state: MedSiroccoState, scans: dict[int | None, LogLine | Any], played: Played) -> None:
    """The board, the status line, the labels of the seat's own moves and the public view, scanned."""
    for seat, scan in scans.items():
        view = state.public_view() if seat is None else state.observe(seat)
        board = render(view, seat)
        played.tallest = max(played.tallest, len(board.splitlines()))
        for line in board.splitlines():
            if len(line) > WIDTH or len(line) > TERMINAL_WIDTH:
                played.problems.append(f"board line over {WIDTH} columns: {line!r}")
        line = status(view, seat)
        if len(line) > STATUS_WIDTH:
            played.problems.append(f"status over {STATUS_WIDTH}: {line!r}")
        texts = [board, line]
        if seat is not None and state.current_player() == seat:
            texts += [state.action_label(a) for a in state.legal_actions()]
        for text in texts:
            played.leaks += [f"{seat}: {leak} in {text!r}" for leak in scan.leaks(text)]


def play_logged(players: int, seed: int, bots: str = "random", every: int = 7, steps: int | None = None,
                **options: Any) -> Played:
    """Play one seeded game to its end, every seat and a spectator reading each step; scan every log line
    after each step, and the boards, status lines, labels and public view every `every`-th step (with
    `steps`, stop after that many steps)."""
    game = warcards.load_game("med-sirocco", players=players, **options)
    assert isinstance(game, MedSiroccoGame)
    state = game.new_initial_state()
    readers: list[int | None] = [*range(players), None]
    names = _names(game)
    scans = {seat: LeakScan(state, seat, names) for seat in readers}
    agents = [heuristic_agent(game, p, seed + p) if bots == "heuristic" else None for p in range(players)]
    rng = random.Random(seed)
    played = Played(state)
    step = 0
    while not state.is_terminal() and (steps is None or step < steps):
        actor = state.current_player()
        if actor == CHANCE:
            action = sample_chance(state.chance_outcomes(), rng.random())
        elif agents[actor] is not None:
            action = agents[actor].step(SeatView(state, actor))  # type: ignore[union-attr]
        else:
            action = rng.choice(state.legal_actions())
        before = state.clone()
        lines = apply_logged_lines(state, action, readers)
        played.steps.append(lines)
        _check_step(before, action, state, lines, played.problems)
        revealed = _revealed(before, state)
        for seat, scan in scans.items():
            scan.known |= revealed
            scan.see(state)
            if scan.hidden():
                played.hidden_seen.add(seat)
            for line in lines[seat]:
                played.leaks += [f"{seat}: {leak} in {line.text!r}" for leak in scan.leaks(line.text)]
        if step % every == 0 or state.is_terminal():
            _scan_views(state, scans, played)
        step += 1
    return played


CASES = [
    pytest.param((2, 11, "random", {"operations": 10}), id="2p-random"),
    pytest.param((4, 12, "heuristic", {"operations": 10}), id="4p-heuristic"),
    pytest.param((3, 13, "random", {"advanced": True, "operations": 10}), id="3p-advanced"),
    pytest.param((5, 14, "heuristic", {"advanced": True, "change_sides": True, "operations": 10}), id="5p-advanced"),
    pytest.param((3, 15, "random", {"faster": True, "historicity": True, "operations": 10}), id="3p-faster"),
    pytest.param((6, 16, "random", {"historicity": True, "operations": 10}), id="6p-historicity"),
    pytest.param((2, 17, "heuristic", {"series": True, "operations": 10}), id="2p-series"),
]


@pytest.fixture(scope="module", params=CASES)
def played(request: pytest.FixtureRequest) -> Played:
    players, seed, bots, options = request.param
    return play_logged(players, seed, bots, **options)


def test_no_line_board_label_or_status_names_a_card_the_reader_may_not_know(played: Played) -> None:
    assert played.leaks == []
    assert played.hidden_seen == {*range(played.state.num_players), None}, "the scan was vacuous"


def test_the_log_names_every_draw_roll_and_score_change_each_reader_saw(played: Played) -> None:
    assert played.problems == []


def test_the_board_fits_an_80_by_24_terminal(played: Played) -> None:
    assert played.tallest <= BOARD_HEIGHT[played.state.num_players]


def test_the_end_gives_the_winners_and_the_reason(played: Played) -> None:
    result = played.state.result()
    assert result.winners and "1.2" in result.reason
    assert all(re.fullmatch(r"\d+ VP( in the series)? \(\d+ Operations\)", score) for score in result.scores)
    last = played.steps[-1]
    for seat, lines in last.items():
        assert any(line.kind == "summary" and line.text.startswith("game over") for line in lines), seat


def test_each_reader_reads_you_for_its_own_moves() -> None:
    played = play_logged(3, 21, steps=600)
    for step in played.steps:
        for seat, lines in step.items():
            for line in lines:
                if line.kind == "move" and seat is not None and line.actor == seat:
                    assert line.text.startswith(("you ", "your ")), line.text
                if seat is None:
                    assert not re.search(r"\byou(r)?\b", line.text), line.text


def test_a_hidden_draw_reads_as_a_draw_and_the_drawer_reads_the_card() -> None:
    state = build({0: ["A12"], 1: ["X13"]}, players=2, operation="O05")
    state = state.clone()
    state.draw_queue = [1]
    state.phase, state.chance_kind = Phase.CHANCE, ChanceKind.DRAW
    action = state.parse_action("draw A31")
    lines = apply_logged_lines(state, action, [0, 1, None])
    assert [line.text for line in lines[1]] == ["you draw A31 Malta Hurricanes 3/0/0"]
    assert [line.text for line in lines[0]] == ["player 1 draws a card"]
    assert [line.text for line in lines[None]] == ["player 1 draws a card"]


def test_a_face_down_play_names_the_card_only_to_its_player() -> None:
    state = build({0: ["A12", "A31"], 1: ["X13", "X26"]}, players=2, operation="O03")
    play(state, "play A12", "done", "play X13", "done")
    while state.current_player() == CHANCE:
        state.apply_action(state.legal_actions()[0])
    assert state.round_index == 1 and state.current_player() == 0
    action = state.parse_action("play A31")
    lines = apply_logged_lines(state, action, [0, 1, None])
    assert lines[0][0].text == "you play A31 Malta Hurricanes 3/0/0 face down (3.2)"
    assert lines[1][0].text == lines[None][0].text == "player 0 plays a card face down (3.2)"


def test_r29_an_operation_won_is_summed_up_with_its_totals_cards_captured_and_vp() -> None:
    state = build({0: ["A01"], 1: ["X13"]}, players=3, operation="O05")
    play(state, "type surface", "play A01", "done", "play X13", "done")
    assert state.current_player() == 2
    lines = apply_logged_lines(state, state.parse_action("pass"), [0, 1, None])
    assert [line.text for line in lines[1]][:4] == [
        "player 2 passes",
        "Operation 1/22, O05 Hats, goes to the Allies, 5 to 3; the trick is player 0's (highest card, 3.4)",
        "player 0 wins O05 Hats: +3 VP",
        "player 0 captures X13 Bolzano: +2 VP (3.4)",
    ]
    assert lines[0][2].text == "you win O05 Hats: +3 VP"
    assert lines[0][4].text.startswith("end of Operation 1/22; ")
    assert lines[0][4].text.endswith("you have 5 VP in all")
    assert lines[0][4].kind == "summary"


def test_action_labels_start_with_the_notation_and_parse_back() -> None:
    fresh = warcards.load_game("med-sirocco", players=2).new_initial_state()
    rng = random.Random(5)
    checked = 0
    while not fresh.is_terminal() and checked < 400:
        for action in fresh.legal_actions()[:12]:
            label = fresh.action_label(action)
            notation = fresh.action_to_string(action)
            assert label == notation or label.startswith(notation + " (")
            assert fresh.parse_action(notation) == action
            checked += 1
        fresh.apply_action(sample_chance(fresh.chance_outcomes(), rng.random()) if fresh.is_chance_node()
                           else rng.choice(fresh.legal_actions()))
    assert checked >= 400


def test_the_public_view_holds_no_hand_and_no_face_down_card() -> None:
    state = build({0: ["A12", "A31"], 1: ["X13", "X26"]}, players=2, operation="O03")
    play(state, "play A12", "done", "play X13", "done")
    while state.current_player() == CHANCE:
        state.apply_action(state.legal_actions()[0])
    play(state, "play A31")
    view = state.public_view()
    assert "hand" not in view and "captured" not in view and "my_vp" not in view
    assert view["seat"] is None
    assert [pl["card"] for pl in view["plays"]] == ["A12", "X13", None]
    assert "A31" not in str(view) and "X26" not in str(view)


def test_status_fits_60_characters_and_names_the_turn_and_the_vp() -> None:
    state = build({0: ["A12"], 1: ["X13"]}, players=6, operation="O05")
    line = status(state.observe(0), 0)
    assert len(line) <= STATUS_WIDTH
    assert "you" in line and "VP" in line and "Op 1/22" in line
