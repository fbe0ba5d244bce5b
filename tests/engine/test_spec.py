"""GameSpec and the registry: every game's spec is complete and loads, games register through entry points
(a game of another package joins), and `load_game` imports no numpy."""

from __future__ import annotations

import ast
import inspect
import itertools
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import fields
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import warcards
from warcards.bots import make_agent
from warcards.bots.ismcts import LEVELS, SearchConfig, level_config
from warcards.engine import registry, spec
from warcards.engine.agents import SeatView
from warcards.engine.api import Game
from warcards.engine.errors import OptionError
from warcards.engine.registry import BUILTIN_GAMES, ENTRY_POINT_GROUP, game_spec, games, load_game, spec_of
from warcards.engine.spec import EncoderSpec, GameSpec, Ref
from warcards.testing import run_battery, sample_states

SRC = Path(registry.__file__).resolve().parents[2]
TOY = "tests.engine.outside_game:SPEC"


@pytest.mark.parametrize("game_id", list(BUILTIN_GAMES))
def test_every_builtin_spec_is_complete_and_loads(game_id: str) -> None:
    game_spec_ = game_spec(game_id)
    assert game_spec_.id == game_id and game_spec_.title
    assert game_spec_.options and game_spec_.conformance_configs
    game = load_game(game_id)
    assert game.game_id == game_id and game.title == game_spec_.title
    assert spec_of(game) is game_spec_
    assert set(game_spec_.variant_options) <= {option.name for option in game_spec_.options}
    for reference in (game_spec_.heuristic, game_spec_.evaluate, game_spec_.render):
        assert reference is not None and callable(reference.load())
    encoder = game_spec_.encoder
    assert isinstance(encoder, EncoderSpec) and encoder.bounds is not None
    assert callable(encoder.encode.load()) and callable(encoder.shape.load())
    assert isinstance(encoder.version.load(), int) and encoder.version.load() >= 1
    low, high = encoder.bounds.load()
    assert low < high
    assert game_spec_.utility == "general_sum" and game_spec_.utility_bounds is None
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    assert isinstance(game_spec_.render.load()(state.observe(seat), seat), str)
    agent = game_spec_.heuristic.load()(game, seat, 0)
    assert agent.step(SeatView(state, seat)) in state.legal_actions()
    assert len(game_spec_.evaluate.load()(state)) == game.num_players


@pytest.mark.parametrize("game_id", list(BUILTIN_GAMES))
def test_every_search_level_of_every_game_builds(game_id: str) -> None:
    names = {field.name for field in fields(SearchConfig)}
    game_spec_ = game_spec(game_id)
    for settings in [*game_spec_.search_levels.values(), *game_spec_.player_count_levels.values()]:
        assert set(settings) <= names
    for config in game_spec_.conformance_configs:
        game = load_game(game_id, **config)
        for level in LEVELS:
            assert isinstance(level_config(level, game), SearchConfig)


def test_search_budgets_are_those_of_the_specs() -> None:
    """The budgets moved from bots.ismcts into the specs unchanged (docs/bots.md)."""
    def hard(game_id: str, **options: object) -> SearchConfig:
        return level_config("hard", load_game(game_id, **options))

    race = hard("race-to-messina", variant="race")
    assert (race.paired, race.halving, race.iterations, race.horizon, race.override) == (True, True, 240, 16, 2.0)
    med = hard("med-sirocco", players=4)
    assert (med.paired, med.iterations, med.horizon, med.rollout, med.action_budget) == (True, 200, 20, "heuristic", None)
    assert [hard("naval-war", players=n).iterations for n in (2, 3, 4, 9)] == [400, 400, 100, 100]
    assert hard("cards-of-war") == LEVELS["hard"]


def test_every_field_of_the_spec_has_a_docstring() -> None:
    source = inspect.getsource(spec)
    for class_name in ("GameSpec", "EncoderSpec", "Ref"):
        body = next(
            node.body for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ClassDef) and node.name == class_name
        )
        documented = {
            statement.target.id
            for statement, following in itertools.pairwise(body)
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
        }
        declared = {field.name for field in fields(getattr(spec, class_name))}
        assert declared == documented, f"{class_name}: fields without a docstring: {sorted(declared - documented)}"


def test_a_reference_is_module_colon_attribute_and_loads_once() -> None:
    with pytest.raises(ValueError, match=r"must be 'package\.module:attribute'"):
        Ref("warcards.games.naval_war.SPEC")
    with pytest.raises(ValueError, match="has no attribute 'NO_SUCH'"):
        Ref("warcards.engine.spec:NO_SUCH").load()
    assert Ref("warcards.engine.spec:GameSpec").load() is GameSpec
    assert Ref(TOY).load() is Ref(TOY).load()


def test_a_spec_refuses_an_unknown_utility_and_a_config_with_unknown_options() -> None:
    toy = Ref(TOY).load()
    with pytest.raises(ValueError, match="utility='fair' is not allowed"):
        GameSpec(toy.id, toy.title, toy.options, toy.factory, toy.conformance_configs, utility="fair")
    with pytest.raises(ValueError, match="utility_sum is given exactly when"):
        GameSpec(toy.id, toy.title, toy.options, toy.factory, toy.conformance_configs, utility="constant_sum")
    with pytest.raises(ValueError, match=r"names unknown options \['colour'\]"):
        GameSpec(toy.id, toy.title, toy.options, toy.factory, [{"colour": "red"}])


def _entry(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """The entry points the registry will see (start: those pyproject.toml declares), caches cleared."""
    points = [_entry(game_id, value) for game_id, value in BUILTIN_GAMES.items()]

    def entry_points(group: str) -> list[EntryPoint]:
        assert group == ENTRY_POINT_GROUP
        return list(points)

    monkeypatch.setattr(registry, "entry_points", entry_points)
    registry._references.cache_clear()
    registry._load_spec.cache_clear()
    yield points
    registry._references.cache_clear()
    registry._load_spec.cache_clear()


def test_a_game_of_another_package_joins_through_its_entry_point(installed: list[EntryPoint]) -> None:
    installed.append(_entry("toy-tricks", TOY))
    assert games() == [*BUILTIN_GAMES, "toy-tricks"]
    assert game_spec("toy-tricks") is Ref(TOY).load()
    game = warcards.load_game("toy-tricks", players="3")
    assert (game.num_players, game.deck) == (3, 12)
    assert level_config("hard", game).iterations == 20
    assert make_agent("heuristic", game, 0, 1).step(SeatView(next(iter(_acting(game))), 0)) is not None
    tally = run_battery("toy-tricks", {"players": 3, "deck": 9}, games=20, seed=5)
    assert tally.games == 20 and tally.sampled_states > 0


def _acting(game: Game) -> Iterator[object]:
    return (s for s in sample_states(game, 0) if s.current_player() == 0)


def test_outside_games_follow_the_builtins_sorted_by_id(installed: list[EntryPoint]) -> None:
    installed[:0] = [_entry("zz-toy", TOY), _entry("aa-toy", TOY)]
    assert games() == [*BUILTIN_GAMES, "aa-toy", "zz-toy"]
    with pytest.raises(ValueError, match="registered as game 'aa-toy' but its id is 'toy-tricks'"):
        game_spec("aa-toy")


def test_without_entry_points_the_builtins_are_still_registered(installed: list[EntryPoint]) -> None:
    """Running from a source tree (PYTHONPATH=src) or a stale editable install: no metadata to read."""
    installed.clear()
    assert games() == list(BUILTIN_GAMES)
    assert load_game("naval-war", players=3).num_players == 3


def test_a_builtin_id_cannot_be_taken_by_another_package(installed: list[EntryPoint]) -> None:
    installed.append(_entry("naval-war", TOY))
    assert games() == list(BUILTIN_GAMES)
    assert game_spec("naval-war").title == "Naval War"


def test_two_packages_claiming_one_id_is_an_error_naming_both(installed: list[EntryPoint]) -> None:
    installed += [_entry("toy-tricks", TOY), _entry("toy-tricks", "elsewhere.toy:SPEC")]
    with pytest.raises(OptionError, match="registered twice"):
        games()


def test_an_entry_point_must_name_a_game_spec(installed: list[EntryPoint]) -> None:
    installed.append(_entry("not-a-spec", "tests.engine.outside_game:NOT_A_SPEC"))
    with pytest.raises(TypeError, match="is a str, not a GameSpec"):
        load_game("not-a-spec")
    with pytest.raises(OptionError, match="unknown game 'chess'; games are: race-to-messina"):
        load_game("chess")


def test_load_game_imports_no_numpy() -> None:
    """The rules need no numpy: the RL encoders, which do, are named in the spec and imported on use."""
    code = (
        "import sys, warcards\n"
        "for game_id in warcards.games():\n"
        "    state = warcards.load_game(game_id).new_initial_state()\n"
        "    state.apply_action(state.legal_actions()[0])\n"
        "assert 'numpy' not in sys.modules, [m for m in sys.modules if m.startswith('numpy')][:3]\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env={"PYTHONPATH": str(SRC)}, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
