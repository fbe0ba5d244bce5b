"""An estimate of Med Sirocco's returns for search rollouts cut at a horizon (`warcards.bots.ismcts`).

`evaluate(state)` predicts each seat's share of the win (1.2: most VP, then most Operations won; series
play: the series totals), on the scale of `returns()`: one float per seat in [0, 1], summing to 1. On a
terminal state it is `returns()` itself. It reads the full state (it is called on determinized states).

The model (`features`, then `combine`):
- banked score: the VP each seat has (1.1: Operations won and captured cards; 1.2 series: plus the series
  total) and, as the tie-break, the Operations won;
- the trick under way (1.4 C, 3.4), as a mixture over who takes it: a side wins by a logistic of the
  margin of the side totals of the cards in play ('?' dice at their mean 3.5 until rolled), and its trick
  goes to the seat with its best card (a softmax of each seat's best card); that seat gains the
  Operation's VP and the other side's Force cards (in play and under the Operation). The cards in play
  count with the share of the Engagement's turns played; the rest of the chance goes to the seats by a
  softmax of the best card each holds for this Operation (its year, 2.2, and type, 3.1). Once the trick
  is won (Supply pick-ups, 5.0 sharing) the prize goes to its winners;
- what remains: the Operations still to play (and, in series play, those of the games still needed for
  someone to reach 75 VP at the rate the leader scores), whose square root is the spread of the scores.
The scores over that spread go through a softmax over the seats, for each outcome of the trick.
Hand strength and hand size (1.5 freighters) were tried as score terms and left out: on the fitting
games they raised the skill (1 - MSE / constant MSE) by under 0.005.

The constants in `PARAMS` were fitted offline by least squares against the final returns of seeded
games of the heuristic bot with 10% random moves (the calibration tool's positions, on other seeds) over
2–6 players, 5.0 with 6.1, 6.3, 6.4 and series play: `python3 scripts/fit_evaluate/med_sirocco.py`
prints them.
"""

from __future__ import annotations

import math
import weakref
from typing import NamedTuple

from warcards.games.med_sirocco.cards import K_BONUS, K_FORCE, CardTable
from warcards.games.med_sirocco.codes import Phase, Stage
from warcards.games.med_sirocco.params import SERIES_TARGET
from warcards.games.med_sirocco.state import MedSiroccoState


class Params(NamedTuple):
    """The fitted constants (see the module docstring)."""

    scale: float  # softmax sharpness, per unit of score / spread (spread: root of Operations to play + floor)
    floor: float  # the spread's floor, in Operations (what is never known: dice, Sirocco, ties)
    tie: float  # VP worth of one Operation won (the 1.2 tie-break)
    sharp: float  # sharpness of the Engagement's side totals (per point of combat value)
    split: float  # sharpness, within a side, of who holds the best card (per point of combat value)
    reach: float  # sharpness of the trick's prior over the seats, per point of their best card in hand
    grow: float  # exponent of the Engagement's progress (how fast the cards in play become telling)
    rate: float  # VP the series leader scores per Operation (series play: the games still needed)


PARAMS = Params(
    scale=0.3212, floor=0.0098, tie=0.5026, sharp=1.131, split=1.4177, reach=0.8793, grow=0.7981, rate=1.2593
)


class Features(NamedTuple):
    """What `combine` needs of a position, per seat where it is a list."""

    bank: list[float]  # VP so far (series: plus the series total)
    ops: list[float]  # Operations won (series: plus the series count)
    reach: list[float]  # best card in hand for the current Operation (its year and type; 0 between them)
    best: tuple[list[float], list[float]]  # per side, each seat's best card in the Engagement (-1: none)
    totals: tuple[float, float]  # each side's total
    worth: tuple[float, float]  # VP of each side's Force cards at stake (in play and under the Operation)
    prize: float  # the Operation's VP (0 between Operations)
    decided: list[float]  # VP still to be handed out per seat once the trick is won (else empty)
    progress: float  # share of the Engagement's turns played (0 between Operations)
    remaining: float  # Operations still to play after the current one
    series_lead: float  # series play: the leader's total (negative when not series play)
    series_target: float = SERIES_TARGET  # series play: the VP that end it (1.2; a rule parameter)


class _Tables(NamedTuple):
    """Per-card values for one deck (dice at their mean 3.5)."""

    combat: list[tuple[float, ...]]  # per engagement type mask: a Force or Bonus card's value (3.1: the sum)
    typed: list[list[tuple[float, ...]]]  # per mask (0: best single value) and year: a Force card's value,
    # 0 when it may not be played that year (2.2)


_TABLES: dict[int, tuple[weakref.ref[CardTable], _Tables]] = {}


def _tables(table: CardTable) -> _Tables:
    """The table's `_Tables`, computed once per table (and dropped with it)."""
    cached = _TABLES.get(id(table))
    if cached is not None and cached[0]() is table:
        return cached[1]
    kinds = table.kind
    parts = [
        [f + 3.5 * d for f, d in zip(table.fixed[c], table.dice[c], strict=True)] for c in range(len(kinds))
    ]
    power = tuple(max(v) if kind == K_FORCE else 0.0 for kind, v in zip(kinds, parts, strict=True))
    combat = [
        tuple(
            sum(v for ti, v in enumerate(parts[c]) if mask >> ti & 1)
            if kinds[c] in (K_FORCE, K_BONUS)
            else 0.0
            for c in range(len(kinds))
        )
        for mask in range(8)
    ]
    typed: list[list[tuple[float, ...]]] = []
    for mask in range(8):
        rows = []
        for year in range(4):
            row = []
            for c, kind in enumerate(table.kind):
                if kind != K_FORCE or not table.years[c] >> year & 1:
                    row.append(0.0)
                elif mask == 0:
                    row.append(power[c])
                else:
                    row.append(sum(v for ti, v in enumerate(parts[c]) if mask >> ti & 1))
            rows.append(tuple(row))
        typed.append(rows)
    tables = _Tables(combat, typed)
    key = id(table)
    _TABLES[key] = (weakref.ref(table), tables)
    weakref.finalize(table, _TABLES.pop, key, None)
    return tables


def features(state: MedSiroccoState) -> Features:
    """The position's features (reads hidden cards; changes nothing)."""
    g = state.game
    table = state.table
    n = state.num_players
    vp = table.vp.__getitem__
    bank = [float(sum(map(vp, w)) + sum(map(vp, c))) for w, c in zip(state.won, state.captured, strict=True)]
    ops = [float(len(w)) for w in state.won]
    if state.series:
        bank = [b + t for b, t in zip(bank, state.series_vp, strict=True)]
        ops = [o + t for o, t in zip(ops, state.series_ops, strict=True)]
    tables = _tables(g.table)
    hands = state.hands
    best: tuple[list[float], list[float]] = ([], [])
    totals = worth = (0.0, 0.0)
    prize = 0.0
    decided: list[float] = []
    progress = 0.0
    op = state.operation
    if op >= 0:
        prize = float(table.vp[op])
        value = tables.typed[0 if state.phase == Phase.TYPE else state.engagement_type][state.year - 1940].__getitem__
        reach = [max(map(value, h), default=0.0) for h in hands]
        if state.stage in (Stage.SUPPLY, Stage.SHARE):
            decided, progress = _decided(state), 1.0
        else:
            best, totals, worth, progress = _engagement(state, tables.combat[state.engagement_type])
    else:
        reach = [0.0] * n
    remaining = float(state.operations_total - state.operations_done - (1 if op >= 0 else 0))
    series_lead = max(bank) if state.series else -1.0
    return Features(bank, ops, reach, best, totals, worth, prize, decided, progress, remaining, series_lead,
                    state.game.numbers.series_target)


def _decided(state: MedSiroccoState) -> list[float]:
    """3.4 / 5.0: the trick is won; the VP still to be handed out, per seat."""
    vp_table = state.table.vp
    out = [0.0] * state.num_players
    if state.stage == Stage.SHARE:
        pool = sum(vp_table[c] for c in state.share_pool)
        elig = state.share_eligible
        for q in elig:
            out[q] = pool / len(elig)
        return out
    lose = 1 - state.winning_side
    prize = vp_table[state.operation]
    for i, c in enumerate(state.under_card):
        if c >= 0 and state.under_side[i] == lose:
            prize += vp_table[c]
    for e, c in enumerate(state.entry_card):
        if state.entry_alive[e] and state.entry_side[e] == lose:
            prize += vp_table[c]
    out[state.winner] = float(prize)
    return out


def _engagement(
    state: MedSiroccoState, combat: tuple[float, ...]
) -> tuple[tuple[list[float], list[float]], tuple[float, float], tuple[float, float], float]:
    """1.4 C / 3.4: each seat's best card on each side (a Force card with its Bonus cards, or a Bonus
    played alone), the side totals, the VP at stake on each side, and the share of the Engagement's turns
    played (a player's own play counts once it is over). `combat` is each card's value in the type."""
    table = state.table
    kind = table.kind
    vp_table = table.vp
    e_card = state.entry_card
    e_alive = state.entry_alive
    e_side = state.entry_side
    e_host = state.entry_host
    e_player = state.entry_player
    n = state.num_players
    count = len(e_card)
    dice: dict[int, float] = {}
    if state.resolved:
        # 3.4: the dice rolled so far, and the mean of those still to roll.
        et = state.engagement_type
        fixed = table.fixed
        e_roll = state.entry_dice
        for code in state.roll_queue:
            dice[code // 3] = dice.get(code // 3, 0.0) + 3.5
        for e in range(count):
            if e_alive[e] and kind[e_card[e]] == K_FORCE:
                f = fixed[e_card[e]]
                dice[e] = dice.get(e, 0.0) + sum(
                    f[ti] + e_roll[e * 3 + ti] for ti in range(3) if et >> ti & 1
                )
    worth = [0.0, 0.0]
    for i, c in enumerate(state.under_card):
        if c >= 0 and vp_table[c]:  # 3.4 Tie: the Bonus, Special and Storm cards under it are worth nothing
            worth[state.under_side[i]] += vp_table[c]
    totals = [0.0, 0.0]
    best = ([-1.0] * n, [-1.0] * n)
    bonus = [0.0] * count
    # A Bonus card is played after its Force card (1.4 C), so a backward pass meets it first.
    for e in range(count - 1, -1, -1):
        if not e_alive[e]:
            continue
        c = e_card[e]
        k = kind[c]
        if k == K_FORCE:
            v = (dice[e] if state.resolved else combat[c]) + bonus[e]
            side = e_side[e]
            worth[side] += vp_table[c]
        elif k == K_BONUS:
            host = e_host[e]
            if host >= 0:
                bonus[host] += combat[c]
                continue
            v = combat[c]
            side = e_side[e]
        else:
            continue
        totals[side] += v
        mine = best[side]
        p = e_player[e]
        if v > mine[p]:
            mine[p] = v
    stage = state.stage
    if stage == Stage.TURNS:
        done = state.turn_index - (1 if state.phase != Phase.CHANCE else 0)
        progress = min(1.0, (state.round_index * n + done) / (state.rounds * n))
    elif stage in (Stage.INTELLIGENCE, Stage.ROUND_END):
        progress = (state.round_index + 1) / state.rounds
    else:
        progress = 1.0 if stage == Stage.RESOLVE else 0.0
    return best, (totals[0], totals[1]), (worth[0], worth[1]), progress


def trick_outcomes(f: Features, params: Params) -> list[tuple[int, float, float]]:
    """Who may take the current trick (3.4): (seat, chance, VP it brings him). A side wins by its total
    (a logistic of the margin) and its trick goes to its best card (a softmax of each seat's best card);
    the cards in play count by the share of the Engagement played, the rest is spread over the seats by
    their best card in hand (a softmax)."""
    prize = f.prize
    if prize <= 0 or f.decided:
        return []
    n = len(f.bank)
    progress = f.progress
    weight = progress**params.grow if progress > 0 else 0.0
    worth = f.worth
    generic = prize + 0.5 * (worth[0] + worth[1])
    if weight < 1.0:
        top = max(f.reach)
        prior = [math.exp(params.reach * (v - top)) for v in f.reach]
        norm = (1.0 - weight) / sum(prior)
        out = [(p, x * norm, generic) for p, x in enumerate(prior)]
    else:
        out = []
    if weight <= 0:
        return out
    totals = f.totals
    found = False
    for side in (0, 1):
        best = f.best[side]
        top = max(best)
        if top < 0:
            continue
        found = True
        side_chance = weight / (1.0 + math.exp(-params.sharp * (totals[side] - totals[1 - side])))
        gain = prize + worth[1 - side]
        split = params.split
        shares = [math.exp(split * (v - top)) if v >= 0 else 0.0 for v in best]
        norm = side_chance / sum(shares)
        out.extend((p, x * norm, gain) for p, x in enumerate(shares) if x > 0)
    if not found:
        out.extend((p, weight / n, generic) for p in range(n))
    return out


def combine(f: Features, params: Params = PARAMS) -> list[float]:
    """Win shares: a softmax over the seats of the predicted scores over their spread, averaged over who
    takes the current trick (and, with the rest of the chance, nobody)."""
    n = len(f.bank)
    remaining = f.remaining
    if f.series_lead >= 0:
        rate = params.rate
        remaining += max(0.0, f.series_target - f.series_lead - rate * remaining) / rate
    tie = params.tie
    base = [b + tie * o for b, o in zip(f.bank, f.ops, strict=True)]
    if f.decided:
        base = [x + v for x, v in zip(base, f.decided, strict=True)]
    k = params.scale / math.sqrt(remaining + params.floor)
    high = max(base)
    weights = [math.exp(k * (x - high)) for x in base]
    total = sum(weights)
    outcomes = trick_outcomes(f, params)
    if not outcomes:
        return [w / total for w in weights]
    # Averaged over outcomes q (seat q gains g): seat p's share is w_p / z_q, and q's own is w'_q / z_q.
    common = 0.0
    out = [0.0] * n
    for q, pq, gain in outcomes:
        rise = k * (base[q] + gain - high)
        wq = weights[q]
        if rise <= 0.0:
            lifted = math.exp(rise)
            c = pq / (total - wq + lifted)
            common += c
            out[q] += c * (lifted - wq)
        else:
            r = math.exp(-rise)
            c = pq * r / ((total - wq) * r + 1.0)
            common += c
            out[q] += pq / ((total - wq) * r + 1.0) - c * wq
    common += max(0.0, 1.0 - sum(pq for _, pq, _ in outcomes)) / total
    return [min(1.0, o + common * w) for o, w in zip(out, weights, strict=True)]


def evaluate(state: MedSiroccoState) -> list[float]:
    """Each seat's predicted share of the win (1.2), on the scale of `returns()`; exact at the end."""
    if state.phase == Phase.END:
        return state.returns()
    return combine(features(state))
