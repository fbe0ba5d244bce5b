"""Naval War rules, Sinking: a ship sunk by the last hits, its cards discarded; a player with no ships is out
for the round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.games.naval_war.codes import (
    DEEP,
    DISCARD,
    FLEET,
    MINES,
    NONE,
    ON_DD,
    ON_SALVO,
    UNSEEN,
)
from warcards.games.naval_war.rules.targets import fleet_changed, salvos_under

if TYPE_CHECKING:
    from warcards.games.naval_war.state import NavalWarState


def discard_dd(state: NavalWarState, j: int) -> None:
    """Seat `j`'s Destroyer Squadron and the salvos on it go to the discard pile."""
    cpos = state.card_position
    cpos[state.dd_card[j]] = DISCARD
    state.dd_card[j] = NONE
    state.dd_hits[j] = 0
    on = ON_DD + j
    for c in range(len(cpos)):
        if cpos[c] == on:
            cpos[c] = DISCARD


def check_sunk(state: NavalWarState, s: int, by: int) -> None:
    """Sinking: accumulated hits at least the Hit Number sink the ship; `by` delivered the last hits."""
    if state.damage[s] + state.mine_hits[state.ship_position[s] - FLEET] >= state.table.ship_hits[s]:
        sink(state, s, by)


def sink(state: NavalWarState, s: int, by: int) -> None:
    """Sinking: the ship goes to the Deep Six pile of `by`; the cards on it are discarded."""
    owner = state.ship_position[s] - FLEET
    state.fleets[owner].remove(s)
    fleet_changed(state, owner)
    state.face_down &= ~(1 << s)
    state.ship_position[s] = DEEP + by
    state.kamikaze_wait[s] = 0
    if state.damage[s]:
        cpos = state.card_position
        under = salvos_under(state)
        for c in under[s]:
            cpos[c] = DISCARD
            for d in state.table.adddmg_cards:
                if cpos[d] == ON_SALVO + c:
                    cpos[d] = DISCARD
        under[s] = ()
        state.damage[s] = 0
    if not state.fleets[owner]:
        eliminate(state, owner)


def eliminate(state: NavalWarState, j: int) -> None:
    """Sinking: a player with no ships is out for the round; his hand is discarded unseen, and his Smoke,
    Destroyer Squadron and the minefields before him go too (R30)."""
    state.alive[j] = False
    state.foes = None
    state.targets_cache = None
    cpos = state.card_position
    hand = state.hands[j]
    for c in hand:
        cpos[c] = UNSEEN
    if (state.opening_done >> j) & 1:
        state.unseen_non_red += len(hand)
    state.hands[j] = []
    state.known[j] = []
    if state.smoke[j] >= 0:
        cpos[state.smoke[j]] = DISCARD
        state.smoke[j] = NONE
    if state.dd_card[j] >= 0:
        discard_dd(state, j)
    here = MINES + j
    for d in state.table.mine_cards:
        if cpos[d] == here:
            cpos[d] = DISCARD
    state.mine_hits[j] = 0
    state.mine_last[j] = NONE
    team = state.team
    left = sum(state.alive) if team[j] < 0 else len({team[i] for i in range(state.num_players) if state.alive[i]})
    if left <= 1:
        state.round_over = True
