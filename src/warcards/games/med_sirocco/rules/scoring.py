"""Scoring and the end (1.1, 1.2, 1.3): victory points, the end of a game or a series, a new deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.games.med_sirocco.codes import Phase, Stage
from warcards.games.med_sirocco.notation import (
    N_CARDS,
    N_PILE,
)

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoState


def victory_points(state: MedSiroccoState) -> list[int]:
    """1.1: each Operation won and each card sunk (captured) is worth its VP."""
    table = state.table
    return [sum(table.vp[c] for c in state.won[p]) + sum(table.vp[c] for c in state.captured[p]) for p in range(state.num_players)]


def end_game(state: MedSiroccoState) -> None:
    """1.2: after the last Operation, VP decide; ties go to the most Operations won. Series play deals new
    games until someone has 75 VP or more at the end of a game."""
    vp = victory_points(state)
    if state.series:
        for p in range(state.num_players):
            state.series_vp[p] += vp[p]
            state.series_ops[p] += len(state.won[p])
        if max(state.series_vp) < state.game.numbers.series_target:
            new_deal(state, (state.dealer + 1) % state.num_players)
            return
    state.stage = Stage.DONE
    state.phase = Phase.END


def new_deal(state: MedSiroccoState, dealer: int) -> None:
    """1.3: the dealer shuffles the Force-pile cards, deals six to each player, and sets out the Operations."""
    everything = list(range(N_PILE))
    state.pile = everything
    state.discard = []
    state.hands = [[] for _ in range(state.num_players)]
    state.won = [[] for _ in range(state.num_players)]
    state.captured = [[] for _ in range(state.num_players)]
    state.sunk = []
    state.operations_pile = list(range(N_PILE, N_CARDS))
    state.operations_out = []
    state.freighters_full = [0] * state.num_players
    state.freighters_half = [0] * state.num_players
    state.known_cards = [0] * state.num_players
    state.any_known = False
    state.operations_done = 0
    state.dealer = dealer
    state.first_player = dealer
    state.game_number += 1
    for _ in range(state.game.numbers.hand_size):
        for i in range(state.num_players):
            state.draw_queue.append((dealer + 1 + i) % state.num_players)
    state.stage = Stage.START_OPERATION
    state.phase = Phase.CHANCE
    state.chance_kind = -1


def returns(state: MedSiroccoState) -> list[float]:
    """1.2: the winner (most VP, then most Operations won; series: totals) gets 1, shared on a full tie."""
    if state.phase != Phase.END:
        return [0.0] * state.num_players
    if state.series:
        vp, ops = state.series_vp, state.series_ops
    else:
        vp = victory_points(state)
        ops = [len(w) for w in state.won]
    best = max(zip(vp, ops, strict=True))
    winners = [p for p in range(state.num_players) if (vp[p], ops[p]) == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(state.num_players)]
