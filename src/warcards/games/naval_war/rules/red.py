"""Naval War rules, Red cards: played at once when drawn (or from the hand in the Opening): Minefield,
Submarine, Torpedo Boat, Additional Damage, Additional Ship."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE
from warcards.games.naval_war.cards import (
    ADDSHIP,
)
from warcards.games.naval_war.codes import (
    DISCARD,
    FLEET,
    MINES,
    NONE,
    ON_SALVO,
    ON_SHIP,
    PLAY,
    Phase,
    Roll,
)
from warcards.games.naval_war.notation import SEATS
from warcards.games.naval_war.rules.sinking import check_sunk
from warcards.games.naval_war.rules.targets import expose, fleet_changed, red_targets, ship_at
from warcards.games.naval_war.rules.turn import card_of, end_turn, opening_continue

if TYPE_CHECKING:
    from warcards.games.naval_war.state import NavalWarState


def red_drawn(state: NavalWarState, c: int) -> None:
    """Turn: a red card drawn must be played at once; one that cannot be played is discarded."""
    p = state.turn_player
    k = state.table.card_kind[c]
    if state.table.kind_cat[k] == ADDSHIP and state.harbor:
        state.phase, state.to_act = Phase.SHIP, CHANCE
        return
    if red_targets(state, p, k):
        state.phase, state.to_act = Phase.RED, p
        return
    after_red(state)


def after_red(state: NavalWarState) -> None:
    """After a red card: it is discarded (unless it stays on the table); the opening or the turn goes on."""
    if state.pending >= 0 and state.card_position[state.pending] == PLAY:
        state.card_position[state.pending] = DISCARD
    state.pending = NONE
    if state.round_over:
        return
    if state.in_opening:
        opening_continue(state)
    elif state.params.draw_past_specials and state.deck_size > 0:
        state.phase, state.to_act = Phase.DRAW, CHANCE
    else:
        end_turn(state)


def red_play(state: NavalWarState, a: int) -> None:
    """Red cards: the target chosen for a red card (drawn in a turn, or chosen from the hand in the opening)."""
    t, layout = state.table, state.layout
    p = state.to_act
    if state.phase == Phase.OPEN:
        if a == layout.addship:
            kinds = t.kinds_addship
        elif a < layout.sub:
            kinds = (t.mine_kinds[(a - layout.mine) // SEATS],)
        elif a < layout.torpedo:
            kinds = t.kinds_sub
        elif a < layout.adddmg:
            kinds = t.kinds_torpedo
        else:
            kinds = (t.adddmg_kinds[(a - layout.adddmg) // t.num_cards],)
        c = card_of(state, p, kinds)
        state.card_position[c] = PLAY
        state.pending = c
    c = state.pending
    if a == layout.addship:
        state.phase, state.to_act = Phase.SHIP, CHANCE
    elif a < layout.sub:
        lay_minefield(state, p, c, (a - layout.mine) % SEATS)
        after_red(state)
    elif a < layout.adddmg:
        state.pending_target = ship_at(state, (a - layout.sub) if a < layout.torpedo else (a - layout.torpedo))
        if state.face_down:
            expose(state, state.pending_target)
        state.roll_kind = Roll.SUB if a < layout.torpedo else Roll.TORPEDO
        state.phase, state.to_act = Phase.ROLL, CHANCE
    else:
        additional_damage(state, p, c, (a - layout.adddmg) % t.num_cards)
        after_red(state)


def lay_minefield(state: NavalWarState, p: int, c: int, j: int) -> None:
    """Red cards, Minefield: 1 or 2 hits (2 with `mines_two`) on every ship of task force `j`, carriers
    included (R3); ships it sinks go to its player."""
    state.card_position[c] = MINES + j
    state.mine_hits[j] += 2 if state.params.mines_two else state.table.kind_value[state.table.card_kind[c]]
    state.mine_last[j] = p
    if state.in_opening:
        state.mined_in_opening |= 1 << j
    if state.face_down:
        for s in state.fleets[j]:
            expose(state, s)
    for s in list(state.fleets[j]):
        if state.alive[j]:
            check_sunk(state, s, p)


def additional_damage(state: NavalWarState, p: int, c: int, x: int) -> None:
    """Red cards, Additional Damage: on a salvo under an enemy ship (R11); a sink is its player's."""
    state.card_position[c] = ON_SALVO + x
    s = state.card_position[x] - ON_SHIP
    state.damage[s] += state.table.kind_value[state.table.card_kind[c]]
    check_sunk(state, s, p)


def additional_ship_arrives(state: NavalWarState, s: int) -> None:
    """Red cards, Additional Ship: the ship joins the fleet at once (R17); a minefield already there
    hits it, and a ship it sinks goes to the last minefield's player (R2)."""
    p = state.turn_player
    state.harbor.remove(s)
    state.ship_position[s] = FLEET + p
    state.fleets[p].append(s)
    fleet_changed(state, p)
    if state.params.night and not state.mine_hits[p]:
        state.face_down |= 1 << s
    if state.mine_hits[p]:
        check_sunk(state, s, state.mine_last[p])
    after_red(state)
