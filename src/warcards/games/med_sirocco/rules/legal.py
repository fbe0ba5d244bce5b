"""The legal actions of each phase and why any other action is refused (1.4 C, 3.1, 3.2, 4.0, 5.0 and the
card texts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.games.med_sirocco.cards import (
    E_FOG,
    E_NIGHT,
    K_BONUS,
    K_FORCE,
    K_STORM,
    K_SUPPLY,
    NEUTRAL,
    SUB,
    SURFACE,
)
from warcards.games.med_sirocco.codes import (
    NO_REFUSAL,
    PH_ADMIRAL,
    PH_BUILD,
    PH_CHANCE,
    PH_END,
    PH_HELD,
    PH_LOST_CARD,
    PH_LOST_SEAT,
    PH_OP_CHOOSE,
    PH_SHARE,
    PH_SIROCCO_TARGET,
    PH_SUPPLY,
    PH_TARGET,
    PH_TURN,
    PH_TYPE,
)
from warcards.games.med_sirocco.notation import (
    ADMIRAL_A,
    ADMIRAL_B,
    DISCARD,
    DISCARD_ALL,
    DONE,
    PASS,
    PLAY,
    SEAT,
    SELECT,
    TYPE,
    USE,
)
from warcards.games.med_sirocco.rules.outcome import (
    share_targets,
    supply_candidates,
)
from warcards.games.med_sirocco.rules.play_checks import (
    check_play,
    face_down_round,
    must_play,
    reason_text,
    restricted,
    shallows_active,
)
from warcards.games.med_sirocco.rules.specials import (
    sirocco_targets,
)

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoState


def legal_actions(state: MedSiroccoState) -> list[int]:
    """The sorted legal actions of the player to act (1.4 C, 3.1, 3.2, 4.0, 5.0 and the card texts)."""
    ph = state.phase
    p = state.to_act
    if ph in (PH_TURN, PH_BUILD):
        hand = state.hands[p]
        g = state.game
        acts: list[int]
        if (state.is_battle and state.round_index == 1) and state.turn_mode == 0:
            acts = [PLAY + c for c in hand if g.kind[c] != K_STORM or g.effect[c] == E_NIGHT
                    or check_play(state, p, c) == NO_REFUSAL]
            if ph == PH_BUILD:
                acts.append(DONE)
            elif not acts:
                acts.append(PASS)
            acts.sort()
            return acts
        acts = playable(state, p, hand)
        if ph == PH_BUILD:
            acts.append(DONE)
        elif state.turn_mode == 1:
            acts.append(PASS)
        elif state.is_battle:
            if not acts:
                acts.append(DISCARD_ALL if hand else PASS)
        elif hand:
            acts.extend([DISCARD + c for c in hand])
            acts.append(DISCARD_ALL)
        else:
            acts.append(PASS)
        acts.sort()
        return acts
    if ph == PH_TYPE:
        return [TYPE, TYPE + 1, TYPE + 2, TYPE + 3]
    if ph == PH_OP_CHOOSE:
        return sorted(SELECT + c for c in state.operation_choice)
    if ph == PH_ADMIRAL:
        return [ADMIRAL_A, ADMIRAL_B]
    if ph == PH_TARGET:
        kind = K_BONUS if state.target_effect == E_FOG else K_FORCE
        g = state.game
        return sorted({SELECT + state.entry_card[e] for e in range(len(state.entry_card))
                       if state.entry_alive[e] and not state.entry_face_down[e] and g.kind[state.entry_card[e]] == kind})
    if ph == PH_SIROCCO_TARGET:
        return [SEAT + q for q in sirocco_targets(state, p)]
    if ph == PH_HELD:
        return [PASS, USE]
    if ph == PH_LOST_CARD:
        return sorted(SELECT + c for c in state.hands[p] if c not in state.lost_cards)
    if ph == PH_LOST_SEAT:
        return [SEAT + q for q in range(state.num_players) if q != p and q not in state.lost_seats and state.hands[q]]
    if ph == PH_SUPPLY:
        return sorted([SELECT + c for c in supply_candidates(state)] + [PASS])
    if ph == PH_SHARE:
        return [SEAT + q for q in share_targets(state)]
    return []


def playable(state: MedSiroccoState, p: int, hand: list[int]) -> list[int]:
    """The play actions of `hand`'s cards that `check_play` lets join `p`'s face-up play, in hand order.

    The same tests as `check_play`, with the ones that hold for the whole play read once: a Force or Supply
    card (most of a hand) is decided here, any other kind by `check_play` itself."""
    facts = state.game.card_facts
    t_side = state.turn_side
    # 2.45: the first card after an Intelligence card is of the player's side.
    intel = state.turn_mode == 1 and len(state.entry_card) == state.turn_first_entry
    intel_side = state.seat_side[p]
    # 2.42 / 2.43: after a Raid on La Spezia / Romanian Fuel only its side's cards.
    restrict = state.restrict_by >= 0 and restricted(state, p)
    r_side = state.restrict_side
    # 1.4 C, 2.45, 2.46: room for a Force card in this play; 2.2 / 3.1 the year; S07; 2.42 / 2.43.
    forces = not state.turn_intel and state.turn_forces < state.turn_force_limit
    year_bit = state.year_bit
    no_sub = state.shallows_by >= 0 and shallows_active(state, p)
    raid = state.turn_raid
    acts: list[int] = []
    for c in hand:
        k, sd, years, frame = facts[c]
        if (sd != NEUTRAL and 0 <= t_side != sd) or (intel and sd != intel_side) or (restrict and sd != r_side):
            continue
        if k == K_FORCE:
            if forces and years & year_bit and not (no_sub and frame == SUB) and not (raid and not frame & SURFACE):
                acts.append(PLAY + c)
        elif k == K_SUPPLY or check_play(state, p, c) == NO_REFUSAL:
            acts.append(PLAY + c)
    return acts


def illegal_reason(state: MedSiroccoState, action: int) -> str:
    """Why a real action is not legal now, citing the rule."""
    ph = state.phase
    p = state.to_act
    if ph == PH_END:
        return "the game is over"
    if ph in (PH_TURN, PH_BUILD) and PLAY <= action < DISCARD:
        c = action - PLAY
        if c not in state.hands[p]:
            return f"1.4 C: {state.game.label(c)} is not in your hand"
        if face_down_round(state) and state.turn_mode == 0:
            code = check_play(state, p, c)
            return reason_text(state, p, c, code)
        code = check_play(state, p, c)
        if code != NO_REFUSAL:
            return reason_text(state, p, c, code)
    if (ph == PH_TURN and action in (PASS, DISCARD_ALL)) or (DISCARD <= action < SELECT and ph == PH_TURN):
        if must_play(state) and not face_down_round(state):
            return "3.2: in the 1st round of a Battle each player must play a card if he has a valid one"
        if face_down_round(state):
            return "3.2: in the 2nd round of a Battle each player must play a card face down"
        if DISCARD <= action < SELECT:
            return f"1.4 C: {state.game.label(action - DISCARD)} is not in your hand"
    if ph == PH_BUILD and (DISCARD <= action < SELECT or action in (DISCARD_ALL, PASS)):
        return "1.4 C: you have played a card; add cards to the play or end it with done"
    if ph == PH_TURN and action == PASS and state.hands[p]:
        return "1.4 C: you hold cards: play a card, discard one card or discard all (pass only with an empty hand)"
    if ph == PH_TURN and action == DONE:
        return "1.4 C: play a card, discard one card or discard all before done"
    names = {PH_CHANCE: "chance acts now", PH_OP_CHOOSE: "5.0: choose which of the two Operations to play",
             PH_TYPE: "3.1: the first player declares the engagement type (air, surface, sub or combined)",
             PH_ADMIRAL: "2.46: choose the Admiral's action: combined type (A) or two Force cards (B)",
             PH_TARGET: "S04/S06: select a face-up card in play as the target",
             PH_SIROCCO_TARGET: "2.44: choose the player whose involvement the Sirocco cancels",
             PH_HELD: "2.44: use the Sirocco passed to you, or discard it (pass)",
             PH_LOST_CARD: "S02: select a card of your hand to exchange",
             PH_LOST_SEAT: "S02: choose another player holding cards",
             PH_SUPPLY: "2.41: pick up a ship card of the winning side, or pass",
             PH_SHARE: "5.0: name the winning-side player who receives the next prize card (in the end each "
                       "receives as many cards as the others, or one more)"}
    if TYPE <= action < ADMIRAL_A and ph != PH_TYPE:
        return "3.1: the 1st player declares the type at the start of a Convoy only (a Battle is combined, 3.2)"
    if action in (ADMIRAL_A, ADMIRAL_B) and ph != PH_ADMIRAL:
        return "2.46: the Admiral's choice is made right after he is played, when the type is not combined"
    if action == USE and ph != PH_HELD:
        return "2.44: you hold no Sirocco passed to you"
    if SEAT <= action < TYPE and ph not in (PH_SIROCCO_TARGET, PH_LOST_SEAT, PH_SHARE):
        return "no player is to be chosen now (2.44 Sirocco, S02 Lost, 5.0 sharing)"
    if SELECT <= action < SEAT and ph not in (PH_OP_CHOOSE, PH_TARGET, PH_LOST_CARD, PH_SUPPLY):
        return "no card is to be selected now (5.0, S02, S04, S06, 2.41)"
    if ph in (PH_TURN, PH_BUILD):
        return "1.4 C: that is not a legal play now"
    return names.get(ph, "not legal now")
