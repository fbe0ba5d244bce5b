"""The conformance battery: invariants every game must keep, checked on seeded playouts.

Cheap checks run at every state (legal actions, chance probabilities, card conservation, the length bound);
the expensive ones (clone, every listed action accepted, unlisted refused, views and determinize, replay) run
at a seeded sample of states and games. A new game's author runs it on every option set of the game:

    from warcards.testing import run_battery
    tally = run_battery("my-game", {"players": 3}, games=200)

A failed check raises `AssertionError` naming the game, the seed and the step.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from warcards.engine.api import (
    CHANCE,
    TERMINAL,
    Chance,
    Counted,
    Game,
    State,
    Uniform,
    Weighted,
    sample_chance,
)
from warcards.engine.errors import IllegalActionError, InvalidActionError
from warcards.engine.registry import load_game
from warcards.testing.playouts import random_step


@dataclass
class Tally:
    """What a battery run covered."""

    games: int = 0
    """Games played to the end with every check."""
    states: int = 0
    """States given the cheap checks."""
    sampled_states: int = 0
    """States given the expensive checks."""
    determinizations: int = 0
    """Determinized states checked against the seat's view."""
    replays: int = 0
    """Games replayed from their history."""
    lengths: list[int] = field(default_factory=list)
    """The number of actions of each game."""


def card_multiset(state: State) -> Counter[str]:
    """How many times each card id lies in the state's zones."""
    counts: Counter[str] = Counter()
    for cards in state.zones().values():
        counts.update(cards)
    return counts


def check_conservation(state: State, initial_cards: Counter[str], where: str) -> None:
    """Each card id in exactly one zone and the multiset unchanged (ids are unique physical cards, so a
    length and a set comparison decide it)."""
    cards = [card for zone in state.zones().values() for card in zone]
    if (
        len(cards) != len(set(cards))
        or set(cards) != initial_cards.keys()
        or len(cards) != initial_cards.total()
    ):
        missing = sorted(initial_cards - Counter(cards))
        extra = sorted(Counter(cards) - initial_cards)
        raise AssertionError(f"{where}: cards lost {missing[:5]} or duplicated/invented {extra[:5]}")


def check_cheap(
    state: State,
    game: Game,
    bounds: tuple[int, int],
    initial_cards: Counter[str],
    where: str,
    conservation: bool,
) -> None:
    """The checks made at every state; `bounds` is (player action space, chance outcome space)."""
    player = state.current_player()
    assert player in (CHANCE, TERMINAL) or 0 <= player < game.num_players, f"{where}: bad player {player}"
    legal = state.legal_actions()
    if player == TERMINAL:
        assert state.is_terminal() and legal == [], f"{where}: terminal state lists actions"
        check_conservation(state, initial_cards, where)
        return
    assert legal, f"{where}: no legal action before the end"
    assert legal == sorted(set(legal)), f"{where}: legal actions not sorted and unique"
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        probabilities = [p for _, p in outcomes]
        assert abs(sum(probabilities) - 1.0) < 1e-9, f"{where}: chance probabilities do not sum to 1"
        assert min(probabilities) > 0, f"{where}: a chance outcome has probability 0"
        assert [a for a, _ in outcomes] == legal, f"{where}: chance outcomes differ from legal actions"
        assert legal[0] >= 0 and legal[-1] < bounds[1], f"{where}: chance outcome out of range"
        check_chance_description(state, legal, where)
        check_sample_outcome(state, outcomes, where)
    else:
        assert legal[0] >= 0 and legal[-1] < bounds[0], f"{where}: action out of range"
    if conservation:
        check_conservation(state, initial_cards, where)


def check_sample_outcome(state: State, outcomes: list[tuple[int, float]], where: str) -> None:
    """`sample_outcome(u)` (a game's fast path for drawing chance) gives `sample_chance(outcomes, u)` at the
    ends of [0, 1) and around the running sum in the middle of the outcomes, where a sum formed in another
    order or from other floats would show first."""
    total = 0.0
    middle = len(outcomes) // 2
    for _, probability in outcomes[: middle + 1]:
        total += probability
    for u in (0.0, math.nextafter(1.0, 0.0), math.nextafter(total, 0.0), total, math.nextafter(total, 1.0)):
        assert state.sample_outcome(u) == sample_chance(outcomes, u), f"{where}: sample_outcome({u!r}) differs"


def check_apply_chance(state: State, where: str) -> None:
    """`apply_chance(u)` (a game's fused draw-and-apply) picks `sample_chance(chance_outcomes(), u)` and leaves
    exactly the state `apply_action` of that outcome leaves (its fingerprint, and its whole snapshot when the
    game declares snapshot fields), for the first outcome and the one in the middle; the original stays
    untouched."""
    outcomes = state.chance_outcomes()
    total = sum(probability for _, probability in outcomes[: len(outcomes) // 2 + 1])
    before = state.fingerprint()
    for u in (0.0, total):  # `check_sample_outcome` tries the boundaries; here what the draw leaves matters
        fused, stepwise = state.clone(), state.clone()
        expected = sample_chance(outcomes, u)
        assert fused.apply_chance(u) == expected, f"{where}: apply_chance({u!r}) picks another outcome"
        stepwise.apply_action(expected)
        assert fused.fingerprint() == stepwise.fingerprint(), f"{where}: apply_chance({u!r}) leaves another state"
        if type(state).snapshot_fields is not None:
            assert fused.snapshot() == stepwise.snapshot(), f"{where}: apply_chance({u!r}) leaves another state"
    assert state.fingerprint() == before, f"{where}: apply_chance on a clone changed the original"


def check_chance_description(state: State, legal: list[int], where: str) -> None:
    """The chance node's one description (`State._chance`) is well formed — a `Uniform`'s outcomes strictly
    ascending, a `Counted` pile ascending, a `Weighted` description's outcomes strictly ascending with positive
    probabilities — what `apply_action` tests against holds exactly the legal outcomes, and what
    `chance_outcomes()` asks at once (`pairs_and_numbers`) is what it would ask one by one."""
    chance = state._chance()
    assert isinstance(chance, Chance), f"{where}: _chance gives a {type(chance).__name__}, not a Chance"
    if isinstance(chance, Uniform):
        entries, strict = list(chance.outcomes), True
    elif isinstance(chance, Counted):
        entries, strict = list(chance.pile), False
    else:
        assert isinstance(chance, Weighted), f"{where}: _chance gives an unknown description"
        entries, strict = [outcome for outcome, _ in chance.outcome_pairs], True
        assert all(p > 0 for _, p in chance.outcome_pairs), f"{where}: a weighted outcome has probability 0"
    ordered = all(a < b if strict else a <= b for a, b in pairwise(entries))
    assert entries and ordered, f"{where}: the {type(chance).__name__} description is not in ascending order"
    assert sorted(set(chance.members())) == chance.numbers() == legal, (
        f"{where}: the chance description's outcomes differ from the legal list"
    )
    assert chance.pairs_and_numbers() == (chance.pairs(), chance.numbers()), (
        f"{where}: the chance description's pairs_and_numbers() is not (pairs(), numbers())"
    )


def check_apply_chance_refused(state: State, where: str) -> None:
    """Away from a chance node `apply_chance` (a game's own `_apply_chance` too) raises `ValueError` and leaves
    the state as it was."""
    before = state.fingerprint()
    try:
        state.apply_chance(0.5)
    except ValueError:
        assert state.fingerprint() == before, f"{where}: a refused apply_chance changed the state"
    else:
        raise AssertionError(f"{where}: apply_chance away from a chance node was accepted")


def check_sampled(
    state: State, game: Game, rng: random.Random, initial_cards: Counter[str], where: str
) -> int:
    """Expensive checks at one state; returns how many determinizations were made."""
    before = state.fingerprint()
    copy = state.clone()
    assert copy == state, f"{where}: clone differs"
    legal = state.legal_actions()
    player = state.current_player()
    # Every listed action is accepted (on a clone), and the original stays untouched.
    for action in legal:
        trial = state.clone()
        trial.apply_action(action)
        trial.action_to_string(action)
    assert state.fingerprint() == before, f"{where}: applying to a clone changed the original"
    # Unlisted actions are refused with IllegalActionError (or InvalidActionError outside the space), unchanged.
    space = game.max_chance_outcomes if player == CHANCE else game.num_distinct_actions
    unlisted = [a for a in rng.sample(range(space), min(space, 8)) if a not in legal][:3]
    for action in [*unlisted, -1, space]:
        try:
            state.apply_action(action)
        except IllegalActionError:
            assert 0 <= action < space, f"{where}: out-of-space action {action} called illegal, not invalid"
        except InvalidActionError:
            assert not 0 <= action < space, f"{where}: in-space action {action} called invalid, not illegal"
        else:
            raise AssertionError(f"{where}: unlisted action {action} was accepted")
        assert state.fingerprint() == before, f"{where}: a refused action changed the state"
    if player == CHANCE:
        check_apply_chance(state, where)
    else:
        check_apply_chance_refused(state, where)
    # Notation round-trips for every legal action.
    for action in legal:
        text = state.action_to_string(action)
        assert state.parse_action(text) == action, f"{where}: {text!r} parses to another action"
    # Views are JSON-ready; determinize agrees with the seat's view and keeps every card.
    check_conservation(state, initial_cards, where)
    made = 0
    for seat in range(game.num_players):
        view = state.observe(seat)
        json.dumps(view)
        # observe_fields gives exactly observe's values for any subset of its fields.
        keys = sorted(view)
        subset = frozenset([*rng.sample(keys, rng.randrange(1, len(keys) + 1)), "no such field"])
        assert state.observe_fields(seat, subset) == {k: view[k] for k in keys if k in subset}, (
            f"{where}: observe_fields({seat}) differs from observe({seat})"
        )
        determinized = state.determinize(seat, rng)
        made += 1
        assert determinized.observe(seat) == view, f"{where}: determinize({seat}) changes the seat's view"
        assert determinized.current_player() == player, (
            f"{where}: determinize({seat}) changes whose turn it is"
        )
        if player == seat:
            assert determinized.legal_actions() == legal, (
                f"{where}: determinize({seat}) changes legal actions"
            )
        check_conservation(determinized, initial_cards, f"{where}: determinize({seat})")
        assert state.fingerprint() == before, f"{where}: determinize({seat}) changed the true state"
    # Independence: playing on the clone leaves the original as it was.
    if legal:
        copy.apply_action(legal[rng.randrange(len(legal))])
        assert state.fingerprint() == before, f"{where}: clone shares data with the original"
    return made


def play_checked(
    game: Game,
    seed: int,
    sample_rate: float,
    tally: Tally,
    replay: bool,
    playout_from_determinization: bool,
    conservation_every_state: bool = True,
) -> list[int]:
    """One seeded random game with every check; returns its history. Card conservation is checked at every
    state when `conservation_every_state`, otherwise at every tenth state, the sampled ones and the end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    initial_cards = card_multiset(state)
    bounds = (game.num_distinct_actions, game.max_chance_outcomes)
    label = f"{game!r} seed {seed}"
    steps = 0
    while True:
        where = f"{label} step {steps}"
        check_cheap(state, game, bounds, initial_cards, where, conservation_every_state or steps % 10 == 0)
        tally.states += 1
        if rng.random() < sample_rate:
            tally.determinizations += check_sampled(state, game, rng, initial_cards, where)
            tally.sampled_states += 1
            if playout_from_determinization and not state.is_terminal():
                seat = rng.randrange(game.num_players)
                finish_random(state.determinize(seat, rng), rng, game.max_game_length, where)
                playout_from_determinization = False
        if state.is_terminal():
            break
        assert steps < game.max_game_length, f"{where}: no end within {game.max_game_length} actions"
        random_step(state, rng)
        steps += 1
    returns = state.returns()
    assert len(returns) == game.num_players, f"{game!r} seed {seed}: returns {returns} have the wrong length"
    tally.games += 1
    tally.lengths.append(steps)
    if replay:
        again = game.new_initial_state()
        for action in state.history():
            again.apply_action(action)
        assert again == state, f"{game!r} seed {seed}: replaying the history gives another state"
        assert again.returns() == returns
        tally.replays += 1
    return state.history()


def finish_random(state: State, rng: random.Random, bound: int, where: str) -> None:
    """A determinized state must be a complete, playable state."""
    for _ in range(bound):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        assert legal, f"{where}: a determinized state has no legal action"
        if state.current_player() == CHANCE:
            state.apply_chance(rng.random())
        else:
            state.apply_action(legal[rng.randrange(len(legal))])
    raise AssertionError(f"{where}: a playout from a determinized state did not end")


def run_battery(
    game_id: str | Game, options: Mapping[str, Any] | None = None, games: int = 200, seed: int = 2026
) -> Tally:
    """Play `games` seeded random games of a registered game with `options` (or of a game already built,
    e.g. one not registered yet) with every check, then three seeds twice each to check that a seed gives
    the same game; returns what was covered. `seed` is the master seed: game `i` plays seed
    `seed * 1_000_003 + i`."""
    if isinstance(game_id, Game):
        if options:
            raise ValueError(f"options {dict(options)} given with a built game {game_id!r}; pass its id instead")
        game = game_id
    else:
        game = load_game(game_id, **(options or {}))
    master_seed = seed
    tally = Tally()
    # Expensive checks on one state in 20 of the first games (50 in a full run, 10 in a short one), thinner
    # later, and card conservation at every state of the first 200 games (every tenth state after): enough to
    # cover every phase often while keeping the whole battery inside the CI budget.
    dense = 50 if games >= 1000 else 10
    for index in range(games):
        seed = master_seed * 1_000_003 + index
        rate = 0.05 if index < dense else 0.004
        play_checked(
            game,
            seed,
            sample_rate=rate,
            tally=tally,
            replay=index % 10 == 0,
            playout_from_determinization=index % 5 == 0,
            conservation_every_state=index < 200,
        )
    for index in range(3):
        seed = master_seed + 17 * index
        first = play_checked(game, seed, 0.0, Tally(), replay=False, playout_from_determinization=False)
        second = play_checked(game, seed, 0.0, Tally(), replay=False, playout_from_determinization=False)
        assert first == second, f"{game!r}: seed {seed} gave two different games"
    return tally


CONTRACT_FIELDS = ("game", "_history", "_legal_cache")
"""The fields the engine's `State` itself holds (its `__slots__`)."""


def check_clone_names_every_field(
    state: State, reset: Mapping[str, object] | None = None, rows_shared: Collection[str] = ()
) -> None:
    """`clone()` sets every field of the state class's `__slots__` equal to the original's and shares no list
    with it, nor a list inside one, but the game's read-only tables (`snapshot_fields.fixed`); the state holds
    no field outside its slots and the contract's — the copy a compiled (native) state needs, made without a
    `__dict__` or a `__new__` shell (docs/contributing/adding-a-game.md, `state.py`). `reset` names the caches
    a copy sets anew, with the value it sets; `rows_shared` the lists whose rows a copy may share (rows the
    rules replace, never change in place)."""
    reset = reset or {}
    assert set(getattr(state, "__dict__", {})) <= set(CONTRACT_FIELDS)
    declared = type(state).snapshot_fields
    fixed = set(declared.fixed) if declared is not None else set()
    copy = state.clone()
    assert copy == state
    assert copy.game is state.game
    assert copy._history == state._history and copy._history is not state._history
    assert copy._legal_cache is (None if state.is_chance_node() else state._legal_cache)
    for name in type(state).__slots__:
        value = getattr(state, name)
        copied = getattr(copy, name)
        if name in reset:
            assert copied == reset[name], name
            continue
        assert copied == value, name
        if isinstance(value, list) and name not in fixed:
            assert copied is not value, name
            if name not in rows_shared:
                for i, item in enumerate(value):
                    if isinstance(item, list):
                        assert copied[i] is not item, name
