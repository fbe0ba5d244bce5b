"""Builders for Naval War rule tests: positions from zones and fields, actions by notation."""

from __future__ import annotations

from typing import Any

import warcards
from warcards.games.naval_war.game import NavalWarGame
from warcards.games.naval_war.state import NavalWarState


def game(players: int = 3, **options: Any) -> NavalWarGame:
    loaded = warcards.load_game("naval-war", players=players, **options)
    assert isinstance(loaded, NavalWarGame)
    return loaded


def build(zones: dict[str, Any], players: int = 3, options: dict[str, Any] | None = None,
          **position: Any) -> NavalWarState:
    """A position from zones (unplaced play cards go to the draw pile, ships to the harbor) and fields."""
    return game(players, **(options or {})).state_from_setup({"zones": zones, "position": position})


def steps(text: str) -> list[str]:
    """A salvo written in one go, 'fire KIND at TARGET', is two actions: 'fire KIND', then 'at TARGET'."""
    if text.startswith("fire ") and " at " in text:
        kind, target = text.split(" at ", 1)
        return [kind, f"at {target}"]
    return [text]


def play(state: NavalWarState, *texts: str) -> NavalWarState:
    """Apply actions written in the notation (chance outcomes as 'draw KIND', 'roll N', 'ship NAME')."""
    for text in texts:
        for step in steps(text):
            state.apply_action(state.parse_action(step))
    return state


def legal_texts(state: NavalWarState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def is_legal(state: NavalWarState, text: str) -> bool:
    """Whether the action (or, for 'fire KIND at TARGET', both of its steps) is legal now."""
    first, *rest = steps(text)
    action = state.parse_action(first)
    if action not in state.legal_actions():
        return False
    if not rest:
        return True
    trial = state.clone()
    trial.apply_action(action)
    return trial.parse_action(rest[0]) in trial.legal_actions()


def zone(state: NavalWarState, name: str) -> list[str]:
    return state.zones()[name]


def damage(state: NavalWarState, ship: str) -> int:
    """Total hits on a ship in play (salvos, Additional Damage, minefields) as its owner's view shows."""
    for force in state.observe(0)["task_forces"]:
        for entry in force["ships"]:
            if entry["id"] == ship:
                return int(entry["damage"])
    raise AssertionError(f"{ship} is not afloat")
