"""Issue 34: every game's move labels say what the move does — each legal move of a seat is listed with more
than its notation (Race to Messina's "(55F → 48F)", Cards of War's "(left 0 → 4 vs 3)")."""

from __future__ import annotations

import pytest

import warcards
from warcards.bots import make_agent
from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE
from warcards.match import follow


@pytest.mark.parametrize("game_id", warcards.games())
def test_every_move_label_says_more_than_its_notation(game_id: str) -> None:
    game = warcards.load_game(game_id)
    bare: dict[str, str] = {}
    for seed in range(3):
        followed = follow(game, seed, [], [0])
        state, rng = followed.state, followed.rng
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(state.sample_outcome(rng.random()))
                continue
            for action in state.legal_actions():
                notation = state.action_to_string(action)
                if state.action_label(action) == notation:
                    bare.setdefault(notation.split()[0], notation)
            state.apply_action(make_agent("random", game, player, seed).step(SeatView(state, player)))
    assert not bare, f"labels that are only the notation: {sorted(bare.values())}"
