"""The bot ladder: one ordered list of the levels a player chooses from, shown by `play --help` and
`warcards games`, and the weaker rungs' bot (the heuristic with random moves mixed in)."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

import warcards
from warcards.bots import ALIASES, LADDER, STUDY_BOTS, agent_names, ladder_names, make_agent
from warcards.bots.ladder import BLUNDER_RATES, BlunderAgent
from warcards.cli.main import app
from warcards.engine.agents import Agent, SeatView
from warcards.engine.api import CHANCE, Game, State, sample_chance

runner = CliRunner()


def test_the_ladder_lists_every_bot_a_player_can_choose_in_measured_order() -> None:
    # the order measured by scripts/bot_ladder.py in every game (docs/bots.md, Ladder)
    assert ladder_names() == ["random", "beginner", "easy", "medium", "hard"]
    named = [*ladder_names(), *ALIASES, *STUDY_BOTS]
    assert len(named) == len(set(named))
    assert sorted(named) == sorted(agent_names())
    assert agent_names()[: len(LADDER)] == ladder_names()  # error messages list the bots weakest first
    assert all(rung.note and "\n" not in rung.note for rung in LADDER)


def test_an_alias_is_the_same_bot_as_its_rung() -> None:
    assert set(ALIASES.values()) <= set(ladder_names())
    for game_id in warcards.games():
        game = warcards.load_game(game_id)
        for alias, name in ALIASES.items():
            assert _moves(game, alias) == _moves(game, name), (game_id, alias)


def _positions(game: Game, count: int) -> list[State]:
    rng = random.Random(5)
    state = game.new_initial_state()
    found: list[State] = []
    while len(found) < count and not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            found.append(state.clone())
        state.apply_action(legal[rng.randrange(len(legal))])
    return found


def _moves(game: Game, name: str) -> list[int]:
    moves = []
    for index, state in enumerate(_positions(game, 12)):
        seat = state.current_player()
        moves.append(make_agent(name, game, seat, index).step(SeatView(state, seat)))
    return moves


class _First:
    """Always the first legal action."""

    def step(self, view: SeatView) -> int:
        return view.legal_actions()[0]


@pytest.mark.parametrize("game_id", warcards.games())
def test_a_blunderer_plays_the_heuristic_move_or_a_legal_one_at_its_rate(game_id: str) -> None:
    game = warcards.load_game(game_id)
    states = _positions(game, 40)
    never = BlunderAgent(_First(), "never", 0.0, 1)
    always = BlunderAgent(_First(), "always", 1.0, 1)
    picked = []
    for state in states:
        view = SeatView(state, state.current_player())
        legal = view.legal_actions()
        assert never.step(view) == legal[0]
        picked.append(always.step(view))
        assert picked[-1] in legal
    assert any(move != state.legal_actions()[0] for move, state in zip(picked, states, strict=True))


def test_a_blunder_rate_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        BlunderAgent(_First(), "bad", 1.5, 0)


def test_the_weaker_rungs_blunder_more_and_replay_from_their_seed() -> None:
    assert [BLUNDER_RATES[name] for name in ("beginner", "easy")] == sorted(BLUNDER_RATES.values(), reverse=True)
    game = warcards.load_game("cards-of-war")
    for name in BLUNDER_RATES:
        agent: Agent = make_agent(name, game, 0, 3)
        assert isinstance(agent, BlunderAgent) and agent.name == name
        assert _moves(game, name) == _moves(game, name)


def test_play_help_lists_the_ladder_in_order_and_the_seat_names() -> None:
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # however the help was wrapped
    where = [text.index(f"{rung.name} — {rung.note}") for rung in LADDER]
    assert where == sorted(where)
    assert "race-to-messina: invasion: allies, axis" in text


def test_games_lists_the_seats_and_the_ladder() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    where = [text.index(f"{rung.name} — {rung.note}") for rung in LADDER]
    assert where == sorted(where)
    assert "seats: invasion: allies, axis" in text
