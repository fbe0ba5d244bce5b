"""The turn (summary: Turn): draw one, then play one or discard one; red cards drawn are played at once and
are the turn; a red card that cannot be played is discarded; never damage or sink your own ship."""

from __future__ import annotations

import pytest
from tests.games.naval_war.helpers import build, damage, is_legal, legal_texts, play, zone

from warcards.engine.api import CHANCE
from warcards.engine.errors import IllegalActionError, InvalidActionError

FLEETS = {"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND", "TEXAS"], "fleet:2": ["LUTZOW"]}


def _turn(hand: list[str], **extra: list[str]):
    return build({**FLEETS, "hand:0": hand, **extra}, phase="turn", turn=0)


def test_turn_draw_one_then_play_one() -> None:
    state = _turn(["SALVO16x2-1", "SALVO11x1-1"])
    assert state.current_player() == CHANCE and state.position()["phase"] == "draw"
    play(state, "draw SALVO16x3")
    assert state.current_player() == 0
    assert "fire SALVO16x3" in legal_texts(state)
    play(state, "fire SALVO16x3 at MARYLAND")
    assert sorted(zone(state, "hand:0")) == ["SALVO11x1-1", "SALVO16x2-1"]
    assert zone(state, "on:MARYLAND") == ["SALVO16x3-1"] and damage(state, "MARYLAND") == 3
    assert state.position()["turn"] == 1


def test_turn_discard_one_instead_of_playing() -> None:
    state = _turn(["SALVO16x2-1", "SALVO11x1-1"])
    play(state, "draw SALVO14x1", "discard SALVO11x1")
    assert zone(state, "discard") == ["SALVO11x1-1"]
    assert len(zone(state, "hand:0")) == 2 and state.position()["turn"] == 1


def test_turn_a_salvo_needs_a_ship_with_that_gun_size() -> None:
    state = _turn(["SALVO11x1-1"])
    play(state, "draw SALVO14x1")
    assert not is_legal(state, "fire SALVO11x1 at MARYLAND")
    assert not is_legal(state, "fire SALVO14x1 at MARYLAND")
    assert is_legal(state, "discard SALVO11x1")
    with pytest.raises(IllegalActionError, match=r"Normal cards, Salvo: .*ships with that gun size"):
        state.apply_action(state.parse_action("fire SALVO11x1"))


def test_turn_never_damage_or_sink_your_own_ship() -> None:
    state = _turn(["SALVO16x4-1"], **{"on:NELSON": ["SALVO14x3-1", "SALVO14x3-2"]})
    play(state, "draw SALVO16x1")
    assert not is_legal(state, "fire SALVO16x4 at NELSON")
    play(state, "fire SALVO16x4")
    assert "at NELSON" not in legal_texts(state) and "at MARYLAND" in legal_texts(state)
    before = state.fingerprint()
    with pytest.raises(IllegalActionError, match="never your own ship"):
        state.apply_action(state.parse_action("at NELSON"))
    assert state.fingerprint() == before


def test_turn_a_red_card_drawn_is_played_at_once_and_is_the_turn() -> None:
    state = _turn(["SALVO16x2-1", "SALVO11x1-1"])
    play(state, "draw TORPEDO")
    assert state.current_player() == 0 and state.position()["phase"] == "red"
    assert sorted(legal_texts(state)) == ["torpedo at LUTZOW", "torpedo at MARYLAND", "torpedo at TEXAS"]
    assert not is_legal(state, "discard SALVO11x1")
    play(state, "torpedo at LUTZOW", "roll 6")
    assert zone(state, "deep6:0") == ["LUTZOW"]
    assert len(zone(state, "hand:0")) == 2  # no play from the hand: the red card was the turn
    assert state.position()["turn"] == 1 and "TORPEDO-1" in zone(state, "discard")


def test_turn_a_red_card_that_cannot_be_played_is_discarded() -> None:
    state = _turn(["SALVO16x2-1"])
    play(state, "draw ADDDMG2")  # no salvo lies on an enemy ship: nothing to add damage to
    assert "ADDDMG2-1" in zone(state, "discard")
    assert state.position()["turn"] == 1 and state.current_player() == CHANCE


def test_turn_errors_say_what_is_wrong_and_change_nothing() -> None:
    state = _turn(["SALVO16x2-1"])
    play(state, "draw SALVO16x1")
    before = state.fingerprint()
    with pytest.raises(InvalidActionError, match="not naval-war notation"):
        state.parse_action("launch the fleet")
    with pytest.raises(InvalidActionError, match="actions are 0"):
        state.apply_action(10**6)
    with pytest.raises(IllegalActionError, match="Turn: player 0 holds no SMOKE card"):
        state.apply_action(state.parse_action("discard SMOKE"))
    assert state.fingerprint() == before


def test_turn_order_is_clockwise_and_skips_eliminated_players() -> None:
    state = build({**FLEETS, "hand:0": ["SALVO16x3-1"], "on:LUTZOW": []}, phase="play", turn=0)
    play(state, "fire SALVO16x3 at LUTZOW")
    assert state.position()["eliminated"] == [2]
    play(state, "draw SALVO14x1", "discard SALVO14x1")  # seat 1's turn
    assert state.position()["turn"] == 0
