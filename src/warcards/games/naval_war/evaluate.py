"""Naval War position evaluation for search: an estimate of the returns the game will end with.

`evaluate(state)` gives each seat its predicted share of the win (the returns' scale: the winner, or each
member of the winning fleet, gets 1.0; leaders tied at the round bound share). It reads the full state, so it
is meant for determinized states, and it never changes the state.

The model follows the Goal and the scoring (Scoring a round; Round end): the game ends at the end of the
first round in which one side has reached the target alone at the top, and the top side then wins.

- Each seat's expected total at the end of the round is its score, plus the Hit Numbers in its Deep Six,
  minus 10 once eliminated, plus `GAIN` points per turn left to each surviving seat (the draw pile left
  divided by the players), plus the round-long edges of the seat, scaled by the share of the round left:
  `SHIPS` per ship afloat, `TOUGHNESS` per hit its ships can still take, `FIREPOWER` per salvo hit in hand
  that its guns can fire, and `LEADER` (negative) for the side leading the game (everyone attacks the leader,
  Designer tips), each taken relative to the table's average. A Destroyer Squadron in the centre adds
  `SQUADRON` (it sinks 1-6 ships on its owner's next turn).
- A side's expected total is its members' sum (Fleet play). The win shares are a softmax of the totals
  over a spread that combines the points still to be played in the round (`ROUND_SPREAD`² per turn left,
  per member) and in the rounds to come (`RACE_SPREAD`² per point the leading side still lacks to reach the
  target): sharp at the end of the last round, nearly even early in the game.

The constants were fitted by `scripts/fit_evaluate/naval_war.py` (seeded; it prints them): least mean
squared error against the final returns of 2,400 games played as `warcards.bots.calibration` plays them
(heuristic bots, 10% random moves), 600 games each with 3, 4, 6 and 9 players at the default options, seeds
1000-3000 (the calibration's own seed 0 was kept out of the fit). FIREPOWER is held equal to TOUGHNESS: the
games cannot tell a salvo hit in hand from the hit it takes off a ship (the tie costs 0.02% of the fit's
error), and fitted apart (FIREPOWER 1.19, TOUGHNESS 0.43) they rated a salvo fired at a ship it does not
sink as a loss to the firer against the ship's owner, which the search exploited by holding salvos back.
With 2 players the evaluation takes its own constants (`TWO_PLAYER_CONSTANTS`), fitted the same way on
600 2-player games (`--players 2`): the many-player ones predict them worse (skill 0.230 against 0.244 on
200 held-out games, seed 4000) and rate the seat behind on score the favourite.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from warcards.engine.api import TERMINAL
from warcards.games.naval_war.codes import DEEP, Phase

if TYPE_CHECKING:
    from warcards.engine.api import State
    from warcards.games.naval_war.state import NavalWarState

GAIN = 0.085
SHIPS = 2.154
TOUGHNESS = 0.5
FIREPOWER = 0.5
LEADER = -10.264
SQUADRON = 19.579
ROUND_SPREAD = 3.881
RACE_SPREAD = 7.565
CONSTANTS: tuple[float, ...] = (GAIN, SHIPS, TOUGHNESS, FIREPOWER, LEADER, SQUADRON, ROUND_SPREAD, RACE_SPREAD)
"""The fitted constants in the order `combine` takes them."""

TWO_PLAYER_CONSTANTS: tuple[float, ...] = (-0.7, -3.326, 1.752, 1.752, 1.349, 35.462, 3.789, 4.491)
"""The constants for 2 players, in `CONSTANTS` order, fitted on 2-player games alone (600 games, seeds
1000-3000: `scripts/fit_evaluate/naval_war.py --players 2`). Two players are another game for the model: no
one else attacks the leader (LEADER turns positive), and a ship close to sinking is a liability, Hit Numbers
for the one opponent's Deep Six (SHIPS negative, each hit a ship can still take worth 1.75). GAIN acts only
on a seat alive beside an eliminated one, and with 2 players an elimination ends the round at once, so
the fit cannot see it: its value means nothing there."""

Features = tuple[list[float], list[bool], list[int], list[int], list[int], list[int], list[int], list[int], float,
                 float, int]
"""Per seat: points so far (score, Deep Six, -10 if eliminated), alive, ships afloat, hits they can still
take, salvo hits in hand its guns can fire, a Destroyer Squadron in the centre (0/1), its side (fleet number,
or the seat itself) and its score before the round; then the turns left per player, the share of the round
left, and the target."""


def features(state: NavalWarState) -> Features:
    """The quantities the evaluation combines (see the module docstring), read from the full state.

    While the round is being dealt, the fleets and hands are still partial: their edges count from the
    opening on, and the turns left are counted after the deal."""
    n = state.num_players
    t = state.table
    hits = t.ship_hits
    scores = state.scores
    points = [float(x) for x in scores]
    for s, pos in enumerate(state.ship_position):
        if pos >= DEEP:
            points[pos - DEEP] += hits[s]
    alive = state.alive
    ships = [0] * n
    tough = [0] * n
    fire = [0] * n
    phase = state.phase
    deal = state.params.deal
    deck = state.deck_size
    if phase == Phase.DEAL_SHIP:
        deck -= n * deal
    elif phase == Phase.DEAL_CARD:
        deck -= state.deal_left
    dealing = phase in (Phase.DEAL_SHIP, Phase.DEAL_CARD)
    dmg = state.damage
    gunbit = t.ship_gunbit
    kind_gunbit = t.kind_gunbit
    kind_value = t.kind_value
    card_kind = t.card_kind
    for i in range(n):
        if not alive[i]:
            points[i] -= state.params.elimination_penalty
            continue
        if dealing:
            continue
        fleet = state.fleets[i]
        mines = state.mine_hits[i]
        guns = 0
        hold = 0
        for s in fleet:
            guns |= gunbit[s]
            rest = hits[s] - dmg[s] - mines
            if rest > 0:
                hold += rest
        ships[i] = len(fleet)
        tough[i] = hold
        power = 0
        for c in state.hands[i]:
            k = card_kind[c]
            if kind_gunbit[k] & guns:
                power += kind_value[k]
        fire[i] = power
    squadron = [1 if c >= 0 else 0 for c in state.dd_card]
    team = state.team
    sides = [team[i] if team[i] >= 0 else i for i in range(n)]
    full = t.num_cards - len(state.game.boxed_cards) - n * deal
    left = max(deck, 0)
    share = min(1.0, left / full) if full > 0 else 0.0
    return points, list(alive), ships, tough, fire, squadron, sides, list(scores), left / n, share, state.params.target


def combine(f: Features, constants: tuple[float, ...] = CONSTANTS) -> list[float]:
    """Win shares per seat from the features (the model of the module docstring)."""
    gain, k_ships, k_tough, k_fire, k_lead, k_dd, round_spread, race_spread = constants
    points, alive, ships, tough, fire, squadron, sides, scores, turns_left, share, target = f
    n = len(points)
    side_score: dict[int, float] = {}
    for i in range(n):
        side_score[sides[i]] = side_score.get(sides[i], 0.0) + scores[i]
    top = max(side_score.values())
    edge = [
        k_ships * ships[i] + k_tough * tough[i] + k_fire * fire[i] + (k_lead if side_score[sides[i]] == top else 0.0)
        for i in range(n)
    ]
    mean_edge = sum(edge) / n
    total: dict[int, float] = {}
    for i in range(n):
        value = points[i] + k_dd * squadron[i] + share * (edge[i] - mean_edge)
        if alive[i]:
            value += gain * turns_left
        side = sides[i]
        total[side] = total.get(side, 0.0) + value
    best = max(total.values())
    gap = target - best if best < target else 0.0
    count = len(total)
    spread = math.sqrt(round_spread * round_spread * turns_left * (n / count)
                       + race_spread * race_spread * gap + 1e-2)
    scale = 1.0 / spread
    weights = {side: math.exp((value - best) * scale) for side, value in total.items()}
    norm = sum(weights.values())
    return [weights[sides[i]] / norm for i in range(n)]


def evaluate(state: State) -> list[float]:
    """Each seat's expected return: `state.returns()` at the end, else its predicted share of the win."""
    naval = cast("NavalWarState", state)  # the evaluation of a Naval War search: its states are Naval War's
    if naval.to_act == TERMINAL:
        return naval.returns()
    return combine(features(naval), TWO_PLAYER_CONSTANTS if naval.num_players == 2 else CONSTANTS)
