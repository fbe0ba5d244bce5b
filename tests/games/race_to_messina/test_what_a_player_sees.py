"""What a Race to Messina player reads (issue 23): the per-seat game log, the board, the status line, move
labels, the public view and the result — whole seeded games as every seat and a spectator saw them."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

import pytest
from tests.games.race_to_messina.helpers import build, game, play

from warcards.engine import CHANCE, LogLine, apply_logged_lines, sample_chance
from warcards.engine.agents import SeatView
from warcards.games.race_to_messina import rules
from warcards.games.race_to_messina.cards import card_table
from warcards.games.race_to_messina.heuristic import heuristic_agent
from warcards.games.race_to_messina.log import seat_title
from warcards.games.race_to_messina.render import HEIGHT, STATUS_WIDTH, WIDTH, render, status
from warcards.games.race_to_messina.state import RaceToMessinaState
from warcards.testing.leaks import LeakScan

NAMES = dict(zip(card_table().ids, card_table().names, strict=True))
TALLEST = {"invasion": HEIGHT, "race": HEIGHT, "sicily": HEIGHT + 3}
"""The board's height bound: Sicily's four full tables in the Action phase may take a few lines more."""
ZONE_ID = re.compile(r"\b(table|deck|discard|hand|deploying):[a-z]")


@dataclass
class Watch:
    """One game as every seat and a spectator read it."""

    state: RaceToMessinaState
    scans: dict[int | None, LogScan] = field(default_factory=dict)
    steps: list[tuple[RaceToMessinaState, int, dict[int | None, list[LogLine]]]] = field(default_factory=list)


@dataclass
class LogScan:
    scan: LeakScan
    lines: list[str] = field(default_factory=list)
    ever_hidden: bool = False


def _text_of(state: RaceToMessinaState, seat: int | None) -> list[str]:
    """Everything the seat reads of the position besides the log: the board, the status line and, at its
    own turn, its move labels."""
    view = state.public_view() if seat is None else state.observe(seat)
    shown = seat if seat is not None else 0
    texts = [render(view, shown), status(view, shown)]
    if seat is not None and state.current_player() == seat:
        texts += [state.action_label(action) for action in state.legal_actions()]
    return texts


def _private_ids(state: RaceToMessinaState) -> set[str]:
    """The cards no spectator may see: every hand, deck and hidden Deployment choice."""
    return {card for zone, cards in state.zones().items() if not zone.startswith(("table", "discard")) for card in cards}


def _watch(variant: str, seed: int, heuristic: bool) -> Watch:
    """Play a seeded game (random or heuristic seats), scanning every line and screen each seat is shown."""
    g = game(variant)
    state = g.new_initial_state()
    rng = random.Random(seed)
    agents = [heuristic_agent(g, seat, seed + seat) for seat in range(g.num_players)]
    viewers: list[int | None] = [*range(g.num_players), None]
    watch = Watch(state, {seat: LogScan(LeakScan(state, seat, NAMES)) for seat in viewers})
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = sample_chance(state.chance_outcomes(), rng.random())
        elif heuristic:
            action = agents[player].step(SeatView(state, player))
        else:
            action = rng.choice(state.legal_actions())
        before = state.clone()
        logged = apply_logged_lines(state, action, viewers)
        watch.steps.append((before, action, logged))
        for seat, log in watch.scans.items():
            log.scan.see(state)
            log.ever_hidden |= bool(log.scan.hidden())
            texts = [line.text for line in logged[seat]]
            log.lines += texts
            if (player != CHANCE and len(watch.steps) % 3 == 0) or state.is_terminal():
                texts += _text_of(state, seat)
                if seat is None:
                    assert not log.scan.ids_in(json.dumps(state.public_view())) & _private_ids(state)
            for text in texts:
                assert not log.scan.leaks(text), (seat, text)
                assert not ZONE_ID.search(text), text
    return watch


GAMES = [("invasion", 1, False), ("invasion", 2, True), ("race", 3, False), ("race", 4, True),
         ("sicily", 5, False), ("sicily", 6, True)]


@pytest.fixture(scope="module", params=GAMES, ids=[f"{v}-{s}-{'heuristic' if h else 'random'}" for v, s, h in GAMES])
def watched(request: pytest.FixtureRequest) -> Watch:
    variant, seed, heuristic = request.param
    return _watch(variant, seed, heuristic)


def test_no_line_or_screen_names_a_card_the_seat_was_not_shown(watched: Watch) -> None:
    """The scan ran inside `_watch` on every line, and on the board, status and labels every few steps;
    here: it was not vacuous (every seat had hidden cards), and every seat read a log."""
    for log in watched.scans.values():
        assert log.ever_hidden
        assert log.lines


def test_every_draw_names_its_card_to_the_drawer_only(watched: Watch) -> None:
    names = set(NAMES.values())
    for before, action, logged in watched.steps:
        if before.current_player() != CHANCE:
            continue
        drawer = rules.drawing_seat(before)
        for seat, lines in logged.items():
            draw = [line for line in lines if line.kind == "chance"]
            assert len(draw) == 1
            if seat == drawer:
                assert draw[0].text.startswith(f"you draw {card_table().names[action]}")
            else:
                assert " a card" in draw[0].text and not any(name in draw[0].text for name in names)


def test_every_pt_change_is_in_every_seats_log(watched: Watch) -> None:
    variant = watched.state.variant
    for before, action, logged in watched.steps:
        after_pt = _pt_after(watched, before, action)
        for seat_number, name in enumerate(variant.seats):
            if after_pt[seat_number] == before.progress_tokens[seat_number]:
                continue
            figure = f"{after_pt[seat_number]}/{variant.pt_goal[seat_number]} PT"
            for lines in logged.values():
                assert any(seat_title(name) in line.text and figure in line.text for line in lines), lines


def _pt_after(watch: Watch, before: RaceToMessinaState, action: int) -> list[int]:
    after = before.clone()
    after.apply_action(action)
    return after.progress_tokens


def test_the_game_ends_with_a_result_and_its_reason_in_every_log(watched: Watch) -> None:
    result = watched.state.result()
    assert result.winners and result.reason
    assert all(score.endswith(" PT") for score in result.scores)
    for lines in watched.steps[-1][2].values():
        assert lines[-1].kind == "summary"
        assert lines[-1].text.startswith("game over: ") and result.reason in lines[-1].text


def test_labels_start_with_the_notation_that_reads_back() -> None:
    for variant in ("invasion", "race", "sicily"):
        state = game(variant).new_initial_state()
        rng = random.Random(variant)
        seen = 0
        while not state.is_terminal() and seen < 400:
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                continue
            for action in state.legal_actions():
                notation = state.action_to_string(action)
                label = state.action_label(action)
                assert label.startswith(notation + " (") and label.endswith(")")
                assert state.parse_action(notation) == action
                seen += 1
            state.apply_action(rng.choice(state.legal_actions()))


def test_boards_fit_the_terminal_and_status_lines_fit_the_prompt() -> None:
    for variant in ("invasion", "race", "sicily"):
        g = game(variant)
        for seed in range(3):
            state = g.new_initial_state()
            rng = random.Random(seed)
            agents = [heuristic_agent(g, seat, seed) for seat in range(g.num_players)]
            while not state.is_terminal():
                player = state.current_player()
                if player == CHANCE:
                    state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                    continue
                view = state.observe(player)
                lines = render(view, player).splitlines()
                assert len(lines) <= TALLEST[variant], "\n".join(lines)
                assert all(len(line) <= WIDTH for line in lines), "\n".join(lines)
                assert len(status(view, player)) <= STATUS_WIDTH
                state.apply_action(agents[player].step(SeatView(state, player)))


def test_sicily_both_allies_at_10_together_the_end_screen_says_ties_go_to_the_axis() -> None:
    state = build("sicily", {"table:americans": ["A04"], "table:british": ["A25"]}, phase="action", pt=[9, 9, 3])
    while not state.is_terminal():
        play(state, "pass")
    result = state.result()
    assert result.winners == (2,)
    assert result.scores == ("10 PT", "10 PT", "3 PT")
    assert result.reason == "both Allies at 10 PT in the same turn: ties go to the Axis (R4)"
    screen = " ".join(render(state.observe(0), 0).split())
    assert "Game over: Axis wins — both Allies at 10 PT in the same turn: ties go to the Axis (R4)" in screen


@pytest.mark.parametrize(("variant", "pt", "winner", "reason"), [
    ("invasion", [9, 3], 0, "Allies reach 10 PT with the Axis at 15 or less: Messina is taken (R3, R4)"),
    ("invasion", [9, 16], 1, "Allies reach 10 PT while the Axis holds 16 or more (R4)"),
    ("race", [3, 9], 1, "Americans reach 10 PT first and take Messina (R3)"),
    ("race", [9, 9], None, "both reach 10 PT in the same turn with equal PT: a draw (R7)"),
    ("sicily", [3, 9, 3], 1, "Americans reach 10 PT: Patton gets there first (R3)"),
])
def test_the_result_names_the_rule_that_decided_the_game(variant: str, pt: list[int], winner: int | None,
                                                         reason: str) -> None:
    ally_table = {"invasion": "table:allies", "race": "table:americans", "sicily": "table:americans"}[variant]
    zones = {ally_table: ["A04"]}
    if variant == "race" and winner is None:
        zones["table:british"] = ["A25"]
    state = build(variant, zones, phase="action", pt=pt)
    while not state.is_terminal():
        play(state, "pass")
    result = state.result()
    assert result.reason == reason
    assert result.winners == ((0, 1) if winner is None else (winner,))


def test_a_face_down_deployment_is_named_to_its_owner_and_hidden_from_the_others() -> None:
    """R31: another seat reads neither the cards nor how many; the owner reads each card and where it went."""
    state = build("sicily", {"hand:axis": ["X05", "X21"], "hand:americans": ["A04"]}, phase="deployment")
    viewers: list[int | None] = [0, 1, 2, None]
    first = apply_logged_lines(state, state.parse_action("deploy X05 vs british"), viewers)
    assert [line.text for line in first[2]] == ["you deploy Luftwaffe face down to the Axis set against the British"]
    assert first[0] == first[1] == first[None] == []
    done = apply_logged_lines(state, state.parse_action("done"), viewers)
    assert done[2][0].text == ("you are done deploying (against the Americans: no card; "
                               "against the British: Luftwaffe)")
    assert done[0][0].text == done[None][0].text == "Axis has deployed face down (hidden until all are done, R31)"
    assert state.public_view()["hand_sizes"]["axis"] == 2
    play(state, "deploy A04", "done")
    reveal = apply_logged_lines(state, state.parse_action("done"), viewers)
    texts = [line.text for line in reveal[None]]
    assert "revealed, Axis set against the British: 1 card, 7F — Luftwaffe" in texts
    assert "revealed, Americans: 1 card, 7F — Infantry Division" in texts


def test_a_target_reads_as_a_player_says_it_for_the_owner_and_the_others() -> None:
    state = build("invasion", {"table:axis": ["X28"], "table:allies": ["A02", "A18"]}, phase="action")
    logged = apply_logged_lines(state, state.parse_action("activate X28 target A02"), [0, 1])
    assert logged[0][0].text == "Axis activates Antitank Guns on your Sherman Tanks: discarded, Allies 7F → 3F"
    assert logged[1][0].text == "you activate Antitank Guns on Sherman Tanks: discarded, Allies 7F → 3F"


def test_recon_names_the_hand_to_the_looker_only() -> None:
    state = build("invasion", {"table:axis": ["X23"], "hand:allies": ["A04", "A05"]}, phase="action")
    logged = apply_logged_lines(state, state.parse_action("activate X23"), [0, 1, None])
    assert logged[1][1].text == "you see the Allies hand: Infantry Division, Allied Bombs"
    assert logged[0][1].text == "Axis looks at your hand"
    assert logged[None][1].text == "Axis looks at the Allies hand"


def test_the_public_view_holds_no_private_field() -> None:
    state = build("invasion", {"hand:allies": ["A04"], "hand:axis": ["X05"]}, phase="strategy")
    view = state.public_view()
    assert not {"hand", "deploying", "known_hands", "log", "seat"} & set(view)
    assert view["hand_sizes"] == {"allies": 1, "axis": 1}
    assert "A04" not in str(view) and "X05" not in str(view)
