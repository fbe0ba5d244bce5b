"""The template game `examples/minimal_game`: it passes the conformance battery and its scenario files,
its ruling R1 holds, its hidden information stays hidden, and it joins the registry through the entry point
its own pyproject.toml declares (monkeypatched here: the tests load it from its folder, not installed)."""

from __future__ import annotations

import importlib
import random
import tomllib
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from typing import Any

import pytest

import warcards
from tests.examples.template import TEMPLATE, load_minimal_game
from warcards.bots import make_agent
from warcards.bots.ismcts import level_config
from warcards.engine import registry
from warcards.engine.agents import RandomAgent, SeatView
from warcards.engine.api import CHANCE
from warcards.engine.errors import (
    CardDataError,
    IllegalActionError,
    InvalidActionError,
    OptionError,
    SetupError,
)
from warcards.engine.registry import BUILTIN_GAMES, ENTRY_POINT_GROUP, game_spec, games, load_game, spec_of
from warcards.match import play_match
from warcards.rl.encoding import encoder_for
from warcards.testing import (
    failed_scenarios,
    random_playout,
    random_step,
    run_battery,
    run_scenario,
    sample_states,
)

MINIMAL = load_minimal_game()
HEURISTIC = importlib.import_module(f"{MINIMAL.__name__}.heuristic")
"""Imported by name: the spec loads it lazily, so the package attribute exists only after a first use."""
GAME_ID = "minimal-game"
PYPROJECT = tomllib.loads((TEMPLATE / "pyproject.toml").read_text())
SCENARIOS = TEMPLATE / "scenarios"


def _declared_entry_points() -> list[EntryPoint]:
    """The entry points the template's pyproject.toml declares (what `pip install` would register)."""
    declared = PYPROJECT["project"]["entry-points"][ENTRY_POINT_GROUP]
    return [EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP) for name, value in declared.items()]


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The registry sees the built-in games and the template's own entry point, as after `pip install`."""
    points = [EntryPoint(name=game_id, value=value, group=ENTRY_POINT_GROUP) for game_id, value in BUILTIN_GAMES.items()]
    points += _declared_entry_points()

    def entry_points(group: str) -> list[EntryPoint]:
        assert group == ENTRY_POINT_GROUP
        return list(points)

    monkeypatch.setattr(registry, "entry_points", entry_points)
    registry._references.cache_clear()
    registry._load_spec.cache_clear()
    yield
    registry._references.cache_clear()
    registry._load_spec.cache_clear()


def _game(**options: Any) -> Any:
    """The template game built directly (no registry) with `options` over the defaults."""
    return MINIMAL.SPEC.factory({"players": 2, "hand": 3, "cards": None, **options})


# ----- registry and spec ---------------------------------------------------------------------------------
def test_the_template_joins_the_registry_through_its_entry_point(installed: None) -> None:
    assert [point.name for point in _declared_entry_points()] == [GAME_ID]
    assert games() == [*BUILTIN_GAMES, GAME_ID]
    assert game_spec(GAME_ID) is MINIMAL.SPEC
    game = warcards.load_game(GAME_ID, players="3")
    assert game.num_players == 3 and spec_of(game) is MINIMAL.SPEC
    assert level_config("hard", game).iterations == 60
    with pytest.raises(OptionError, match="option players=5 is not allowed"):
        load_game(GAME_ID, players=5)
    state = random_playout(game, 0, max_steps=9)
    seat = state.current_player()
    assert make_agent("heuristic", game, seat, 1).step(SeatView(state, seat)) in state.legal_actions()


def test_every_part_of_the_spec_loads() -> None:
    spec = MINIMAL.SPEC
    game = spec.factory({"players": 4, "hand": 2, "cards": None})
    state = next(s for s in sample_states(game, 3) if s.current_player() == 1)
    assert isinstance(spec.render.load()(state.observe(1), 1), str)
    assert len(spec.evaluate.load()(state)) == 4
    encoder = encoder_for(game)
    vector = encoder.encode(state.observe(1))
    assert vector.shape == encoder.shape and encoder.low <= vector.min() and vector.max() <= encoder.high


# ----- the battery and the scenario files -----------------------------------------------------------------
@pytest.mark.parametrize("config", MINIMAL.CONFORMANCE_CONFIGS, ids=lambda c: f"{c['players']}p-hand{c['hand']}")
def test_the_conformance_battery_passes(installed: None, config: dict[str, Any]) -> None:
    tally = run_battery(GAME_ID, config, games=200, seed=7)
    assert tally.games == 200 and tally.sampled_states > 0 and tally.replays > 0


def test_the_scenario_files_pass(installed: None) -> None:
    assert list(SCENARIOS.glob("*/*.json")), "the template ships a scenario file"
    assert failed_scenarios(SCENARIOS) == []
    result = run_scenario(SCENARIOS / GAME_ID / "r1-short-pile-no-refill.json")
    assert result.passed and result.rule == "R1"


# ----- the rulings ---------------------------------------------------------------------------------------
def test_r1_no_refill_when_the_pile_cannot_serve_every_player() -> None:
    """Three players with hands of three: 9 dealt, refills after tricks 1-3 leave 2 cards, which stay."""
    game = _game(players=3)
    for seed in range(20):
        state, rng, draws = game.new_initial_state(), random.Random(seed), 0
        while not state.is_terminal():
            draws += state.is_chance_node()
            random_step(state, rng)
        assert (draws, len(state.pile), sum(state.tricks_won)) == (9 + 3 * 3, 2, 6)


# ----- the rule text -------------------------------------------------------------------------------------
def test_rule_3_the_leader_plays_face_up_and_a_follower_may_discard_face_down() -> None:
    state = random_playout(_game(), 1, max_steps=6)
    layout = state.game.layout
    assert state.current_player() == state.leader == 0
    assert state.legal_actions() == [layout.play + card for card in state.hands[0]]
    with pytest.raises(IllegalActionError, match="rule 3: the leader plays face up"):
        state.apply_action(layout.discard + state.hands[0][0])
    state.apply_action(state.parse_action(f"play {state.table.ids[state.hands[0][0]]}"))
    follower = state.hands[1]
    assert state.legal_actions() == [*(layout.play + c for c in follower), *(layout.discard + c for c in follower)]


def test_rule_4_the_strongest_face_up_card_of_the_led_suit_wins() -> None:
    setup = {"zones": {"hand:0": ["S2"], "hand:1": ["S5"], "played": "rest"}, "position": {"leader": 0}}
    for second, winner in (("play S5", 1), ("discard S5", 0)):
        state = _game(hand=2).state_from_setup(setup)
        state.apply_action(state.parse_action("play S2"))
        state.apply_action(state.parse_action(second))
        assert state.is_terminal() and state.returns() == [float(winner == 0), float(winner == 1)]


# ----- hidden information --------------------------------------------------------------------------------
def test_a_draw_and_a_face_down_discard_are_seen_only_by_their_player() -> None:
    state = _game().new_initial_state()
    seen = state.seen_action(state.legal_actions()[0], 1)
    assert (seen.actor, seen.action, seen.text) == (CHANCE, None, "player 0 draws a card")
    assert state.seen_action(state.legal_actions()[0], 0).text == "draw A1"
    state = random_playout(state, 2, max_steps=7)
    discard = state.game.layout.discard + state.hands[1][0]
    assert state.seen_action(discard, 0).text == "player 1 discards a card face down"
    assert state.seen_action(discard, None).action is None
    assert state.seen_action(discard, 1).text.startswith("discard ")


def test_determinize_depends_only_on_what_the_seat_knows() -> None:
    state = random_playout(_game(players=3), 5, max_steps=12)
    other = state.clone()
    other.hands[1], other.pile[:len(other.hands[1])] = other.pile[:len(other.hands[1])], other.hands[1]
    other.hands[1].sort()
    other.pile.sort()
    assert other.observe(0) == state.observe(0) and other.zones() != state.zones()
    first, second = state.determinize(0, random.Random(9)), other.determinize(0, random.Random(9))
    assert first.zones() == second.zones() and first.history() == []


# ----- setups, card files, notation ---------------------------------------------------------------------
def test_a_bad_setup_is_refused_naming_what_is_wrong() -> None:
    game = _game()
    with pytest.raises(SetupError, match="every hand holds the same number of cards"):
        game.state_from_setup({"zones": {"hand:0": ["A1"]}})
    with pytest.raises(SetupError, match="unknown zone 'hand:7'"):
        game.state_from_setup({"zones": {"hand:7": ["A1"]}})
    with pytest.raises(SetupError, match="placed twice"):
        game.state_from_setup({"zones": {"hand:0": ["A1"], "hand:1": ["A1"]}})
    with pytest.raises(SetupError, match=r"'leader': expected an integer 0\.\.1"):
        game.state_from_setup({"position": {"leader": 2}})


def test_a_broken_card_file_is_refused_naming_the_card_and_field(tmp_path: Any) -> None:
    text = (TEMPLATE / "cards.toml").read_text().replace('id = "A2"', 'id = "a1"')
    path = tmp_path / "cards.toml"
    path.write_text(text)
    with pytest.raises(CardDataError, match="card a1: field id: duplicate id"):
        _game(cards=str(path))


def test_notation_refuses_a_draw_at_a_move_and_a_move_at_a_draw() -> None:
    state = _game().new_initial_state()
    with pytest.raises(InvalidActionError, match="a card is being drawn"):
        state.parse_action("play A1")
    assert state.parse_action("draw a1") == 0
    state = random_playout(state, 0, max_steps=6)
    with pytest.raises(InvalidActionError, match="a draw is the game's chance event"):
        state.parse_action("draw A1")
    with pytest.raises(InvalidActionError, match="no card 'z9'"):
        state.parse_action("play Z9")


# ----- the heuristic ------------------------------------------------------------------------------------
def test_the_heuristic_wins_more_tricks_than_a_random_player() -> None:
    game = _game()
    totals = [0.0, 0.0]
    for seed in range(60):
        for heuristic_seat in (0, 1):
            agents: list[Any] = [RandomAgent(seat, seed) for seat in range(2)]
            agents[heuristic_seat] = HEURISTIC.MinimalHeuristic(game, heuristic_seat, seed)
            record = play_match(game, agents, seed)
            totals[0] += record.returns[heuristic_seat]
            totals[1] += record.returns[1 - heuristic_seat]
    assert totals[0] > 1.5 * totals[1]
