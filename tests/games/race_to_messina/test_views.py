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
    from warcards.games.race_to_messina.render import render

    state = build("sicily", {"table:axis:americans": ["X36", "X10"], "table:americans": ["A38"],
                             "hand:americans": ["A04"], "hand:axis": ["X21"]}, phase="action", pt=[1, 2, 3])
    text = render(state.observe(1), 1)
    assert "British 1/10 PT, hand 0 · Americans 2/10 PT, hand 1 · Axis 3/16 PT, hand 1" in text
    assert "Axis set against the Americans 19F [to act]: X10 Bottleneck 7F," in text
    assert "A04 Infantry Division 7F" in text
    assert "X21" not in text and "table:" not in text
    for variant in ("invasion", "race"):
        shown = render(game(variant).new_initial_state().observe(0), 0)
        assert "turn 1, Logistics" in shown


def test_determinize_depends_only_on_what_the_seat_knows() -> None:
    """Two true states a seat cannot tell apart (A, and B sampled from A for that seat) determinize alike
    under the same seed: the unlocated cards are pooled in sorted order, and no other seat's knowledge of
    cards hidden from this seat is carried over (R31, R33)."""
    from warcards.engine.agents import SeatView
    from warcards.engine.api import sample_chance
    from warcards.games.race_to_messina.heuristic import heuristic_agent

    checked = resampled = 0
    for variant in ("invasion", "race", "sicily"):
        g = game(variant)
        rng = random.Random(f"determinize {variant}")
        for _ in range(4):
            agents = [heuristic_agent(g, seat, rng.randrange(1 << 30)) for seat in range(g.num_players)]
            state = g.new_initial_state()
            while not state.is_terminal():
                if rng.random() < 0.08:
                    for seat in range(g.num_players):
                        x = rng.randrange(1 << 30)
                        b = state.determinize(seat, random.Random(x))
                        assert b.observe(seat) == state.observe(seat)
                        resampled += b.zones() != state.zones()
                        for k in (x + 1, x + 2):
                            assert state.determinize(seat, random.Random(k)) == b.determinize(
                                seat, random.Random(k)
                            ), (variant, seat, state.position())
                        checked += 1
                player = state.current_player()
                if player == CHANCE:
                    state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                elif rng.random() < 0.2:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                else:
                    state.apply_action(agents[player].step(SeatView(state, player)))
    assert checked > 300 and resampled > checked // 2


def test_determinize_drops_another_seats_knowledge_of_a_hand_hidden_from_the_seat() -> None:
    """Sicily: the Americans looked at the Axis hand; the British cannot tell which cards they saw, so
    two such positions determinize alike for the British. Knowledge of the seat's own hand is kept (R33)."""
    zones = {"hand:british": ["A01"], "hand:americans": ["A05"]}
    a = build("sicily", {**zones, "hand:axis": ["X01", "X02"]}, phase="strategy",
              known={"americans": ["X01", "X02"], "axis": ["A01", "A05"]})
    b = build("sicily", {**zones, "hand:axis": ["X03", "X04"]}, phase="strategy",
              known={"americans": ["X03", "X04"], "axis": ["A01", "A05"]})
    assert a.observe(0) == b.observe(0)
    assert a.position()["known"] != b.position()["known"]
    for seed in range(5):
        da = a.determinize(0, random.Random(seed))
        assert da == b.determinize(0, random.Random(seed))
        assert da.position()["known"] == {"axis": ["A01"]}
    invasion = build("invasion", {"hand:allies": ["A01", "A02"], "hand:axis": ["X01"]}, phase="strategy",
                     known={"axis": ["A02"]})
    assert invasion.determinize(0, random.Random(0)).position()["known"] == {"axis": ["A02"]}


def test_r33_determinize_hides_other_seats_private_log_entries() -> None:
    """A sampled state carries no other seat's private log detail (the card it drew by Supply or kept, the
    hand it saw by Recon): those entries read -1, the seat's own stay, and the seat's view is unchanged."""
    from warcards.engine.api import sample_chance
    from warcards.games.race_to_messina import codes

    private = (codes.EV_RECON, codes.EV_SUPPLY, codes.EV_KEEP)
    seen = 0
    for variant in ("invasion", "sicily"):
        g = game(variant)
        rng = random.Random(f"private log {variant}")
        for _ in range(6):
            state = g.new_initial_state()
            while not state.is_terminal():
                player = state.current_player()
                if player == CHANCE:
                    state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                    continue
                for seat in range(g.num_players):
                    theirs = [e for e in state.log if e[0] in private and e[1] != seat]
                    if not theirs:
                        continue
                    sampled = state.determinize(seat, random.Random(seen))
                    assert sampled.observe(seat) == state.observe(seat)
                    for other in range(g.num_players):
                        sampled.observe(other)
                    for true, redacted in zip(state.log, sampled.log, strict=True):
                        if true[0] in private and true[1] != seat:
                            assert redacted[:-1] == true[:-1] and redacted[-1] == -1
                        else:
                            assert redacted == true
                    seen += 1
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    assert seen > 50
