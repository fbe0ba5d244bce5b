"""Shared helpers for the Cards of War tests: build positions, play notation, settle chance."""

from __future__ import annotations

from typing import Any

import warcards
from warcards.engine.api import CHANCE
from warcards.games.cards_of_war.state import CardsOfWarState


def game(**options: Any) -> warcards.Game:
    return warcards.load_game("cards-of-war", **options)


def setup(zones: dict[str, Any], position: dict[str, Any] | None = None, **options: Any) -> CardsOfWarState:
    """A deploy-phase state from zones (cards not named go to the draw pile) and position fields."""
    state = game(**options).state_from_setup({"zones": zones, "position": position or {}})
    assert isinstance(state, CardsOfWarState)
    return state


def play(state: CardsOfWarState, *texts: str) -> CardsOfWarState:
    """Apply each action text in notation (including `draw X` at chance nodes)."""
    for text in texts:
        state.apply_action(state.parse_action(text))
    return state


def settle(state: CardsOfWarState) -> CardsOfWarState:
    """Resolve chance nodes with the lowest card of the pile until a player must act (deterministic)."""
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def hand(state: CardsOfWarState, seat: int) -> list[str]:
    return state.zones()[f"hand:{seat}"]


def fresh_state(**options: Any) -> CardsOfWarState:
    state = game(**options).new_initial_state()
    assert isinstance(state, CardsOfWarState)
    return state


def legal_texts(state: CardsOfWarState) -> list[str]:
    """The legal actions in notation."""
    return [state.action_to_string(a) for a in state.legal_actions()]
