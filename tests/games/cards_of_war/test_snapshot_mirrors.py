"""What the rules' fast paths rely on, refused when a snapshot breaks it: sorted hands and draw piles (a draw is
removed from its pile by a search in halves) and `open_battles` mirroring the battles nobody has won."""

from __future__ import annotations

import random
from typing import Any

import pytest

from warcards.engine.errors import SnapshotError

from .helpers import game


def _snapshot_mid_game() -> tuple[Any, dict[str, Any]]:
    g = game(length="short")
    state = g.new_initial_state()
    rng = random.Random(5)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    return g, state.snapshot()


def test_a_snapshot_of_a_played_game_is_read_back() -> None:
    g, data = _snapshot_mid_game()
    assert g.state_from_snapshot(data).snapshot() == data


@pytest.mark.parametrize("field", ["draw_piles", "hands"])
def test_an_unsorted_pile_or_hand_in_a_snapshot_is_refused_not_drawn_from(field: str) -> None:
    g, data = _snapshot_mid_game()
    pile = data["state"][field][0]
    pile[0], pile[1] = pile[1], pile[0]
    with pytest.raises(SnapshotError, match=rf"{field}\[0\] is not sorted"):
        g.state_from_snapshot(data)


def test_open_battles_out_of_step_with_the_winners_is_refused() -> None:
    g, data = _snapshot_mid_game()
    data["state"]["open_battles"] ^= 1
    with pytest.raises(SnapshotError, match="open_battles"):
        g.state_from_snapshot(data)
