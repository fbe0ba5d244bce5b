"""Issue 21, sections 1 and 3: only integers are actions, and every text the engine parses is refused safely.

Property tests drive typed values into `apply_action` and arbitrary text into `parse_action` at sampled
states of seeded random playouts of every registered game: only `InvalidActionError`/`IllegalActionError`
escape, messages are short, a refusal leaves the state as it was (history, zones, position) and every card
stays in play. Then one test per failure class the audit found. Times are measured in
`scripts/adversarial_text.py`, never asserted here.
"""

from __future__ import annotations

import ast
import inspect
import random
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import warcards
from tests.edges.scale import examples
from warcards.engine.api import CHANCE, State, sample_chance
from warcards.engine.errors import IllegalActionError, InvalidActionError
from warcards.engine.registry import conformance_configs, load_game
from warcards.engine.text import MAX_ACTION_TEXT

MESSAGE_LIMIT = 500
"""The longest refusal message allowed: a fixed text (the forms of a game's notation) plus a short quote."""

REFUSALS = (InvalidActionError, IllegalActionError)
PROPERTY = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _configs() -> list[tuple[str, dict[str, Any]]]:
    """Every game with up to 4 of its conformance configs: the first, then those whose notation differs
    (variant, 2 decks, night actions, joint deployments), then other player counts."""
    chosen: list[tuple[str, dict[str, Any]]] = []
    for game_id in warcards.games():
        configs = conformance_configs(game_id)
        picked = [configs[0]]
        for key in ("variant", "decks", "night", "kamikaze", "joint_deployment", "players"):
            for config in configs:
                if len(picked) < 4 and all(c.get(key) != config.get(key) for c in picked):
                    picked.append(config)
        chosen.extend((game_id, config) for config in picked)
    return chosen


CONFIGS = _configs()


@cache
def _sampled(index: int) -> tuple[State, ...]:
    """About 20 states along one seeded random playout of config `index`: chance and decision nodes, the
    first steps densely, and the end."""
    game_id, options = CONFIGS[index]
    state = load_game(game_id, **options).new_initial_state()
    rng = random.Random(2100 + index)
    states: list[State] = []
    step = 0
    while not state.is_terminal():
        if (step < 40 and step % 4 == 0) or step % 41 == 0:
            states.append(state.clone())
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        step += 1
    states.append(state.clone())
    return tuple(states[:10] + states[10::max(1, (len(states) - 10) // 10)] + states[-1:])


def _snapshot(state: State) -> tuple[Any, ...]:
    return state.history(), state.zones(), state.position(), state.current_player(), state.legal_actions()


def _cards(state: State) -> Counter[str]:
    return Counter(card for cards in state.zones().values() for card in cards)


def _space(state: State) -> int:
    game = state.game
    return game.max_chance_outcomes if state.current_player() == CHANCE else game.num_distinct_actions


def _refused(state: State, call: Any, *args: Any) -> Exception:
    """Run `call(*args)`, which must be refused; check the message and that nothing changed."""
    before = _snapshot(state)
    cards = _cards(state)
    with pytest.raises(REFUSALS) as caught:
        call(*args)
    message = str(caught.value)
    assert message and len(message) <= MESSAGE_LIMIT, message[:600]
    assert _snapshot(state) == before, "a refusal changed the state"
    assert _cards(state) == cards
    return caught.value


state_index = st.integers(0, len(CONFIGS) - 1).flatmap(
    lambda i: st.tuples(st.just(i), st.integers(0, len(_sampled(i)) - 1))
)


def _state(indices: tuple[int, int]) -> State:
    config, at = indices
    return _sampled(config)[at].clone()


# ----- properties --------------------------------------------------------------------------------------------
typed_values = st.one_of(
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(0, 400).map(float),
    st.integers(0, 400).map(Fraction),
    st.integers(0, 400).map(Decimal),
    st.integers(0, 400).map(np.float32),
    st.integers(0, 400).map(np.float64),
    st.integers(-(10**6), -1),
    st.integers(10**4, 10**30),
    st.sampled_from([10**5000, -(10**5000), 2**64, 2**63 - 1]),
    st.none(),
    st.text(max_size=20),
    st.integers(0, 400).map(str),
    st.integers(0, 400).map(lambda n: [n]),
    st.just(np.True_),
    st.integers(0, 400).map(lambda n: complex(n, 0)),
)


@PROPERTY
@given(state_index, typed_values)
def test_typed_values_are_refused_with_state_unchanged(indices: tuple[int, int], value: object) -> None:
    state = _state(indices)
    error = _refused(state, state.apply_action, value)
    if type(value) is not int:
        assert isinstance(error, InvalidActionError)


@PROPERTY
@given(state_index, st.integers(-5, 1000), st.sampled_from([int, np.int64, np.int16, np.uint16, np.intp]))
def test_integers_of_any_integer_type_act_as_plain_ints(indices: tuple[int, int], number: int, kind: Any) -> None:
    """A numpy integer is the plain int it equals: accepted when legal (history holds an `int`), refused
    (Invalid outside the space, Illegal inside it) otherwise, state unchanged."""
    state = _state(indices)
    if number < 0 and kind is np.uint16:
        number = -number
    value = kind(number)
    if number in state.legal_actions():
        reference = state.clone()
        reference.apply_action(number)
        cards = _cards(state)
        state.apply_action(value)
        assert type(state.history()[-1]) is int
        assert state.fingerprint() == reference.fingerprint()
        assert _cards(state) == cards
        return
    error = _refused(state, state.apply_action, value)
    expected = IllegalActionError if 0 <= number < _space(state) else InvalidActionError
    assert isinstance(error, expected), (number, error)


texts = st.one_of(
    st.text(max_size=60),
    st.text(alphabet="0123456789", min_size=1, max_size=260),
    st.text(alphabet="²³¹٠١٢٣٤٥٦٧٨٩０１２３४५߀𝟘-+ 0123456789", min_size=1, max_size=40),
    st.text(alphabet=" (\t)->→/", min_size=1, max_size=400),
    st.sampled_from(["draw", "deploy", "play", "discard", "activate", "pass", "roll", "ship", "fire", "at"]).flatmap(
        lambda verb: st.text(max_size=30).map(lambda rest: f"{verb} {rest}")
    ),
    st.integers(1, 3000).map(lambda n: " " * n),
    st.integers(1, 3000).map(lambda n: "(" * n),
)


@PROPERTY
@given(state_index, texts)
def test_any_text_is_parsed_into_the_action_space_or_refused(indices: tuple[int, int], text: str) -> None:
    state = _state(indices)
    before = _snapshot(state)
    try:
        action = state.parse_action(text)
    except InvalidActionError as error:
        assert len(str(error)) <= MESSAGE_LIMIT, str(error)[:600]
    else:
        assert type(action) is int and 0 <= action < _space(state), (text, action)
        assert len(text) <= MAX_ACTION_TEXT
        trial = state.clone()
        try:
            trial.apply_action(action)
        except REFUSALS as error:
            assert len(str(error)) <= MESSAGE_LIMIT
    assert _snapshot(state) == before


@settings(max_examples=examples(60), deadline=None)
@given(state_index, st.one_of(st.none(), st.integers(), st.binary(max_size=10), st.floats(), st.lists(st.text())))
def test_parse_action_of_a_non_string_is_refused(indices: tuple[int, int], value: object) -> None:
    state = _state(indices)
    error = _refused(state, state.parse_action, value)
    assert isinstance(error, InvalidActionError) and "string" in str(error)


# ----- section 1: actions of the wrong type -----------------------------------------------------------------
def _first(game_id: str, decision: bool = True, **options: Any) -> State:
    """The first decision (or chance node) of a seeded random playout."""
    state = load_game(game_id, **options).new_initial_state()
    rng = random.Random(7)
    while state.is_chance_node() == decision:
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    return state


@pytest.mark.parametrize("game_id", warcards.games())
def test_float_action_is_refused_and_state_unchanged(game_id: str) -> None:
    for decision in (True, False):
        state = _first(game_id, decision) if decision else load_game(game_id).new_initial_state()
        legal = state.legal_actions()[0]
        for value in (float(legal), np.float32(legal), np.float64(legal)):
            assert "not the float" in str(_refused(state, state.apply_action, value))


@pytest.mark.parametrize("game_id", warcards.games())
def test_bool_action_is_refused_and_state_unchanged(game_id: str) -> None:
    state = _first(game_id)
    for value in (True, False, np.True_, np.False_):
        assert isinstance(_refused(state, state.apply_action, value), InvalidActionError)


@pytest.mark.parametrize("game_id", warcards.games())
def test_fraction_and_decimal_actions_are_refused_and_state_unchanged(game_id: str) -> None:
    state = _first(game_id)
    legal = state.legal_actions()[0]
    for value in (Fraction(legal), Decimal(legal), complex(legal, 0), str(legal), None, [legal]):
        assert isinstance(_refused(state, state.apply_action, value), InvalidActionError)


def test_race_to_messina_float_zero_no_longer_removes_a_card() -> None:
    """The audit's example: `apply_action(0.0)` at the first decision removed X01 from every zone, and the
    next `apply_action(0)` failed."""
    state = _first("race-to-messina")
    legal = state.legal_actions()[0]
    cards = _cards(state)
    _refused(state, state.apply_action, float(legal))
    state.apply_action(legal)
    assert _cards(state) == cards


@pytest.mark.parametrize("game_id", warcards.games())
def test_huge_int_action_is_refused_with_a_short_message(game_id: str) -> None:
    state = _first(game_id)
    for value in (10**5000, -(10**5000), 2**64):
        error = _refused(state, state.apply_action, value)
        assert isinstance(error, InvalidActionError) and len(str(error)) < 120


@pytest.mark.parametrize("game_id", warcards.games())
def test_out_of_range_int_action_is_invalid_and_state_unchanged(game_id: str) -> None:
    for state in (_first(game_id), load_game(game_id).new_initial_state()):
        space = _space(state)
        for value in (-1, space, space + 1, np.int64(space), np.int64(-1)):
            error = _refused(state, state.apply_action, value)
            assert isinstance(error, InvalidActionError) and f"0..{space - 1}" in str(error)


@pytest.mark.parametrize("game_id", warcards.games())
def test_numpy_integer_overflow_cannot_lose_a_card(game_id: str) -> None:
    """A numpy integer is converted to a plain int before the rules do arithmetic on it."""
    state = load_game(game_id).new_initial_state()
    rng = random.Random(5)
    cards = _cards(state)
    kinds = (np.int16, np.uint16, np.int32, np.int64, np.uint64)
    for step in range(300):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(kinds[step % len(kinds)](legal[rng.randrange(len(legal))]))
        assert type(state.history()[-1]) is int
    assert _cards(state) == cards


def test_gymnasium_step_with_numpy_float_is_refused_and_state_unchanged() -> None:
    from warcards.rl import gymnasium_env

    for policy in ("penalize", "terminate", "raise"):
        env = gymnasium_env("race-to-messina", seat=0, opponents="random", illegal_action=policy)
        env.reset(seed=4)
        state = env.unwrapped._state
        legal = state.legal_actions()[0]
        before = _snapshot(state)
        with pytest.raises(InvalidActionError, match="not the float32"):
            env.step(np.float32(legal))
        assert _snapshot(state) == before
        assert sum(_cards(state).values()) == 94
        env.step(np.int64(legal))
        assert type(state.history()[len(before[0])]) is int
        env.close()


def test_pettingzoo_step_with_float_is_refused_and_state_unchanged() -> None:
    from warcards.rl import pettingzoo_env

    env = pettingzoo_env("cards-of-war")
    env.reset(seed=4)
    state = env._state
    legal = state.legal_actions()[0]
    before = _snapshot(state)
    for value in (float(legal), np.float32(legal), True, "0", np.array([legal])):
        with pytest.raises(InvalidActionError):
            env.step(value)
        assert _snapshot(state) == before
    env.step(np.array(legal))
    assert len(state.history()) > len(before[0])


def test_openspiel_state_refuses_a_float_action() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from warcards.rl import openspiel

    (name,) = openspiel.register(["cards-of-war"])
    spiel_state = pyspiel.load_game(name).new_initial_state()
    inner = spiel_state.holder.state
    before = _snapshot(inner)
    with pytest.raises((TypeError, InvalidActionError)):
        spiel_state.apply_action(float(inner.legal_actions()[0]))
    assert _snapshot(inner) == before


# ----- section 3: text -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", warcards.games())
def test_unicode_digits_are_refused_not_read_as_numbers(game_id: str) -> None:
    for state in (_first(game_id), load_game(game_id).new_initial_state()):
        for text in ("²", "٣", "１", "߀", "1²", "𝟘", "-1", "+1", "1_0", "0x1", " ³ "):
            assert isinstance(_refused(state, state.parse_action, text), InvalidActionError)


@pytest.mark.parametrize("game_id", warcards.games())
def test_bare_number_over_4300_digits_is_refused_with_a_short_message(game_id: str) -> None:
    state = _first(game_id)
    for text in ("9" * 5000, "1" * (MAX_ACTION_TEXT + 1), "9" * MAX_ACTION_TEXT):
        error = _refused(state, state.parse_action, text)
        assert isinstance(error, InvalidActionError) and len(str(error)) < 200


@pytest.mark.parametrize("game_id", warcards.games())
def test_bare_number_is_read_inside_the_action_space_of_the_node(game_id: str) -> None:
    """At a decision node a bare number is a player action, at a chance node a chance outcome, and a number
    outside that space is refused (leading zeros allowed)."""
    for state in (_first(game_id), load_game(game_id).new_initial_state()):
        space = _space(state)
        legal = state.legal_actions()[-1]
        assert state.parse_action(str(legal)) == legal
        assert state.parse_action(f" 00{legal} ") == legal
        assert state.parse_action(str(space - 1)) == space - 1
        for text in (str(space), str(space + 1000), "9" * 30):
            error = _refused(state, state.parse_action, text)
            assert f"0..{space - 1}" in str(error)


@pytest.mark.parametrize("game_id", warcards.games())
def test_notation_never_returns_a_number_outside_the_action_space(game_id: str) -> None:
    """Cards of War read `-1` as -1; med-sirocco, naval-war and race-to-messina read any digits as a number.
    Now every game's own parser (the hook, bare numbers left to the engine) refuses them."""
    for state in (_first(game_id), load_game(game_id).new_initial_state()):
        for text in ("-1", "99999", "(x) 5", "0"):
            with pytest.raises(InvalidActionError):
                state._parse_action(text)


@pytest.mark.parametrize("game_id", warcards.games())
def test_long_input_is_refused_with_a_short_quote(game_id: str) -> None:
    state = _first(game_id)
    for text in ("x" * 100_000, "deploy " + "(" * 100_000, "draw " + "A01 " * 30_000):
        error = _refused(state, state.parse_action, text)
        assert len(str(error)) < 200 and "more characters" in str(error)
    for text in ("x" * MAX_ACTION_TEXT, "play " + "y" * (MAX_ACTION_TEXT - 5)):
        assert len(str(_refused(state, state.parse_action, text))) <= MESSAGE_LIMIT


def _notation_modules() -> list[Any]:
    import importlib

    return [importlib.import_module(f"warcards.games.{name}.notation")
            for name in ("race_to_messina", "med_sirocco", "naval_war", "cards_of_war")]


def test_parse_is_linear_for_16000_spaces() -> None:
    """No notation parser uses a regular expression (the quadratic ones backtracked over runs of spaces), and
    race-to-messina's parser reads a deployment padded with 16,000 spaces (it took 6.3 s)."""
    for module in _notation_modules():
        tree = ast.parse(inspect.getsource(module))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert "re" not in imported, f"{module.__name__} imports re"
    from warcards.games.race_to_messina import notation
    from warcards.games.race_to_messina.cards import card_table

    table = card_table()
    padded = "deploy X05" + " " * 16_000 + "vs british"
    assert notation.parse(table, padded, True) == notation.parse(table, "deploy X05 vs british", True)
    activate = "activate X01" + " " * 16_000 + "target A24"
    assert notation.parse(table, activate, False) == notation.parse(table, "activate X01 target A24", False)
    state = _first("race-to-messina")
    _refused(state, state.parse_action, padded)


def test_parse_is_linear_for_100kb_of_open_brackets() -> None:
    """Cards of War dropped `(...)` with a regular expression that rescanned the rest of the line at every
    `(` (100 kB took 9.3 s); the one-pass scan gives the same text."""
    from warcards.games.cards_of_war.notation import _drop_parentheses

    assert _drop_parentheses("(" * 100_000) == "(" * 100_000
    assert _drop_parentheses("deploy G01 (Pillbox) left") == "deploy G01   left"
    assert _drop_parentheses("a ((b) c) d (e") == "a   c) d (e"
    state = _first("cards-of-war")
    _refused(state, state.parse_action, "(" * 100_000)
    with pytest.raises(InvalidActionError):
        state._parse_action("(" * 100_000)


def test_cards_of_war_draw_word_at_decision_node_is_refused() -> None:
    """`draw G04` typed at a player's turn was read as a deploy and played."""
    state = _first("cards-of-war")
    card = state.zones()["draw"][0]
    error = _refused(state, state.parse_action, f"draw {card}")
    assert "chance event" in str(error) and "not a player's move" in str(error)


@pytest.mark.parametrize("game_id", warcards.games())
def test_chance_word_at_decision_node_is_refused(game_id: str) -> None:
    state = _first(game_id)
    chance = load_game(game_id).new_initial_state()
    word = chance.action_to_string(chance.legal_actions()[0])
    error = _refused(state, state.parse_action, word)
    assert "chance" in str(error)


@pytest.mark.parametrize("game_id", warcards.games())
def test_player_move_word_at_chance_node_is_refused(game_id: str) -> None:
    decision = _first(game_id)
    chance = load_game(game_id).new_initial_state()
    assert chance.is_chance_node()
    for action in decision.legal_actions()[:5]:
        error = _refused(chance, chance.parse_action, decision.action_to_string(action))
        assert "chance" in str(error) or "drawn" in str(error)
    assert "chance" in str(_refused(chance, chance.parse_action, "pass"))
