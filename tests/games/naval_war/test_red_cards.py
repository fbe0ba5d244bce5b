"""Red cards (summary: Red (special) cards): Minefield, Submarine, Torpedo Boat, Additional Damage,
Additional Ship."""

from __future__ import annotations

from tests.games.naval_war.helpers import build, damage, is_legal, legal_texts, play, zone


def _drawn(zones: dict[str, object], card: str, players: int = 3, **position: object):
    """Seat 0's turn with `card` just drawn."""
    state = build(zones, players=players, phase="turn", turn=0, **position)
    return play(state, f"draw {card}")


def test_red_minefield_hits_every_ship_of_a_task_force_including_a_screened_carrier() -> None:
    state = _drawn({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND", "ENTERPRISE"], "fleet:2": ["LUTZOW"],
                    "mines:1": ["MINE1-1"]}, "MINE2", mine_last=[-1, 2, -1])
    assert sorted(legal_texts(state)) == ["MINE2 at 1", "MINE2 at 2"]
    play(state, "MINE2 at 1")
    # 3 hits: the carrier (Hit Number 3) sinks and goes to the player of the minefield (R3).
    assert zone(state, "deep6:0") == ["ENTERPRISE"]
    assert damage(state, "MARYLAND") == 3
    assert sorted(zone(state, "mines:1")) == ["MINE1-1", "MINE2-1"]
    assert state.position()["mine_last"] == [-1, 0, -1]


def test_ruling_2_a_ship_added_later_and_sunk_by_mines_goes_to_the_last_minefields_player() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"],
                   "mines:1": ["MINE1-1", "MINE2-1"]}, phase="turn", turn=1, mine_last=[-1, 2, -1])
    assert damage(state, "MARYLAND") == 3
    play(state, "draw ADDSHIP", "ship SCHEER")
    # Scheer (3) enters under 3 hits of mines: sunk at once, credited to seat 2, who laid the last minefield.
    assert zone(state, "deep6:2") == ["SCHEER"]
    assert zone(state, "fleet:1") == ["MARYLAND"]


def test_ruling_4_the_last_minefield_is_the_most_recently_played_one() -> None:
    state = _drawn({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND", "ROMA"], "fleet:2": ["LUTZOW"],
                    "mines:1": ["MINE2-1"]}, "MINE1", mine_last=[-1, 2, -1])
    play(state, "MINE1 at 1")
    assert state.position()["mine_last"][1] == 0
    play(state, "draw ADDSHIP", "ship GRAF_SPEE")  # seat 1 adds a 3-hit ship under 3 hits of mines
    assert zone(state, "deep6:0") == ["GRAF_SPEE"]


def test_red_minefield_stays_until_a_minesweeper_and_hits_later_ships() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"],
                   "mines:1": ["MINE1-1"]}, phase="turn", turn=1, mine_last=[-1, 0, -1])
    play(state, "draw ADDSHIP", "ship ROMA")
    assert damage(state, "ROMA") == 1 and zone(state, "mines:1") == ["MINE1-1"]


def test_ruling_6_smoke_stops_a_new_minefield() -> None:
    state = _drawn({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"], "smoke:1": ["SMOKE-1"]},
                   "MINE1")
    assert legal_texts(state) == ["MINE1 at 2"]


def test_red_submarine_sinks_on_5_or_6_and_passes_smoke() -> None:
    zones = {"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND", "TEXAS"], "fleet:2": ["LUTZOW"],
             "smoke:1": ["SMOKE-1"]}
    state = _drawn(zones, "SUB")
    assert is_legal(state, "sub at MARYLAND")
    play(state, "sub at MARYLAND", "roll 5")
    assert zone(state, "deep6:0") == ["MARYLAND"] and "SUB-1" in zone(state, "discard")
    missed = play(_drawn(zones, "SUB"), "sub at MARYLAND", "roll 4")
    assert zone(missed, "deep6:0") == [] and "MARYLAND" in zone(missed, "fleet:1")


def test_ruling_13_submarines_and_torpedo_boats_cannot_reach_a_screened_carrier() -> None:
    zones = {"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND", "ENTERPRISE"], "fleet:2": ["LUTZOW"]}
    assert not is_legal(_drawn(zones, "SUB"), "sub at ENTERPRISE")
    assert not is_legal(_drawn(zones, "TORPEDO"), "torpedo at ENTERPRISE")


def test_red_torpedo_boat_sinks_on_6_only_and_not_through_smoke() -> None:
    zones = {"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW", "SCHEER"], "smoke:1": ["SMOKE-1"]}
    state = _drawn(zones, "TORPEDO")
    assert sorted(legal_texts(state)) == ["torpedo at LUTZOW", "torpedo at SCHEER"]
    play(state, "torpedo at LUTZOW", "roll 5")
    assert zone(state, "deep6:0") == []
    state = play(_drawn(zones, "TORPEDO"), "torpedo at LUTZOW", "roll 6")
    assert zone(state, "deep6:0") == ["LUTZOW"]


def test_red_additional_damage_only_on_a_ship_carrying_a_salvo_and_it_credits_the_sink() -> None:
    zones = {"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND", "TEXAS"], "fleet:2": ["LUTZOW"],
             "on:MARYLAND": ["SALVO14x3-1"], "smoke:1": ["SMOKE-1"]}
    state = _drawn(zones, "ADDDMG2")
    # Only on a salvo, and Smoke does not stop it.
    assert legal_texts(state) == ["ADDDMG2 on SALVO14x3-1"]
    play(state, "ADDDMG2 on SALVO14x3-1")
    assert zone(state, "deep6:0") == ["MARYLAND"]
    assert "ADDDMG2-1" in zone(state, "discard") and "SALVO14x3-1" in zone(state, "discard")


def test_ruling_12_additional_damage_reaches_a_screened_carrier_that_carries_a_salvo() -> None:
    zones = {"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND", "ENTERPRISE"], "fleet:2": ["LUTZOW"],
             "on:ENTERPRISE": ["SALVO14x2-1"]}
    state = _drawn(zones, "ADDDMG1")
    play(state, "ADDDMG1 on SALVO14x2-1")
    assert zone(state, "deep6:0") == ["ENTERPRISE"]


def test_red_additional_ship_comes_from_the_harbor_pile() -> None:
    state = _drawn({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"]}, "ADDSHIP")
    harbor = len(zone(state, "harbor"))
    play(state, "ship YAMATO")
    assert sorted(zone(state, "fleet:0")) == ["NELSON", "YAMATO"]
    assert len(zone(state, "harbor")) == harbor - 1
    assert state.position()["turn"] == 1  # the red card was the turn


def test_red_additional_ship_with_an_empty_harbor_is_discarded() -> None:
    state = _drawn({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"], "deep6:1": "rest"},
                   "ADDSHIP")
    assert zone(state, "harbor") == [] and "ADDSHIP-1" in zone(state, "discard")
