"""Naval War rules, the round: Setup (the deal), Round end, Scoring a round and the Goal."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, TERMINAL
from warcards.games.naval_war.codes import (
    DEEP,
    FLEET,
    NONE,
    Phase,
)
from warcards.games.naval_war.notation import SEATS, chance_layout
from warcards.games.naval_war.params import MAX_ROUNDS
from warcards.games.naval_war.rules.targets import fleet_changed, forget_fleets

if TYPE_CHECKING:
    from warcards.games.naval_war.cards import CardTable
    from warcards.games.naval_war.state import NavalWarState


def draw_pile(table: CardTable, deck_count: Sequence[int]) -> list[int]:
    """The draw pile as its chance outcomes, one entry per card, sorted (`NavalWarState.draw_pile`): the outcome
    that draws each card's kind (`chance_layout.card` + kind), from the copies of each kind left."""
    first = chance_layout(table).card
    return [first + k for k, copies in enumerate(deck_count) for _ in range(copies)]


def draw_kinds(table: CardTable, deck_count: Sequence[int]) -> tuple[list[int], list[int]]:
    """The draw pile's outcomes present (`NavalWarState.draw_kinds`, ascending) and their keys into the pairs
    table (`NavalWarState.draw_keys`: the kind's first card + copies - 1, one key per card of the table, since a
    kind's copies are numbered consecutively), from the copies of each kind left."""
    first = chance_layout(table).card
    present = [k for k, copies in enumerate(deck_count) if copies]
    return [first + k for k in present], [table.kind_cards[k][0] + deck_count[k] - 1 for k in present]


def start_round(state: NavalWarState) -> None:
    """Setup: every card back in its deck (the positions a round starts from are the game's: `NavalWarGame`),
    then deal 5 ships and 5 play cards each (4 and 4 with 9)."""
    t = state.table
    n = state.num_players
    game = state.game
    state.card_position = list(game.round_card_position)
    state.ship_position = list(game.round_ship_position)
    state.harbor = list(game.round_harbor)
    state.deck_count = list(game.round_deck_count)
    state.draw_pile = list(game.round_draw_pile)
    state.draw_kinds = list(game.round_draw_kinds)
    state.draw_keys = list(game.round_draw_keys)
    state.draw_chance = None
    state.deck_size = len(state.draw_pile)
    state.hands = [[] for _ in range(n)]
    state.fleets = [[] for _ in range(n)]
    state.known = [[] for _ in range(n)]
    state.damage = [0] * t.num_ships
    state.mine_hits = [0] * n
    state.mine_last = [NONE] * n
    state.smoke = [NONE] * n
    state.dd_card = [NONE] * n
    state.dd_hits = [0] * n
    state.alive = [True] * n
    state.foes = None
    forget_fleets(state)
    state.under = None
    state.face_down = 0
    state.kamikaze_wait = [0] * t.num_ships
    state.turn_count = 0
    state.in_opening = False
    state.opening_count = 0
    state.mined_in_opening = 0
    state.opening_done = 0
    state.unseen_non_red = 0
    state.pending = NONE
    state.round_over = False
    state.deal_left = n * state.params.deal
    state.phase, state.to_act = Phase.DEAL_SHIP, CHANCE


def deal_seat(state: NavalWarState) -> int:
    """Dealing goes round the table from the dealer's left, one card at a time."""
    dealt = state.num_players * state.params.deal - state.deal_left
    return (state.dealer + 1 + dealt) % state.num_players


def deal_ship(state: NavalWarState, s: int) -> None:
    """Setup: a ship dealt into a player's task force, face up (face down with night actions)."""
    j = deal_seat(state)
    harbor = state.harbor
    del harbor[bisect_left(harbor, s)]  # the harbor is kept in id order: a binary search, not a scan
    state.ship_position[s] = FLEET + j
    state.fleets[j].append(s)
    fleet_changed(state, j)
    if state.params.night:
        state.face_down |= 1 << s
    state.deal_left -= 1
    if state.deal_left == 0:
        state.deal_left = state.num_players * state.params.deal
        state.phase = Phase.DEAL_CARD


def round_points(state: NavalWarState) -> list[int]:
    """Scoring a round: Hit Numbers in the Deep Six, +10 to a sole survivor (each surviving member of the
    last fleet), -10 to every player eliminated in the round."""
    hits = state.table.ship_hits
    pts = [0] * state.num_players
    for s, pos in enumerate(state.ship_position):
        if DEEP <= pos < DEEP + SEATS:
            pts[pos - DEEP] += hits[s]
    team = state.team
    alive = state.alive
    sole = sum(alive) == 1 if team[0] < 0 else len({team[i] for i in range(state.num_players) if alive[i]}) == 1
    params = state.params
    for i in range(state.num_players):
        if not alive[i]:
            pts[i] -= params.elimination_penalty
        elif sole:
            pts[i] += params.sole_survivor_bonus
    return pts


def side_scores(state: NavalWarState) -> list[int]:
    """The score each seat's side stands on: its own, or its fleet's total (Fleet play)."""
    team = state.team
    if team[0] < 0:
        return list(state.scores)
    totals: dict[int, int] = {}
    for i in range(state.num_players):
        totals[team[i]] = totals.get(team[i], 0) + state.scores[i]
    return [totals[team[i]] for i in range(state.num_players)]


def end_round(state: NavalWarState) -> None:
    """Round end and Goal: score; the game ends when one side reaches the target alone at the top (a tie
    plays one more round, R19); otherwise the leader deals the next round (R20)."""
    pts = round_points(state)
    state.ended_ships = state.ship_position[:]
    for i in range(state.num_players):
        state.scores[i] += pts[i]
    state.last_round = pts
    state.round_over = False
    sides = side_scores(state)
    best = max(sides)
    leaders = [i for i in range(state.num_players) if sides[i] == best]
    team = state.team
    distinct = len({team[i] if team[i] >= 0 else i for i in leaders})
    if (best >= state.params.target and distinct == 1) or state.round_index >= MAX_ROUNDS:
        state.final_returns = [1.0 / distinct if i in leaders else 0.0 for i in range(state.num_players)]
        state.phase, state.to_act = Phase.END, TERMINAL
        return
    top = max(state.scores)
    d = state.dealer
    while state.scores[d] != top:
        d = (d + 1) % state.num_players
    state.dealer = d
    state.round_index += 1
    start_round(state)
