"""A fast estimate of the returns a Cards of War game will end with, for search rollouts cut at a horizon.

The estimate follows the rule text's ladder of wins. WINNING A BATTLE: each open battle is a race to 15
points, and seat 0's chance of winning it is a logistic of the battle's totals, the move (who deploys next,
and whether a seat holds a card that reaches 15 there: R6), the points a KILL in the opponent's hand could
take off the top card (SPECIAL ABILITIES 1; only the top card, R3) and the hands (points, REINFORCE cards,
cards held: a Tactical advantage hand counts here). WINNING A ROUND: the battles are combined as independent
races (most battles wins; R11's void battles count for nobody) and the result is sharpened by a fitted
temperature. WINNING THE GAME: the rounds still to play are a chain in which the winner of a round goes
first in the next (SETUP) and the first player wins a round with a fitted probability; short = this round,
normal = first to two of three (R12), long = a lead of three, or the better record after round 99 (R22);
with Strategic exhaustion the base hand-size lead shifts that probability and a sweep that leaves a hand of
three wins (R14). The value is P(seat 0 wins) - P(seat 1 wins): the expected `returns()[0]`.

The constants were fitted by `scripts/fit_evaluate/cards_of_war.py` (seeded; it prints them) on games of
the heuristic bot with 10% random moves, as `warcards.bots.calibration` plays them, from other seeds: the
battle weights and the temperature by maximum likelihood of the round winners over the three lengths, the
first player's edge from the share of rounds the first player won, the hand-size logit from long games with
Strategic exhaustion.
"""

from __future__ import annotations

import math
from functools import cache
from operator import mul
from typing import TYPE_CHECKING, cast

from warcards.engine.api import TERMINAL
from warcards.games.cards_of_war.codes import NO_THEATRE, NUM_BATTLES, Length, Phase
from warcards.games.cards_of_war.params import (
    BATTLE_TARGET,
    LONG_GAME_LEAD,
    LONG_GAME_ROUND_CAP,
)

if TYPE_CHECKING:
    from warcards.engine.api import State
    from warcards.games.cards_of_war.state import CardsOfWarState

BATTLE_WEIGHTS: tuple[float, ...] = (2.556, -0.098, 0.111, 0.483, 1.128, 0.125, -0.009, 0.062, -0.013)
"""Logit weights of seat 0 winning an open battle, one per feature of `battle_features`."""
ROUND_TEMPERATURE = 2.476
"""Multiplies the logit of the independent-battles round probability (the battles of a round are linked)."""
FIRST_ROUND_LOGIT = 0.280
"""Logit of the first player winning a round not yet dealt."""
HAND_SIZE_LOGIT = 0.878
"""Logit per card of base hand-size lead in a future round (Strategic exhaustion)."""

_SCALE = 1.0 / BATTLE_TARGET


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def next_deployer(state: CardsOfWarState) -> int:
    """The seat that deploys next in this round: the mover, after a refill the other seat (PLAYING A ROUND),
    while dealing the round's first player (R24)."""
    phase = state.phase
    if phase == Phase.REFILL:
        return 1 - state.mover
    if phase == Phase.DEAL:
        return state.first_player
    return state.mover


def battle_features(state: CardsOfWarState) -> list[int | tuple[float, ...]]:
    """Per battle: its winner (0, 1 or `codes.VOID`) if resolved, else the features of seat 0 winning it, in
    the order of `BATTLE_WEIGHTS`: the margin / 15; the margin weighted by how near the leader is to 15
    (WINNING A BATTLE); the move (+1 seat 0 deploys next, -1 seat 1); the opponent's exposed top points
    minus one's own / 5 (a KILL in the other hand matches the top card: SPECIAL ABILITIES 1, R3; with
    Theatres of War only points that count, R15); whether the next deployer, then the other seat, holds a
    card that reaches 15 there (as +1 for seat 0, -1 for seat 1: R6); and the hands' leads in points / 10,
    in REINFORCE cards (SPECIAL ABILITIES 2) and in cards held."""
    info = state.kind_info
    n = state.num_kinds
    mover = next_deployer(state)
    best = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
    kills = [0, 0]
    points = [0, 0]
    reinforce = [0, 0]
    for seat in (0, 1):
        row = best[seat]
        mask = total = extra = 0
        for c in state.hands[seat]:
            theatre, _, killmask, score, _, has_reinforce = info[c % n]
            mask |= killmask
            total += score
            extra += has_reinforce
            if score > row[theatre]:
                row[theatre] = score
        row[4] = max(row[0], row[1], row[2], row[3])
        kills[seat] = mask
        points[seat] = total
        reinforce[seat] = extra
    tempo = 1.0 if mover == 0 else -1.0
    hand_points = (points[0] - points[1]) * 0.1
    hand_reinforce = float(reinforce[0] - reinforce[1])
    hand_size = float(len(state.hands[0]) - len(state.hands[1]))
    tow = state.theatres_of_war
    target = state.game.numbers.battle_target
    bwin = state.battle_winner
    tot = state.battle_totals
    bat = state.battle_piles
    out: list[int | tuple[float, ...]] = []
    for b in range(NUM_BATTLES):
        if bwin[b] >= 0:
            out.append(bwin[b])
            continue
        theatre_b = state.battle_theatre[b] if tow else NO_THEATRE
        column = 4 if theatre_b < 0 else theatre_b
        t0 = tot[b]
        t1 = tot[NUM_BATTLES + b]
        exposed = 0
        pile = bat[b]
        if pile:
            top = info[pile[-1] % n]
            if top[1] & kills[1] and (theatre_b < 0 or top[0] == theatre_b):
                exposed -= top[3]
        pile = bat[NUM_BATTLES + b]
        if pile:
            top = info[pile[-1] % n]
            if top[1] & kills[0] and (theatre_b < 0 or top[0] == theatre_b):
                exposed += top[3]
        can0 = best[0][column] >= target - t0
        can1 = best[1][column] >= target - t1
        if mover == 0:
            mover_can, other_can = (1.0 if can0 else 0.0), (-1.0 if can1 else 0.0)
        else:
            mover_can, other_can = (-1.0 if can1 else 0.0), (1.0 if can0 else 0.0)
        margin = (t0 - t1) * _SCALE
        out.append((
            margin,
            margin * (t0 if t0 > t1 else t1) * _SCALE,
            tempo,
            exposed * 0.2,
            mover_can,
            other_can,
            hand_points,
            hand_reinforce,
            hand_size,
        ))
    return out


def round_outcome(state: CardsOfWarState, weights: tuple[float, ...] = BATTLE_WEIGHTS,
                  temperature: float = ROUND_TEMPERATURE) -> tuple[float, float, float, float]:
    """(P seat 0 wins the round, P seat 1 wins it, P seat 0 wins all three battles, P seat 1 does): open
    battles as independent races, the round to the seat with more battles (WINNING A ROUND; R11)."""
    lead = 0
    probabilities: list[float] = []
    for battle in battle_features(state):
        if isinstance(battle, int):
            lead += 1 if battle == 0 else -1 if battle == 1 else 0
        else:
            probabilities.append(_sigmoid(sum(map(mul, weights, battle))))
    # wins[k]: the probability that seat 0 wins k of the open battles.
    wins = [1.0]
    for p in probabilities:
        q = 1.0 - p
        spread = [x * q for x in wins]
        spread.append(0.0)
        for k, x in enumerate(wins):
            spread[k + 1] += x * p
        wins = spread
    m = len(probabilities)
    win0 = win1 = 0.0
    for k, x in enumerate(wins):
        d = lead + 2 * k - m
        if d > 0:
            win0 += x
        elif d < 0:
            win1 += x
    sweep0 = wins[m] if lead == 3 - m else 0.0
    sweep1 = wins[0] if lead == m - 3 else 0.0
    if win0 <= 0.0 or win1 <= 0.0:
        return win0, win1, sweep0, sweep1
    # The temperature multiplies the logit of win0 against win1: win0**T / (win0**T + win1**T).
    sharp0 = win0**temperature
    share = sharp0 / (sharp0 + win1**temperature)
    decided = win0 + win1
    q0 = decided * share
    q1 = decided - q0
    return q0, q1, sweep0 * q0 / win0, sweep1 * q1 / win1


def _future_round(first: int, hand_lead: int) -> float:
    """P(seat 0 wins a round not yet dealt): the first player's edge (SETUP: the round's winner goes first
    next) and, with Strategic exhaustion, the base hand-size lead (R14)."""
    return _sigmoid((FIRST_ROUND_LOGIT if first == 0 else -FIRST_ROUND_LOGIT) + HAND_SIZE_LOGIT * hand_lead)


@cache
def _normal_value(won0: int, won1: int, round_no: int, first: int) -> float:
    """Expected return of seat 0 in the normal game before round `round_no` is played (R12)."""
    if won0 >= 2 or won1 >= 2 or round_no > 3:
        return _sign(won0 - won1)
    p = _future_round(first, 0)
    return p * _normal_value(won0 + 1, won1, round_no + 1, 0) + (1.0 - p) * _normal_value(
        won0, won1 + 1, round_no + 1, 1
    )


@cache
def _long_values(hand_lead: int) -> tuple[tuple[float, float], ...]:
    """Expected return of seat 0 in the long game before a round, by (lead + 2, first player): the chain of
    rounds absorbed at a lead of three (WINNING THE GAME), solved by iteration."""
    span = LONG_GAME_LEAD - 1
    values = [[0.0, 0.0] for _ in range(2 * span + 1)]
    for _ in range(2000):
        change = 0.0
        for index in range(2 * span + 1):
            lead = index - span
            for first in (0, 1):
                p = _future_round(first, hand_lead)
                up = 1.0 if lead + 1 > span else values[index + 1][0]
                down = -1.0 if lead - 1 < -span else values[index - 1][1]
                new = p * up + (1.0 - p) * down
                change = max(change, abs(new - values[index][first]))
                values[index][first] = new
        if change < 1e-12:
            break
    return tuple((a, b) for a, b in values)


def _sign(lead: int) -> float:
    return float((lead > 0) - (lead < 0))


def _long_value(lead: int, first: int, hand_lead: int) -> float:
    if lead >= LONG_GAME_LEAD:
        return 1.0
    if lead <= -LONG_GAME_LEAD:
        return -1.0
    return _long_values(hand_lead)[lead + LONG_GAME_LEAD - 1][first]


def game_value(state: CardsOfWarState, q0: float, q1: float, sweep0: float, sweep1: float) -> float:
    """Seat 0's expected return given the current round's outcome probabilities (WINNING THE GAME)."""
    draw = max(0.0, 1.0 - q0 - q1)
    if state.length == Length.SHORT:
        return q0 - q1
    won0, won1 = state.rounds_won
    if state.length == Length.NORMAL:
        r = state.round_number + 1
        return (
            q0 * _normal_value(won0 + 1, won1, r, 0)
            + q1 * _normal_value(won0, won1 + 1, r, 1)
            + draw * _normal_value(won0, won1, r, state.first_player)
        )
    lead = won0 - won1
    if state.round_number >= LONG_GAME_ROUND_CAP:
        return q0 * _sign(lead + 1) + q1 * _sign(lead - 1) + draw * _sign(lead)
    if not state.strategic_exhaustion:
        return q0 * _long_value(lead + 1, 0, 0) + q1 * _long_value(lead - 1, 1, 0) + draw * _long_value(
            lead, state.first_player, 0
        )
    base0, base1 = state.base_hand_limits
    hand_lead = base0 - base1
    out0 = 1.0 if base1 - 1 <= state.game.numbers.exhausted_hand else _long_value(lead + 1, 0, hand_lead + 1)
    out1 = -1.0 if base0 - 1 <= state.game.numbers.exhausted_hand else _long_value(lead - 1, 1, hand_lead - 1)
    return (
        sweep0 * out0
        + (q0 - sweep0) * _long_value(lead + 1, 0, hand_lead)
        + sweep1 * out1
        + (q1 - sweep1) * _long_value(lead - 1, 1, hand_lead)
        + draw * _long_value(lead, state.first_player, hand_lead)
    )


def evaluate(state: State) -> list[float]:
    """Estimated `returns()` of a Cards of War state: exactly them at the end, else [v, -v] with v = P(seat 0
    wins) - P(seat 1 wins). Reads every card (determinized states); never changes the state."""
    cow = cast("CardsOfWarState", state)
    if cow.to_act == TERMINAL:
        return cow.returns()
    outcome = (0.5, 0.5, 0.0, 0.0) if cow.phase == Phase.FIRST_DRAW else round_outcome(cow)
    value = game_value(cow, *outcome)
    return [value, -value]
