"""Rule parameters (issue 35, `warcards.engine.params`): the rule text's numbers a designer may vary, each
with its default, range and meaning. The defaults are the rule text's game (the golden records stay
identical: scripts/record_golden.py --check); every value in range plays full random games with every
invariant of the battery; a value out of range, an unknown name or a mistyped value is refused with the
range in the message; a record carries its parameters, so replay loads the same game."""

from __future__ import annotations

import json
from typing import Any

import pytest

import warcards
from warcards.engine.errors import OptionError
from warcards.engine.params import ParamSpec, resolve_params
from warcards.engine.registry import conformance_configs, param_specs, variant_keys
from warcards.match import MatchRecord, play_match, replay
from warcards.testing.battery import Tally, play_checked

PARAM_GAMES = [game_id for game_id in warcards.games() if param_specs(game_id)]


def _configs_covering_every_parameter(game_id: str) -> list[tuple[dict[str, Any], str]]:
    """(config, parameter) pairs: each parameter of each variant in the first conformance config that has
    it (a game's optional rules bring their own numbers), so every parameter is played, each once."""
    pairs: list[tuple[dict[str, Any], str]] = []
    seen: set[tuple[str, ...]] = set()
    for config in conformance_configs(game_id):
        variant = tuple(str(config.get(key)) for key in variant_keys(game_id))
        for spec in param_specs(game_id, config):
            if (*variant, spec.name) not in seen:
                seen.add((*variant, spec.name))
                pairs.append((config, spec.name))
    return pairs


CASES = [
    (game_id, config, spec.name, value)
    for game_id in PARAM_GAMES
    for config, name in _configs_covering_every_parameter(game_id)
    for spec in param_specs(game_id, config)
    if spec.name == name
    for value in sorted({spec.low, spec.high})
]


def test_race_to_messina_has_parameters() -> None:
    assert "race-to-messina" in PARAM_GAMES
    names = {spec.name for spec in param_specs("race-to-messina", {"variant": "sicily"})}
    assert {"axis_hand_size", "british_pt_goal", "discard_limit", "recovery_keep", "axis_set_cap"} <= names


@pytest.mark.parametrize("game_id", PARAM_GAMES)
def test_default_parameters_are_the_rule_text_game(game_id: str) -> None:
    configs = {json.dumps(config, sort_keys=True) for config, _ in _configs_covering_every_parameter(game_id)}
    for config in map(json.loads, sorted(configs)):
        defaults = {spec.name: spec.default for spec in param_specs(game_id, config)}
        plain = warcards.load_game(game_id, **config)
        given = warcards.load_game(game_id, **config, params=defaults)
        assert given.options == plain.options and "params" not in given.options
        first = play_match(plain, ["random"] * plain.num_players, seed=11)
        again = play_match(given, ["random"] * given.num_players, seed=11)
        assert first == again


@pytest.mark.parametrize(("game_id", "config", "name", "value"), CASES, ids=lambda v: str(v))
def test_every_parameter_in_range_plays_full_games_with_every_invariant(
    game_id: str, config: dict[str, Any], name: str, value: int
) -> None:
    game = warcards.load_game(game_id, **config, params={name: value})
    for seed in (1, 2):
        history = play_checked(game, seed, 0.05, Tally(), replay=True, playout_from_determinization=False,
                               conservation_every_state=False)
        assert history


@pytest.mark.parametrize("game_id", PARAM_GAMES)
def test_out_of_range_unknown_and_mistyped_parameters_are_refused_with_the_range(game_id: str) -> None:
    spec = param_specs(game_id)[0]
    for bad in (spec.high + 1, spec.low - 1, True, 1.5, "lots", None, [3]):
        with pytest.raises(OptionError) as info:
            warcards.load_game(game_id, params={spec.name: bad})
        assert f"from {spec.low} to {spec.high}" in str(info.value) and spec.name in str(info.value)
    with pytest.raises(OptionError, match="unknown parameter 'no_such_number'; parameters are: "):
        warcards.load_game(game_id, params={"no_such_number": 3})
    with pytest.raises(OptionError, match="params must map parameter names to numbers"):
        warcards.load_game(game_id, params=[("a", 1)])


def test_a_number_typed_on_a_command_line_is_read() -> None:
    spec = ParamSpec("hand", 7, 1, 20, "cards in hand", "1.2")
    assert resolve_params("g", [spec], {"hand": " 12 "}) == {"hand": 12}
    assert resolve_params("g", [spec], {"hand": "7"}) == {}  # the rule text's value changes nothing


def test_a_record_carries_its_parameters_and_replays_the_same_game() -> None:
    game = warcards.load_game("race-to-messina", variant="sicily", params={"axis_hand_size": 9, "british_pt_goal": 6})
    record = play_match(game, ["heuristic"] * 3, seed=5)
    text = record.model_dump_json()
    assert json.loads(text)["options"]["params"] == {"axis_hand_size": 9, "british_pt_goal": 6}
    final = replay(MatchRecord.model_validate_json(text))
    assert final.returns() == record.returns


def test_the_views_of_a_house_rules_game_say_so_and_the_board_shows_its_goals() -> None:
    from warcards.games.race_to_messina.render import render

    plain = warcards.load_game("race-to-messina").new_initial_state()
    assert "params" not in plain.observe(0)
    house = warcards.load_game("race-to-messina", params={"allies_pt_goal": 7}).new_initial_state()
    view = house.observe(0)
    assert view["params"] == {"allies_pt_goal": 7} and house.public_view()["params"] == {"allies_pt_goal": 7}
    assert "0/7 PT" in render(view, 0)


def test_a_game_without_parameters_refuses_them() -> None:
    with pytest.raises(OptionError, match="parameters are: none"):
        resolve_params("g", [], {"anything": 1})


# ----- the command line: --param on play, simulate, tournament and balance; `warcards games GAME` ----------
def test_games_with_a_game_id_lists_its_rule_parameters_with_ranges() -> None:
    from typer.testing import CliRunner

    from warcards.cli.main import app

    result = CliRunner().invoke(app, ["games", "race-to-messina"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "axis_hand_size" in result.output and "1–20" in result.output and "variant=sicily" in result.output


def test_param_flag_plays_the_house_rules_and_refuses_a_value_out_of_range() -> None:
    from typer.testing import CliRunner

    from warcards.cli.main import app

    runner = CliRunner()
    done = runner.invoke(app, ["simulate", "race-to-messina", "--variant", "sicily", "-n", "2", "--bots", "random",
                               "--param", "axis_hand_size=8", "--json"])
    assert done.exit_code == 0, done.output
    bad = runner.invoke(app, ["simulate", "race-to-messina", "-n", "1", "--param", "axis_hand_size=99"])
    assert bad.exit_code == 2 and "from 1 to 20" in bad.output and "Traceback" not in bad.output
    shape = runner.invoke(app, ["play", "race-to-messina", "--param", "axis_hand_size"])
    assert shape.exit_code == 2 and "--param takes key=value" in shape.output
    played = runner.invoke(app, ["play", "race-to-messina", "--vs", "random", "--seed", "4", "--param",
                                 "allies_pt_goal=3"], input="\n".join(["1"] * 3000) + "\n")
    assert played.exit_code == 0 and "/3 PT" in played.output


def test_cards_of_war_battles_are_won_at_the_changed_target_and_the_game_lasts_the_changed_rounds() -> None:
    from warcards.match import chance_rng, step_chance

    game = warcards.load_game("cards-of-war", params={"battle_target": 5, "normal_rounds": 1})
    state = game.new_initial_state()
    rng = chance_rng(3)
    while not state.is_terminal():
        if state.is_chance_node():
            step_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        for battle in state.observe(0)["battles"]:
            if battle["winner"] is None:
                assert max(battle["totals"]) < 5  # WINNING A BATTLE at the changed target
    assert state.observe(0)["round"] == 1 and "params" in state.observe(0)["options"]
