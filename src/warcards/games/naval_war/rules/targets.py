"""Naval War rules, who may be attacked: enemies, targets (screened carriers, Smoke, night slots), exposure at
night, and the targets of red cards, air strikes and the Destroyer Squadron."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.games.naval_war.cards import (
    ADDDMG,
    ADDSHIP,
    MINE,
    SUB,
    TORPEDO,
)
from warcards.games.naval_war.codes import (
    FLEET,
    ON_SALVO,
    ON_SHIP,
)
from warcards.games.naval_war.notation import SEATS, SLOTS

if TYPE_CHECKING:
    from warcards.games.naval_war.state import NavalWarState


def enemies(state: NavalWarState, p: int) -> tuple[int, ...]:
    """Living seats `p` may attack: never yourself (Turn: "never damage or sink your own ship") and never a
    fleet-mate (Fleet play). Cached until someone is eliminated."""
    foes = state.foes
    if foes is None:
        team = state.team
        alive = state.alive
        n = state.num_players
        foes = state.foes = tuple(
            tuple(j for j in range(n) if j != q and alive[j] and (team[q] < 0 or team[j] != team[q]))
            for q in range(n)
        )
    return foes[p]


def ship_targets(state: NavalWarState, p: int, through_smoke: bool) -> list[int]:
    """Targets `p` may attack: enemy ships, not a screened carrier, not under Smoke unless `through_smoke`.

    A target is a ship id, or a face-down ship's seat-and-slot index (night actions, see `seat_targets`).
    Sorted (once here: the legal lists built on it need no sort of their own; whether there is a target at all
    is `has_ship_target`, without the list). Cached until a fleet, a Smoke, a ship's face or a player's survival
    changes; callers do not mutate it."""
    key = 2 * p + through_smoke
    cache = state.targets_cache
    if cache is None:
        cache = state.targets_cache = {}
    else:
        found = cache.get(key)
        if found is not None:
            return found
    smoke = state.smoke
    tgt = state.fleet_targets
    out: list[int] = []
    for j in enemies(state, p):
        if smoke[j] >= 0 and not through_smoke:
            continue
        ships = tgt[j]
        if ships is None:
            ships = seat_targets(state, j)
        out += ships
    out.sort()
    cache[key] = out
    return out


def has_ship_target(state: NavalWarState, p: int) -> bool:
    """Whether `p` may attack a ship (`ship_targets(state, p, False)` is not empty) without listing the targets:
    whether an enemy task force is not under Smoke, since a living seat has a ship and every task force with a
    ship has a target (`seat_targets`: carriers are targets once nothing screens them)."""
    smoke, foes = state.smoke, state.foes
    found = False
    for j in foes[p] if foes is not None else enemies(state, p):  # `enemies`, cached: read directly
        # a loop: `any` over a generator makes two objects per call
        if smoke[j] < 0:
            found = True
            break
    return found


def seat_targets(state: NavalWarState, j: int) -> list[int]:
    """The attackable ships of task force `j` (cached in `tgt[j]`): carriers only once unscreened (Setup).

    Night actions: a face-down ship is a target by its slot (its order among the face-down ships of the task
    force) and is never known to be a carrier; a face-up carrier is screened while any other ship is afloat
    (R40)."""
    carrier = state.table.ship_carrier
    fleet = state.fleets[j]
    down = state.face_down
    if not down:
        ships = [s for s in fleet if not carrier[s]] or fleet[:]
    else:
        others = [s for s in fleet if not carrier[s] or (down >> s) & 1]
        keep = others or fleet
        base = state.table.num_ships + j * SLOTS
        ships = []
        slot = 0
        for s in fleet:
            if (down >> s) & 1:
                ships.append(base + slot)
                slot += 1
            elif s in keep:
                ships.append(s)
    state.fleet_targets[j] = ships
    return ships


def fleet_changed(state: NavalWarState, j: int) -> None:
    """Task force `j` gained or lost a ship: what is kept of it (its targets, gun bits and carriers) is stale,
    and so is every seat's cached targets."""
    state.targets_cache = None
    state.fleet_targets[j] = None
    state.fleet_guns[j] = -1
    state.fleet_carriers[j] = None


def forget_fleets(state: NavalWarState) -> None:
    """Every task force's kept data is stale (a new round, a setup, ships shuffled in a sampled world)."""
    n = state.num_players
    state.targets_cache = None
    state.fleet_targets = [None] * n
    state.fleet_guns = [-1] * n
    state.fleet_carriers = [None] * n


def fleet_guns(state: NavalWarState, j: int) -> int:
    """The gun bits of task force `j` (its ships' `ship_gunbit` OR-ed), kept in `state.fleet_guns[j]` until a
    ship joins or leaves it: a play after the draw asks which salvos the fleet can fire."""
    guns = 0
    gunbit = state.table.ship_gunbit
    for s in state.fleets[j]:
        guns |= gunbit[s]
    state.fleet_guns[j] = guns
    return guns


def fleet_carriers(state: NavalWarState, j: int) -> tuple[int, ...]:
    """The carriers of task force `j`, in fleet order, kept in `state.fleet_carriers[j]` until a ship joins or
    leaves it: every turn asks which may strike."""
    carrier = state.table.ship_carrier
    found = state.fleet_carriers[j] = tuple([s for s in state.fleets[j] if carrier[s]])
    return found


def ship_at(state: NavalWarState, target: int) -> int:
    """The ship a target index names (a face-down ship by its seat and slot, night actions)."""
    ns = len(state.table.ship_ids)  # `num_ships` without a property call: every attack names a target
    if target < ns:
        return target
    j, slot = divmod(target - ns, SLOTS)
    down = state.face_down
    for s in state.fleets[j]:
        if (down >> s) & 1:
            if slot == 0:
                return s
            slot -= 1
    raise AssertionError(f"no face-down ship in slot {target} of task force {j}")


def expose(state: NavalWarState, s: int) -> None:
    """Night actions: a ship is turned face up when it fires or is attacked or hit (R39)."""
    if (state.face_down >> s) & 1:
        state.face_down &= ~(1 << s)
        state.fleet_targets[state.ship_position[s] - FLEET] = None
        state.targets_cache = None


def expose_firer(state: NavalWarState, p: int, k: int) -> None:
    """Night actions: a salvo is fired by a face-up ship of its gun size, else the lowest-numbered face-down
    one is turned face up (R39)."""
    gun = state.table.kind_gun[k]
    ship_gun = state.table.ship_gun
    down = state.face_down
    hidden = [s for s in state.fleets[p] if ship_gun[s] == gun]
    if hidden and all((down >> s) & 1 for s in hidden):
        expose(state, min(hidden))


def salvo_cards_on_enemies(state: NavalWarState, p: int) -> list[int]:
    """Salvos lying under enemy ships (targets of Additional Damage), in card order, read off the salvos under
    each ship (`salvos_under`)."""
    fleets, under = state.fleets, salvos_under(state)
    out: list[int] = []
    for j in enemies(state, p):
        for s in fleets[j]:
            out += under[s]
    out.sort()
    return out


def red_targets(state: NavalWarState, p: int, kind: int) -> list[int]:
    """Legal plays of red card `kind` by `p` (Red cards; Opening limits), sorted: the task forces in seat order,
    the ships in `ship_targets`' (sorted) order, the salvos in card order."""
    t, layout = state.table, state.layout
    cat = t.kind_cat[kind]
    if cat == MINE:
        base = layout.mine + t.mine_index[kind] * SEATS
        return [
            base + j
            for j in enemies(state, p)
            if state.smoke[j] < 0 and not (state.in_opening and (state.mined_in_opening >> j) & 1)
        ]
    if cat == SUB:
        return [layout.sub + s for s in ship_targets(state, p, True)]
    if cat == TORPEDO:
        return [layout.torpedo + s for s in ship_targets(state, p, False)]
    if cat == ADDDMG:
        if state.in_opening:
            return []
        base = layout.adddmg + t.adddmg_index[kind] * t.num_cards
        return [base + c for c in salvo_cards_on_enemies(state, p)]
    if cat == ADDSHIP:
        return [layout.addship] if state.harbor else []
    return []


def strike_targets(state: NavalWarState, p: int) -> list[int]:
    """Air strikes: enemy ships not under Smoke and not screened carriers."""
    return ship_targets(state, p, False)


def strike_carriers(state: NavalWarState, p: int) -> list[int]:
    """Carriers of `p` that may strike now (Variations, Kamikaze: a resting carrier may not)."""
    carriers = state.fleet_carriers[p]
    if carriers is None:
        carriers = fleet_carriers(state, p)
    kwait = state.kamikaze_wait
    return [s for s in carriers if kwait[s] == 0]


def dd_targets(state: NavalWarState, p: int) -> list[int]:
    """Destroyer Squadron: a living enemy task force not under Smoke (R7)."""
    smoke = state.smoke
    out = []
    for j in enemies(state, p):  # a loop: Python 3.11 makes a function object per comprehension
        if smoke[j] < 0:
            out.append(j)
    return out


def dd_sinkable(state: NavalWarState, j: int) -> list[int]:
    """Ships the Destroyer Squadron may pick: screened carriers only when nothing else is left (R8)."""
    ships = state.fleet_targets[j]
    return ships if ships is not None else seat_targets(state, j)


def mates(state: NavalWarState, p: int) -> list[int]:
    """Living fleet-mates of `p` (Fleet play)."""
    tp = state.team[p]
    return [j for j in range(state.num_players) if j != p and state.alive[j] and tp >= 0 and state.team[j] == tp]


def own_salvos(state: NavalWarState, p: int) -> list[int]:
    """Salvos under `p`'s own ships (Repair targets), in card order, read off the salvos under each ship
    (`salvos_under`)."""
    under = salvos_under(state)
    out: list[int] = []
    for s in state.fleets[p]:
        out += under[s]
    out.sort()
    return out


def salvos_under(state: NavalWarState) -> list[tuple[int, ...]]:
    """The salvos under each ship (`NavalWarState.under`, a salvo under ship s being at card position
    `ON_SHIP + s`: only salvos lie under ships), built from the card positions when the state holds none (a
    new round, a position read from a snapshot or a setup); the rules keep it as salvos are fired (`fire`),
    repaired (`repair`) and discarded with their ship (`sink`)."""
    under = state.under
    if under is None:
        under = state.under = [()] * state.table.num_ships
        for c, pos in enumerate(state.card_position):
            if ON_SHIP <= pos < ON_SALVO:
                under[pos - ON_SHIP] += (c,)
    return under
