"""Naval War rules, Air strikes: instead of the draw, one strike per carrier, every target named before any
roll (Kamikaze as a variation)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE
from warcards.games.naval_war.codes import (
    DEEP,
    FLEET,
    Phase,
    Roll,
)
from warcards.games.naval_war.rules.targets import expose, ship_at, ship_targets
from warcards.games.naval_war.rules.turn import end_turn

if TYPE_CHECKING:
    from warcards.games.naval_war.state import NavalWarState


def strike_actions(state: NavalWarState) -> list[int]:
    """Air strikes: one target per carrier, named in turn; `draw` instead while none is named.

    Sorted without a sort: `draw` and `skip` come first in the action numbering, then the strikes and the
    Kamikaze strikes, each block in `ship_targets`' (sorted) order."""
    p = state.to_act
    layout = state.layout
    if not state.carriers_to_name:
        return [layout.draw]
    carrier = state.carriers_to_name[state.carrier_index]
    cache = state.targets_cache  # `strike_targets`, the cached list read directly when there is one
    targets = cache.get(2 * p) if cache is not None else None
    if targets is None:
        targets = ship_targets(state, p, False)
    out = [layout.draw] if state.phase == Phase.CHOICE else []
    if state.strikes or state.carrier_index < len(state.carriers_to_name) - 1:
        out.append(layout.skip)
    strike = layout.strike
    out += [strike + t for t in targets]  # a comprehension: quicker than a map over a bound `__add__`
    if state.params.kamikaze and state.table.ship_japan[carrier]:
        kamikaze = layout.kamikaze
        out += [kamikaze + t for t in targets]
    return out


def strike_choice(state: NavalWarState, a: int) -> None:
    """Air strikes: instead of draw-and-play, one strike per carrier, every target named before any roll;
    a carrier may hold back (R15)."""
    layout = state.layout
    if a == layout.draw:
        state.phase, state.to_act = Phase.DRAW, CHANCE
        return
    if a != layout.skip:
        carrier = state.carriers_to_name[state.carrier_index]
        kami = a >= layout.kamikaze
        target = ship_at(state, a - (layout.kamikaze if kami else layout.strike))
        if state.face_down:
            expose(state, carrier)
            expose(state, target)
        state.strikes.extend((carrier, target, int(kami)))
    state.carrier_index += 1
    if state.carrier_index < len(state.carriers_to_name):
        state.phase = Phase.STRIKE
        return
    state.strike_index = 0
    next_strike(state)


def next_strike(state: NavalWarState) -> None:
    """Roll the next named strike whose target is still afloat (R15); then the turn ends."""
    strikes = state.strikes
    while 3 * state.strike_index < len(strikes):
        target = strikes[3 * state.strike_index + 1]
        if FLEET <= state.ship_position[target] < DEEP:
            state.roll_kind = Roll.STRIKE
            state.phase, state.to_act = Phase.ROLL, CHANCE
            return
        state.strike_index += 1
    end_turn(state)
