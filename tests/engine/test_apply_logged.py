"""`apply_logged`, the one driver step (issue 32, finding 9): what it returns for each recipient — a `Seen` —
is what `seen_action`, `log_lines` and the protocol's "nothing" (no line and the same view before and after,
docs/protocol.md) give when each is asked separately on a copy, for every game and Race to Messina variant —
so a game's `_nothing_to` (Race to Messina's R31, Naval War's "always something") is exact; and it checks,
decides and copies once."""

from __future__ import annotations

import random
from typing import Any

import pytest

import warcards
from tests.server.test_leaks import looks  # the protocol's view, as the leak scan's replay reads it
from warcards import native
from warcards.engine.api import CHANCE, Seen, State, apply_logged, sample_chance
from warcards.engine.errors import IllegalActionError, SeatError

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("cards-of-war", {}),
    ("med-sirocco", {}),
    ("naval-war", {"players": 2}),
    ("naval-war", {"players": 4}),
    ("naval-war", {"players": 3, "night": True}),
    *(("race-to-messina", {"variant": variant}) for variant in ("invasion", "race", "sicily")),
]


@pytest.mark.parametrize(("game_id", "options"), CONFIGS, ids=[f"{g}-{o}" for g, o in CONFIGS])
def test_apply_logged_gives_each_recipient_what_seen_action_log_lines_and_the_views_give(
    game_id: str, options: dict[str, Any]
) -> None:
    game = warcards.load_game(game_id, **options)
    recipients = [*range(game.num_players), None]
    nothing = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = sample_chance(state.chance_outcomes(), rng.random())
            else:
                action = rng.choice(state.legal_actions())
            before = state.clone()
            expected_seen = {who: before.seen_action(action, who) for who in recipients}
            views_before = {who: looks(before, who) for who in recipients}
            told = apply_logged(state, action, recipients, before=state.clone() if seed else None)
            assert state.history() == [*before.history(), action]
            for who in recipients:
                lines = before.log_lines(action, state, who)
                seen = expected_seen[who]
                sees_nothing = not lines and looks(state, who) == views_before[who]
                assert told[who] == Seen(seen.actor, seen.action, seen.text, lines, sees_nothing), (who, action)
                nothing += sees_nothing
    if game_id == "race-to-messina":
        assert nothing, "a face-down Deployment choice is nothing to the other seats (R31)"


def test_r31_another_seats_face_down_deployment_choice_is_nothing_to_it_but_not_to_the_deployer() -> None:
    state = warcards.load_game("race-to-messina", variant="invasion").new_initial_state()
    rng = random.Random(1)
    while not (state.current_player() >= 0 and state.position()["phase"] == "deployment"
               and any(state.action_to_string(a).startswith("deploy") for a in state.legal_actions())):
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[-1] if state.position()["phase"] == "deployment" else rng.choice(legal))
    deployer = state.current_player()
    deploy = next(a for a in state.legal_actions() if state.action_to_string(a).startswith("deploy"))
    told = apply_logged(state, deploy, [0, 1, None])
    assert not told[deployer].nothing and told[deployer].lines
    for who in (1 - deployer, None):
        assert told[who].nothing and told[who].lines == [] and told[who].action is None


@pytest.mark.parametrize(("game_id", "options"), CONFIGS[:3], ids=[g for g, _ in CONFIGS[:3]])
def test_apply_logged_refuses_an_illegal_action_or_a_bad_seat_and_changes_nothing(
    game_id: str, options: dict[str, Any]
) -> None:
    state = warcards.load_game(game_id, **options).new_initial_state()
    rng = random.Random(3)
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    legal = state.legal_actions()
    illegal = next(a for a in range(state.game.num_distinct_actions) if a not in legal)
    snapshot = state.snapshot()
    with pytest.raises(IllegalActionError):
        apply_logged(state, illegal, [0, None])
    with pytest.raises(SeatError):
        apply_logged(state, legal[0], [0, 99])
    assert state.snapshot() == snapshot


@pytest.mark.skipif(native.in_use(), reason="counts clone() calls by patching the state's class, which a compiled "
                    "class's callers do not see; scripts/test.sh's Python leg checks it")
def test_apply_logged_copies_the_state_once_and_reads_a_copy_it_is_given_without_changing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = warcards.load_game("cards-of-war").new_initial_state()
    rng = random.Random(5)
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    clones = 0
    original = type(state).clone

    def counted(self: State) -> State:
        nonlocal clones
        clones += 1
        return original(self)

    monkeypatch.setattr(type(state), "clone", counted)
    apply_logged(state, state.legal_actions()[0], [0, 1, None])
    assert clones == 1
    kept = state.clone()
    snapshot = kept.snapshot()
    clones = 0
    apply_logged(state, state.legal_actions()[0], [0, 1, None], before=kept)
    assert clones == 0
    assert kept.snapshot() == snapshot
