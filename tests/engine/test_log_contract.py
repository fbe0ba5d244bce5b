"""The engine's log, label, result and public-view contract (`State.log_lines`, `action_label`, `result`,
`public_view`, `apply_logged_lines`): what every game gets by default and what every game must keep."""

from __future__ import annotations

import json
import random

import pytest

from warcards.engine import (
    CHANCE,
    GameResult,
    LogLine,
    SeatError,
    apply_logged_lines,
    load_game,
    sample_chance,
)
from warcards.engine.registry import game_spec, games
from warcards.testing.leaks import LeakScan


def _play_logged(game_id: str, seed: int) -> tuple[list[dict[int | None, list[LogLine]]], object]:
    game = load_game(game_id)
    state = game.new_initial_state()
    rng = random.Random(seed)
    seats: list[int | None] = [*range(game.num_players), None]
    steps = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = sample_chance(state.chance_outcomes(), rng.random())
        else:
            action = rng.choice(state.legal_actions())
        steps.append(apply_logged_lines(state, action, seats))
    return steps, state


@pytest.mark.parametrize("game_id", games())
def test_every_step_gives_each_seat_lines_of_text(game_id: str) -> None:
    steps, _ = _play_logged(game_id, 3)
    assert steps
    for step in steps:
        for lines in step.values():
            for line in lines:
                assert isinstance(line, LogLine)
                assert line.text and "\n" not in line.text
                assert line.kind in ("move", "chance", "summary")


@pytest.mark.parametrize("game_id", games())
def test_result_names_winners_scores_and_a_reason_at_the_end_only(game_id: str) -> None:
    game = load_game(game_id)
    with pytest.raises(ValueError, match="not over"):
        game.new_initial_state().result()
    _, state = _play_logged(game_id, 5)
    result = state.result()  # type: ignore[attr-defined]
    assert isinstance(result, GameResult)
    assert result.winners and all(0 <= seat < game.num_players for seat in result.winners)
    assert len(result.scores) == game.num_players
    assert result.reason


@pytest.mark.parametrize("game_id", games())
def test_log_lines_refuse_a_bad_seat(game_id: str) -> None:
    game = load_game(game_id)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    action = state.legal_actions()[0]
    after = state.clone()
    after.apply_action(action)
    with pytest.raises(SeatError):
        state.log_lines(action, after, game.num_players)


@pytest.mark.parametrize("game_id", games())
def test_action_labels_start_with_the_notation(game_id: str) -> None:
    game = load_game(game_id)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            continue
        for action in state.legal_actions():
            label = state.action_label(action)
            assert label.startswith(state.action_to_string(action))
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id", games())
def test_every_game_has_a_public_view_without_any_hand(game_id: str) -> None:
    game = load_game(game_id)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    scan = LeakScan(state, None)
    hands = {card for zone, cards in state.zones().items() if zone.startswith("hand") for card in cards}
    assert hands and hands <= scan.hidden()


@pytest.mark.parametrize("game_id", games())
def test_card_facts_name_every_card_a_seat_holds_in_a_whole_game_with_a_line_of_text(game_id: str) -> None:
    spec = game_spec(game_id)
    facts = spec.card_facts()
    if spec.facts is None:
        assert facts == {}
        return
    assert all(isinstance(entry["name"], str) and entry["name"] for entry in facts.values())
    assert all(isinstance(entry["text"], str) and "\n" not in entry["text"] for entry in facts.values())
    json.dumps(facts)  # ready for JSON as it is
    game = load_game(game_id)
    state = game.new_initial_state()
    rng = random.Random(7)
    held: set[str] = set()
    while not state.is_terminal():
        for seat in range(game.num_players):
            held.update(state.observe(seat).get("hand", []))
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert held and held <= set(facts)
