"""Air strikes by carriers (summary: Air strikes): instead of draw-and-play, one per carrier, every target
named before any roll, a 1 sinks."""

from __future__ import annotations

from tests.games.naval_war.helpers import build, is_legal, legal_texts, play, zone

from warcards.engine.api import CHANCE

ZONES = {"fleet:0": ["NELSON", "ENTERPRISE", "ARK_ROYAL"], "fleet:1": ["MARYLAND", "TEXAS", "AKAGI"],
         "fleet:2": ["ROMA"], "hand:0": ["SALVO16x1-1"]}


def test_air_strikes_are_instead_of_the_draw() -> None:
    state = build(ZONES, phase="turn", turn=0)
    assert state.current_player() == 0 and state.position()["phase"] == "choice"
    assert is_legal(state, "draw") and is_legal(state, "strike MARYLAND")
    assert not is_legal(state, "strike AKAGI")  # screened carrier (R14)
    play(state, "draw")
    assert state.current_player() == CHANCE and state.position()["phase"] == "draw"


def test_air_strikes_one_per_carrier_all_named_before_rolling_a_1_sinks() -> None:
    state = build(ZONES, phase="turn", turn=0)
    play(state, "strike MARYLAND")
    assert state.position()["carriers_to_name"] == ["ARK_ROYAL"] and state.current_player() == 0
    assert not is_legal(state, "draw")
    play(state, "strike ROMA")
    assert state.current_player() == CHANCE and state.position()["roll"] == "air-strike"
    play(state, "roll 1", "roll 2")
    assert zone(state, "deep6:0") == ["MARYLAND"] and zone(state, "fleet:2") == ["ROMA"]
    assert len(zone(state, "hand:0")) == 1  # no card drawn or played
    assert state.position()["turn"] == 1


def test_air_strikes_on_the_same_target_the_second_is_not_flown_once_it_sank() -> None:
    state = build(ZONES, phase="turn", turn=0)
    play(state, "strike MARYLAND", "strike MARYLAND", "roll 1")
    assert zone(state, "deep6:0") == ["MARYLAND"]
    assert state.position()["turn"] == 1


def test_ruling_15_a_player_may_launch_fewer_strikes_than_carriers() -> None:
    state = build(ZONES, phase="turn", turn=0)
    assert is_legal(state, "skip")
    play(state, "skip")
    assert not is_legal(state, "skip") and not is_legal(state, "draw")  # the last carrier must fly
    play(state, "strike TEXAS", "roll 3")
    assert sorted(zone(state, "fleet:1")) == [
        "AKAGI", "MARYLAND", "TEXAS"]


def test_ruling_14_air_strikes_do_not_pass_smoke() -> None:
    state = build({**ZONES, "smoke:1": ["SMOKE-1"]}, phase="turn", turn=0)
    assert sorted(t for t in legal_texts(state) if t.startswith("strike")) == ["strike ROMA"]
