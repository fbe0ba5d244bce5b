"""Naval War rules, the Opening and the Turn: red cards from the hand, draw or air strikes, the normal cards
(Salvo, Smoke, Destroyer Squadron, Repair, Minesweeper) and the fleet exchange."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE
from warcards.games.naval_war.cards import (
    SALVO,
)
from warcards.games.naval_war.codes import (
    DDC,
    DISCARD,
    HAND,
    MINES,
    NONE,
    ON_DD,
    ON_SALVO,
    ON_SHIP,
    PLAY,
    PLAY_REPAIR,
    PLAY_SWEEP,
    Phase,
)
from warcards.games.naval_war.codes import SMOKE as SMOKE_POS
from warcards.games.naval_war.notation import SEATS
from warcards.games.naval_war.params import MAX_TURNS_PER_ROUND
from warcards.games.naval_war.rules.round import end_round
from warcards.games.naval_war.rules.sinking import check_sunk, discard_dd, sink
from warcards.games.naval_war.rules.targets import (
    dd_targets,
    enemies,
    expose,
    expose_firer,
    fleet_carriers,
    fleet_guns,
    has_ship_target,
    mates,
    own_salvos,
    red_targets,
    salvos_under,
    ship_at,
    ship_targets,
)

if TYPE_CHECKING:
    from warcards.games.naval_war.state import NavalWarState


def begin_opening(state: NavalWarState) -> None:
    """Opening: from the dealer (R1), each player in turn plays his red cards, refilling his hand."""
    state.in_opening = True
    state.opening_count = 0
    state.mined_in_opening = 0
    state.turn_player = state.dealer
    opening_continue(state)


def opening_continue(state: NavalWarState) -> None:
    """Opening: refill; discard Additional Damage and red cards with no target; ask for a red card; or pass on.

    "Additional Damage is simply discarded at this point"; "a special that cannot be played is discarded";
    the hand is refilled to its size after each red card while the draw pile lasts (R18).
    """
    t = state.table
    kind_red, card_kind = t.kind_red, t.card_kind
    while not state.round_over:
        p = state.turn_player
        if state.opening_count == state.num_players:
            state.in_opening = False
            state.opening_done = (1 << state.num_players) - 1
            if state.deck_size == 0:
                end_round(state)
            else:
                start_turn(state, state.dealer if state.alive[state.dealer] else next_seat(state, state.dealer))
            return
        if not state.alive[p]:
            _opening_done(state, p)
            continue
        hand = state.hands[p]
        if len(hand) < state.params.hand_size and state.deck_size > 0:
            state.phase, state.to_act = Phase.REFILL, CHANCE
            return
        dropped = False
        for c in list(hand):
            k = card_kind[c]
            if kind_red[k] and not red_targets(state, p, k):
                hand_remove(state, p, c)
                state.card_position[c] = DISCARD
                dropped = True
        if dropped:
            continue
        for c in hand:  # a loop: `any` over a generator makes two objects per call
            if kind_red[card_kind[c]]:
                state.phase, state.to_act = Phase.OPEN, p
                return
        _opening_done(state, p)


def _opening_done(state: NavalWarState, p: int) -> None:
    """Opening: seat `p` holds no red card left to play; the next seat opens."""
    state.opening_done |= 1 << p
    state.opening_count += 1
    state.turn_player = (p + 1) % state.num_players


def next_seat(state: NavalWarState, p: int) -> int:
    """Turns go clockwise (seat + 1), skipping eliminated players."""
    n = state.num_players
    q = (p + 1) % n
    while not state.alive[q]:
        q = (q + 1) % n
    return q


def start_turn(state: NavalWarState, p: int) -> None:
    """Turn: seat `p` starts its turn (the opening's end, a setup): `end_turn` from the turn's start."""
    end_turn(state, p)


def turn_main(state: NavalWarState) -> None:
    """Turn: the draw or the air strikes once a Destroyer Squadron's attack is over: `end_turn` from there."""
    end_turn(state, NONE, True)


def end_turn(state: NavalWarState, start: int = NONE, main: bool = False) -> None:
    """The end of a turn, the start of the next and its draw-or-strike step, in one call (every turn passes
    here); `start_turn` and `turn_main` enter it further on.

    Turn end (unless `start` names the seat to start, or `main`): Kamikaze rests count down; the round ends once
    the last card was drawn (Round end); else the next living seat clockwise (`next_seat`, inline) starts.

    Turn start (unless `main`): Smoke is removed before drawing; a surviving Destroyer Squadron attacks first
    (R9), its owner's turn going on here afterwards (`main`, from `dd_continue`).

    Then draw one card, or instead launch air strikes with carriers (Air strikes). Night actions: the choice is
    always offered (`draw` alone without a carrier able to fly), so the others cannot tell from the phase
    whether the player holds a face-down carrier (R41). The carriers are read off the fleet's kept ones
    (`strike_carriers`, inline), whether they have a target from the cached targets or without listing them
    (`has_ship_target`)."""
    if main:
        p = state.turn_player
    else:
        if start >= 0:
            p = start
        else:
            if state.round_over:
                return
            q = state.turn_player
            if state.params.kamikaze:
                kwait = state.kamikaze_wait
                for s in state.fleets[q]:
                    if kwait[s]:
                        kwait[s] -= 1
            if state.deck_size == 0:
                end_round(state)
                return
            n, alive = state.num_players, state.alive
            p = (q + 1) % n
            while not alive[p]:
                p = (p + 1) % n
        state.turn_player = p
        state.turn_count += 1
        if state.turn_count > MAX_TURNS_PER_ROUND:
            end_round(state)
            return
        c = state.smoke[p]
        if c >= 0:
            state.card_position[c] = DISCARD
            state.smoke[p] = NONE
            state.targets_cache = None
        if state.dd_card[p] >= 0:
            if dd_targets(state, p):
                state.phase, state.to_act = Phase.DD_TARGET, p
                return
            discard_dd(state, p)
    params = state.params
    elig: list[int] = []
    if not params.gunnery:  # `strike_carriers`, inline: most task forces hold no carrier
        carriers = state.fleet_carriers[p]
        if carriers is None:
            carriers = fleet_carriers(state, p)
        if carriers:
            kwait = state.kamikaze_wait
            for s in carriers:
                if kwait[s] == 0:
                    elig.append(s)
        if elig:  # `strike_targets`: the cached list read directly when there is one, else not listed
            cache = state.targets_cache
            targets = cache.get(2 * p) if cache is not None else None
            if not (has_ship_target(state, p) if targets is None else targets):
                elig = []
    if elig or params.night:
        state.carriers_to_name = elig
        state.strikes = []
        state.carrier_index = 0
        state.phase, state.to_act = Phase.CHOICE, p
        return
    state.phase, state.to_act = Phase.DRAW, CHANCE


def play_actions(state: NavalWarState) -> list[int]:
    """Turn: after drawing, play one card or discard one (Normal cards).

    Each card's actions are read off `NavalWarGame.card_plays`; the fleet's guns (kept: `fleet_guns`), whether a
    salvo has a target and the fleet-mates are looked up once, at the first salvo in the hand."""
    p = state.to_act
    card_plays = state.game.card_plays
    out: list[int] = []
    guns = -1
    can_fire: bool | None = None
    swap_to: list[int] = []
    for c in state.hands[p]:
        discard, fire, gunbit, special = card_plays[c]
        if discard in out:  # another copy of a kind already listed
            continue
        out.append(discard)
        if fire >= 0:
            if guns < 0:
                guns = state.fleet_guns[p]
                if guns < 0:
                    guns = fleet_guns(state, p)
                if state.team[p] >= 0:
                    swap_to = mates(state, p)
            if guns & gunbit:
                if can_fire is None:  # a target (`aim_actions`), not listed: a ship, or a Destroyer Squadron
                    can_fire = has_ship_target(state, p)
                    if not can_fire:
                        dd_card = state.dd_card
                        for j in enemies(state, p):
                            if dd_card[j] >= 0:
                                can_fire = True
                                break
                if can_fire:
                    out.append(fire)
            if swap_to:
                base = state.layout.swap + (fire - state.layout.fire) * SEATS
                out.extend([base + m for m in swap_to])
        elif special >= 0:
            out.append(special)
        elif special == PLAY_SWEEP:
            if state.mine_hits[p]:
                out.append(state.layout.sweep)
        elif special == PLAY_REPAIR:
            repair = state.layout.repair
            out += [repair + x for x in own_salvos(state, p)]
    out.sort()
    return out


def aim_actions(state: NavalWarState) -> list[int]:
    """Normal cards, Salvo: the target of the salvo being fired — an enemy ship or Destroyer Squadron. Sorted
    without a sort: the ships in `ship_targets`' (sorted) order, then the squadrons in seat order."""
    p = state.to_act
    layout = state.layout
    cache = state.targets_cache  # the cached list read directly when there is one
    targets = cache.get(2 * p) if cache is not None else None
    if targets is None:
        targets = ship_targets(state, p, False)
    at = layout.at
    out = [at + t for t in targets]  # a comprehension: quicker than a map over a bound `__add__`
    at_dd, dd_card = layout.at_dd, state.dd_card
    for j in enemies(state, p):  # a loop: most seats hold no Destroyer Squadron
        if dd_card[j] >= 0:
            out.append(at_dd + j)
    return out


def give_actions(state: NavalWarState) -> list[int]:
    """Fleet play: the mate returns a salvo (not the one just received), or nothing if he has none."""
    m = state.to_act
    t, layout = state.table, state.layout
    kinds = sorted({t.card_kind[c] for c in state.hands[m] if c != state.swap_card and t.kind_cat[t.card_kind[c]] == SALVO})
    if not kinds:
        return [layout.give_none]
    return [layout.give + t.salvo_index[k] for k in kinds]


def play(state: NavalWarState, a: int) -> None:
    """Normal cards: the card played (or discarded) after the draw."""
    t, layout = state.table, state.layout
    p = state.turn_player
    if a < layout.fire:
        if a == layout.smoke:
            c = card_of(state, p, t.kinds_smoke)
            state.card_position[c] = SMOKE_POS + p
            state.smoke[p] = c
            state.targets_cache = None
        elif a == layout.dd:
            c = card_of(state, p, t.kinds_dd)
            state.card_position[c] = DDC + p
            state.dd_card[p] = c
            state.dd_hits[p] = 0
        elif a == layout.sweep:
            sweep(state, p)
        else:
            c = card_of_kind(state, p, a - layout.discard)
            state.card_position[c] = DISCARD
    elif a < layout.at:
        # The salvo leaves the hand face up while its target is named.
        c = card_of_kind(state, p, t.salvo_kinds[a - layout.fire])
        state.card_position[c] = PLAY
        state.aiming = c
        state.phase = Phase.AIM
        return
    elif a < layout.swap:
        repair(state, p, a - layout.repair)
    else:
        si, m = divmod(a - layout.swap, SEATS)
        c = card_of_kind(state, p, t.salvo_kinds[si])
        state.card_position[c] = HAND + m
        state.hands[m].append(c)
        state.known[m].append(c)
        state.swap_card = c
        state.phase, state.to_act = Phase.GIVE, m
        return
    end_turn(state)


def aim(state: NavalWarState, a: int) -> None:
    """Normal cards, Salvo: fire the salvo chosen at its target; the turn ends."""
    layout = state.layout
    c = state.aiming
    state.aiming = NONE
    p = state.turn_player
    if state.face_down:
        expose_firer(state, p, state.table.card_kind[c])
    if a < layout.at_dd:
        target = ship_at(state, a - layout.at)
        if state.face_down:
            expose(state, target)
        fire(state, p, c, target)
    else:
        fire_at_dd(state, c, a - layout.at_dd)
    end_turn(state)


def card_of_kind(state: NavalWarState, p: int, k: int) -> int:
    """Remove and return the lowest-numbered card of kind `k` from `p`'s hand (`p` holds one): found by the
    card positions' own search from the kind's first card (a kind's copies are numbered consecutively, so the
    first card from there in `p`'s hand is of kind `k`), instead of a walk over the hand in Python."""
    c = state.card_position.index(HAND + p, state.game.kind_first_card[k])
    state.hands[p].remove(c)  # `hand_remove`, inline
    known = state.known[p]
    if c in known:
        known.remove(c)
    return c


def card_of(state: NavalWarState, p: int, kinds: tuple[int, ...]) -> int:
    """Remove and return the lowest-numbered card of one of `kinds` from `p`'s hand (one kind: `card_of_kind`)."""
    if len(kinds) == 1:
        return card_of_kind(state, p, kinds[0])
    card_kind = state.table.card_kind
    best = NONE
    for c in state.hands[p]:
        if card_kind[c] in kinds and (best < 0 or c < best):
            best = c
    state.hands[p].remove(best)  # `hand_remove`, inline
    known = state.known[p]
    if best in known:
        known.remove(best)
    return best


def hand_remove(state: NavalWarState, p: int, c: int) -> None:
    """Take card `c` out of `p`'s hand (and out of what is publicly known to be there)."""
    state.hands[p].remove(c)
    known = state.known[p]
    if c in known:
        known.remove(c)


def fire(state: NavalWarState, p: int, c: int, s: int) -> None:
    """Normal cards, Salvo: salvo `c` is placed under an enemy ship; its hits are damage (Sinking: the last
    hits take it)."""
    state.card_position[c] = ON_SHIP + s
    under = state.under
    if under is None:
        salvos_under(state)  # built from the card positions, this salvo included
    else:
        under[s] += (c,)
    state.damage[s] += state.table.kind_value[state.table.card_kind[c]]
    check_sunk(state, s, p)


def fire_at_dd(state: NavalWarState, c: int, j: int) -> None:
    """Normal cards, Destroyer Squadron: 4 hits from salvos destroy it (discarded, no points)."""
    state.card_position[c] = ON_DD + j
    state.dd_hits[j] += state.table.kind_value[state.table.card_kind[c]]
    if state.dd_hits[j] >= state.params.dd_hits:
        discard_dd(state, j)


def repair(state: NavalWarState, p: int, x: int) -> None:
    """Normal cards, Repair: remove one salvo from your ship together with its Additional Damage."""
    t = state.table
    c = card_of(state, p, t.kinds_repair)
    cpos = state.card_position
    cpos[c] = DISCARD
    s = cpos[x] - ON_SHIP
    state.damage[s] -= t.kind_value[t.card_kind[x]]
    cpos[x] = DISCARD
    under = state.under
    if under is None:
        salvos_under(state)  # built from the card positions, this salvo gone
    else:
        salvos = under[s]
        i = salvos.index(x)
        under[s] = salvos[:i] + salvos[i + 1:]
    on = ON_SALVO + x
    for d in t.adddmg_cards:
        if cpos[d] == on:
            cpos[d] = DISCARD
            state.damage[s] -= t.kind_value[t.card_kind[d]]


def sweep(state: NavalWarState, p: int) -> None:
    """Normal cards, Minesweeper: every minefield before your task force is discarded, its hits with it
    (R5)."""
    c = card_of(state, p, state.table.kinds_sweep)
    cpos = state.card_position
    cpos[c] = DISCARD
    here = MINES + p
    for d in state.table.mine_cards:
        if cpos[d] == here:
            cpos[d] = DISCARD
    state.mine_hits[p] = 0
    state.mine_last[p] = NONE


def dd_continue(state: NavalWarState) -> None:
    """Normal cards, Destroyer Squadron: the owner picks the ships to sink one by one, then the DD is
    discarded and the owner's normal turn follows (R9)."""
    j = state.dd_target
    if state.dd_left > 0 and state.alive[j] and state.fleets[j]:
        state.phase, state.to_act = Phase.DD_SINK, state.turn_player
        return
    discard_dd(state, state.turn_player)
    if not state.round_over:
        turn_main(state)


def dd_sink(state: NavalWarState, s: int) -> None:
    """Destroyer Squadron: sink the ship picked; pick again while the roll allows."""
    sink(state, s, state.turn_player)
    state.dd_left -= 1
    if not state.round_over:
        dd_continue(state)


def give(state: NavalWarState, a: int) -> None:
    """Fleet play: the mate returns one salvo (or none if he holds none); the exchange is open (R32)."""
    layout = state.layout
    m = state.to_act
    p = state.turn_player
    if a != layout.give_none:
        c = card_of_kind(state, m, state.table.salvo_kinds[a - layout.give])
        state.card_position[c] = HAND + p
        state.hands[p].append(c)
        state.known[p].append(c)
    state.swap_card = NONE
    end_turn(state)
