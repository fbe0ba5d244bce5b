"""Notation: card ids and names, every action's text, clear errors (docs/notation/race-to-messina.md)."""

from __future__ import annotations

import pytest

import warcards

from .helpers import build, play


def test_notation_accepts_ids_names_and_both_case_insensitively() -> None:
    state = build("invasion", {"table:axis": ["X28"], "table:allies": ["A02"]}, phase="action")
    expected = state.legal_actions()[0]
    for text in ("activate X28 target A02", "activate antitank guns target sherman tanks",
                 "ACTIVATE x28 Antitank Guns TARGET a02 Sherman Tanks", "activate X28 on A02",
                 str(expected)):
        assert state.parse_action(text) == expected


def test_notation_round_trips_every_legal_action() -> None:
    state = build("sicily", {"hand:axis": ["X01", "X02"]}, phase="deployment", seat="axis")
    for action in state.legal_actions():
        assert state.parse_action(state.action_to_string(action)) == action


def test_notation_bad_text_is_invalid_with_the_accepted_forms() -> None:
    state = build("invasion", {"hand:axis": ["X01"]}, phase="strategy", seat="axis")
    with pytest.raises(warcards.InvalidActionError, match="accepted forms"):
        state.parse_action("attack X01")
    with pytest.raises(warcards.InvalidActionError, match="unknown card"):
        state.parse_action("discard Tiger Tanks")
    with pytest.raises(warcards.InvalidActionError, match="not 'Luftwaffe'"):
        state.parse_action("discard X01 Luftwaffe")
    with pytest.raises(warcards.InvalidActionError, match="chance outcome"):
        state.parse_action("draw X01")


def test_notation_at_a_chance_node_only_draws() -> None:
    state = build("invasion", {}, phase="logistics")
    with pytest.raises(warcards.InvalidActionError, match="draw CARD"):
        state.parse_action("discard X01")
    assert state.action_to_string(state.parse_action("draw X05")) == "draw X05 Luftwaffe"


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    state = build("invasion", {"hand:axis": ["X01"], "hand:allies": ["A01"]}, phase="strategy", seat="axis")
    before = state.clone()
    with pytest.raises(warcards.IllegalActionError, match="Strategy: A01 Flanking Maneuver is not in the axis hand"):
        play(state, "discard A01")
    assert state == before


def test_target_on_a_card_without_discard_ability_is_invalid() -> None:
    state = build("invasion", {"table:axis": ["X19"]}, phase="action")
    with pytest.raises(warcards.InvalidActionError, match="takes no target"):
        state.parse_action("activate Hube target A01")
