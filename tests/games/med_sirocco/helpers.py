"""Builders for Med Sirocco rule tests: positions from zones and fields, actions by notation."""

from __future__ import annotations

import random
from typing import Any

import warcards
from warcards.engine.api import CHANCE, sample_chance
from warcards.games.med_sirocco.game import MedSiroccoGame
from warcards.games.med_sirocco.state import MedSiroccoState


def game(players: int = 4, **options: Any) -> MedSiroccoGame:
    loaded = warcards.load_game("med-sirocco", players=players, **options)
    assert isinstance(loaded, MedSiroccoGame)
    return loaded


def build(hands: dict[int, list[str]], players: int = 4, operation: str | None = None, first: int = 0,
          options: dict[str, Any] | None = None, zones: dict[str, Any] | None = None,
          **position: Any) -> MedSiroccoState:
    """A position: the given hands (other seats get no cards), the rest in the piles, the Operation turned
    over with `first` as its 1st player."""
    all_zones: dict[str, Any] = {f"hand:{p}": cards for p, cards in hands.items()}
    for p in range(players):
        all_zones.setdefault(f"hand:{p}", [])
    all_zones.update(zones or {})
    if "pile" not in all_zones:
        all_zones["pile"] = "rest"
    pos: dict[str, Any] = {"first_player": first, **position}
    if operation is not None:
        pos["operation"] = operation
    return game(players, **(options or {})).state_from_setup({"zones": all_zones, "position": pos})


def play(state: MedSiroccoState, *texts: str) -> MedSiroccoState:
    """Apply actions written in the notation (chance outcomes as 'draw A12', 'roll 5')."""
    for text in texts:
        state.apply_action(state.parse_action(text))
    return state


def settle(state: MedSiroccoState, seed: int = 0) -> MedSiroccoState:
    """Sample chance (seeded) until a player must act or the game ends."""
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    return state


def legal_texts(state: MedSiroccoState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def is_legal(state: MedSiroccoState, text: str) -> bool:
    return state.parse_action(text) in state.legal_actions()


def zone(state: MedSiroccoState, name: str) -> list[str]:
    return sorted(state.zones()[name])
