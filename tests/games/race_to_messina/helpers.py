"""Builders for Race to Messina rule tests: positions from zones and fields, actions by notation."""

from __future__ import annotations

from typing import Any

import warcards
from warcards.games.race_to_messina.game import RaceToMessinaGame
from warcards.games.race_to_messina.state import RaceToMessinaState


def game(variant: str = "invasion") -> RaceToMessinaGame:
    loaded = warcards.load_game("race-to-messina", variant=variant)
    assert isinstance(loaded, RaceToMessinaGame)
    return loaded


def build(variant: str, zones: dict[str, Any], **position: Any) -> RaceToMessinaState:
    """A position from zones (unplaced cards go to their decks) and position fields."""
    return game(variant).state_from_setup({"zones": zones, "position": position})


def play(state: RaceToMessinaState, *texts: str) -> RaceToMessinaState:
    """Apply actions written in the notation (chance outcomes as 'draw CARD')."""
    for text in texts:
        state.apply_action(state.parse_action(text))
    return state


def legal_texts(state: RaceToMessinaState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def is_legal(state: RaceToMessinaState, text: str) -> bool:
    return state.parse_action(text) in state.legal_actions()


def zone(state: RaceToMessinaState, name: str) -> list[str]:
    return state.zones()[name]
