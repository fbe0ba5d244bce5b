"""`determinize` samples from what the seat knows only: two true states the seat cannot tell apart give the
same sample for the same random numbers (the unknown cards are pooled in a canonical order)."""

from __future__ import annotations

import random
from typing import Any

from tests.games.med_sirocco.helpers import build, game, play, settle

from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE, sample_chance
from warcards.games.med_sirocco import CONFORMANCE_CONFIGS
from warcards.games.med_sirocco.heuristic import heuristic_agent
from warcards.games.med_sirocco.state import MedSiroccoState


def _positions(options: dict[str, Any], seed: int, heuristic: bool, every: int) -> list[MedSiroccoState]:
    """Every `every`-th non-terminal position of a seeded random (or heuristic) game."""
    g = game(**options)
    rng = random.Random(seed)
    agents = [heuristic_agent(g, seat, seed + seat) for seat in range(g.num_players)] if heuristic else []
    state = g.new_initial_state()
    out: list[MedSiroccoState] = []
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            out.append(state.clone())
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        elif agents:
            state.apply_action(agents[player].step(SeatView(state, player)))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        step += 1
    return out


def _lost_and_choice_positions() -> list[MedSiroccoState]:
    """Rarer hidden choices: S02 Lost between its two exchanges and while choosing its cards (4 and 2
    players), and the 5.0 choice between two Operations."""
    lost = build({0: ["S02", "A12", "A31", "A34"], 1: ["X13", "X26"], 2: ["X14", "X15"], 3: ["A20"]},
                 operation="O05")
    play(lost, "type surface", "play S02", "select A12")
    choosing = lost.clone()
    play(lost, "select A31", "seat 1", "seat 2", "draw X26")
    two = build({0: ["S02", "A12", "A31", "A34"], 1: ["X13", "X26", "X14"]}, players=2, operation="O05")
    play(two, "type surface", "play S02", "select A12", "select A31", "draw X26")
    advanced = settle(game(4, advanced=True).new_initial_state())
    assert lost.lost_step == 1 and two.lost_step == 1 and advanced.operation_choice
    return [choosing, lost, two, advanced]


def _same(a: MedSiroccoState, b: MedSiroccoState) -> bool:
    """Equal as states (history, zones, position) and in every other field of the position too."""
    names = ("game", "_history", *MedSiroccoState.__slots__)
    return a == b and all(getattr(a, name) == getattr(b, name) for name in names)


def test_determinize_depends_only_on_what_the_seat_knows() -> None:
    positions = _lost_and_choice_positions()
    for index, options in enumerate(CONFORMANCE_CONFIGS):
        positions += _positions(options, seed=index, heuristic=False, every=11)
        positions += _positions(options, seed=100 + index, heuristic=True, every=17)
    checked = 0
    for number, a in enumerate(positions):
        for seat in range(a.num_players):
            b = a.determinize(seat, random.Random(number * 7 + seat))
            assert isinstance(b, MedSiroccoState)
            assert b.observe(seat) == a.observe(seat)
            for k in (1, 2):
                assert _same(a.determinize(seat, random.Random(k)), b.determinize(seat, random.Random(k)))
            checked += 1
    assert checked > 2000


def test_determinize_after_lost_gives_the_same_sample_whichever_card_was_given() -> None:
    """S02: seat 3 does not see which card player 0 gave player 1 (nor what he took): two such positions
    give one sample for the same random numbers, the given card named where the sample put it, and what
    players 0 and 1 know follows the cards sampled into those slots. Only the histories (the hidden
    choices) differ."""
    positions = []
    for given in ("A12", "A34"):
        state = build({0: ["S02", "A12", "A31", "A34"], 1: ["X13", "X26"], 2: ["X14", "X15"], 3: ["A20"]},
                      operation="O05")
        play(state, "type surface", "play S02", f"select {given}", "select A31", "seat 1", "seat 2", "draw X26")
        positions.append(state)
    a, b = positions
    assert a.observe(3) == b.observe(3) and a.lost_cards != b.lost_cards
    for k in range(20):
        one = a.determinize(3, random.Random(k))
        two = b.determinize(3, random.Random(k))
        assert isinstance(one, MedSiroccoState) and isinstance(two, MedSiroccoState)
        assert one.zones() == two.zones() and one.position() == two.position()
        assert one.lost_cards == two.lost_cards and one.known_cards == two.known_cards
        assert one.lost_cards[0] == one.hands[1][-1]
        assert one.known_cards[0] >> one.hands[1][-1] & 1 and one.known_cards[1] >> one.hands[0][-1] & 1
