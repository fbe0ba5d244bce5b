"""Views: observe hides what a seat may not know; determinize keeps what it knows (R31, R33)."""

from __future__ import annotations

import json
import random

from warcards.engine.api import CHANCE

from .helpers import build, game, play


def test_observe_is_json_and_shows_only_the_own_hand() -> None:
    state = build("invasion", {"hand:allies": ["A01", "A02"], "hand:axis": ["X01"]}, phase="strategy",
                  seat="axis")
    obs = state.observe(0)
    json.dumps(obs)
    assert obs["hand"] == ["A01", "A02"]
    assert obs["hand_sizes"] == {"allies": 2, "axis": 1}
    assert "X01" not in json.dumps(obs)


def test_observe_supply_draw_is_private_to_its_owner() -> None:
    state = build("invasion", {"table:allies": ["A06"]}, phase="action", seat="allies", passed=["table:axis"])
    play(state, "activate Aerodromes", "draw A15", "keep")
    assert "A15" in json.dumps(state.observe(0))
    assert "A15" not in json.dumps(state.observe(1))
    assert "allies keeps it in hand" in state.observe(1)["log"]


def test_r31_determinize_keeps_the_own_deployment_and_hides_the_others() -> None:
    state = build("invasion", {"hand:axis": ["X01", "X02", "X03"], "hand:allies": ["A01", "A02"]},
                  phase="deployment", seat="axis")
    play(state, "deploy X01", "done")
    view = state.observe(0)
    for seed in range(10):
        d = state.determinize(0, random.Random(seed))
        assert d.observe(0) == view
        assert d.current_player() == 0
        assert len(d.zones()["hand:axis"]) + len(d.zones()["deploying:axis"]) == 3
    own = state.determinize(1, random.Random(1))
    assert own.zones()["deploying:axis"] == ["X01"]


def test_r33_determinize_keeps_cards_seen_by_recon_in_that_hand() -> None:
    state = build("invasion", {"table:axis": ["X23"], "hand:allies": ["A01", "A02", "A03"]}, phase="action")
    play(state, "activate Reconnaissance")
    for seed in range(10):
        d = state.determinize(1, random.Random(seed))
        assert d.zones()["hand:allies"] == ["A01", "A02", "A03"]
        assert d.observe(1) == state.observe(1)


def test_determinize_resamples_unknown_hands_from_unseen_cards_of_the_right_deck() -> None:
    state = game("invasion").new_initial_state()
    rng = random.Random(5)
    while state.position()["phase"] == "logistics":
        state.apply_action(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
    hands = set()
    for seed in range(5):
        d = state.determinize(1, random.Random(seed))
        assert all(c.startswith("A") for c in d.zones()["hand:allies"])
        assert d.zones()["hand:axis"] == state.zones()["hand:axis"]
        hands.add(tuple(d.zones()["hand:allies"]))
    assert len(hands) > 1


def test_observe_equal_for_states_differing_only_in_hidden_cards() -> None:
    a = build("race", {"hand:british": ["A01", "A02"], "hand:americans": ["A03", "A04"]}, phase="strategy")
    b = build("race", {"hand:british": ["A01", "A02"], "hand:americans": ["A05", "A06"]}, phase="strategy")
    assert a.observe(0) == b.observe(0)
    assert a.observe(1) != b.observe(1)


def test_chance_nodes_are_uniform_over_the_unordered_deck() -> None:
    state = game("sicily").new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 47 and abs(sum(p for _, p in outcomes) - 1) < 1e-9


def test_render_shows_the_track_tables_and_hand_but_no_hidden_card() -> None:
    from warcards.games.race_to_messina import render

    state = build("sicily", {"table:axis:americans": ["X36", "X10"], "table:americans": ["A38"],
                             "hand:americans": ["A04"], "hand:axis": ["X21"]}, phase="action", pt=[1, 2, 3])
    text = render(state.observe(1), 1)
    assert "PT track: british 1/10, americans 2/10, axis 3/16" in text
    assert "table:axis:americans (total 19)" in text
    assert "A04 Infantry Division" in text
    assert "X21" not in text
    for variant in ("invasion", "race"):
        shown = render(game(variant).new_initial_state().observe(0), 0)
        assert "turn 1 — logistics phase" in shown
