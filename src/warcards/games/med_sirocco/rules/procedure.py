"""The procedure (1.3, 1.4 A–D, 3.0, 4.0): the Operation's steps, a player's turn and play, chance events,
and `advance`, which runs the procedure until a player must decide or chance must act. `apply`, `chance`
and `apply_chance` are the state's hooks.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from warcards.engine.api import UNIFORM_SUMS, Chance, Uniform, not_a_chance_node, uniform_sums
from warcards.games.med_sirocco.cards import (
    ALL_TYPES,
    E_ADMIRAL,
    E_BOMB,
    E_EXPLOSION,
    E_FOG,
    E_FUEL,
    E_INTEL,
    E_LOST,
    E_NIGHT,
    E_RAID,
    E_SHALLOWS,
    E_SIROCCO,
    K_BONUS,
    K_FORCE,
    K_SPECIAL,
    K_STORM,
    K_SUPPLY,
    NEUTRAL,
)
from warcards.games.med_sirocco.codes import (
    EV_OP,
    EV_ROLL_CARD,
    EV_ROLL_EXPL,
    EV_ROLL_SIROCCO,
    EV_SUNK,
    FIRST_YEAR,
    PLAY_PHASES,
    ChanceKind,
    Phase,
    Stage,
)
from warcards.games.med_sirocco.notation import (
    ADMIRAL_A,
    DIE,
    DISCARD,
    DISCARD_ALL,
    PASS,
    PLAY,
    SEAT,
    SELECT,
    TYPE,
    TYPE_MASKS,
    USE,
)
from warcards.games.med_sirocco.rules.outcome import (
    after_supply,
    next_supply,
    resolve,
    round_end,
    share_give,
    share_next,
    supply_pick,
)
from warcards.games.med_sirocco.rules.play_checks import (
    face_down_round,
    find_host,
    must_play,
)
from warcards.games.med_sirocco.rules.scoring import (
    end_game,
)
from warcards.games.med_sirocco.rules.specials import (
    admiral,
    destiny_on_play,
    explosion_effect,
    explosion_own,
    finish_explosion,
    held_sirocco,
    lost_exchange,
    lost_pick_candidates,
    shallows,
    sirocco_cancel,
    sirocco_roll,
    target_card,
)
from warcards.games.med_sirocco.rules.table import (
    begin_engagement,
    discard_dependents,
    forget,
    kill_entry,
    leave_hand,
    set_chance,
    to_discard,
)

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoState


# ----- transitions -------------------------------------------------------------------------------------------------
def apply(state: MedSiroccoState, action: int) -> None:
    """Apply a legal player action (or, at a chance node, a chance outcome: `apply_outcome`), then run the
    procedure to the next decision (1.4). The state's `_apply` hook is this function."""
    ph = state.phase
    if ph == Phase.CHANCE and state.chance_kind == ChanceKind.DRAW:
        # 1.3, 1.5: a card drawn into a hand (42% of the OpenSpiel-shaped loop's actions at 4 players), first
        # and without a call: the driver loop's own draws come through `apply_chance`.
        queue = state.draw_queue
        pile = state.pile
        state.hands[queue.pop(0)].append(action)
        del pile[bisect_left(pile, action)]  # the pile is kept sorted
        if queue and pile:
            return  # the next draw of the refill: what `advance` would decide, without running it
        state.chance_kind = -1
        advance(state)
        return
    p = state.to_act
    if ph in PLAY_PHASES:
        if action < DISCARD:
            # 1.4 C: one card of a compound play (a Force card plus Bonus, Storm, Special and Supply cards)
            # leaves the hand (`table.leave_hand`) and joins play; the Special and Storm cards take effect in
            # `play_effect`. Here without a call of its own: most decisions are plays.
            c = action - PLAY
            g = state.game
            table = state.table
            state.hands[p].remove(c)
            if state.any_known and any(state.known_cards):  # else `forget` has nothing to do: no call
                forget(state, c)
            k = table.kind[c]
            # 3.2: in a Battle's 2nd round cards are played face down, but the Storm cards other than Night action.
            down = state.is_battle and state.round_index == 1 and state.turn_mode == 0 and not (k == K_STORM and table.effect[c] != E_NIGHT)
            e_card = state.entry_card
            e = len(e_card)
            e_card.append(c)
            state.entry_player.append(p)
            state.entry_round.append(state.round_index)
            state.entry_host.append(-1)
            state.entry_alive.append(True)
            state.entry_face_down.append(down)
            sd = g.played_side[c]
            state.entry_side.append(sd)
            state.entry_dice.extend(NO_DICE)
            state.phase = Phase.BUILD
            if down:
                return  # the play goes on: a player's phase, nothing to advance
            if sd != NEUTRAL and state.turn_side < 0:
                state.turn_side = sd
                if not ((state.is_battle and state.round_index == 1) and state.change_sides):
                    state.seat_side[p] = sd
            if k == K_FORCE:
                state.turn_forces += 1
                if not g.destiny_cards.isdisjoint(e_card):  # 3.3: else no Destiny card is in play to act
                    destiny_on_play(state, e)
            elif k == K_BONUS:
                state.entry_host[e] = find_host(state, p, c)
            elif k != K_SUPPLY:
                play_effect(state, p, c, e)
            return  # the play goes on (or its card asks a choice): a player's phase, nothing to advance
        if action < SELECT:
            c = action - DISCARD
            leave_hand(state, p, c)
            to_discard(state, c)
        elif action == DISCARD_ALL:
            hand = state.hands[p]
            state.hands[p] = []
            state.discard.extend(hand)  # `to_discard` of each card, in hand order
            if state.any_known:
                for c in hand:
                    forget(state, c)
            if must_play(state) and not face_down_round(state):
                state.sat_out |= 1 << p
        elif action == PASS and state.turn_mode == 1:
            kill_entry(state, state.turn_intel_entry, to_pile=True)  # 2.45: an Intelligence play passed
        # The end of the player's play (DONE, or one of the above; no call of its own, most plays end here):
        # Shallows takes effect (S07), then Sirocco rolls (2.44).
        if state.turn_shallows:
            shallows(state, p)
        if state.turn_sirocco >= 0 and state.entry_alive[state.turn_sirocco]:
            state.sirocco_roller = p
            state.sirocco_entry = state.turn_sirocco
        if state.sirocco_holder == p:
            state.held_sirocco_user = p
        state.phase = Phase.CHANCE
        state.chance_kind = -1
        advance(state)
        return
    if ph == Phase.CHANCE:
        apply_outcome(state, action)
        return
    if ph == Phase.TYPE:
        declare_type(state, TYPE_MASKS[action - TYPE])
    elif ph == Phase.OP_CHOOSE:
        choose_operation(state, action - SELECT)
    elif ph == Phase.ADMIRAL:
        admiral(state, p, action == ADMIRAL_A)
    elif ph == Phase.TARGET:
        target_card(state, p, action - SELECT)
    elif ph == Phase.SIROCCO_TARGET:
        sirocco_cancel(state, p, action - SEAT)
    elif ph == Phase.HELD:
        held_sirocco(state, p, action == USE)
    elif ph == Phase.LOST_CARD:
        state.lost_cards.append(action - SELECT)
        if len(state.lost_cards) == 2:
            if state.num_players == 2:
                opp = 1 - p
                state.lost_seats = [opp, opp]
                state.lost_step = 0
                set_chance(state, ChanceKind.LOST_PICK)
            else:
                state.phase = Phase.LOST_SEAT
    elif ph == Phase.LOST_SEAT:
        state.lost_seats.append(action - SEAT)
        if len(state.lost_seats) == 2:
            state.lost_step = 0
            set_chance(state, ChanceKind.LOST_PICK)
    elif ph == Phase.SUPPLY:
        supply_pick(state, p, -1 if action == PASS else action - SELECT)
    elif ph == Phase.SHARE:
        share_give(state, action - SEAT)
    if state.phase == Phase.CHANCE and state.chance_kind < 0:  # else `advance` would return at once
        advance(state)


DICE_ACTIONS = tuple(DIE + k for k in range(6))
"""A die's faces, 1 to 6, as chance outcomes (3.1, 2.44, S03)."""
NO_DICE = (0, 0, 0)
"""A new entry's three die totals (air, surface, sub; 3.1), none rolled yet."""


def chance(state: MedSiroccoState) -> Chance:
    """What the chance node draws or rolls, and from what: the state's `_chance`. Every chance event of the
    game is equally likely over distinct outcomes: a card from the Force pile (1.3, 1.5) or the Operations
    pile (1.4 B), both kept sorted and held uncopied; a die (3.1, 2.44, S03); one of the Explosion player's own
    Force cards (S03, on a 7) or a card of the chosen player's hand (S02 Lost), taken at random."""
    ck = state.chance_kind
    if ck == ChanceKind.DRAW:
        return Uniform(state.pile)
    if ck == ChanceKind.OPERATION:
        return Uniform(state.operations_pile)
    if ck == ChanceKind.EXPLOSION_PICK:
        return Uniform(sorted(state.entry_card[e] for e in explosion_own(state)))
    if ck == ChanceKind.LOST_PICK:
        return Uniform(lost_pick_candidates(state))
    return Uniform(DICE_ACTIONS)


def apply_chance(state: MedSiroccoState, u: float) -> int:
    """The chance outcome at cumulative probability `u`, applied, and returned: the state's `_apply_chance`
    hook, `apply(state, chance(state).pick(u))` in one go for a card drawn into a hand (1.3, 1.5: about half
    of all actions) — the pile is kept sorted and holds each card once, so the card picked is at the position
    the binary search gives, and is taken from there. Away from a chance node it refuses (`ValueError`)."""
    if state.phase != Phase.CHANCE:
        raise not_a_chance_node()
    if state.chance_kind != ChanceKind.DRAW:
        outcome = chance(state).pick(u)
        apply_outcome(state, outcome)  # what `apply` does at a chance node other than a draw
        return outcome
    pile = state.pile
    try:
        sums = UNIFORM_SUMS[len(pile)]
    except KeyError:
        sums = uniform_sums(len(pile))
    card = pile.pop(bisect_right(sums, u))
    queue = state.draw_queue
    state.hands[queue.pop(0)].append(card)
    if queue and pile:
        return card  # the next draw of the refill: what `advance` would decide, without running it
    state.chance_kind = -1
    advance(state)
    return card


def apply_outcome(state: MedSiroccoState, outcome: int) -> None:
    """Apply a chance outcome other than a draw into a hand (`apply` handles those) and run the procedure on."""
    ck = state.chance_kind
    state.chance_kind = -1
    if ck == ChanceKind.OPERATION:
        state.operations_pile.remove(outcome)
        state.operation_choice.append(outcome)
        if state.advanced and len(state.operation_choice) < 2 and state.operations_pile:
            state.chance_kind = ChanceKind.OPERATION
        elif len(state.operation_choice) == 1:
            start_operation(state, outcome)
        else:
            state.to_act = state.first_player
            state.phase = Phase.OP_CHOOSE
    elif ck == ChanceKind.SIROCCO:
        state.log.append((EV_ROLL_SIROCCO, state.to_act, outcome - DIE + 1))
        sirocco_roll(state, outcome - DIE + 1)
    elif ck == ChanceKind.EXPLOSION:
        state.log.append((EV_ROLL_EXPL, state.entry_player[state.explosion_entry], outcome - DIE + 1))
        state.explosion_sum += outcome - DIE + 1
        state.explosion_left -= 1
        if state.explosion_left == 0:
            explosion_effect(state)
        else:
            state.chance_kind = ChanceKind.EXPLOSION
    elif ck == ChanceKind.EXPLOSION_PICK:
        for e in explosion_own(state):
            if state.entry_card[e] == outcome:
                kill_entry(state, e, to_pile=False)
                state.sunk.append(outcome)
                state.log.append((EV_SUNK, state.entry_player[e], outcome))
                discard_dependents(state, e)
                break
        finish_explosion(state)
    elif ck == ChanceKind.LOST_PICK:
        lost_exchange(state, outcome)
    elif ck == ChanceKind.ROLL:
        code = state.roll_queue.pop()
        state.entry_dice[code] += outcome - DIE + 1
        state.log.append((EV_ROLL_CARD, state.entry_card[code // 3], outcome - DIE + 1))
    if state.phase == Phase.CHANCE and state.chance_kind < 0:  # else `advance` would return at once
        advance(state)


# ----- 1.3 / 1.4 / 1.5 ---------------------------------------------------------------------------------------------
def advance(state: MedSiroccoState) -> None:
    """Run the procedure (1.4 A–D) until a player must decide or chance must act."""
    while True:
        if state.phase != Phase.CHANCE or state.chance_kind >= 0:
            return
        if state.draw_queue:
            if not state.pile:
                if state.discard:
                    state.pile = sorted(state.discard)
                    state.discard = []
                else:
                    state.draw_queue.clear()
                    continue
            state.chance_kind = ChanceKind.DRAW  # `set_chance`: the phase is chance already (the loop's first test)
            return
        if state.sirocco_roller >= 0:
            state.to_act = state.sirocco_roller
            state.sirocco_roller = -1
            set_chance(state, ChanceKind.SIROCCO)
            return
        if state.held_sirocco_user >= 0:
            p = state.held_sirocco_user
            state.held_sirocco_user = -1
            if state.sirocco_holder == p:
                state.to_act = p
                state.phase = Phase.HELD
                return
            continue
        st = state.stage
        if st == Stage.TURNS:
            # 1.4 C: each player in clockwise order from the 1st player (skipping cancelled and sat-out players).
            n = state.num_players
            i = state.turn_index
            while i < n:
                p = (state.first_player + i) % n
                i += 1
                if state.cancelled >> p & 1 or (state.round_index > 0 and state.sat_out >> p & 1):
                    continue
                state.turn_index = i
                begin_turn(state, p)
                return
            state.turn_index = i
            state.stage = st = Stage.INTELLIGENCE  # nothing else changed: on to the next stage at once
        if st == Stage.INTELLIGENCE:
            if state.intel_queue and next_intel(state):
                return
            state.stage = st = Stage.ROUND_END
        if st == Stage.ROUND_END:
            if round_end(state):
                return
        elif st == Stage.RESOLVE:
            if resolve(state):
                return
        elif st == Stage.SUPPLY:
            if next_supply(state):
                return
            after_supply(state)
        elif st == Stage.SHARE:
            if share_next(state):
                return
        elif st == Stage.ROUND_START:
            state.turn_index = 0
            state.stage = Stage.TURNS
        elif st == Stage.START_OPERATION:
            if state.operations_done >= state.operations_total:
                end_game(state)
                if state.stage == Stage.DONE:
                    return
                continue
            state.operation_choice = []
            set_chance(state, ChanceKind.OPERATION)
            return
        else:
            state.phase = Phase.END
            return


def start_operation(state: MedSiroccoState, op: int) -> None:
    """1.4 B: the 1st player turns over the Operation; its card says Convoy or Battle (2.1; 6.3: all Convoys)."""
    table = state.table
    state.operation = op
    state.operation_choice = []
    state.previous_log = state.log
    state.log = [(EV_OP, state.first_player, op)]
    state.year = table.op_year[op]
    state.year_bit = 1 << (state.year - FIRST_YEAR)
    state.is_battle = table.op_battle[op] and not state.faster
    state.rounds = 2 if (state.is_battle or state.num_players == 2) else 1
    state.under_card, state.under_side, state.under_player = [], [], []
    if state.is_battle:
        state.operation_type = table.op_type[op] if state.historicity else ALL_TYPES
        begin_engagement(state)
    else:
        state.to_act = state.first_player
        state.phase = Phase.TYPE


def choose_operation(state: MedSiroccoState, op: int) -> None:
    """5.0: the 1st player keeps one of the two Operations drawn; the other is discarded."""
    for other in state.operation_choice:
        if other != op:
            state.operations_out.append(other)
    state.operation_choice = []
    start_operation(state, op)


def declare_type(state: MedSiroccoState, mask: int) -> None:
    """3.1 Engagement: the first player announces air, surface, sub or combined."""
    state.operation_type = mask
    begin_engagement(state)


def begin_turn(state: MedSiroccoState, p: int, intel_entry: int = -1) -> None:
    """1.4 C: seat `p`'s play begins (2.45: the extra play of Intelligence entry `intel_entry`); with option
    6.1 a player picks his side afresh in a Battle's 2nd round."""
    state.to_act = p
    state.phase = Phase.TURN
    state.chance_kind = -1
    state.turn_forces = 0
    state.turn_force_limit = 1
    state.turn_intel = False
    state.turn_raid = False
    state.turn_first_entry = len(state.entry_card)
    state.turn_side = state.seat_side[p]
    state.turn_mode = 1 if intel_entry >= 0 else 0
    state.turn_intel_entry = intel_entry
    state.turn_shallows = False
    state.turn_sirocco = -1
    # Option 6.1 first: off by default, it settles the test at once.
    if state.change_sides and state.is_battle and state.round_index == 1 and intel_entry < 0 and state.num_players > 2:
        state.turn_side = -1


def next_intel(state: MedSiroccoState) -> bool:
    """2.45: a player who played an Intelligence card plays again after all the others have finished."""
    while state.intel_queue:
        e = state.intel_queue.pop(0)
        p = state.entry_player[e]
        if state.entry_alive[e] and not state.cancelled >> p & 1:
            begin_turn(state, p, e)
            return True
    return False


def play_effect(state: MedSiroccoState, p: int, c: int, e: int) -> None:
    """A Special or Storm card played face up (entry `e`, card `c`, by seat `p`) takes effect (2.42–2.46,
    S01–S07); `apply` has put it in play."""
    g = state.game
    table = state.table
    k = table.kind[c]
    if k == K_SPECIAL:
        eff = table.effect[c]
        if eff in (E_RAID, E_FUEL):
            state.restrict_by = p
            state.restrict_side = g.played_side[c]
            state.restrict_round = state.round_index
            state.restrict_card = c
            state.turn_raid = True
            state.raid_players |= 1 << p
        elif eff == E_INTEL:
            state.turn_intel = True
            state.intel_queue.append(e)
        elif eff == E_ADMIRAL:
            if state.engagement_type != ALL_TYPES:
                state.phase = Phase.ADMIRAL
                state.admiral_entry = e
            else:
                state.turn_force_limit = 2
    elif k == K_STORM:
        eff = table.effect[c]
        if eff == E_SIROCCO:
            state.turn_sirocco = e
        elif eff == E_EXPLOSION:
            state.explosion_queue.append(e)
        elif eff == E_SHALLOWS:
            state.turn_shallows = True
        elif eff in (E_FOG, E_BOMB):
            state.phase = Phase.TARGET
            state.target_effect = eff
            state.target_entry = e
        elif eff == E_LOST:
            kill_entry(state, e, to_pile=True)
            state.lost_player = p
            state.lost_cards = []
            state.lost_seats = []
            state.lost_step = 0
            state.phase = Phase.LOST_CARD
