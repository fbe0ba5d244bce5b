"""Race to Messina position evaluation for the search: an estimate of the returns the game will end with.

`evaluate(state)` is the expected `returns()` (RULES.md R41: the winner +1, every other seat -1, a drawn
Race 0) under a small model of the race along the Progress Token track, read on a full (determinized)
state:

- After this turn the game is a Markov chain on the PT vector. Each later turn every battle
  (`Variant.battles`) is won by its attacker or not, with the pattern of won battles drawn from its base
  rates, and the turn's PT gains (hands won, Progress, Hube) drawn given that pattern; the Axis then takes its
  end-of-turn PT (R5, R39), and the end conditions are checked as `rules.check_victory` does (R3, R4,
  R7; the Race table limit R37 on its last turn). The chain's values are found by dynamic programming,
  memoised per variant and card table on first use.
- This turn's battles are predicted from the force each side will bring: a battle's edge is the
  attacker's Ally force minus the defender's Axis force (modifiers included, R9-R14), plus `DT_WEIGHT`
  times the force the attacker's unused discard abilities can remove from the defender less what the
  defender's can remove from the attacker (R16-R18, R35), plus `SUPPLY_WEIGHT` times the force the
  attacker's unused Supply cards may reveal on its Ally side less what the defender's may reveal on
  its Axis side (the mean force a draw adds to that side, R29); the attacker wins with chance
  `sigmoid(slope * edge + bias)`, fitted per phase, so the prediction sharpens towards Resolution.
  Before the Action phase a side brings its usable hand (R20; the Sicily Axis splits its hand between
  its two Sets, R22) and the mean force of the cards still to draw, in Deployment the hidden choice of a
  seat that is done (R31); in the Action phase the public table.
- The PT at stake this turn: a won hand, the winner's Progress cards (R8, R25, R30, R38) and Hube (R8).
  In the Action phase they are read from the table, counting a card not yet activated while its slot has
  not passed; before it, from the cards the side will field as for the force (fielded, still
  deployable — shared between the Sicily Axis's Sets — and the share of its deck among the cards still
  to draw), a fractional count taken as the two whole counts around it. So a Progress card or Hube
  kept in hand is worth its PT, not just its force.

On a finished game it returns `returns()` itself. The constants (`DT_WEIGHT`, `SUPPLY_WEIGHT`, `FITS`) are printed by
`scripts/fit_evaluate/race_to_messina.py`, which plays 600 seeded games per variant of the heuristic
bot with 10% random moves (as `warcards.bots.calibration` does, from other seeds), fits the logistic
regressions of each battle's outcome and counts the turn patterns and gains.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from warcards.engine.api import State
from warcards.games.race_to_messina.cards import (
    ALLY,
    AXIS,
    DISCARD,
    GAIN_PT,
    PROGRESS,
    SUPPLY,
    CardTable,
    force_total,
)
from warcards.games.race_to_messina.codes import DRAW, NO_WINNER, Phase
from warcards.games.race_to_messina.params import Variant

if TYPE_CHECKING:
    from warcards.games.race_to_messina.state import RaceToMessinaState

PT = tuple[int, ...]
Values = tuple[float, ...]

@dataclass(frozen=True)
class Fit:
    """A variant's fitted constants.

    `slope[phase]` and `bias[phase][battle]` give a battle's chance of going to its attacker in Logistics,
    Strategy, Deployment and Action; `pattern[w]` is the base rate of the pattern `w` of battles won (bit
    b set: battle b won by its attacker); `gains[w]` lists (probability, PT gained per seat) of a turn with
    that pattern, the Axis end-of-turn PT left out.
    """

    slope: tuple[float, float, float, float]
    bias: tuple[tuple[float, ...], ...]
    pattern: tuple[float, ...]
    gains: tuple[tuple[tuple[float, PT], ...], ...]


DT_WEIGHT = 0.88
"""The weight of the discard swing in a battle's edge (a DT card need not get its best target)."""
SUPPLY_WEIGHT = 1.02
"""The weight of the Supply term in a battle's edge (a drawn card need not be revealed)."""

FITS: dict[str, Fit] = {
    "invasion": Fit(
        slope=(0.0271, 0.0647, 0.1398, 0.3214),
        bias=((0.147,), (0.11,), (-0.558,), (0.087,)),
        pattern=(0.4453, 0.5547),
        gains=(
            ((0.4528, (0, 0)), (0.4387, (0, 1)), (0.0997, (0, 2)), (0.0087, (0, 3))),
            (
                (0.3859, (1, 0)),
                (0.2864, (2, 0)),
                (0.1358, (1, 1)),
                (0.1153, (2, 1)),
                (0.056, (3, 0)),
                (0.0205, (3, 1)),
            ),
        ),
    ),  # 6690 turns, 230398 battle samples
    "race": Fit(
        slope=(0.0604, 0.0978, 0.2072, 0.4351),
        bias=((-0.236, -0.151), (-0.328, -0.02), (0.146, -0.626), (-0.21, -0.337)),
        pattern=(0.385, 0.2091, 0.1852, 0.2207),
        gains=(
            ((0.676, (0, 0)), (0.1742, (1, 0)), (0.1498, (0, 1))),
            (
                (0.404, (0, 1)),
                (0.3606, (0, 2)),
                (0.0892, (0, 3)),
                (0.0735, (1, 1)),
                (0.0412, (1, 2)),
                (0.0202, (0, 4)),
                (0.0112, (1, 3)),
            ),
            (
                (0.4271, (1, 0)),
                (0.3203, (2, 0)),
                (0.1, (3, 0)),
                (0.0695, (1, 1)),
                (0.0508, (2, 1)),
                (0.0212, (4, 0)),
                (0.011, (3, 1)),
            ),
            (
                (0.197, (1, 1)),
                (0.1898, (2, 1)),
                (0.1705, (1, 2)),
                (0.1619, (2, 2)),
                (0.0709, (3, 1)),
                (0.0609, (1, 3)),
                (0.0523, (2, 3)),
                (0.0487, (3, 2)),
                (0.0172, (4, 1)),
                (0.015, (1, 4)),
                (0.0086, (3, 3)),
                (0.0072, (2, 4)),
            ),
        ),
    ),  # 6381 turns, 469586 battle samples
    "sicily": Fit(
        slope=(0.0384, 0.0665, 0.1904, 0.4331),
        bias=((-0.482, -0.136), (-0.495, -0.028), (-0.695, -0.772), (-0.166, -0.198)),
        pattern=(0.4099, 0.1864, 0.2477, 0.156),
        gains=(
            ((0.4538, (0, 0, 1)), (0.3446, (0, 0, 0)), (0.1802, (0, 0, 2)), (0.0214, (0, 0, 3))),
            (
                (0.3264, (0, 1, 0)),
                (0.2827, (0, 1, 1)),
                (0.1509, (0, 2, 0)),
                (0.1338, (0, 2, 1)),
                (0.0541, (0, 1, 2)),
                (0.0266, (0, 2, 2)),
                (0.0161, (0, 3, 0)),
                (0.0095, (0, 3, 1)),
            ),
            (
                (0.3238, (1, 0, 0)),
                (0.2809, (1, 0, 1)),
                (0.158, (2, 0, 0)),
                (0.1208, (2, 0, 1)),
                (0.0536, (1, 0, 2)),
                (0.0365, (2, 0, 2)),
                (0.0143, (3, 0, 0)),
                (0.0122, (3, 0, 1)),
            ),
            (
                (0.2742, (1, 1, 0)),
                (0.1708, (2, 1, 0)),
                (0.1573, (1, 2, 0)),
                (0.1045, (1, 1, 1)),
                (0.082, (1, 2, 1)),
                (0.0753, (2, 1, 1)),
                (0.0517, (2, 2, 0)),
                (0.0191, (1, 3, 0)),
                (0.018, (3, 1, 0)),
                (0.0169, (2, 2, 1)),
                (0.0157, (1, 3, 1)),
                (0.0146, (3, 1, 1)),
            ),
        ),
    ),  # 5704 turns, 505392 battle samples
}


def winner(v: Variant, pt: PT) -> int:
    """The winner once the PT reach `pt`, as `rules.check_victory` decides (R3, R4, R7): a seat, `DRAW`,
    or `NO_WINNER` while the game goes on."""
    goal = v.pt_goal
    if v.name == "invasion":
        allies, axis = pt
        if allies < goal[0] and axis < goal[1]:
            return NO_WINNER
        # "If the Axis player has 15 or less PT at the end of the game, the Ally player wins."
        return 0 if allies >= goal[0] and axis < v.axis_holds_at else 1
    reached = [seat for seat in range(len(pt)) if pt[seat] >= goal[seat]]
    if not reached:
        return NO_WINNER
    if len(reached) == 1:
        return reached[0]
    if v.name == "race":
        return 0 if pt[0] > pt[1] else 1 if pt[1] > pt[0] else DRAW
    return v.axis_seat


def final_values(players: int, won: int) -> Values:
    """The returns of a finished game (R41)."""
    if won == DRAW:
        return (0.0,) * players
    return tuple(1.0 if seat == won else -1.0 for seat in range(players))


class Model:
    """One variant's model: its fitted constants, per-group lookups, and the memoised values of the PT
    track — `start(pt)` at the start of a turn, `after(pt, last)` right after a Resolution that left
    the PT at `pt` — and, from the game's card table, the mean force a draw adds and the share of each
    seat's deck that is a Progress card or Hube it may field."""

    def __init__(self, v: Variant, table: CardTable) -> None:
        self.variant = v
        self.fit = FITS[v.name]
        self.players = v.num_players
        self.race = v.axis_seat < 0
        self.slot_of = tuple(v.slots.index(group) for group in range(len(v.group_owner)))
        self.share = tuple(1.0 / len(v.seat_groups[owner]) for owner in v.group_owner)
        self.draw_mean = draw_means(v, table)
        self.progress_draw = ability_shares(v, table, PROGRESS)
        self.hube_draw = ability_shares(v, table, GAIN_PT)
        rates = sum(self.fit.pattern)
        self.gains = tuple(
            tuple((p / sum(q for q, _ in row), gains) for p, gains in row) for row in self.fit.gains
        )
        """`fit.gains`, each row renormalised (the printed probabilities are rounded)."""
        kernel: dict[PT, float] = {}
        for w, rate in enumerate(self.fit.pattern):
            for p, gains in self.gains[w]:
                kernel[gains] = kernel.get(gains, 0.0) + rate / rates * p
        self.stall = kernel.pop((0,) * self.players, 0.0) if self.race else 0.0
        """Race: the chance of a turn without PT, which leaves the track where it was."""
        self.kernel = tuple(kernel.items())
        self._start: dict[PT, Values] = {}
        self._after: dict[tuple[PT, bool], Values] = {}

    def after(self, pt: PT, last: bool) -> Values:
        """Values after a Resolution reached `pt`: its victory check, the Axis end-of-turn PT and its check
        (R3, R5), the Race table limit on the `last` turn (R37), else the next turn."""
        key = (pt, last)
        cached = self._after.get(key)
        if cached is not None:
            return cached
        v = self.variant
        won = winner(v, pt)
        if won == NO_WINNER and not self.race:
            pt = tuple(n + 1 if seat == v.axis_seat else n for seat, n in enumerate(pt))
            won = winner(v, pt)
        if won == NO_WINNER and last:
            won = 0 if pt[0] > pt[1] else 1 if pt[1] > pt[0] else DRAW
        values = final_values(self.players, won) if won != NO_WINNER else self.start(pt)
        self._after[key] = values
        return values

    def start(self, pt: PT) -> Values:
        """Values at the start of a turn with the PT at `pt` (no end condition met)."""
        cached = self._start.get(pt)
        if cached is not None:
            return cached
        total = [0.0] * self.players
        for gains, p in self.kernel:
            values = self.after(tuple(a + b for a, b in zip(pt, gains, strict=True)), False)
            for seat in range(self.players):
                total[seat] += p * values[seat]
        scale = 1.0 / (1.0 - self.stall)
        result = tuple(x * scale for x in total)
        self._start[pt] = result
        return result

    def expected_after(self, pt: PT, gains: tuple[float, ...], last: bool) -> Values:
        """`after` for fractional PT gains: each seat's gain taken as the two whole gains around it,
        weighted so that their mean is the gain."""
        worlds: list[tuple[float, list[int]]] = [(1.0, list(pt))]
        for seat, gain in enumerate(gains):
            whole = int(gain)
            part = gain - whole
            if part < 1e-9:
                for _, track in worlds:
                    track[seat] += whole
                continue
            split: list[tuple[float, list[int]]] = []
            for weight, track in worlds:
                low = track[:]
                low[seat] += whole
                high = track[:]
                high[seat] += whole + 1
                split.append((weight * (1.0 - part), low))
                split.append((weight * part, high))
            worlds = split
        total = [0.0] * self.players
        for weight, track in worlds:
            values = self.after(tuple(track), last)
            for seat in range(self.players):
                total[seat] += weight * values[seat]
        return tuple(total)


@lru_cache(maxsize=64)
def model(variant: Variant, table: CardTable) -> Model:
    """The model of a variant, its parameters applied, and a card table (built on first use; its track
    values fill in as positions are evaluated)."""
    return Model(variant, table)


def deployable_deck(v: Variant, t: CardTable, seat: int) -> tuple[list[int], list[int]]:
    """The cards of the deck `seat` draws from (the single Race deck, else its side's deck), and among them
    those it may deploy (R20)."""
    race = v.name == "race"
    family = v.seat_family[seat]
    deck = [c for c in range(t.size) if (0 if race or t.faction[c] == ALLY else 1) == family]
    allowed = v.allowed_restrictions[seat]
    return deck, [c for c in deck if allowed >> t.restriction[c] & 1]


def draw_means(v: Variant, t: CardTable) -> tuple[tuple[float, float], ...]:
    """Per seat, indexed by faction (Axis, Ally): the mean force a card drawn from its deck adds to that
    side of its hand, counting only cards it may deploy (R20)."""
    result = []
    for seat in range(v.num_players):
        deck, usable = deployable_deck(v, t, seat)
        axis, ally = (sum(t.force[c] for c in usable if t.faction[c] == faction) / len(deck) for faction in (AXIS, ALLY))
        result.append((axis, ally))
    return tuple(result)


def ability_shares(v: Variant, t: CardTable, ability: int) -> tuple[float, ...]:
    """Per seat: the share of the cards drawn from its deck that have `ability` and that it may deploy (R20)."""
    result = []
    for seat in range(v.num_players):
        deck, usable = deployable_deck(v, t, seat)
        result.append(sum(1 for c in usable if t.ability[c] == ability) / len(deck))
    return tuple(result)


def side_cards(
    state: RaceToMessinaState, m: Model, group: int, faction: int
) -> tuple[list[int], list[int], float]:
    """What `group` will field on its `faction` side this turn, as far as the phase tells: the cards it
    surely fields, the hand cards it may still deploy (the Sicily Axis shares them between its Sets,
    `m.share`), and the mean force of the cards its owner has still to draw."""
    v = state.variant
    t = state.table
    side = t.faction
    if state.phase == Phase.ACTION:
        return [c for c in state.on_table[group] if side[c] == faction], [], 0.0
    owner = v.group_owner[group]
    allowed = v.allowed_restrictions[owner]
    restriction = t.restriction
    hand = state.hands[owner]
    usable = [c for c in hand if side[c] == faction and allowed >> restriction[c] & 1]
    if state.phase == Phase.DEPLOYMENT:
        pending = [c for c in state.deploying[group] if side[c] == faction]
        if v.order.index(owner) < state.order_index:
            return pending, [], 0.0
        return pending, usable, 0.0
    missing = v.hand_size[owner] - len(hand)
    return [], usable, m.share[group] * missing * m.draw_mean[owner][faction] if missing > 0 else 0.0


def discard_power(state: RaceToMessinaState, cards: list[int], weight: float, targets: list[int]) -> float:
    """The force the discard abilities among `cards` can remove from `targets`: each DT card's strongest
    legal target (R16-R18, R35), times `weight`; in the Action phase only cards not yet activated."""
    t = state.table
    ability = t.ability
    traits = t.traits
    immune = t.immune
    force = t.force
    faction_of = t.faction
    skip = state.activated if state.phase == Phase.ACTION else 0
    power = 0
    for c in cards:
        if ability[c] != DISCARD or skip >> c & 1:
            continue
        mask = t.targets[c]
        faction = faction_of[c]
        best = 0
        for x in targets:
            if traits[x] & mask and faction_of[x] != faction and not immune[x] & mask and force[x] > best:
                best = force[x]
        power += best
    return weight * power


def supply_left(state: RaceToMessinaState, m: Model, group: int) -> float:
    """How many Supply draws `group` has still to make this turn (R29): its fielded Supply cards not yet
    activated while its slot has not passed, and before the Action phase its share of the usable Supply
    cards in its owner's hand while they may still be deployed."""
    t = state.table
    ability = t.ability
    if state.phase == Phase.ACTION:
        if state.passed_slots >> m.slot_of[group] & 1:
            return 0.0
        activated = state.activated
        return float(sum(1 for c in state.on_table[group] if ability[c] == SUPPLY and not activated >> c & 1))
    v = state.variant
    owner = v.group_owner[group]
    allowed = v.allowed_restrictions[owner]
    restriction = t.restriction
    in_hand = sum(1 for c in state.hands[owner] if ability[c] == SUPPLY and allowed >> restriction[c] & 1)
    if state.phase == Phase.DEPLOYMENT:
        fielded = sum(1 for c in state.deploying[group] if ability[c] == SUPPLY)
        if v.order.index(owner) < state.order_index:
            return float(fielded)
        return fielded + m.share[group] * in_hand
    return m.share[group] * in_hand


def battle_terms(state: RaceToMessinaState) -> list[tuple[float, float, float]]:
    """Per battle: the attacker's Ally force minus the defender's Axis force (the Resolution comparison);
    the force the attacker's unused discard abilities can remove minus what the defender's can (a
    slot that has passed removes nothing more, R1); and the mean force the attacker's Supply draws add
    to its Ally side minus what the defender's add to its Axis side (`supply_left`)."""
    m = model(state.variant, state.table)
    t = state.table
    v = state.variant
    draw_mean = m.draw_mean
    passed = state.passed_slots if state.phase == Phase.ACTION else 0
    terms = []
    for attacker, defender in v.battles:
        a_sure, a_maybe, a_extra = side_cards(state, m, attacker, ALLY)
        d_sure, d_maybe, d_extra = side_cards(state, m, defender, AXIS)
        a_all = a_sure + a_maybe
        d_all = d_sure + d_maybe
        a_share = m.share[attacker]
        d_share = m.share[defender]
        a_force = (
            force_total(t, a_all)
            if a_share == 1.0
            else force_total(t, a_sure) + a_share * force_total(t, a_maybe)
        )
        d_force = (
            force_total(t, d_all)
            if d_share == 1.0
            else force_total(t, d_sure) + d_share * force_total(t, d_maybe)
        )
        swing = 0.0
        if not passed >> m.slot_of[attacker] & 1:
            swing += discard_power(state, a_sure, 1.0, d_all) + discard_power(state, a_maybe, a_share, d_all)
        if not passed >> m.slot_of[defender] & 1:
            swing -= discard_power(state, d_sure, 1.0, a_all) + discard_power(state, d_maybe, d_share, a_all)
        supply = supply_left(state, m, attacker) * draw_mean[v.group_owner[attacker]][ALLY] - supply_left(
            state, m, defender
        ) * draw_mean[v.group_owner[defender]][AXIS]
        terms.append((a_force + a_extra - d_force - d_extra, swing, supply))
    return terms


def battle_edges(state: RaceToMessinaState) -> list[float]:
    """Per battle: the force edge plus `DT_WEIGHT` times the discard swing and `SUPPLY_WEIGHT` times the
    Supply term (`battle_terms`)."""
    return [edge + DT_WEIGHT * swing + SUPPLY_WEIGHT * supply for edge, swing, supply in battle_terms(state)]


def stakes(v: Variant, progress: list[float], hube: list[float]) -> list[tuple[float, ...]]:
    """Per pattern of battles won: the PT the turn gives each seat — a won hand with the winner's Progress
    cards (`progress`, per group; R8, R30, R38; a Sicily or Invasion Axis Set's pay when it holds, R25),
    plus each seat's Hube (`hube`)."""
    result = []
    for w in range(1 << len(v.battles)):
        gains = hube[:]
        for b, (attacker, defender) in enumerate(v.battles):
            if w >> b & 1:
                gains[v.group_owner[attacker]] += 1 + progress[attacker]
            elif v.defender_scores:
                gains[v.group_owner[defender]] += progress[defender]
        result.append(tuple(gains))
    return result


def hand_stakes(state: RaceToMessinaState, m: Model) -> list[tuple[float, ...]]:
    """Before the Action phase: `stakes` from the Progress cards and Hube each group will field, as far as
    the phase tells (as `side_cards` does for force): fielded, still deployable (the Sicily Axis shares
    its hand between its Sets), and the share of its deck among the cards its owner has still to draw."""
    v = state.variant
    ability = state.table.ability
    restriction = state.table.restriction
    deployment = state.phase == Phase.DEPLOYMENT
    progress = [0.0] * len(v.group_owner)
    hube = [0.0] * m.players
    for group, owner in enumerate(v.group_owner):
        allowed = v.allowed_restrictions[owner]
        hand = state.hands[owner]
        in_hand = [ability[c] for c in hand if allowed >> restriction[c] & 1]
        share = m.share[group]
        if deployment:
            fielded = [ability[c] for c in state.deploying[group]]
            maybe = 0.0 if v.order.index(owner) < state.order_index else share
            progress[group] = fielded.count(PROGRESS) + maybe * in_hand.count(PROGRESS)
            hube[owner] += fielded.count(GAIN_PT) + maybe * in_hand.count(GAIN_PT)
        else:
            missing = max(0, v.hand_size[owner] - len(hand))
            progress[group] = share * (in_hand.count(PROGRESS) + missing * m.progress_draw[owner])
            hube[owner] += share * (in_hand.count(GAIN_PT) + missing * m.hube_draw[owner])
    return stakes(v, progress, hube)


def table_stakes(state: RaceToMessinaState, m: Model) -> list[PT]:
    """Action phase: per pattern of battles won, the PT this turn will still give — a won hand with the
    winner's Progress (R8, R25, R30, R38), Hube (R8) — counting a card not yet activated only while its
    slot has not passed."""
    v = state.variant
    ability = state.table.ability
    activated = state.activated
    passed = state.passed_slots
    progress: list[float] = []
    hube = [0.0] * m.players
    for group, cards in enumerate(state.on_table):
        open_slot = not passed >> m.slot_of[group] & 1
        count = 0
        for c in cards:
            kind = ability[c]
            if kind == PROGRESS and (open_slot or activated >> c & 1):
                count += 1
            elif kind == GAIN_PT and open_slot and not activated >> c & 1:
                hube[v.group_owner[group]] += 1
        progress.append(count)
    return [tuple(int(g) for g in gains) for gains in stakes(v, progress, hube)]


def evaluate(state: State) -> list[float]:
    """The expected returns of `state` (a Race to Messina state) under the PT-track model (module
    docstring), kept within [-1, 1] against float rounding; exact at the end."""
    return expected_returns(cast("RaceToMessinaState", state))


def expected_returns(state: RaceToMessinaState) -> list[float]:
    """`evaluate` on a Race to Messina state."""
    phase = state.phase
    if phase == Phase.OVER:
        return state.returns()
    m = model(state.variant, state.table)
    pt = tuple(state.progress_tokens)
    last = m.race and state.turn >= state.variant.turn_limit
    if phase == Phase.RECOVERY:
        return [min(1.0, max(-1.0, x)) for x in m.after(pt, last)]
    slope = m.fit.slope[phase]
    bias = m.fit.bias[phase]
    chances = [1.0]
    for b, edge in enumerate(battle_edges(state)):
        x = slope * edge + bias[b]
        q = 1.0 / (1.0 + math.exp(-x)) if x > -30.0 else 0.0
        chances = [p * (1.0 - q) for p in chances] + [p * q for p in chances]
    if phase == Phase.ACTION:
        outcomes = [
            m.after(tuple(a + g for a, g in zip(pt, gains, strict=True)), last)
            for gains in table_stakes(state, m)
        ]
    else:
        outcomes = [m.expected_after(pt, gains, last) for gains in hand_stakes(state, m)]
    expected = (
        sum(p * values[seat] for p, values in zip(chances, outcomes, strict=True)) for seat in range(len(pt))
    )
    return [min(1.0, max(-1.0, x)) for x in expected]
