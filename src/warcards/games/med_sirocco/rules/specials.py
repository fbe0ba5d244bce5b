"""Special and Storm cards (2.42–2.48, S01–S07) and the Victims of Destiny (3.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.games.med_sirocco.cards import (
    ALL_TYPES,
    E_FOG,
    K_FORCE,
    K_SUPPLY,
    SUB,
)
from warcards.games.med_sirocco.codes import (
    EV_CANCEL,
    EV_DESTROY,
    EV_SIROCCO_GONE,
    EV_SIROCCO_PASS,
    EV_SUNK,
    ChanceKind,
    Phase,
    Stage,
)
from warcards.games.med_sirocco.notation import (
    N_PILE,
)
from warcards.games.med_sirocco.rules.table import (
    discard_dependents,
    kill_entry,
    leave_hand,
    to_discard,
)

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoState


# ----- 3.3 Victims of Destiny --------------------------------------------------------------------------------------
def destroy(state: MedSiroccoState, e: int, by: int) -> None:
    """3.3: the victim leaves the Engagement, face down in front of the Destiny card's player; its Bonus
    cards are discarded."""
    if not state.entry_alive[e]:
        return
    state.entry_alive[e] = False
    state.captured[by].append(state.entry_card[e])
    state.log.append((EV_DESTROY, by, state.entry_card[e]))
    state.victims |= 1 << state.entry_player[e]
    discard_dependents(state, e)


def destiny_on_play(state: MedSiroccoState, e: int) -> None:
    """3.3: in a Convoy a Destiny card played after its victim destroys it; in a Battle the victim is
    destroyed as soon as both are face up, whatever the order."""
    if state.is_battle:
        destiny_sweep(state)
        return
    victim = state.table.victim[state.entry_card[e]]
    if victim < 0 or victim >= N_PILE:
        return
    for v in range(len(state.entry_card)):
        if state.entry_card[v] == victim and state.entry_alive[v] and not state.entry_face_down[v]:
            destroy(state, v, state.entry_player[e])


def destiny_sweep(state: MedSiroccoState) -> None:
    """3.3 (Battle): every face-up Destiny card destroys its face-up victim."""
    g = state.game
    table = state.table
    e_card = state.entry_card
    destiny = g.destiny_cards
    if destiny.isdisjoint(e_card):
        return  # no Destiny card in play (one C-level pass instead of a loop over the entries)
    alive = state.entry_alive
    face_down = state.entry_face_down
    for d, c in enumerate(e_card):
        if c not in destiny or not alive[d] or face_down[d]:
            continue
        victim = table.victim[c]
        if victim not in e_card:
            continue  # its victim not in play (one C-level search)
        for v in range(len(e_card)):
            if e_card[v] == victim and state.entry_alive[v] and not state.entry_face_down[v]:
                destroy(state, v, state.entry_player[d])


# ----- 2.44 Sirocco ------------------------------------------------------------------------------------------------
def sirocco_targets(state: MedSiroccoState, p: int) -> list[int]:
    """2.44 / S01: any other player still in the Engagement."""
    return [q for q in range(state.num_players) if q != p and not state.cancelled >> q & 1 and not state.sat_out >> q & 1]


def sirocco_card(state: MedSiroccoState) -> int:
    return state.table.index["S01"]


def release_sirocco(state: MedSiroccoState) -> None:
    """2.44: the Sirocco card is discarded after use (from play or from its holder)."""
    if state.sirocco_holder >= 0:
        state.sirocco_holder = -1
        to_discard(state, sirocco_card(state))
    elif state.sirocco_entry >= 0 and state.entry_alive[state.sirocco_entry]:
        kill_entry(state, state.sirocco_entry, to_pile=True)
    state.sirocco_entry = -1


def sirocco_roll(state: MedSiroccoState, face: int) -> None:
    """2.44: 1–3 cancels one player's involvement; 4–6 passes the card to the left."""
    p = state.to_act
    if face <= 3:
        if sirocco_targets(state, p):
            state.phase = Phase.SIROCCO_TARGET
            state.chance_kind = -1
            return
        release_sirocco(state)
        return
    left = (p + 1) % state.num_players
    release_sirocco(state)
    if has_turn_to_come(state, left):
        state.discard.pop()
        state.sirocco_holder = left
        state.log.append((EV_SIROCCO_PASS, p, left))
    else:
        state.log.append((EV_SIROCCO_GONE, p, left))


def has_turn_to_come(state: MedSiroccoState, q: int) -> bool:
    """Whether `q` plays again in this Engagement (later in this round or in a later round)."""
    if state.cancelled >> q & 1:
        return False
    if state.stage == Stage.TURNS:
        pos_q = (q - state.first_player) % state.num_players
        if pos_q >= state.turn_index and not (state.round_index > 0 and state.sat_out >> q & 1):
            return True
    return state.round_index < state.rounds - 1 and not state.sat_out >> q & 1


def sirocco_cancel(state: MedSiroccoState, p: int, q: int) -> None:
    """2.44: the chosen player's cards in this Engagement are discarded and he plays no more in it; Special
    and Storm effects of his cards are cancelled (an Admiral's combined type reverts)."""
    release_sirocco(state)
    cancel_player(state, q)
    state.log.append((EV_CANCEL, p, q))
    state.phase = Phase.CHANCE
    state.chance_kind = -1


def cancel_player(state: MedSiroccoState, q: int) -> None:
    state.cancelled |= 1 << q
    for e in range(len(state.entry_card)):
        if state.entry_player[e] == q and state.entry_alive[e]:
            kill_entry(state, e, to_pile=True)
    if state.sirocco_holder == q:
        release_sirocco(state)
    if state.restrict_by == q:
        state.restrict_by = -1
    if state.admiral_by == q:
        state.admiral_by = -1
        state.engagement_type = state.operation_type
    if state.bomb_by == q:
        state.bomb_by = -1
        state.bomb_entry = -1
    if state.shallows_by == q:
        state.shallows_by = -1


def held_sirocco(state: MedSiroccoState, p: int, use: bool) -> None:
    """2.44: the player given the Sirocco uses it at the end of his play, or discards it."""
    if use:
        state.sirocco_entry = -1
        state.sirocco_roller = p
        state.phase = Phase.CHANCE
        state.chance_kind = -1
        return
    release_sirocco(state)
    state.phase = Phase.CHANCE
    state.chance_kind = -1


# ----- 2.46 Admirals, S04 Fog, S06 Bomb alley, S07 Shallows, S02 Lost, S03 Explosion -------------------------------
def admiral(state: MedSiroccoState, p: int, combined: bool) -> None:
    """2.46: A. the Engagement becomes combined for all; B. the player may play two Force cards."""
    if combined:
        state.engagement_type = ALL_TYPES
        state.admiral_by = p
    else:
        state.turn_force_limit = 2
    state.phase = Phase.BUILD


def target_card(state: MedSiroccoState, p: int, card: int) -> None:
    """S04: cancel one Bonus card (discarded). S06: double one Force card's Air value (with its Bonuses)."""
    for e in range(len(state.entry_card)):
        if state.entry_card[e] == card and state.entry_alive[e]:
            if state.target_effect == E_FOG:
                kill_entry(state, e, to_pile=True)
            else:
                state.bomb_entry = e
                state.bomb_by = p
            break
    state.phase = Phase.BUILD


def shallows(state: MedSiroccoState, p: int) -> None:
    """S07: discard every submarine (periscope) card in play; later players may not play one this round."""
    table = state.table
    for e in range(len(state.entry_card)):
        if state.entry_alive[e] and not state.entry_face_down[e] and table.frame[state.entry_card[e]] == SUB:
            kill_entry(state, e, to_pile=True)
            discard_dependents(state, e)
    state.shallows_by = p
    state.shallows_round = state.round_index


def lost_pick_candidates(state: MedSiroccoState) -> list[int]:
    q = state.lost_seats[state.lost_step]
    given = state.lost_cards[: state.lost_step]
    return sorted(c for c in state.hands[q] if c not in given)


def lost_exchange(state: MedSiroccoState, taken: int) -> None:
    """S02: one chosen card of the player's hand is exchanged with a random card of the chosen player."""
    p = state.lost_player
    q = state.lost_seats[state.lost_step]
    mine = state.lost_cards[state.lost_step]
    leave_hand(state, q, taken)
    leave_hand(state, p, mine)
    state.hands[q].append(mine)
    state.hands[p].append(taken)
    state.known_cards[p] |= 1 << mine
    state.known_cards[q] |= 1 << taken
    state.any_known = True
    state.lost_step += 1
    if state.lost_step == 2:
        state.lost_cards = []
        state.lost_seats = []
        state.lost_player = -1
        state.lost_step = 0
        state.to_act = p
        state.phase = Phase.BUILD
        state.chance_kind = -1
    else:
        state.chance_kind = ChanceKind.LOST_PICK


def explosion_targets(state: MedSiroccoState, p: int, total: int) -> int:
    """S03: below 7 the right-hand neighbour, above 7 the left-hand neighbour, 7 yourself."""
    if total < 7:
        return (p - 1) % state.num_players
    if total > 7:
        return (p + 1) % state.num_players
    return p


def round_forces(state: MedSiroccoState, q: int) -> list[int]:
    """2.47: the Force cards a player played in this round (alive, face up)."""
    table = state.table
    return [e for e in range(len(state.entry_card)) if state.entry_player[e] == q and state.entry_alive[e] and not state.entry_face_down[e]
            and state.entry_round[e] == state.round_index and table.kind[state.entry_card[e]] == K_FORCE]


def explosion_own(state: MedSiroccoState) -> list[int]:
    return round_forces(state, state.entry_player[state.explosion_entry])


def explosion_effect(state: MedSiroccoState) -> None:
    """S03: the neighbour's Force card of this round is destroyed and goes to the Explosion's player (with
    its Supply; its Bonus cards are discarded); on a 7 one of his own, chosen at random, is sunk."""
    p = state.entry_player[state.explosion_entry]
    target = explosion_targets(state, p, state.explosion_sum)
    if target == p:
        own = explosion_own(state)
        if len(own) > 1:
            state.chance_kind = ChanceKind.EXPLOSION_PICK
            return
        if own:
            kill_entry(state, own[0], to_pile=False)
            state.sunk.append(state.entry_card[own[0]])
            state.log.append((EV_SUNK, p, state.entry_card[own[0]]))
            discard_dependents(state, own[0])
        finish_explosion(state)
        return
    forces = round_forces(state, target)
    if forces:
        e = forces[0]
        destroy_by_explosion(state, e, p)
    finish_explosion(state)


def destroy_by_explosion(state: MedSiroccoState, e: int, by: int) -> None:
    state.entry_alive[e] = False
    state.captured[by].append(state.entry_card[e])
    state.log.append((EV_DESTROY, by, state.entry_card[e]))
    discard_dependents(state, e)
    table = state.table
    q = state.entry_player[e]
    for x in range(len(state.entry_card)):
        if (state.entry_alive[x] and state.entry_player[x] == q and state.entry_round[x] == state.entry_round[e]
                and table.kind[state.entry_card[x]] == K_SUPPLY):
            state.entry_alive[x] = False
            state.captured[by].append(state.entry_card[x])


def finish_explosion(state: MedSiroccoState) -> None:
    kill_entry(state, state.explosion_entry, to_pile=True)
    state.explosion_entry = -1
    state.chance_kind = -1
