"""Rulings of RULES.md not pinned elsewhere: points the rule texts leave open."""

from __future__ import annotations

import pytest
from tests.games.naval_war.helpers import build, is_legal, play, zone

from warcards.games.naval_war.rules import round as rules_round
from warcards.games.naval_war.rules import turn as rules_turn

BASE = {"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND", "TEXAS"], "fleet:2": ["LUTZOW"]}


def test_ruling_10_a_minefield_does_not_touch_the_destroyer_squadron() -> None:
    state = build({**BASE, "dd:1": ["DD-1"], "dd-salvos:1": ["SALVO14x2-1"]}, phase="turn", turn=0)
    play(state, "draw MINE2", "MINE2 at 1")
    dd = state.observe(0)["task_forces"][1]["destroyer_squadron"]
    assert dd == {"card": "DD-1", "hits": 2, "salvos": ["SALVO14x2-1"]}


def test_ruling_21_salvos_stay_after_the_firing_ship_sinks() -> None:
    # Seat 2 fired the 11" salvo under Maryland; Lutzow, its only 11" ship, sinks; the salvo stays.
    state = build({**BASE, "hand:0": ["SALVO16x3-1"], "on:MARYLAND": ["SALVO11x2-1"], "fleet:2": ["LUTZOW", "ROMA"]},
                  phase="play", turn=0)
    play(state, "fire SALVO16x3 at LUTZOW")
    assert zone(state, "on:MARYLAND") == ["SALVO11x2-1"]


def test_ruling_30_elimination_clears_the_players_table_cards() -> None:
    state = build({**BASE, "smoke:2": ["SMOKE-1"], "mines:2": ["MINE1-1"], "dd:2": ["DD-1"]},
                  phase="turn", turn=1, mine_last=[-1, -1, 0])
    play(state, "draw SUB", "sub at LUTZOW", "roll 6")  # a submarine passes the Smoke
    assert state.position()["eliminated"] == [2]
    assert zone(state, "mines:2") == [] and zone(state, "dd:2") == [] and zone(state, "smoke:2") == []
    assert {"MINE1-1", "DD-1", "SMOKE-1"} <= set(zone(state, "discard"))
    assert zone(state, "deep6:1") == ["LUTZOW"]


def test_ruling_36_smoke_does_not_cover_the_destroyer_squadron_in_the_centre() -> None:
    state = build({**BASE, "hand:0": ["SALVO16x1-1"], "smoke:1": ["SMOKE-1"], "dd:1": ["DD-1"]},
                  phase="play", turn=0)
    assert not is_legal(state, "fire SALVO16x1 at MARYLAND")
    assert is_legal(state, "fire SALVO16x1 at dd 1")


def test_ruling_28_a_round_ends_after_the_turn_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_turn, "MAX_TURNS_PER_ROUND", 2)
    state = build({**BASE, "deep6:0": ["YAMATO"]}, phase="turn", turn=0)
    play(state, "draw SALVO14x1", "discard SALVO14x1")
    assert state.position()["round"] == 1
    play(state, "draw SALVO14x1", "discard SALVO14x1")  # the third turn would exceed the limit
    assert state.position()["round"] == 2 and state.position()["last_round"] == [9, 0, 0]


def test_ruling_28_the_game_ends_after_the_round_limit_shared_by_the_leaders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rules_round, "MAX_ROUNDS", 1)
    state = build({**BASE, "deck": ["SALVO16x1-1"], "discard": "rest", "hand:0": ["SALVO14x1-1"]},
                  phase="turn", turn=0, scores=[10, 10, 0])
    play(state, "draw SALVO16x1", "discard SALVO16x1")
    assert state.is_terminal() and state.returns() == [0.5, 0.5, 0.0]
