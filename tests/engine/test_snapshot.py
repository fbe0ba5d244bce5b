"""The position format (`State.snapshot()`, `Game.state_from_snapshot`; docs/contributing/snapshot.md).

Over seeded random mid-game positions of every game id and option set (each Race to Messina variant, Med
Sirocco 2–6 players, Naval War 2–9, Cards of War short/normal/long) and determinized samples of them: a
snapshot is plain JSON with a stable key order, and the state rebuilt from it holds the same fields with the
same types, gives every read the same answer and has the same future. Forged and broken snapshots raise
`SnapshotError` only, with a short message saying what is wrong.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.edges.scale import examples
from tests.examples.template import load_minimal_game
from warcards.engine.api import State, sample_chance
from warcards.engine.errors import SnapshotError
from warcards.engine.registry import load_game
from warcards.engine.snapshot import MAX_INT_BITS, MAX_LIST, attribute_names, codec_of

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("cards-of-war", {"length": "short"}),
    ("cards-of-war", {"length": "normal", "theatres_of_war": True, "joint_deployment": True}),
    ("cards-of-war", {"length": "long", "decks": 2, "alternative_reinforce": True, "strategic_exhaustion": True}),
    ("cards-of-war", {"length": "long", "tactical_advantage": True}),
    *[("race-to-messina", {"variant": variant}) for variant in ("invasion", "race", "sicily")],
    *[("med-sirocco", {"players": players}) for players in range(2, 7)],
    ("med-sirocco", {"players": 4, "advanced": True, "change_sides": True, "operations": 10}),
    ("med-sirocco", {"players": 3, "faster": True, "historicity": True, "series": True, "operations": 10}),
    *[("naval-war", {"players": players}) for players in range(2, 10)],
    ("naval-war", {"players": 6, "fleets": "2x3", "night": True, "kamikaze": True, "mines_two": True}),
    ("naval-war", {"players": 4, "gunnery": True, "draw_past_specials": True, "additional_ship": False}),
]
IDS = [f"{game}-{'-'.join(f'{k}={v}' for k, v in options.items())}" for game, options in CONFIGS]
PROPERTY = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _step(state: State, rng: random.Random) -> None:
    """One seeded random step: a chance outcome by its probability, else a uniform legal action."""
    if state.is_chance_node():
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    else:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


@cache
def _positions(index: int) -> tuple[State, ...]:
    """About 8 positions along a seeded random playout of config `index` (the start, mid-game, the end),
    each with the determinized samples of the seat to move and of seat 0."""
    game_id, options = CONFIGS[index]
    state = load_game(game_id, **options).new_initial_state()
    rng = random.Random(4100 + index)
    playout: list[State] = []
    while not state.is_terminal():
        playout.append(state.clone())
        _step(state, rng)
    playout.append(state)
    chosen = [playout[0], *playout[1:-1:max(1, len(playout) // 6)], playout[-1]]
    states: list[State] = []
    for position in chosen:
        states.append(position)
        seats = {0, position.current_player()} if not position.is_terminal() else {0}
        states.extend(position.determinize(seat, random.Random(seat)) for seat in sorted(seats) if seat >= 0)
    return tuple(states)


def _strict(a: object, b: object) -> bool:
    """Equal values of identical types, all the way down (a tuple is no list, a bool no int)."""
    if type(a) is not type(b):
        return False
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(_strict(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    return a == b


def _reads(state: State) -> tuple[Any, ...]:
    game = state.game
    return (
        [state.observe(seat) for seat in range(game.num_players)],
        state.zones(),
        state.position(),
        state.legal_actions(),
        state.current_player(),
        state.returns(),
        state.history(),
        state.public_view(),
    )


def _round_trip(state: State) -> State:
    return state.game.state_from_snapshot(json.loads(json.dumps(state.snapshot())))



@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_a_rebuilt_state_has_the_same_fields_reads_and_future(index: int) -> None:
    for at, state in enumerate(_positions(index)):
        where = f"{IDS[index]} position {at}"
        data = state.snapshot()
        text = json.dumps(data)
        rebuilt = state.game.state_from_snapshot(json.loads(text))
        assert json.dumps(rebuilt.snapshot()) == text, f"{where}: the snapshot of the rebuilt state differs"
        codec = codec_of(state.game)
        for name in codec.kinds:
            assert _strict(getattr(rebuilt, name), getattr(state, name)), f"{where}: field {name} differs"
        assert _reads(rebuilt) == _reads(state), f"{where}: a read differs"
        assert rebuilt == state
        # The same future: the same seeded choices from both, step by step, to the end.
        original = state.clone()
        rng_a, rng_b = random.Random(at), random.Random(at)
        while not original.is_terminal():
            _step(original, rng_a)
            _step(rebuilt, rng_b)
            assert rebuilt.fingerprint() == original.fingerprint(), f"{where}: the futures part"
        assert rebuilt.is_terminal() and rebuilt.returns() == original.returns()


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_snapshots_are_plain_json_with_a_stable_key_order(index: int) -> None:
    for state in _positions(index):
        data = state.snapshot()
        assert list(data) == ["format", "version", "game", "options", "history", "state"]
        assert list(data["state"]) == sorted(data["state"])
        assert json.loads(json.dumps(data)) == data
        assert json.dumps(state.snapshot()) == json.dumps(data)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_fixed_fields_never_change_in_play_and_are_not_sent(index: int) -> None:
    codec = codec_of(_positions(index)[0].game)
    for state in _positions(index):
        assert attribute_names(state) == attribute_names(codec.template)
        for name in codec.fixed:
            assert getattr(state, name) == getattr(codec.template, name), f"{name} changed in play"
        assert not set(state.snapshot()["state"]) & {*codec.fixed, *codec.caches}


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_a_determinized_sample_has_no_history(index: int) -> None:
    samples = [state for state in _positions(index) if not state.history()]
    assert samples
    for sample in samples:
        assert sample.snapshot()["history"] == []
        assert _round_trip(sample).history() == []


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_a_samples_snapshot_carries_nothing_beyond_the_seats_view(index: int) -> None:
    """What goes over the wire: the snapshot of `determinize(seat, rng)` made from the true state equals the
    one made, with the same rng, from another sample of that seat (which shares only the seat's view)."""
    for state in _positions(index):
        if state.is_terminal() or not state.history():
            continue
        for seat in range(state.game.num_players):
            sent = state.determinize(seat, random.Random(7)).snapshot()
            other = state.determinize(seat, random.Random(99))
            assert other.determinize(seat, random.Random(7)).snapshot() == sent, f"seat {seat}"


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_a_state_pickles_and_deep_copies_through_its_snapshot(index: int) -> None:
    """`pickle` and `copy.deepcopy` (OpenSpiel's `serialize` pickles the state) rebuild the same position with
    the same history and go on alike — compiled too, where a state cannot be made without its `__init__`."""
    for state in _positions(index):
        for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
            assert type(copied) is type(state) and copied == state
            assert copied.legal_actions() == state.legal_actions()
            assert copied.chance_outcomes() == state.chance_outcomes()


# ----- forged and broken snapshots ----------------------------------------------------------------------------
@cache
def _mid(index: int) -> State:
    positions = _positions(index)
    return positions[len(positions) // 2]


def _refused(game_index: int, data: object, match: str) -> str:
    game = _mid(game_index).game
    with pytest.raises(SnapshotError, match=match) as caught:
        game.state_from_snapshot(data)
    message = str(caught.value)
    assert len(message) <= 500, message[:600]
    return message


def _forged(index: int) -> dict[str, Any]:
    return json.loads(json.dumps(_mid(index).snapshot()))  # type: ignore[no-any-return]


def test_a_snapshot_of_another_game_or_other_options_is_refused() -> None:
    data = _forged(0)
    _refused(5, data, "game 'cards-of-war', not 'race-to-messina'")
    message = _refused(1, data, "other options: ")
    assert "length='short' (this game: 'normal')" in message and "theatres_of_war=False (this game: True)" in message
    _refused(4, _forged(5), "variant='race' \\(this game: 'invasion'\\)")
    _refused(7, _forged(8), "players=3 \\(this game: 2\\)")
    data = _forged(0)
    data["options"]["extra"] = 1
    _refused(0, data, "names option 'extra'")
    del data["options"]["extra"], data["options"]["length"]
    _refused(0, data, "lacks option 'length'")


def test_a_snapshot_with_a_missing_unknown_or_mistyped_field_is_refused() -> None:
    data = _forged(12)
    del data["state"]["hands"]
    _refused(12, data, r"the med-sirocco state lacks hands; it has exactly: ")
    data = _forged(12)
    data["state"]["cheat"] = 1
    _refused(12, data, "unknown key 'cheat'")
    data = _forged(12)
    data["state"]["phase"] = "3"
    _refused(12, data, r"state.phase is an integer, not the str '3'")
    data = _forged(12)
    data["state"]["entry_alive"] = [1]
    _refused(12, data, r"state.entry_alive\[0\] is true or false, not the int 1")
    data = _forged(12)
    data["state"]["hands"][0] = {"cards": []}
    _refused(12, data, r"state.hands\[0\] is a JSON array of int, not the dict")
    for broken in (None, [], "snapshot", 3):
        _refused(12, broken, "a snapshot is a JSON object")
    data = _forged(12)
    data["format"] = "pickle"
    _refused(12, data, "format is 'pickle'")
    data = _forged(12)
    data["version"] = 2
    _refused(12, data, "this engine reads version 1")


def test_non_json_values_are_refused() -> None:
    for value in (1.5, (1, 2), {1, 2}, b"x", object(), float("nan")):
        data = _forged(0)
        data["state"]["hands"] = [value, []]
        _refused(0, data, r"state.hands\[0\] is a JSON array of int")
    data = _forged(0)
    data["history"] = (0, 1)
    _refused(0, data, "history is a JSON array")


def test_a_lost_or_duplicated_card_is_refused() -> None:
    data = _forged(0)
    hands = data["state"]["hands"]
    donor = 0 if hands[0] else 1
    lost = hands[donor].pop()
    _refused(0, data, "lose cards")
    hands[1 - donor].append(lost)
    hands[donor].append(lost)
    hands[1 - donor].sort()
    _refused(0, data, "duplicate")
    data = _forged(20)
    data["state"]["card_position"][0] = data["state"]["card_position"][1] + 1000
    _refused(20, data, "holds no consistent naval-war position")


def test_naval_war_mirrors_out_of_step_with_the_card_positions_are_refused() -> None:
    data = _forged(20)
    data["state"]["deck_count"][0] += 1
    _refused(20, data, "deck_count and deck_size are not the counts of the cards")
    data = _forged(20)
    pile = data["state"]["draw_pile"]
    pile[0], pile[-1] = pile[-1], pile[0]
    _refused(20, data, "draw_pile is not the draw pile's chance outcomes")
    data = _forged(20)
    data["state"]["draw_keys"][0] += 1
    _refused(20, data, "draw_kinds and draw_keys are not the kinds left in the draw pile")
    data = _forged(20)
    hands = data["state"]["hands"]
    giver = 0 if hands[0] else 1
    hands[1 - giver].append(hands[giver].pop())
    _refused(20, data, rf"hands\[{min(giver, 1 - giver)}\] is not the cards whose card_position is seat")


def test_a_naval_war_seat_alive_with_no_ship_after_the_deal_is_refused() -> None:
    """The play lists offer a strike whenever an enemy seat lives (a living seat has a ship to aim at): a
    forged snapshot whose living seat has no ship would offer a strike with no target, so it is refused."""
    data = _forged(20)
    state = data["state"]
    seat = next(i for i, alive in enumerate(state["alive"]) if not alive) if not all(state["alive"]) else None
    if seat is None:
        seat = 0
        for ship in state["fleets"][seat]:
            state["ship_position"][ship] = 0
        state["harbor"] = sorted(state["harbor"] + state["fleets"][seat])
        state["fleets"][seat] = []
    else:
        state["alive"][seat] = True
    _refused(20, data, rf"seat {seat} is alive with no ship")


def test_out_of_range_and_huge_values_are_refused() -> None:
    data = _forged(4)
    data["state"]["to_act"] = 7
    _refused(4, data, "to act")
    data = _forged(4)
    data["state"]["turn"] = 2 ** (MAX_INT_BITS + 1)
    _refused(4, data, f"at most {MAX_INT_BITS}")
    data = _forged(4)
    data["state"]["log"] = [[0]] * (MAX_LIST + 1)
    _refused(4, data, f"at most {MAX_LIST}")
    data = _forged(4)
    data["history"] = [10**9]
    _refused(4, data, r"history\[0\] is 1000000000: actions are 0\.\.")
    data = _forged(4)
    data["state"]["hands"][0] = [10**6]
    _refused(4, data, "holds no consistent race-to-messina position")


# ----- hypothesis: mutations of real snapshots ----------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (keys of dicts, indexes of lists)."""
    found = [prefix]
    if type(data) is dict:
        for key, value in data.items():
            found.extend(_paths(value, (*prefix, key)))
    elif type(data) is list:
        for index, value in enumerate(data):
            found.extend(_paths(value, (*prefix, index)))
    return found


@PROPERTY
@given(
    index=st.integers(0, len(CONFIGS) - 1),
    at=st.integers(0, 30),
    choice=st.integers(0, 10**9),
    how=st.sampled_from(["replace", "delete", "add", "nudge"]),
    value=json_values,
)
def test_a_mutated_snapshot_loads_as_a_sound_state_or_raises_snapshot_error(
    index: int, at: int, choice: int, how: str, value: Any
) -> None:
    positions = _positions(index)
    state = positions[at % len(positions)]
    data = json.loads(json.dumps(state.snapshot()))
    paths = _paths(data)
    path = paths[1 + choice % (len(paths) - 1)]
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == "delete":
        del parent[last]
    elif how == "add" and type(parent) is dict:
        parent[f"{last}_"] = value
    elif how == "add":
        parent.insert(last, value)
    elif how == "nudge" and type(parent[last]) is int and type(parent[last]) is not bool:
        parent[last] += 1 if choice % 2 else -1
    else:
        parent[last] = value
    try:
        rebuilt = state.game.state_from_snapshot(data)
    except SnapshotError as error:
        assert 0 < len(str(error)) <= 500
        return
    _reads(rebuilt)
    assert _round_trip(rebuilt).fingerprint() == rebuilt.fingerprint()


def test_the_template_game_round_trips_its_phase_enum_and_refuses_an_unknown_phase() -> None:
    package = load_minimal_game()
    game = package.SPEC.factory({"players": 3, "hand": 3, "cards": None})
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(12):
        _step(state, rng)
    rebuilt = _round_trip(state)
    assert type(rebuilt.phase) is type(state.phase) and rebuilt.phase == state.phase  # type: ignore[attr-defined]
    assert _reads(rebuilt) == _reads(state)
    data = json.loads(json.dumps(state.snapshot()))
    data["state"]["phase"] = 99
    with pytest.raises(SnapshotError, match=r"state.phase is one of 0 \(DEAL\), "):
        game.state_from_snapshot(data)


def test_a_game_that_made_snapshots_still_pickles_and_copies() -> None:
    state = _mid(0)
    state.snapshot()
    for game in (pickle.loads(pickle.dumps(state.game)), copy.deepcopy(state.game)):
        assert "_snapshot_codec" not in vars(game)
        data = json.loads(json.dumps(state.snapshot()))
        assert game.state_from_snapshot(data).observe(0) == state.observe(0)
