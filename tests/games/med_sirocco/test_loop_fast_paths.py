"""Med Sirocco's own `chance_outcomes`, `apply_action` and `legal_actions` (the OpenSpiel-shaped loop's fast paths)
give exactly what the engine's `State` methods give: the same pairs and floats, the same legal list, the same
state after a draw, and the engine's refusals with the state unchanged."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice

import pytest

from warcards.engine.api import CHANCE, State
from warcards.engine.errors import IllegalActionError, InvalidActionError
from warcards.games.med_sirocco.codes import ChanceKind
from warcards.games.med_sirocco.state import MedSiroccoState

from .helpers import game


def states(players: int, seeds: range, **options: object) -> Iterator[MedSiroccoState]:
    """Every state of seeded random games, driven the way the OpenSpiel-shaped loop drives them."""
    loaded = game(players, **options)
    for seed in seeds:
        state = loaded.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("players", [2, 4, 6])
def test_chance_outcomes_are_the_engines_pairs_bit_for_bit(players: int) -> None:
    draws = 0
    for state in states(players, range(3), advanced=players == 4):
        engine = state.clone()
        expected = State.chance_outcomes(engine)
        got = state.chance_outcomes()
        assert got == expected
        assert [p.hex() for _, p in got] == [p.hex() for _, p in expected]
        assert state._legal_cache in (None, engine._legal_cache)  # a draw keeps none: `apply_action` bisects the pile
        if got:
            draws += state.chance_kind == ChanceKind.DRAW
            got.clear()  # a fresh list: the caller may keep or change it
            assert state.chance_outcomes() == expected
            assert state.legal_actions() == [outcome for outcome, _ in expected]
    assert draws > 100


@pytest.mark.parametrize("players", [2, 4, 6])
def test_apply_action_at_a_draw_leaves_the_engines_state(players: int) -> None:
    rng = random.Random(players)
    draws = 0
    for state in states(players, range(3)):
        if state.current_player() != CHANCE or state.chance_kind != ChanceKind.DRAW:
            continue
        draws += 1
        card = rng.choice(state.pile)
        for asked in (False, True):  # with the legal list cached by `chance_outcomes()`, and without
            fast, engine = state.clone(), state.clone()
            if asked:
                fast.chance_outcomes()
                engine.chance_outcomes()
            fast.apply_action(card)
            State.apply_action(engine, card)
            assert fast.fingerprint() == engine.fingerprint()
            assert fast.snapshot() == engine.snapshot()
            assert fast._legal_cache is None and fast.legal_actions() == engine.legal_actions()
    assert draws > 100


def test_a_card_not_in_the_pile_is_refused_at_a_draw_with_the_state_unchanged() -> None:
    draws = (s for s in states(4, range(1)) if s.current_player() == CHANCE and s.chance_kind == ChanceKind.DRAW)
    state = next(islice(draws, 40, None))  # after the deal: some cards are out of the pile
    missing = next(card for card in range(121) if card not in state.pile)
    before = state.fingerprint()
    for asked in (False, True):
        if asked:
            state.chance_outcomes()
        with pytest.raises(IllegalActionError, match="not a possible chance outcome"):
            state.apply_action(missing)
        for garbage in (True, -1, 10**6, 1.0, "3", None):
            with pytest.raises(InvalidActionError):
                state.apply_action(garbage)  # type: ignore[arg-type]  # what an untrusted caller may pass
        assert state.fingerprint() == before


@pytest.mark.parametrize("players", [2, 5])
def test_legal_actions_are_the_engines_list_a_fresh_copy_each_time(players: int) -> None:
    decisions = 0
    for state in states(players, range(3), advanced=players == 5):
        engine = state.clone()
        engine._legal_cache = None
        expected = State.legal_actions(engine)
        got = state.legal_actions()
        assert got == expected
        decisions += state.current_player() >= 0
        got.append(-1)  # a copy: the caller may change it
        assert state.legal_actions() == expected
    assert decisions > 100
