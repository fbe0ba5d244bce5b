"""warcards.testing.leaks: the scan every printed or sent text goes through finds a hidden card id or name,
and passes what the seat has been shown."""

from __future__ import annotations

import random

from warcards.engine import CHANCE, load_game, sample_chance
from warcards.testing.leaks import LeakScan


def _dealt_race_to_messina():  # type: ignore[no-untyped-def]
    state = load_game("race-to-messina").new_initial_state()
    rng = random.Random(0)
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    return state


def test_a_card_in_another_seats_hand_is_a_leak_and_ones_own_is_not() -> None:
    state = _dealt_race_to_messina()
    zones = state.zones()
    axis_hand, allies_hand = zones["hand:axis"], zones["hand:allies"]
    assert axis_hand and allies_hand
    scan = LeakScan(state, 0)
    own, other = (allies_hand, axis_hand) if state.game.seat_names()[0] == "allies" else (axis_hand, allies_hand)
    assert scan.leaks(f"you hold {own[0]}") == []
    assert scan.leaks(f"they hold {other[0]}.") == [other[0]]
    assert other[0] in scan.hidden()


def test_ids_match_whole_tokens_only() -> None:
    state = _dealt_race_to_messina()
    scan = LeakScan(state, 0)
    hidden = sorted(scan.hidden())[0]
    assert scan.leaks(f"x{hidden}") == []
    assert scan.leaks(f"{hidden}9") == []
    assert scan.leaks(f"({hidden})") == [hidden]


def test_a_name_is_a_leak_only_when_no_known_card_carries_it() -> None:
    state = _dealt_race_to_messina()
    scan = LeakScan(state, 0)
    hidden = sorted(scan.hidden())
    known = sorted(scan.known)
    names = {hidden[0]: "Secret Weapon", hidden[1]: "Shared Name", known[0]: "Shared Name"}
    scan = LeakScan(state, 0, names)
    assert scan.leaks("they play Secret Weapon") == ["name:Secret Weapon"]
    assert scan.leaks("they play Shared Name") == []


def test_a_spectator_knows_only_the_public_view() -> None:
    state = _dealt_race_to_messina()
    scan = LeakScan(state, None)
    assert set(state.zones()["hand:axis"]) <= scan.hidden()
    assert set(state.zones()["hand:allies"]) <= scan.hidden()
