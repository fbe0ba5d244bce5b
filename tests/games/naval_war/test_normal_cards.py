"""Normal cards (summary: Normal cards): Salvo, Minesweeper, Repair, Destroyer Squadron, Smoke."""

from __future__ import annotations

from tests.games.naval_war.helpers import build, damage, is_legal, legal_texts, play, zone

from warcards.engine.api import CHANCE

BASE = {"fleet:0": ["NELSON", "LUTZOW"], "fleet:1": ["MARYLAND", "TEXAS"], "fleet:2": ["ROMA"]}


def _play_phase(extra: dict[str, object], turn: int = 0, players: int = 3, **position: object):
    return build({**BASE, **extra}, players=players, phase="play", turn=turn, **position)


def test_normal_salvos_stack_under_a_ship_all_values_visible() -> None:
    state = _play_phase({"hand:0": ["SALVO16x2-1"], "on:MARYLAND": ["SALVO14x1-1"]})
    play(state, "fire SALVO16x2 at MARYLAND")
    assert sorted(zone(state, "on:MARYLAND")) == ["SALVO14x1-1", "SALVO16x2-1"]
    ship = next(s for s in state.observe(2)["task_forces"][1]["ships"] if s["id"] == "MARYLAND")
    assert [s["card"] for s in ship["salvos"]] == ["SALVO14x1-1", "SALVO16x2-1"] and ship["damage"] == 3


def test_normal_salvos_are_stopped_by_smoke() -> None:
    state = _play_phase({"hand:0": ["SALVO16x2-1"], "smoke:1": ["SMOKE-1"]})
    assert not is_legal(state, "fire SALVO16x2 at MARYLAND")
    assert is_legal(state, "fire SALVO16x2 at ROMA")


def test_normal_smoke_lasts_until_the_owners_next_turn() -> None:
    state = _play_phase({"hand:0": ["SMOKE-1", "SALVO11x1-1"], "hand:1": ["SALVO16x1-1"]})
    play(state, "smoke")
    assert zone(state, "smoke:0") == ["SMOKE-1"]
    play(state, "draw SALVO16x2")
    assert not is_legal(state, "fire SALVO16x2 at NELSON")  # seat 1 cannot fire at the smoked seat 0
    play(state, "discard SALVO16x2", "draw SALVO14x1", "discard SALVO14x1")
    # Seat 0's next turn: the Smoke is discarded before drawing.
    assert state.position()["turn"] == 0 and zone(state, "smoke:0") == []
    assert "SMOKE-1" in zone(state, "discard")


def test_ruling_5_a_minesweeper_removes_every_minefield_and_its_hits() -> None:
    state = _play_phase({"hand:1": ["SWEEP-1"], "mines:1": ["MINE1-1", "MINE2-1"],
                         "on:MARYLAND": ["SALVO11x1-1"]}, turn=1, mine_last=[-1, 0, -1])
    assert damage(state, "MARYLAND") == 4
    play(state, "sweep")
    assert zone(state, "mines:1") == [] and damage(state, "MARYLAND") == 1
    assert {"SWEEP-1", "MINE1-1", "MINE2-1"} <= set(zone(state, "discard"))


def test_ruling_25_a_minesweeper_with_no_minefield_can_only_be_discarded() -> None:
    state = _play_phase({"hand:1": ["SWEEP-1"]}, turn=1)
    assert not is_legal(state, "sweep") and is_legal(state, "discard SWEEP")


def test_normal_repair_removes_one_salvo_and_its_additional_damage() -> None:
    state = _play_phase({"hand:1": ["REPAIR-1"], "on:MARYLAND": ["SALVO16x2-1", "ADDDMG1-1", "SALVO14x1-1"]},
                        turn=1, attached={"ADDDMG1-1": "SALVO16x2-1"})
    assert damage(state, "MARYLAND") == 4
    assert sorted(t for t in legal_texts(state) if t.startswith("repair")) == [
        "repair SALVO14x1-1", "repair SALVO16x2-1"]
    play(state, "repair SALVO16x2-1")
    assert zone(state, "on:MARYLAND") == ["SALVO14x1-1"] and damage(state, "MARYLAND") == 1
    assert {"REPAIR-1", "SALVO16x2-1", "ADDDMG1-1"} <= set(zone(state, "discard"))


def test_normal_destroyer_squadron_goes_to_the_centre_and_4_hits_destroy_it() -> None:
    state = _play_phase({"hand:0": ["DD-1"]})
    play(state, "dd")
    assert zone(state, "dd:0") == ["DD-1"]
    play(state, "draw SALVO16x3", "fire SALVO16x3 at dd 0")  # seat 1
    assert state.observe(2)["task_forces"][0]["destroyer_squadron"]["hits"] == 3
    play(state, "draw SALVO15x1", "fire SALVO15x1 at dd 0")  # seat 2: 4 hits, destroyed, no points
    assert zone(state, "dd:0") == [] and zone(state, "deep6:2") == []
    assert {"DD-1", "SALVO16x3-1", "SALVO15x1-1"} <= set(zone(state, "discard"))


def test_normal_destroyer_squadron_that_survives_sinks_d6_ships_chosen_by_its_owner() -> None:
    state = build({**BASE, "fleet:1": ["MARYLAND", "TEXAS", "ENTERPRISE", "WEST_VIRGINIA"], "dd:0": ["DD-1"],
                   "dd-salvos:0": ["SALVO14x1-1"]}, phase="turn", turn=0)
    assert state.current_player() == 0 and state.position()["phase"] == "dd-target"
    assert legal_texts(state) == ["dd target 1", "dd target 2"]
    play(state, "dd target 1", "roll 2")
    # R8: the screened carrier cannot be picked while other ships remain.
    assert sorted(legal_texts(state)) == ["dd sink MARYLAND", "dd sink TEXAS", "dd sink WEST_VIRGINIA"]
    play(state, "dd sink MARYLAND", "dd sink TEXAS")
    assert sorted(zone(state, "deep6:0")) == ["MARYLAND", "TEXAS"]
    assert {"DD-1", "SALVO14x1-1"} <= set(zone(state, "discard")) and zone(state, "dd:0") == []
    # R9: the owner's normal turn follows.
    assert state.current_player() == CHANCE and state.position()["phase"] == "draw"
    assert state.position()["turn"] == 0


def test_ruling_8_a_roll_above_the_ships_left_sinks_them_all_carriers_last() -> None:
    state = build({**BASE, "fleet:1": ["MARYLAND", "ENTERPRISE"], "dd:0": ["DD-1"]}, phase="turn", turn=0)
    play(state, "dd target 1", "roll 6", "dd sink MARYLAND")
    assert legal_texts(state) == ["dd sink ENTERPRISE"]
    play(state, "dd sink ENTERPRISE")
    assert state.position()["eliminated"] == [1]
    assert state.position()["phase"] == "draw"


def test_ruling_7_smoke_protects_a_task_force_from_the_destroyer_squadron() -> None:
    state = build({**BASE, "dd:0": ["DD-1"], "smoke:1": ["SMOKE-1"]}, phase="turn", turn=0)
    assert legal_texts(state) == ["dd target 2"]
    both = build({**BASE, "dd:0": ["DD-1"], "smoke:1": ["SMOKE-1"], "smoke:2": ["SMOKE-2"]}, phase="turn", turn=0)
    # No target: the DD is discarded without attacking and the turn goes on.
    assert zone(both, "dd:0") == [] and both.position()["phase"] == "draw"


def test_normal_destroyer_squadron_is_discarded_if_its_owner_is_eliminated() -> None:
    state = _play_phase({"dd:2": ["DD-1"], "hand:0": ["SALVO16x4-1"], "on:ROMA": ["SALVO15x2-1"]})
    play(state, "fire SALVO16x4 at ROMA")
    assert state.position()["eliminated"] == [2] and zone(state, "dd:2") == []
    assert "DD-1" in zone(state, "discard")


def test_normal_destroyer_squadron_cannot_be_hit_by_red_cards() -> None:
    state = build({**BASE, "dd:1": ["DD-1"], "dd-salvos:1": ["SALVO14x2-1"]}, phase="turn", turn=0)
    play(state, "draw ADDDMG2")  # the only salvo lies on the DD: Additional Damage has no target
    assert "ADDDMG2-1" in zone(state, "discard") and zone(state, "dd:1") == ["DD-1"]
