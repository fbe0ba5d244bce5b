"""Issue 21 §2: bots can reach nothing their seat must not see, and every seat's view of every action
comes from one function (`State.seen_action`, ARCHITECTURE.md "What each seat sees").

Each test is named after the failure class it pins: a determinized state or a `SeatView` that shows more
than the seat's observation, a determinized history that replays the hidden cards, a view that reaches
the true state, a bad seat answered by the wrong error (or by another seat's hand), an action text that
names a card the seat cannot see."""

from __future__ import annotations

import gc
import random
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.edges.hidden_cases import config_id, configs, load, named_cards, positions, shown_cards
from tests.edges.scale import examples
from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE, State
from warcards.engine.errors import SeatError
from warcards.engine.registry import games

CASES = configs()
IDS = [config_id(case) for case in CASES]


def _sample(case: tuple[str, dict[str, object]], count: int = 6, seed: int = 21) -> list[tuple[State, int]]:
    return list(positions(load(case), seed, count))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_determinized_state_and_a_seat_view_show_nothing_beyond_the_observation(case: tuple[str, dict[str, object]]) -> None:
    """Two true states the seat cannot tell apart (the second is the first's own determinization) give
    the same determinization for the same rng and the same `SeatView` sample: neither carries anything the
    seat's observation does not decide."""
    game = load(case)
    for state, _ in _sample(case):
        for seat in range(game.num_players):
            view = state.observe(seat)
            twin = state.determinize(seat, random.Random(99))
            assert twin.observe(seat) == view
            for k in range(2):
                mine = state.determinize(seat, random.Random(k))
                assert mine.observe(seat) == view
                assert mine.fingerprint() == twin.determinize(seat, random.Random(k)).fingerprint(), (
                    f"{config_id(case)}: determinize({seat}) depends on more than the seat's view"
                )
            seat_view = SeatView(state, seat)
            assert seat_view.observation() == view
            assert seat_view._sample.fingerprint() == SeatView(twin, seat)._sample.fingerprint()
            assert seat_view.determinize(random.Random(3)).fingerprint() == (
                state.determinize(seat, random.Random(3)).fingerprint()
            ), "a view's determinize must give what the true state's gives (bots' pinned moves)"
            if state.current_player() == seat:
                assert seat_view.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_b_a_determinized_history_replays_no_hidden_card(case: tuple[str, dict[str, object]]) -> None:
    """The determinized state has no history (it starts at this position): replaying it rebuilds the
    initial state only, and its hidden cards differ from the truth for some rng at some sampled state."""
    game = load(case)
    resampled = 0
    for state, _ in _sample(case):
        for seat in range(game.num_players):
            for k in range(4):
                sample = state.determinize(seat, random.Random(k))
                assert sample.history() == []
                replay = game.new_initial_state()
                for action in sample.history():
                    replay.apply_action(action)
                assert replay.zones() == game.new_initial_state().zones()
                resampled += sample.zones() != state.zones()
    assert resampled, f"{config_id(case)}: no determinization ever moved a hidden card"


def _reachable(root: object, depth: int = 8, limit: int = 200_000) -> dict[int, object]:
    """Every object reachable from `root` through `gc.get_referents` (instances, containers, slots), to a
    bounded depth; classes, modules and functions are not walked (they lead to every global)."""
    seen: dict[int, object] = {id(root): root}
    frontier = [root]
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    for _ in range(depth):
        following = []
        for obj in frontier:
            for ref in gc.get_referents(obj):
                if id(ref) not in seen and not isinstance(ref, skip):
                    seen[id(ref)] = ref
                    following.append(ref)
        frontier = following
        if len(seen) > limit:
            break
    return seen


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_c_a_seat_view_reaches_no_true_state(case: tuple[str, dict[str, object]]) -> None:
    """Neither `gc.get_referents(view)` nor anything reachable from a `SeatView` is the true state."""
    game = load(case)
    for state, _ in _sample(case, count=3):
        for seat in range(game.num_players):
            view = SeatView(state, seat)
            assert state not in [ref for ref in gc.get_referents(view) if isinstance(ref, State)]
            assert not hasattr(view, "_SeatView__state")
            reached = _reachable(view)
            assert id(state) not in reached, f"{config_id(case)}: SeatView({seat}) reaches the true state"


BAD_SEATS = [-1, 10**30, True, 1.0, "0", None, "n"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_d_a_bad_seat_raises_seat_error_naming_the_seats(case: tuple[str, dict[str, object]]) -> None:
    """`observe(-1)` once returned the last seat's hand; other bad seats raised a bare IndexError."""
    game = load(case)
    state, _ = _sample(case, count=1)[0]
    before = state.fingerprint()
    legal = state.legal_actions()
    for bad in BAD_SEATS:
        seat = game.num_players if bad == "n" else bad
        calls = [
            lambda s=seat: state.observe(s),
            lambda s=seat: state.observe_fields(s, frozenset({"hand"})),
            lambda s=seat: state.determinize(s, random.Random(0)),
            lambda s=seat: SeatView(state, s),
            lambda s=seat: game.check_seat(s),
        ]
        if seat is not None:
            calls.append(lambda s=seat: state.seen_action(legal[0], s))
        for call in calls:
            with pytest.raises(SeatError, match="seats are 0 "):
                call()
        assert state.fingerprint() == before


_FIRST_STATES = {game_id: _sample((game_id, {}), count=1)[0][0] for game_id in games()}

ANY_VALUE = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.none(),
    st.binary(max_size=8),
    st.lists(st.integers(0, 3), max_size=2),
)


@settings(max_examples=examples(150), deadline=None)
@given(value=ANY_VALUE)
def test_d_any_value_is_a_seat_or_a_seat_error(value: object) -> None:
    """Whatever a caller passes as a seat: an int in range is that seat, anything else a `SeatError`."""
    for game_id, state in _FIRST_STATES.items():
        players = state.game.num_players
        if type(value) is int and 0 <= value < players:
            assert state.observe(value) == state.observe_fields(value, frozenset(state.observe(value)))
            assert state.determinize(value, random.Random(0)).history() == []
        else:
            with pytest.raises(SeatError, match=f"is not a seat of {game_id}: seats are 0 "):
                state.observe(value)
            with pytest.raises(SeatError):
                SeatView(state, value)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_e_seen_action_names_no_card_the_seat_cannot_see(case: tuple[str, dict[str, object]]) -> None:
    """For every seat (and a spectator), what `seen_action` shows names only cards the seat sees before or
    after the action; a spectator's text names only cards every seat sees; a seen action reads exactly as
    `action_to_string`."""
    game = load(case)
    seats = list(range(game.num_players))
    hidden = 0
    for state, action in _sample(case, count=60, seed=5):
        before = {seat: shown_cards(game, state.observe(seat)) for seat in seats}
        seen = {seat: state.seen_action(action, seat) for seat in [*seats, None]}
        text = state.action_to_string(action)
        actor = state.current_player()
        after_state = state.clone()
        after_state.apply_action(action)
        after = {seat: shown_cards(game, after_state.observe(seat)) for seat in seats}
        if game.game_id == "cards-of-war" and state.position()["phase"] == "first_draw":
            # SETUP: the draws for the first player are shown face up to both and go straight back into
            # the pile once both are drawn, so no observation keeps the second card: public by the rules.
            public = named_cards(game, text)
            before = {seat: cards | public for seat, cards in before.items()}
        for seat, what in seen.items():
            assert what.actor == actor
            if what.action is not None:
                assert what.action == action and what.text == text
            else:
                hidden += 1
            visible = set.intersection(*(before[s] | after[s] for s in seats)) if seat is None else (
                before[seat] | after[seat]
            )
            if what.action is not None and actor != CHANCE:
                # A face-up play of a card that then leaves every view (a round's cards going back into
                # the draw pile) was seen by all as it was played: the actor held it, no seat sees it after.
                visible |= before[actor] - set().union(*after.values())
            leaked = named_cards(game, what.text) - visible
            assert not leaked, f"{config_id(case)}: seat {seat} reads {what.text!r} ({sorted(leaked)} hidden)"
        if actor != CHANCE:
            assert seen[actor].action == action, "a seat sees its own action in full"
    assert hidden, f"{config_id(case)}: no sampled action was hidden from any seat"
