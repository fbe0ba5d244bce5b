"""The end of a round and the outcome (3.2 reveal, 3.4, 4.0, 2.41 Supply, 5.0 sharing the spoils)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.games.med_sirocco.cards import (
    AIR,
    ALLIES,
    AXIS,
    E_ADMIRAL,
    E_FUEL,
    E_INTEL,
    E_NIGHT,
    E_RAID,
    K_BONUS,
    K_FORCE,
    K_SPECIAL,
    K_STORM,
    K_SUPPLY,
    NEUTRAL,
    SUB,
    SURFACE,
)
from warcards.games.med_sirocco.codes import (
    EV_DRAW,
    EV_INVALID,
    EV_NO_COMBAT,
    EV_PICKUP,
    EV_TOTALS,
    EV_WIN,
    NO_INTEL_ROUND,
    NO_NIGHT,
    NO_REFUSAL,
    SUPPLY_IN_PLAY,
    ChanceKind,
    Phase,
    Stage,
)
from warcards.games.med_sirocco.rules.play_checks import (
    check_play,
    face_down_round,
    find_host,
)
from warcards.games.med_sirocco.rules.specials import (
    destiny_sweep,
    release_sirocco,
    sirocco_card,
)
from warcards.games.med_sirocco.rules.table import (
    begin_engagement,
    kill_entry,
    queue_refill,
    set_chance,
    to_discard,
)

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoState


# ----- end of a round, 3.2 reveal ----------------------------------------------------------------------------------
def round_end(state: MedSiroccoState) -> bool:
    """End of a round: reveal a Battle's face-down cards (3.2), roll Explosions (S03), draw between rounds
    (3.2: one card each; 4.0: hands made up), or go to the outcome (3.4). True when a node was set."""
    if face_down_round(state) and not state.revealed:
        reveal(state)
        state.revealed = True
    while state.explosion_queue:
        e = state.explosion_queue.pop(0)
        if state.entry_alive[e] and not state.cancelled >> state.entry_player[e] & 1:
            state.explosion_entry = e
            state.explosion_sum = 0
            state.explosion_left = 2
            set_chance(state, ChanceKind.EXPLOSION)
            return True
    state.revealed = False
    state.shallows_by = -1
    if state.round_index < state.rounds - 1:
        if state.num_players == 2:
            queue_refill(state, state.first_player)
        else:
            for i in range(state.num_players):
                state.draw_queue.append((state.first_player + i) % state.num_players)
        state.round_index += 1
        state.turn_index = 0
        if state.num_players > 2 and state.is_battle:
            state.restrict_by = -1
        state.stage = Stage.TURNS
        return False
    state.stage = Stage.RESOLVE
    return False


def reveal(state: MedSiroccoState) -> None:
    """3.2: the face-down cards are turned over; invalid cards are discarded and do not affect the outcome.
    S05 (and option 6.1) let the player's 2nd-round cards be of the other side.

    Each seat's face-down cards are found in one pass over the entries (a seat's reveal changes only its own
    entries); a card is checked as a face-up play (`check_play`), but a Storm card is valid only as Night
    action (S05) and an Intelligence card never (2.45: 1st round only)."""
    g = state.game
    table = state.table
    n = state.num_players
    night = table.index["S05"]
    e_card = state.entry_card
    alive = state.entry_alive
    face_down = state.entry_face_down
    mine_of: list[list[int]] = [[] for _ in range(n)]
    night_seats = 0
    for e, q in enumerate(state.entry_player):
        if face_down[e] and alive[e]:
            mine_of[q].append(e)
            if e_card[e] == night:
                night_seats |= 1 << q
    kind = table.kind
    effect = table.effect
    played_side = g.played_side
    for i in range(n):
        p = (state.first_player + i) % n
        mine = mine_of[p]
        if not mine:
            continue
        free = (state.change_sides and n > 2) or night_seats >> p & 1
        state.to_act = p
        state.turn_forces = 0
        state.turn_force_limit = 1
        state.turn_intel = False
        state.turn_raid = False
        state.turn_mode = 0
        state.turn_first_entry = mine[0]
        state.turn_side = -1 if free else state.seat_side[p]
        for e in mine:
            c = e_card[e]
            k = kind[c]
            if k == K_STORM:
                code = NO_REFUSAL if effect[c] == E_NIGHT else NO_NIGHT
            elif k == K_SPECIAL and effect[c] == E_INTEL:
                code = NO_INTEL_ROUND
            else:
                code = check_play(state, p, c)
            face_down[e] = False
            if code != NO_REFUSAL:
                # Out of play and discarded (`kill_entry`; the entry is alive): many random face-down plays fail.
                alive[e] = False
                state.discard.append(c)
                state.log.append((EV_INVALID, p, c))
                continue
            sd = played_side[c]
            if sd != NEUTRAL and state.turn_side < 0:
                state.turn_side = sd
                if not free:
                    state.seat_side[p] = sd
            if k == K_FORCE:
                state.turn_forces += 1
            elif k == K_BONUS:
                state.entry_host[e] = find_host(state, p, c)
            elif k == K_SPECIAL and effect[c] == E_ADMIRAL:
                state.turn_force_limit = 2
            elif k == K_SPECIAL and effect[c] in (E_RAID, E_FUEL):
                state.turn_raid = True
                state.raid_players |= 1 << p
    destiny_sweep(state)


# ----- 3.4 Outcome -------------------------------------------------------------------------------------------------
def resolve(state: MedSiroccoState) -> bool:
    """3.4: dice for '?' after all plays (one per '?' per value counted), then the side totals decide."""
    g = state.game
    table = state.table
    if not state.resolved:
        state.resolved = True
        q: list[int] = []
        et = state.engagement_type
        alive = state.entry_alive
        kind = table.kind
        dice_in = g.dice_in[et]
        for e, c in enumerate(state.entry_card):
            if not dice_in[c] or not alive[e] or kind[c] != K_FORCE:
                continue  # no '?' counted in this type (most cards), or not a Force card in play
            dice = table.dice[c]
            for ti in range(3):
                if et >> ti & 1 and dice[ti]:
                    count = dice[ti] * (2 if ti == 0 and e == state.bomb_entry else 1)
                    q.extend([e * 3 + ti] * count)
        state.roll_queue = q
    if state.roll_queue:
        set_chance(state, ChanceKind.ROLL)
        return True
    outcome(state)
    return False


def outcome(state: MedSiroccoState) -> None:
    """3.4: the higher side total wins; equal totals replay (the Intelligence player's side loses, 2.45);
    all zero is no combat.

    A card's combat value in the declared type (3.4): its printed values in the type's kinds (the game's
    `fixed_in`) and its dice there, doubled for a Destiny card whose victim is this Operation (3.3), plus the
    living Bonus cards played on it (2.3). Bomb alley doubles the air values printed on its target and on the
    target's Bonus cards (S06; its dice are rolled twice, `resolve`); an Operation with the air bonus adds 1
    per card when air counts, 1 in all to the bombed target with its Bonus cards (O32–O38, 2.48, R9). A Bonus
    card played alone counts as a card of its own."""
    g = state.game
    table = state.table
    e_card = state.entry_card
    alive = state.entry_alive
    kind = table.kind
    fixed = table.fixed
    et = state.engagement_type
    fixed_in = g.fixed_in[et]
    air = et & AIR
    op = state.operation
    op_air = 1 if table.op_air_bonus[op] and air else 0
    bomb = state.bomb_entry
    hosts = state.entry_host
    n_entries = len(e_card)
    on_host = [0] * n_entries  # per Force entry, what its living Bonus cards add
    for b, host in enumerate(hosts):
        if host >= 0 and alive[b]:
            c = e_card[b]
            if host != bomb:
                on_host[host] += fixed_in[c] + op_air
            elif air:
                on_host[host] += fixed_in[c] + fixed[c][0]
            else:
                on_host[host] += fixed_in[c]
    dice = state.entry_dice
    victim = table.victim
    side = state.entry_side
    player = state.entry_player
    vals = [0] * n_entries
    tot = [0, 0]
    best = [-1, -1]  # per side, its highest card value (the first in play order) and that card's player
    best_by = [-1, -1]
    supplies: list[int] = []  # the Supply cards in play (2.41)
    for e in range(n_entries):
        if not alive[e]:
            continue
        c = e_card[e]
        k = kind[c]
        if k == K_FORCE:
            v = fixed_in[c]
            e3 = e * 3
            if air:
                v += dice[e3]
                if e == bomb:
                    v += fixed[c][0]
            if et & SURFACE:
                v += dice[e3 + 1]
            if et & SUB:
                v += dice[e3 + 2]
            if victim[c] == op:
                v *= 2
            v += on_host[e] + op_air
        elif k == K_BONUS and hosts[e] < 0:
            v = fixed_in[c] + op_air
        else:
            if k == K_SUPPLY:
                supplies.append(e)
            continue
        vals[e] = v
        sd = side[e]
        tot[sd] += v
        if v > best[sd]:
            best[sd] = v
            best_by[sd] = player[e]
    state.entry_values = vals
    state.log.append((EV_TOTALS, tot[0], tot[1]))
    if tot[0] == 0 and tot[1] == 0:
        no_combat(state)
        return
    if tot[0] == tot[1]:
        intel_sides = {state.entry_side[e] for e in range(len(state.entry_card))
                       if state.entry_alive[e] and table.kind[state.entry_card[e]] == K_SPECIAL and table.effect[state.entry_card[e]] == E_INTEL}
        if len(intel_sides) == 1:
            win = 1 - intel_sides.pop()
        else:
            draw(state)
            return
    else:
        win = ALLIES if tot[0] > tot[1] else AXIS
    state.winning_side = win
    state.winner = best_by[win]  # 3.4: the highest card of the winning side wins the trick
    under = state.under_card  # mostly empty (a drawn Engagement's cards, 3.4 Tie): no list built for nothing
    queue = [i for i in range(len(under)) if kind[under[i]] == K_SUPPLY and state.under_side[i] == win] if under else []
    if supplies:
        queue += [SUPPLY_IN_PLAY + e for e in supplies if side[e] == win]
    state.supply_queue = queue
    state.picked = []
    state.stage = Stage.SUPPLY


def no_combat(state: MedSiroccoState) -> None:
    """3.4 No combat: nobody wins; the Operation and anything under it are discarded."""
    state.log.append((EV_NO_COMBAT, -1, state.operation))
    state.operations_out.append(state.operation)
    for e in range(len(state.entry_card)):
        if state.entry_alive[e]:
            kill_entry(state, e, to_pile=True)
    for c in state.under_card:
        to_discard(state, c)
    state.under_card, state.under_side, state.under_player = [], [], []
    finish_operation(state)


def draw(state: MedSiroccoState) -> None:
    """3.4 Tie: every card still in play (Force, Supply, Bonus, Special and Storm cards) goes under the
    Operation until the Engagement ends, where it no longer acts; hands are made up, and the Engagement is
    replayed from the next player (sides may change; effects do not carry over)."""
    state.log.append((EV_DRAW, -1, state.operation))
    for e in range(len(state.entry_card)):
        if state.entry_alive[e]:
            state.entry_alive[e] = False
            state.under_card.append(state.entry_card[e])
            state.under_side.append(state.entry_side[e])
            state.under_player.append(state.entry_player[e])
    if state.sirocco_holder >= 0:
        # 2.44: a Sirocco passed on and not yet used is discarded only at the end of the Engagement.
        state.under_card.append(sirocco_card(state))
        state.under_side.append(NEUTRAL)
        state.under_player.append(state.sirocco_holder)
        state.sirocco_holder = -1
        state.sirocco_entry = -1
    state.first_player = (state.first_player + 1) % state.num_players
    queue_refill(state, state.first_player)
    begin_engagement(state)


def supply_candidates(state: MedSiroccoState) -> list[int]:
    """2.41: a binoculars-view (surface) Force card of the winning side, played by anyone in this Engagement."""
    table = state.table
    win = state.winning_side
    out = [c for i, c in enumerate(state.under_card) if state.under_side[i] == win and table.kind[c] == K_FORCE and table.frame[c] == SURFACE]
    out += [state.entry_card[e] for e in range(len(state.entry_card)) if state.entry_alive[e] and state.entry_side[e] == win
            and table.kind[state.entry_card[e]] == K_FORCE and table.frame[state.entry_card[e]] == SURFACE]
    return sorted(c for c in out if c not in state.picked)


def next_supply(state: MedSiroccoState) -> bool:
    """2.41: each Supply card of the winning side lets its player pick up a ship card (in play order)."""
    while state.supply_queue:
        code = state.supply_queue[0]
        player = state.under_player[code] if code < SUPPLY_IN_PLAY else state.entry_player[code - SUPPLY_IN_PLAY]
        if supply_candidates(state):
            state.to_act = player
            state.phase = Phase.SUPPLY
            return True
        state.supply_queue.pop(0)
        supply_done(state, code)
    return False


def supply_done(state: MedSiroccoState, code: int) -> None:
    if code < SUPPLY_IN_PLAY:
        to_discard(state, state.under_card[code])
        state.under_card[code] = -1
    else:
        kill_entry(state, code - SUPPLY_IN_PLAY, to_pile=True)


def supply_pick(state: MedSiroccoState, p: int, card: int) -> None:
    """2.41: the picked-up card goes to the Supply player's hand (known to all); the Supply card is discarded."""
    code = state.supply_queue.pop(0)
    if card >= 0:
        state.log.append((EV_PICKUP, p, card))
        state.picked.append(card)
        state.hands[p].append(card)
        for i in range(state.num_players):
            if i != p:
                state.known_cards[i] |= 1 << card
        state.any_known = True
    supply_done(state, code)
    state.phase = Phase.CHANCE
    state.chance_kind = -1


SPOIL_KINDS = (K_FORCE, K_SUPPLY)
"""3.4: the kinds of the losing side's cards that go to the winner."""


def after_supply(state: MedSiroccoState) -> None:
    """3.4 Winning the trick: the Operation and the losing side's Force and Supply cards (of every round)
    go to the winner (5.0: shared); every other card is discarded."""
    kind = state.table.kind
    lose = 1 - state.winning_side
    picked = state.picked
    discard = state.discard  # each other card `to_discard`, here without the call
    spoils: list[int] = []
    for i, c in enumerate(state.under_card):
        if c < 0 or c in picked:
            continue
        if state.under_side[i] == lose and kind[c] in SPOIL_KINDS:
            spoils.append(c)
        else:
            discard.append(c)
    alive = state.entry_alive
    side = state.entry_side
    for e, c in enumerate(state.entry_card):
        if not alive[e]:
            continue
        alive[e] = False
        if c in picked:
            continue
        if side[e] == lose and kind[c] in SPOIL_KINDS:
            spoils.append(c)
        else:
            discard.append(c)
    state.under_card, state.under_side, state.under_player = [], [], []
    if state.advanced:
        elig = share_eligible(state)
        if len(elig) > 1:
            state.share_pool = [state.operation, *sorted(spoils)]
            state.share_eligible = elig
            state.share_count = [0] * state.num_players
            state.stage = Stage.SHARE
            return
    award_operation(state, state.winner, state.operation)
    state.captured[state.winner].extend(spoils)
    finish_operation(state)


def award_operation(state: MedSiroccoState, p: int, op: int) -> None:
    """1.1 / 1.5: the Operation is won (its VP, and its freighter for the hand size)."""
    state.won[p].append(op)
    state.log.append((EV_WIN, p, op))
    load = state.table.op_load[op]
    if load == 2:
        state.freighters_full[p] += 1
    elif load == 1:
        state.freighters_half[p] += 1


def share_eligible(state: MedSiroccoState) -> list[int]:
    """5.0: winning-side players (of the final round) who played a card of value 1 or more, not Sirocco'd
    and not Destiny victims; the trick's winner always shares."""
    elig = set()
    for e in range(len(state.entry_card)):
        if state.entry_side[e] == state.winning_side and state.entry_values[e] >= 1:
            q = state.entry_player[e]
            if not state.cancelled >> q & 1 and not state.victims >> q & 1:
                elig.add(q)
    elig.add(state.winner)
    return sorted(elig)


def share_targets(state: MedSiroccoState) -> list[int]:
    """5.0: who may receive the next prize card (`share_pool[0]`) so that the split can still end as the
    text allows: with m cards for k players, everyone receives m // k cards and m % k of them one more
    ("each player ... must receive at least one card before any player can receive a 2nd card", and so on).
    A player below m // k may receive it; one at m // k only while fewer than m % k players are above it."""
    count = state.share_count
    elig = state.share_eligible
    base, extra = divmod(len(state.share_pool) + sum(count[q] for q in elig), len(elig))
    above = sum(1 for q in elig if count[q] > base)
    return [q for q in elig if count[q] < base or (count[q] == base and above < extra)]


def share_next(state: MedSiroccoState) -> bool:
    """5.0: the winner names the receiver of each prize card in turn (the Operation first, then by card
    number), among `share_targets`, so every split the text allows is reached, each in one way; a forced
    gift is made without asking."""
    while state.share_pool:
        cands = share_targets(state)
        if len(cands) > 1:
            state.to_act = state.winner
            state.phase = Phase.SHARE
            return True
        share_give(state, cands[0])
    finish_operation(state)
    return False


def share_give(state: MedSiroccoState, q: int) -> None:
    c = state.share_pool.pop(0)
    state.share_count[q] += 1
    if c == state.operation:
        award_operation(state, q, c)
    else:
        state.captured[q].append(c)
    state.phase = Phase.CHANCE
    state.chance_kind = -1


def finish_operation(state: MedSiroccoState) -> None:
    """1.5 and 1.4 A: hands are made up from the 1st player; the next player to the left starts the next
    Operation."""
    if state.sirocco_holder >= 0:
        release_sirocco(state)
    state.entry_card, state.entry_player, state.entry_round, state.entry_host = [], [], [], []
    state.entry_alive, state.entry_face_down, state.entry_side, state.entry_dice = [], [], [], []
    state.restrict_by = -1
    state.admiral_by = -1
    state.bomb_entry = -1
    state.operation = -1
    state.seat_side = [-1] * state.num_players
    state.cancelled = 0
    state.sat_out = 0
    queue_refill(state, state.first_player)
    state.operations_done += 1
    state.first_player = (state.first_player + 1) % state.num_players
    state.stage = Stage.START_OPERATION
    state.phase = Phase.CHANCE
    state.chance_kind = -1
