"""Views: what a seat may see (issue: Views and bots) and determinize; notation round trips."""

from __future__ import annotations

import json
import random

import pytest
from tests.games.naval_war.helpers import build, game, play

import warcards
from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE, sample_chance
from warcards.engine.errors import InvalidActionError, SetupError
from warcards.games.naval_war import CONFORMANCE_CONFIGS
from warcards.games.naval_war.heuristic import heuristic_agent
from warcards.games.naval_war.state import NavalWarState
from warcards.testing import check_clone_names_every_field, random_playout


def _midgame(players: int = 4, seed: int = 5, steps: int = 120):
    return random_playout(game(players), seed, max_steps=steps)


def test_observe_shows_own_hand_table_counts_piles_and_deep_six() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"],
                   "hand:0": ["SMOKE-1"], "hand:1": ["REPAIR-1", "SALVO14x1-1"], "deep6:2": ["YAMATO"],
                   "on:MARYLAND": ["SALVO16x1-1"], "mines:2": ["MINE1-1"], "discard": ["SUB-1"]},
                  phase="play", turn=0, mine_last=[-1, -1, 1])
    view = state.observe(0)
    json.dumps(view)
    assert view["hand"] == ["SMOKE-1"]
    assert [f["hand_count"] for f in view["task_forces"]] == [1, 2, 0]
    assert view["task_forces"][1]["ships"][0]["salvos"] == [{"card": "SALVO16x1-1", "additional": []}]
    assert view["task_forces"][2]["deep_six"] == ["YAMATO"] and view["task_forces"][2]["mine_hits"] == 1
    assert view["discard"] == ["SUB-1"] and view["harbor_size"] == 50
    assert "REPAIR-1" not in json.dumps(view)


def test_observe_is_the_same_for_states_differing_only_in_hidden_cards() -> None:
    zones = {"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"], "hand:0": ["SMOKE-1"]}
    one = build({**zones, "hand:1": ["REPAIR-1"], "hand:2": ["SALVO11x1-1"]}, phase="play", turn=0)
    two = build({**zones, "hand:1": ["SALVO18x4-1"], "hand:2": ["DD-1"]}, phase="play", turn=0)
    assert one.observe(0) == two.observe(0)
    assert one.observe(1) != two.observe(1)


def test_determinize_keeps_the_view_and_hides_no_reds_in_hands_after_the_opening() -> None:
    state = _midgame(5)
    assert not state.position()["opening"]
    rng = random.Random(1)
    for seat in range(5):
        other = state.determinize(seat, rng)
        assert other.observe(seat) == state.observe(seat)
        for j in range(5):
            if j != seat:
                assert not any(card.split("-")[0] in ("ADDSHIP", "ADDDMG1", "ADDDMG2", "MINE1", "MINE2", "SUB",
                                                      "TORPEDO") for card in other.zones()[f"hand:{j}"])


def test_clone_is_equal_and_independent() -> None:
    state = _midgame(3)
    copy = state.clone()
    assert copy == state
    copy.apply_action(copy.legal_actions()[0])
    assert copy != state


@pytest.mark.parametrize("options", CONFORMANCE_CONFIGS, ids=json.dumps)
def test_copy_sets_every_field_and_shares_no_list(options: dict[str, object]) -> None:
    """`_copy` names each field (a native state has no `__dict__` to copy): all along a seeded game, a clone
    has every `__slots__` field, equal to the original's but for the two caches a copy resets, and shares no
    list but the game's read-only tables; the cached targets' inner lists are replaced, never mutated."""
    state, rng = warcards.load_game("naval-war", **options).new_initial_state(), random.Random(7)
    for step in range(5000):
        if state.is_terminal():
            break
        if step % 3 == 0:
            check_clone_names_every_field(state, reset={"targets_cache": None, "draw_chance": None},
                                          rows_shared={"fleet_targets"})
        state.apply_action(state.sample_outcome(rng.random()) if state.current_player() == CHANCE
                           else rng.choice(state.legal_actions()))
    assert state.is_terminal()


@pytest.mark.parametrize("players", [2, 9])
def test_notation_round_trips_for_every_legal_action(players: int) -> None:
    state = _midgame(players, seed=players)
    for action in state.legal_actions():
        assert state.parse_action(state.action_to_string(action)) == action


def test_notation_is_case_and_spacing_insensitive() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["KING_GEORGE_V"], "fleet:2": ["LUTZOW"],
                   "hand:0": ["SALVO16x2-1"]}, phase="play", turn=0)
    assert state.parse_action("Fire  salvo16x2") == state.parse_action("fire SALVO16x2")
    play(state, "fire SALVO16x2")
    assert state.parse_action("AT king george v") == state.parse_action("at KING_GEORGE_V")
    with pytest.raises(InvalidActionError, match="forms are"):
        state.parse_action("fire at will")


def test_setup_refuses_a_duplicated_or_unknown_card() -> None:
    with pytest.raises(SetupError, match="placed twice"):
        build({"fleet:0": ["NELSON"], "fleet:1": ["NELSON"]})
    with pytest.raises(SetupError, match="not a naval-war card id"):
        build({"fleet:0": ["BISMARK"]})
    with pytest.raises(SetupError, match="cannot lie in a mines:N zone"):
        build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "mines:1": ["SMOKE-1"]})
    with pytest.raises(SetupError, match="out of the game"):
        build({"fleet:0": ["NELSON"], "hand:0": ["ADDSHIP-1"]}, options={"additional_ship": False})


def test_render_shows_the_table_for_a_seat() -> None:
    from warcards.games.naval_war.render import render

    state = play(build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"],
                        "hand:0": ["SALVO16x2-1"]}, phase="turn", turn=0), "draw SMOKE")
    text = render(state.observe(0), 0)
    assert 'Nelson 16" 0/9' in text and "Maryland 0/5" in text and "Your hand: 16-inch ×2, Smoke" in text


def test_determinize_in_the_opening_leaves_the_opener_a_red_card_to_play() -> None:
    state = build({"fleet:0": ["NELSON"], "fleet:1": ["MARYLAND"], "fleet:2": ["LUTZOW"],
                   "hand:0": ["MINE1-1", "SALVO16x2-1", "SALVO16x2-2", "SALVO16x2-3", "SMOKE-1"],
                   "hand:1": ["SALVO14x1-1"], "hand:2": ["SALVO11x1-1"]}, phase="opening", dealer=0, turn=0)
    assert state.current_player() == 0 and state.position()["phase"] == "opening"
    rng = random.Random(9)
    for _ in range(30):
        other = state.determinize(1, rng)
        hand = other.zones()["hand:0"]
        assert other.legal_actions() and not any(c.startswith("ADDDMG") for c in hand)


def _positions(options: dict[str, object], seed: int, count: int) -> list[NavalWarState]:
    """Positions of one seeded game (heuristic bots with a quarter of random moves), chance nodes included,
    spread over its first rounds (openings, turns, air strikes, Destroyer Squadron attacks, fleet swaps)."""
    loaded = game(**options)  # type: ignore[arg-type]
    agents = [heuristic_agent(loaded, seat, seed + seat) for seat in range(loaded.num_players)]
    rng = random.Random(seed)
    state = loaded.new_initial_state()
    found: list[NavalWarState] = []
    while not state.is_terminal() and len(found) < count:
        if rng.random() < 0.04:
            found.append(state.clone())
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        elif rng.random() < 0.25:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        else:
            state.apply_action(agents[player].step(SeatView(state, player)))
    return found


def test_determinize_depends_only_on_what_the_seat_knows() -> None:
    """Two true states a seat cannot tell apart (B sampled from A for that seat) give the same sample for the
    same seed: the unseen cards and face-down ships are pooled in a canonical order before any draw."""
    phases: set[str] = set()
    checked = 0
    for index, options in enumerate(CONFORMANCE_CONFIGS):
        for position in _positions(options, 100 + index, 6):
            phases.add(position.position()["phase"])
            for seat in range(position.num_players):
                twin = position.determinize(seat, random.Random(seat))
                assert twin.observe(seat) == position.observe(seat)
                for k in (7, 8):
                    assert position.determinize(seat, random.Random(k)) == twin.determinize(seat, random.Random(k))
                checked += 1
    assert checked > 400 and {"opening", "play", "deal-cards"} <= phases
