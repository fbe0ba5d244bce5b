"""Med Sirocco rules: legal actions, transitions and scoring, one function per rule section.

The functions take the `MedSiroccoState` (plain lists and ints) and change it in place. `advance` runs the
engagement procedure (1.4, 3.0–3.4, 4.0) until a player must decide or chance must act. Section numbers
are those of the rulebook; the rulings on its gaps are in RULES.md, cited as `R<n>`.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from warcards.games.med_sirocco.cards import (
    AIR,
    ALL_TYPES,
    ALLIES,
    AXIS,
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
    ON_ALLIES,
    ON_AXIS,
    ON_NATION,
    SUB,
    SURFACE,
)
from warcards.games.med_sirocco.codes import (
    CK_DRAW,
    CK_EXPL_PICK,
    CK_EXPLOSION,
    CK_LOST_PICK,
    CK_OP,
    CK_ROLL,
    CK_SIROCCO,
    EV_CANCEL,
    EV_DESTROY,
    EV_DRAW,
    EV_INVALID,
    EV_NO_COMBAT,
    EV_OP,
    EV_PICKUP,
    EV_ROLL_CARD,
    EV_ROLL_EXPL,
    EV_ROLL_SIROCCO,
    EV_SIROCCO_GONE,
    EV_SIROCCO_PASS,
    EV_SUNK,
    EV_TOTALS,
    EV_WIN,
    FIRST_YEAR,
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
    R_ADMIRAL_FORCE,
    R_BOMB_NONE,
    R_BONUS_HOST,
    R_FOG_NONE,
    R_INTEL_FORCE,
    R_INTEL_ROUND,
    R_INTEL_SIDE,
    R_LOST,
    R_NIGHT,
    R_OK,
    R_ONE_FORCE,
    R_RAID_ROUND,
    R_RAID_SURFACE,
    R_RAID_TYPE,
    R_RESTRICT,
    R_SHALLOWS,
    R_SHALLOWS_ROUND,
    R_SIDE,
    R_TWIN,
    R_YEAR,
    ST_DONE,
    ST_INTEL,
    ST_RESOLVE,
    ST_ROUND_END,
    ST_ROUND_START,
    ST_SHARE,
    ST_START_OP,
    ST_SUPPLY,
    ST_TURNS,
    SUPPLY_IN_PLAY,
)
from warcards.games.med_sirocco.notation import (
    ADMIRAL_A,
    ADMIRAL_B,
    DIE,
    DISCARD,
    DISCARD_ALL,
    DONE,
    N_CARDS,
    N_PILE,
    PASS,
    PLAY,
    SEAT,
    SELECT,
    TYPE,
    TYPE_MASKS,
    USE,
)
from warcards.games.med_sirocco.params import HAND_SIZE, MAX_HAND, SERIES_TARGET

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoState as MedSiroccoState

# ----- small helpers -------------------------------------------------------------------------------------------
def hand_limit(state: MedSiroccoState, p: int) -> int:
    """1.5: six cards, +1 per full freighter won, +1 per two half freighters, at most nine."""
    return min(MAX_HAND, HAND_SIZE + state.freighters_full[p] + state.freighters_half[p] // 2)


def face_down_round(state: MedSiroccoState) -> bool:
    """3.2 / 4.0: the 2nd round of a Battle is played face down."""
    return state.is_battle and state.round_index == 1


def must_play(state: MedSiroccoState) -> bool:
    """3.2: every round of a Battle is compulsory; a Convoy's are optional (3.1)."""
    return state.is_battle


def leave_hand(state: MedSiroccoState, p: int, card: int) -> None:
    state.hands[p].remove(card)
    if state.any_known:
        forget(state, card)


def forget(state: MedSiroccoState, card: int) -> None:
    """A card that leaves a hand is no longer known to be there."""
    if state.any_known:
        mask = ~(1 << card)
        known = state.known_cards
        for i in range(state.num_players):
            known[i] &= mask


def to_discard(state: MedSiroccoState, card: int) -> None:
    """1.0 / 1.5: a discarded card goes to the discard pile, reshuffled into the Force pile when it runs out."""
    state.discard.append(card)


def restricted(state: MedSiroccoState, p: int) -> bool:
    """2.42 / 2.43: players after Raid on La Spezia / Romanian Fuel play only its side (4.0: both rounds)."""
    if state.restrict_by < 0:
        return False
    if state.round_index == state.restrict_round:
        return p != state.restrict_by
    return state.num_players == 2 and state.round_index > state.restrict_round


def shallows_active(state: MedSiroccoState, p: int) -> bool:
    """S07: no player after Shallows may play periscope-view cards this round."""
    return state.shallows_by >= 0 and state.shallows_by != p and state.shallows_round == state.round_index


def visible_alive(state: MedSiroccoState, kind: int) -> bool:
    deck_kind = state.game.kind
    for e in range(len(state.entry_card)):
        if state.entry_alive[e] and not state.entry_face_down[e] and deck_kind[state.entry_card[e]] == kind:
            return True
    return False


def find_host(state: MedSiroccoState, p: int, bonus: int) -> int:
    """2.3: the Force card of this play that a Bonus joins: same type, and same nation (Axis), same side
    (Allies), any Allied card (X54) or any Axis card (A53). The latest such card, or -1."""
    g = state.game
    frame = g.frame[bonus]
    on = g.plays_on[bonus]
    bside = g.side[bonus]
    bnation = g.nation[bonus]
    e_card = state.entry_card
    for e in range(len(e_card) - 1, state.turn_first_entry - 1, -1):
        if state.entry_player[e] != p or not state.entry_alive[e] or state.entry_face_down[e]:
            continue
        c = e_card[e]
        if g.kind[c] != K_FORCE or not (g.frame[c] & frame):
            continue
        if on == ON_NATION:
            if g.nation[c] != bnation:
                continue
        elif on == ON_ALLIES:
            if g.side[c] != ALLIES:
                continue
        elif on == ON_AXIS:
            if g.side[c] != AXIS:
                continue
        elif g.side[c] != bside:
            continue
        return e
    return -1


def lost_possible(state: MedSiroccoState, p: int) -> bool:
    """S02 (R1): two other cards in hand and two other players holding a card (one holding two, at 2)."""
    if len(state.hands[p]) < 3:
        return False
    others = [q for q in range(state.num_players) if q != p and state.hands[q]]
    if state.num_players == 2:
        return bool(others) and len(state.hands[others[0]]) >= 2
    return len(others) >= 2


def check_play(state: MedSiroccoState, p: int, c: int) -> int:
    """Why card `c` may not join `p`'s face-up play now (a reason code), or R_OK.

    1.4 C, 3.1, 3.2 (one side per player), 2.2 / 3.1 (the year), 2.3 (Bonus), 2.41–2.48 and the Storm cards.
    """
    g = state.game
    k, sd, years, frame = g.card_facts[c]
    if sd != NEUTRAL:
        t_side = state.turn_side
        if t_side >= 0 and sd != t_side:
            return R_SIDE
    if state.turn_mode == 1 and len(state.entry_card) == state.turn_first_entry and sd != state.side[p]:
        return R_INTEL_SIDE
    if state.restrict_by >= 0 and restricted(state, p) and sd != state.restrict_side:
        return R_RESTRICT
    if k == K_FORCE:
        if not years & state.year_bit:
            return R_YEAR
        if state.turn_intel:
            return R_INTEL_FORCE
        if state.turn_forces >= state.turn_force_limit:
            return R_ONE_FORCE
        if frame == SUB and state.shallows_by >= 0 and shallows_active(state, p):
            return R_SHALLOWS
        if state.turn_raid and not frame & SURFACE:
            return R_RAID_SURFACE
        return R_OK
    if k == K_BONUS:
        if g.frame[c] == SUB and shallows_active(state, p):
            return R_SHALLOWS
        if not g.solo[c] and find_host(state, p, c) < 0:
            return R_BONUS_HOST
        return R_OK
    if k == K_SUPPLY:
        return R_OK
    eff = g.effect[c]
    if k == K_SPECIAL:
        if eff in (E_RAID, E_FUEL):
            if not state.engagement_type & SURFACE:
                return R_RAID_TYPE
            if state.is_battle and state.round_index > 0 and state.num_players > 2:
                return R_RAID_ROUND
            if state.raid_players >> p & 1:
                return R_TWIN
            for e in range(state.turn_first_entry, len(state.entry_card)):
                ce = state.entry_card[e]
                if state.entry_alive[e] and not state.entry_face_down[e] and g.kind[ce] == K_FORCE and not g.frame[ce] & SURFACE:
                    return R_RAID_SURFACE
            return R_OK
        if eff == E_INTEL:
            if state.is_battle and state.round_index > 0:
                return R_INTEL_ROUND
            if state.turn_forces > 0 or state.turn_mode == 1 or state.turn_intel:
                return R_INTEL_FORCE
            return R_OK
        if eff == E_ADMIRAL:
            if state.turn_forces == 0:
                return R_ADMIRAL_FORCE
            return R_OK
        return R_OK
    # Storm cards (Explanation of significant cards).
    if eff == E_NIGHT:
        return R_NIGHT
    if eff == E_SHALLOWS:
        return R_SHALLOWS_ROUND if state.is_battle and state.round_index > 0 else R_OK
    if eff == E_FOG:
        return R_OK if visible_alive(state, K_BONUS) else R_FOG_NONE
    if eff == E_BOMB:
        return R_OK if visible_alive(state, K_FORCE) else R_BOMB_NONE
    if eff == E_LOST:
        return R_OK if lost_possible(state, p) else R_LOST
    return R_OK


def reason_text(state: MedSiroccoState, p: int, c: int, code: int) -> str:
    """The refusal message for `check_play`'s code, citing the rule."""
    g = state.game
    label = g.label(c)
    if code == R_SIDE:
        return (f"3.1/3.2: a player plays cards of one side only in an Engagement; you fight for "
                f"{('Allies', 'Axis')[state.turn_side]} and {label} is not")
    if code == R_RESTRICT:
        return (f"2.42/2.43: after {g.label(state.restrict_card)} the remaining players may only play "
                f"{('Allied', 'Axis')[state.restrict_side]} cards or discard")
    if code == R_YEAR:
        years = [str(FIRST_YEAR + i) for i in range(4) if g.years[c] >> i & 1]
        return f"3.1 The year: {label} is playable in {', '.join(years)}; this Operation is {state.year}"
    if code == R_ONE_FORCE:
        return "1.4 C: one Force card per play (two only with an Admiral's option B, 2.46)"
    if code == R_SHALLOWS:
        return f"S07 Shallows: no periscope-view (submarine) card may be played after it this round ({label})"
    if code == R_BONUS_HOST:
        return (f"2.3: {label} must join a Force card of this play of the same type and "
                f"{'nation' if g.plays_on[c] == ON_NATION else 'side'}; it may not be played on its own")
    if code == R_RAID_TYPE:
        return f"2.42/2.43: {label} is played in a surface or combined Engagement only"
    if code == R_RAID_SURFACE:
        return "2.42/2.43: Raid on La Spezia / Romanian Fuel is played alone or with a surface card only"
    if code == R_TWIN:
        return "2.4: a player may play only one of Raid on La Spezia and Romanian Fuel per Engagement"
    if code == R_INTEL_ROUND:
        return "2.45: during a Battle, an Intelligence card can only be played in the 1st round"
    if code == R_INTEL_FORCE:
        return "2.45: an Intelligence card is played in place of a Force card"
    if code == R_ADMIRAL_FORCE:
        return "2.46: an Admiral is played in addition to a Force card; play the Force card first"
    if code == R_FOG_NONE:
        return "S04 Fog: there is no face-up Bonus card in play to cancel"
    if code == R_BOMB_NONE:
        return "S06 Bomb alley: there is no face-up Force card in play"
    if code == R_NIGHT:
        return "S05 Night action: played face down during the 2nd round of a Battle only"
    if code == R_SHALLOWS_ROUND:
        return "S07 Shallows: may not be played during the 2nd round of a Battle"
    if code == R_LOST:
        return "S02 Lost: you need two other cards in hand and two other players holding cards"
    if code == R_INTEL_SIDE:
        return "2.45: after an Intelligence card, the player must play a card of its side"
    if code == R_RAID_ROUND:
        return "2.42/2.43: this card can only affect the 1st round of a Battle"
    return "this card may be played"


# ----- legal actions --------------------------------------------------------------------------------------------
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
                    or check_play(state, p, c) == R_OK]
            if ph == PH_BUILD:
                acts.append(DONE)
            elif not acts:
                acts.append(PASS)
            acts.sort()
            return acts
        acts = [PLAY + c for c in hand if check_play(state, p, c) == R_OK]
        if ph == PH_BUILD:
            acts.append(DONE)
        elif state.turn_mode == 1:
            acts.append(PASS)
        elif state.is_battle:
            if not acts:
                acts.append(DISCARD_ALL if hand else PASS)
        elif hand:
            acts.extend(DISCARD + c for c in hand)
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
        if code != R_OK:
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


# ----- transitions ----------------------------------------------------------------------------------------------
def apply(state: MedSiroccoState, action: int) -> None:
    """Apply a legal player action (or, at a chance node, a chance outcome: `apply_chance`), then run the
    procedure to the next decision (1.4). The state's `_apply` hook is this function."""
    ph = state.phase
    if ph == PH_CHANCE:
        apply_chance(state, action)
        return
    p = state.to_act
    if ph in (PH_TURN, PH_BUILD):
        if action < DISCARD:
            play_card(state, p, action - PLAY)
        elif action < SELECT:
            c = action - DISCARD
            leave_hand(state, p, c)
            to_discard(state, c)
            end_turn(state)
        elif action == DISCARD_ALL:
            hand = state.hands[p]
            state.hands[p] = []
            for c in hand:
                to_discard(state, c)
                forget(state, c)
            if must_play(state) and not face_down_round(state):
                state.sat_out |= 1 << p
            end_turn(state)
        elif action == PASS:
            if state.turn_mode == 1:
                kill_entry(state, state.turn_intel_entry, to_pile=True)
            end_turn(state)
        else:
            end_turn(state)
    elif ph == PH_TYPE:
        declare_type(state, TYPE_MASKS[action - TYPE])
    elif ph == PH_OP_CHOOSE:
        choose_operation(state, action - SELECT)
    elif ph == PH_ADMIRAL:
        admiral(state, p, action == ADMIRAL_A)
    elif ph == PH_TARGET:
        target_card(state, p, action - SELECT)
    elif ph == PH_SIROCCO_TARGET:
        sirocco_cancel(state, p, action - SEAT)
    elif ph == PH_HELD:
        held_sirocco(state, p, action == USE)
    elif ph == PH_LOST_CARD:
        state.lost_cards.append(action - SELECT)
        if len(state.lost_cards) == 2:
            if state.num_players == 2:
                opp = 1 - p
                state.lost_seats = [opp, opp]
                state.lost_step = 0
                set_chance(state, CK_LOST_PICK)
            else:
                state.phase = PH_LOST_SEAT
    elif ph == PH_LOST_SEAT:
        state.lost_seats.append(action - SEAT)
        if len(state.lost_seats) == 2:
            state.lost_step = 0
            set_chance(state, CK_LOST_PICK)
    elif ph == PH_SUPPLY:
        supply_pick(state, p, -1 if action == PASS else action - SELECT)
    elif ph == PH_SHARE:
        share_give(state, action - SEAT)
    advance(state)


DICE_ACTIONS = [DIE + k for k in range(6)]


def legal_now(state: MedSiroccoState) -> list[int]:
    """The legal actions or chance outcomes now, for `apply_action` to test against (the state's `_legal_now`
    fast path): at a chance node the pile itself, uncopied (it is kept sorted; the driver only reads it)."""
    phase = state.phase
    if phase == PH_CHANCE:
        return chance_actions(state)
    if phase == PH_END:
        return []
    return legal_actions(state)


def chance_actions(state: MedSiroccoState) -> list[int]:
    """The possible outcomes at a chance node, sorted (a fast path for `legal_actions`)."""
    ck = state.chance_kind
    if ck == CK_DRAW:
        return state.pile  # the caller caches it until the next action and hands out copies
    if ck == CK_OP:
        return state.operations_pile
    if ck in (CK_EXPL_PICK, CK_LOST_PICK):
        return [c for c, _ in chance_outcomes(state)]
    return DICE_ACTIONS[:]


def set_chance(state: MedSiroccoState, kind: int) -> None:
    state.phase = PH_CHANCE
    state.chance_kind = kind


_UNIFORM: dict[int, list[tuple[int, float]]] = {}


def _uniform(size: int) -> list[tuple[int, float]]:
    """1.3 / 1.5: a draw from a pile of `size` cards; per card number, the pair (card, 1 / size). A draw's
    outcomes are looked up in it rather than built (about half of all actions are draws)."""
    row = _UNIFORM.get(size)
    if row is None:
        q = 1.0 / size
        row = _UNIFORM[size] = [(c, q) for c in range(N_CARDS)]
    return row


def chance_outcomes(state: MedSiroccoState) -> list[tuple[int, float]]:
    """Chance outcomes: a card from the Force or Operations pile, a die, a random card (1.3, 1.5, 3.4, S02, S03)."""
    ck = state.chance_kind
    if ck in (CK_DRAW, CK_OP):
        pile = state.pile if ck == CK_DRAW else state.operations_pile
        return list(map(_uniform(len(pile)).__getitem__, pile))
    if ck == CK_EXPL_PICK:
        cands = explosion_own(state)
        q = 1.0 / len(cands)
        return [(state.entry_card[e], q) for e in sorted(cands, key=lambda e: state.entry_card[e])]
    if ck == CK_LOST_PICK:
        cands = lost_pick_candidates(state)
        q = 1.0 / len(cands)
        return [(c, q) for c in cands]
    sixth = 1.0 / 6.0
    return [(DIE + k, sixth) for k in range(6)]


def apply_chance(state: MedSiroccoState, outcome: int) -> None:
    """Apply a chance outcome and run the procedure on."""
    ck = state.chance_kind
    state.chance_kind = -1
    if ck == CK_DRAW:
        queue = state.draw_queue
        pile = state.pile
        state.hands[queue.pop(0)].append(outcome)
        del pile[bisect_left(pile, outcome)]  # the pile is kept sorted
        if queue and pile:
            # The next draw of the refill: what `advance` would decide, without running it (half of all
            # actions are draws).
            state.chance_kind = CK_DRAW
            return
    elif ck == CK_OP:
        state.operations_pile.remove(outcome)
        state.operation_choice.append(outcome)
        if state.advanced and len(state.operation_choice) < 2 and state.operations_pile:
            state.chance_kind = CK_OP
        elif len(state.operation_choice) == 1:
            start_operation(state, outcome)
        else:
            state.to_act = state.first_player
            state.phase = PH_OP_CHOOSE
    elif ck == CK_SIROCCO:
        state.log.append((EV_ROLL_SIROCCO, state.to_act, outcome - DIE + 1))
        sirocco_roll(state, outcome - DIE + 1)
    elif ck == CK_EXPLOSION:
        state.log.append((EV_ROLL_EXPL, state.entry_player[state.explosion_entry], outcome - DIE + 1))
        state.explosion_sum += outcome - DIE + 1
        state.explosion_left -= 1
        if state.explosion_left == 0:
            explosion_effect(state)
        else:
            state.chance_kind = CK_EXPLOSION
    elif ck == CK_EXPL_PICK:
        for e in explosion_own(state):
            if state.entry_card[e] == outcome:
                kill_entry(state, e, to_pile=False)
                state.sunk.append(outcome)
                state.log.append((EV_SUNK, state.entry_player[e], outcome))
                discard_dependents(state, e)
                break
        finish_explosion(state)
    elif ck == CK_LOST_PICK:
        lost_exchange(state, outcome)
    elif ck == CK_ROLL:
        code = state.roll_queue.pop()
        state.entry_dice[code] += outcome - DIE + 1
        state.log.append((EV_ROLL_CARD, state.entry_card[code // 3], outcome - DIE + 1))
    advance(state)


# ----- 1.3 / 1.4 / 1.5 ------------------------------------------------------------------------------------------
def queue_refill(state: MedSiroccoState, start: int) -> None:
    """1.5: players draw to their hand size in the order of play, starting with the 1st player."""
    n = state.num_players
    for i in range(n):
        p = (start + i) % n
        need = hand_limit(state, p) - len(state.hands[p])
        for _ in range(need):
            state.draw_queue.append(p)


def advance(state: MedSiroccoState) -> None:
    """Run the procedure (1.4 A–D) until a player must decide or chance must act."""
    while True:
        if state.phase != PH_CHANCE or state.chance_kind >= 0:
            return
        if state.draw_queue:
            if not state.pile:
                if state.discard:
                    state.pile = sorted(state.discard)
                    state.discard = []
                else:
                    state.draw_queue.clear()
                    continue
            set_chance(state, CK_DRAW)
            return
        if state.sirocco_roller >= 0:
            state.to_act = state.sirocco_roller
            state.sirocco_roller = -1
            set_chance(state, CK_SIROCCO)
            return
        if state.held_sirocco_user >= 0:
            p = state.held_sirocco_user
            state.held_sirocco_user = -1
            if state.sirocco_holder == p:
                state.to_act = p
                state.phase = PH_HELD
                return
            continue
        st = state.stage
        if st == ST_TURNS:
            if next_turn(state):
                return
            state.stage = ST_INTEL
        elif st == ST_INTEL:
            if next_intel(state):
                return
            state.stage = ST_ROUND_END
        elif st == ST_ROUND_END:
            if round_end(state):
                return
        elif st == ST_RESOLVE:
            if resolve(state):
                return
        elif st == ST_SUPPLY:
            if next_supply(state):
                return
            after_supply(state)
        elif st == ST_SHARE:
            if share_next(state):
                return
        elif st == ST_ROUND_START:
            state.turn_index = 0
            state.stage = ST_TURNS
        elif st == ST_START_OP:
            if state.operations_done >= state.operations_total:
                end_game(state)
                if state.stage == ST_DONE:
                    return
                continue
            state.operation_choice = []
            set_chance(state, CK_OP)
            return
        else:
            state.phase = PH_END
            return


def start_operation(state: MedSiroccoState, op: int) -> None:
    """1.4 B: the 1st player turns over the Operation; its card says Convoy or Battle (2.1; 6.3: all Convoys)."""
    g = state.game
    state.operation = op
    state.operation_choice = []
    state.previous_log = state.log
    state.log = [(EV_OP, state.first_player, op)]
    state.year = g.op_year[op]
    state.year_bit = 1 << (state.year - FIRST_YEAR)
    state.is_battle = g.op_battle[op] and not state.faster
    state.rounds = 2 if (state.is_battle or state.num_players == 2) else 1
    state.under_card, state.under_side, state.under_player = [], [], []
    if state.is_battle:
        state.operation_type = g.op_type[op] if state.historicity else ALL_TYPES
        begin_engagement(state)
    else:
        state.to_act = state.first_player
        state.phase = PH_TYPE


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


def begin_engagement(state: MedSiroccoState) -> None:
    """1.4 C: a fresh Engagement (or the replay of a drawn one, 3.4 Tie) starts with its 1st player."""
    state.engagement_type = state.operation_type
    state.round_index = 0
    state.turn_index = 0
    state.cancelled = 0
    state.sat_out = 0
    state.victims = 0
    state.raid_players = 0
    state.side = [-1] * state.num_players
    state.entry_card, state.entry_player, state.entry_round, state.entry_host = [], [], [], []
    state.entry_alive, state.entry_face_down, state.entry_side, state.entry_dice = [], [], [], []
    state.restrict_by = -1
    state.admiral_by = -1
    state.bomb_entry = -1
    state.bomb_by = -1
    state.shallows_by = -1
    state.sirocco_holder = -1
    state.intel_queue = []
    state.explosion_queue = []
    state.roll_queue = []
    state.resolved = False
    state.stage = ST_TURNS
    state.phase = PH_CHANCE
    state.chance_kind = -1


def begin_turn(state: MedSiroccoState, p: int, intel_entry: int = -1) -> None:
    state.to_act = p
    state.phase = PH_TURN
    state.chance_kind = -1
    state.turn_forces = 0
    state.turn_force_limit = 1
    state.turn_intel = False
    state.turn_raid = False
    state.turn_first_entry = len(state.entry_card)
    state.turn_side = state.side[p]
    state.turn_mode = 1 if intel_entry >= 0 else 0
    state.turn_intel_entry = intel_entry
    state.turn_shallows = False
    state.turn_sirocco = -1
    if face_down_round(state) and intel_entry < 0 and (state.change_sides and state.num_players > 2):
        state.turn_side = -1


def next_turn(state: MedSiroccoState) -> bool:
    """1.4 C: each player in clockwise order from the 1st player (skipping cancelled and sat-out players)."""
    n = state.num_players
    while state.turn_index < n:
        p = (state.first_player + state.turn_index) % n
        state.turn_index += 1
        if state.cancelled >> p & 1 or (state.round_index > 0 and state.sat_out >> p & 1):
            continue
        begin_turn(state, p)
        return True
    return False


def next_intel(state: MedSiroccoState) -> bool:
    """2.45: a player who played an Intelligence card plays again after all the others have finished."""
    while state.intel_queue:
        e = state.intel_queue.pop(0)
        p = state.entry_player[e]
        if state.entry_alive[e] and not state.cancelled >> p & 1:
            begin_turn(state, p, e)
            return True
    return False


def end_turn(state: MedSiroccoState) -> None:
    """End of a player's play: Shallows takes effect (S07), then Sirocco rolls (2.44)."""
    p = state.to_act
    if state.turn_shallows:
        shallows(state, p)
    if state.turn_sirocco >= 0 and state.entry_alive[state.turn_sirocco]:
        state.sirocco_roller = p
        state.sirocco_entry = state.turn_sirocco
    if state.sirocco_holder == p:
        state.held_sirocco_user = p
    state.phase = PH_CHANCE
    state.chance_kind = -1


def add_entry(state: MedSiroccoState, p: int, c: int, down: bool) -> int:
    state.entry_card.append(c)
    state.entry_player.append(p)
    state.entry_round.append(state.round_index)
    state.entry_host.append(-1)
    state.entry_alive.append(True)
    state.entry_face_down.append(down)
    state.entry_side.append(state.game.played_side[c])
    state.entry_dice.extend((0, 0, 0))
    return len(state.entry_card) - 1


def kill_entry(state: MedSiroccoState, e: int, to_pile: bool) -> None:
    """Take an entry out of play; `to_pile` discards its card (otherwise the caller places it)."""
    if not state.entry_alive[e]:
        return
    state.entry_alive[e] = False
    if to_pile:
        to_discard(state, state.entry_card[e])


def discard_dependents(state: MedSiroccoState, e: int) -> None:
    """3.3: if the victim had a Bonus card, the Bonus card is discarded."""
    for b in range(len(state.entry_card)):
        if state.entry_host[b] == e and state.entry_alive[b]:
            kill_entry(state, b, to_pile=True)


def play_card(state: MedSiroccoState, p: int, c: int) -> None:
    """1.4 C: play one card of a compound play (a Force card plus Bonus, Storm, Special and Supply cards)."""
    g = state.game
    leave_hand(state, p, c)
    k = g.kind[c]
    if (state.is_battle and state.round_index == 1) and state.turn_mode == 0 and not (k == K_STORM and g.effect[c] != E_NIGHT):
        add_entry(state, p, c, True)
        state.phase = PH_BUILD
        return
    e = add_entry(state, p, c, False)
    sd = g.played_side[c]
    if sd != NEUTRAL and state.turn_side < 0:
        state.turn_side = sd
        if not ((state.is_battle and state.round_index == 1) and state.change_sides):
            state.side[p] = sd
    state.phase = PH_BUILD
    if k == K_FORCE:
        state.turn_forces += 1
        destiny_on_play(state, e)
    elif k == K_BONUS:
        state.entry_host[e] = find_host(state, p, c)
    elif k == K_SPECIAL:
        eff = g.effect[c]
        if eff in (E_RAID, E_FUEL):
            state.restrict_by = p
            state.restrict_side = sd
            state.restrict_round = state.round_index
            state.restrict_card = c
            state.turn_raid = True
            state.raid_players |= 1 << p
        elif eff == E_INTEL:
            state.turn_intel = True
            state.intel_queue.append(e)
        elif eff == E_ADMIRAL:
            if state.engagement_type != ALL_TYPES:
                state.phase = PH_ADMIRAL
                state.admiral_entry = e
            else:
                state.turn_force_limit = 2
    elif k == K_STORM:
        eff = g.effect[c]
        if eff == E_SIROCCO:
            state.turn_sirocco = e
        elif eff == E_EXPLOSION:
            state.explosion_queue.append(e)
        elif eff == E_SHALLOWS:
            state.turn_shallows = True
        elif eff in (E_FOG, E_BOMB):
            state.phase = PH_TARGET
            state.target_effect = eff
            state.target_entry = e
        elif eff == E_LOST:
            kill_entry(state, e, to_pile=True)
            state.lost_player = p
            state.lost_cards = []
            state.lost_seats = []
            state.lost_step = 0
            state.phase = PH_LOST_CARD


# ----- 3.3 Victims of Destiny ------------------------------------------------------------------------------------
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
    victim = state.game.victim[state.entry_card[e]]
    if victim < 0 or victim >= N_PILE:
        return
    for v in range(len(state.entry_card)):
        if state.entry_card[v] == victim and state.entry_alive[v] and not state.entry_face_down[v]:
            destroy(state, v, state.entry_player[e])


def destiny_sweep(state: MedSiroccoState) -> None:
    """3.3 (Battle): every face-up Destiny card destroys its face-up victim."""
    g = state.game
    e_card = state.entry_card
    for d in range(len(e_card)):
        if not state.entry_alive[d] or state.entry_face_down[d]:
            continue
        victim = g.victim[e_card[d]]
        if victim < 0 or victim >= N_PILE:
            continue
        for v in range(len(e_card)):
            if e_card[v] == victim and state.entry_alive[v] and not state.entry_face_down[v]:
                destroy(state, v, state.entry_player[d])


# ----- 2.44 Sirocco ------------------------------------------------------------------------------------------------
def sirocco_targets(state: MedSiroccoState, p: int) -> list[int]:
    """2.44 / S01: any other player still in the Engagement."""
    return [q for q in range(state.num_players) if q != p and not state.cancelled >> q & 1 and not state.sat_out >> q & 1]


def sirocco_card(state: MedSiroccoState) -> int:
    return state.game.index["S01"]


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
            state.phase = PH_SIROCCO_TARGET
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
    if state.stage == ST_TURNS:
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
    state.phase = PH_CHANCE
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
        state.phase = PH_CHANCE
        state.chance_kind = -1
        return
    release_sirocco(state)
    state.phase = PH_CHANCE
    state.chance_kind = -1


# ----- 2.46 Admirals, S04 Fog, S06 Bomb alley, S07 Shallows, S02 Lost, S03 Explosion -------------------------------
def admiral(state: MedSiroccoState, p: int, combined: bool) -> None:
    """2.46: A. the Engagement becomes combined for all; B. the player may play two Force cards."""
    if combined:
        state.engagement_type = ALL_TYPES
        state.admiral_by = p
    else:
        state.turn_force_limit = 2
    state.phase = PH_BUILD


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
    state.phase = PH_BUILD


def shallows(state: MedSiroccoState, p: int) -> None:
    """S07: discard every submarine (periscope) card in play; later players may not play one this round."""
    g = state.game
    for e in range(len(state.entry_card)):
        if state.entry_alive[e] and not state.entry_face_down[e] and g.frame[state.entry_card[e]] == SUB:
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
        state.phase = PH_BUILD
        state.chance_kind = -1
    else:
        state.chance_kind = CK_LOST_PICK


def explosion_targets(state: MedSiroccoState, p: int, total: int) -> int:
    """S03: below 7 the right-hand neighbour, above 7 the left-hand neighbour, 7 yourself."""
    if total < 7:
        return (p - 1) % state.num_players
    if total > 7:
        return (p + 1) % state.num_players
    return p


def round_forces(state: MedSiroccoState, q: int) -> list[int]:
    """2.47: the Force cards a player played in this round (alive, face up)."""
    g = state.game
    return [e for e in range(len(state.entry_card)) if state.entry_player[e] == q and state.entry_alive[e] and not state.entry_face_down[e]
            and state.entry_round[e] == state.round_index and g.kind[state.entry_card[e]] == K_FORCE]


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
            state.chance_kind = CK_EXPL_PICK
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
    g = state.game
    q = state.entry_player[e]
    for x in range(len(state.entry_card)):
        if (state.entry_alive[x] and state.entry_player[x] == q and state.entry_round[x] == state.entry_round[e]
                and g.kind[state.entry_card[x]] == K_SUPPLY):
            state.entry_alive[x] = False
            state.captured[by].append(state.entry_card[x])


def finish_explosion(state: MedSiroccoState) -> None:
    kill_entry(state, state.explosion_entry, to_pile=True)
    state.explosion_entry = -1
    state.chance_kind = -1


# ----- end of a round, 3.2 reveal ------------------------------------------------------------------------------
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
            set_chance(state, CK_EXPLOSION)
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
        state.stage = ST_TURNS
        return False
    state.stage = ST_RESOLVE
    return False


def reveal(state: MedSiroccoState) -> None:
    """3.2: the face-down cards are turned over; invalid cards are discarded and do not affect the outcome.
    S05 (and option 6.1) let the player's 2nd-round cards be of the other side."""
    g = state.game
    n = state.num_players
    night = g.index["S05"]
    for i in range(n):
        p = (state.first_player + i) % n
        mine = [e for e in range(len(state.entry_card)) if state.entry_player[e] == p and state.entry_alive[e] and state.entry_face_down[e]]
        if not mine:
            continue
        free = (state.change_sides and n > 2) or any(state.entry_card[e] == night for e in mine)
        state.to_act = p
        state.turn_forces = 0
        state.turn_force_limit = 1
        state.turn_intel = False
        state.turn_raid = False
        state.turn_mode = 0
        state.turn_first_entry = mine[0]
        state.turn_side = -1 if free else state.side[p]
        for e in mine:
            c = state.entry_card[e]
            code = reveal_check(state, p, c)
            state.entry_face_down[e] = False
            if code != R_OK:
                kill_entry(state, e, to_pile=True)
                state.log.append((EV_INVALID, p, c))
                continue
            sd = g.played_side[c]
            if sd != NEUTRAL and state.turn_side < 0:
                state.turn_side = sd
                if not free:
                    state.side[p] = sd
            k = g.kind[c]
            if k == K_FORCE:
                state.turn_forces += 1
            elif k == K_BONUS:
                state.entry_host[e] = find_host(state, p, c)
            elif k == K_SPECIAL and g.effect[c] == E_ADMIRAL:
                state.turn_force_limit = 2
            elif k == K_SPECIAL and g.effect[c] in (E_RAID, E_FUEL):
                state.turn_raid = True
                state.raid_players |= 1 << p
    destiny_sweep(state)


def reveal_check(state: MedSiroccoState, p: int, c: int) -> int:
    """3.2: the validity of a face-down card at the reveal (the same rules as a face-up play)."""
    g = state.game
    if g.kind[c] == K_STORM:
        return R_OK if g.effect[c] == E_NIGHT else R_NIGHT
    if g.kind[c] == K_SPECIAL and g.effect[c] == E_INTEL:
        return R_INTEL_ROUND
    return check_play(state, p, c)


# ----- 3.4 Outcome ---------------------------------------------------------------------------------------------------
def resolve(state: MedSiroccoState) -> bool:
    """3.4: dice for '?' after all plays (one per '?' per value counted), then the side totals decide."""
    g = state.game
    if not state.resolved:
        state.resolved = True
        q: list[int] = []
        et = state.engagement_type
        for e in range(len(state.entry_card)):
            if not state.entry_alive[e]:
                continue
            c = state.entry_card[e]
            if g.kind[c] != K_FORCE:
                continue
            dice = g.dice[c]
            for ti in range(3):
                if et >> ti & 1 and dice[ti]:
                    count = dice[ti] * (2 if ti == 0 and e == state.bomb_entry else 1)
                    q.extend([e * 3 + ti] * count)
        state.roll_queue = q
    if state.roll_queue:
        set_chance(state, CK_ROLL)
        return True
    outcome(state)
    return False


def entry_value(state: MedSiroccoState, e: int) -> int:
    """3.4 / 3.3 / 2.48 / S06 / O32–O38: a card's combat value in the declared type, Bonus cards included."""
    g = state.game
    c = state.entry_card[e]
    et = state.engagement_type
    op_air = g.op_air_bonus[state.operation] and et & AIR
    if g.kind[c] == K_BONUS:
        f = g.fixed[c]
        v = 0
        for ti in range(3):
            if et >> ti & 1:
                v += f[ti]
        return v + (1 if op_air else 0)
    fixed = g.fixed[c]
    destiny_op = g.victim[c] == state.operation
    bombed = e == state.bomb_entry
    bonuses = [b for b in range(len(state.entry_card)) if state.entry_host[b] == e and state.entry_alive[b]]
    total = 0
    for ti in range(3):
        if not et >> ti & 1:
            continue
        own = fixed[ti] * (2 if bombed and ti == 0 else 1) + state.entry_dice[e * 3 + ti]
        if destiny_op:
            own *= 2
        bon = 0
        for b in bonuses:
            bon += g.fixed[state.entry_card[b]][ti]
        if bombed and ti == 0:
            bon *= 2
        total += own + bon
    if op_air:
        total += 1 if bombed else 1 + len(bonuses)
    return total


def outcome(state: MedSiroccoState) -> None:
    """3.4: the higher side total wins; equal totals replay (the Intelligence player's side loses, 2.45);
    all zero is no combat."""
    g = state.game
    vals = [0] * len(state.entry_card)
    tot = [0, 0]
    for e in range(len(state.entry_card)):
        if not state.entry_alive[e]:
            continue
        c = state.entry_card[e]
        k = g.kind[c]
        if k == K_FORCE or (k == K_BONUS and state.entry_host[e] < 0):
            v = entry_value(state, e)
            vals[e] = v
            tot[state.entry_side[e]] += v
    state.entry_values = vals
    state.log.append((EV_TOTALS, tot[0], tot[1]))
    if tot[0] == 0 and tot[1] == 0:
        no_combat(state)
        return
    if tot[0] == tot[1]:
        intel_sides = {state.entry_side[e] for e in range(len(state.entry_card))
                       if state.entry_alive[e] and g.kind[state.entry_card[e]] == K_SPECIAL and g.effect[state.entry_card[e]] == E_INTEL}
        if len(intel_sides) == 1:
            win = 1 - intel_sides.pop()
        else:
            draw(state)
            return
    else:
        win = ALLIES if tot[0] > tot[1] else AXIS
    best = -1
    winner = -1
    for e in range(len(state.entry_card)):
        if state.entry_alive[e] and state.entry_side[e] == win and vals[e] > best:
            c = state.entry_card[e]
            k = g.kind[c]
            if k == K_FORCE or (k == K_BONUS and state.entry_host[e] < 0):
                best = vals[e]
                winner = state.entry_player[e]
    state.winning_side = win
    state.winner = winner
    state.supply_queue = [i for i in range(len(state.under_card)) if g.kind[state.under_card[i]] == K_SUPPLY and state.under_side[i] == win]
    state.supply_queue += [SUPPLY_IN_PLAY + e for e in range(len(state.entry_card))
                       if state.entry_alive[e] and g.kind[state.entry_card[e]] == K_SUPPLY and state.entry_side[e] == win]
    state.picked = []
    state.stage = ST_SUPPLY


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
    g = state.game
    win = state.winning_side
    out = [c for i, c in enumerate(state.under_card) if state.under_side[i] == win and g.kind[c] == K_FORCE and g.frame[c] == SURFACE]
    out += [state.entry_card[e] for e in range(len(state.entry_card)) if state.entry_alive[e] and state.entry_side[e] == win
            and g.kind[state.entry_card[e]] == K_FORCE and g.frame[state.entry_card[e]] == SURFACE]
    return sorted(c for c in out if c not in state.picked)


def next_supply(state: MedSiroccoState) -> bool:
    """2.41: each Supply card of the winning side lets its player pick up a ship card (in play order)."""
    while state.supply_queue:
        code = state.supply_queue[0]
        player = state.under_player[code] if code < SUPPLY_IN_PLAY else state.entry_player[code - SUPPLY_IN_PLAY]
        if supply_candidates(state):
            state.to_act = player
            state.phase = PH_SUPPLY
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
    state.phase = PH_CHANCE
    state.chance_kind = -1


def after_supply(state: MedSiroccoState) -> None:
    """3.4 Winning the trick: the Operation and the losing side's Force and Supply cards (of every round)
    go to the winner (5.0: shared); every other card is discarded."""
    g = state.game
    lose = 1 - state.winning_side
    spoils: list[int] = []
    for i, c in enumerate(state.under_card):
        if c < 0 or c in state.picked:
            continue
        if state.under_side[i] == lose and g.kind[c] in (K_FORCE, K_SUPPLY):
            spoils.append(c)
        else:
            to_discard(state, c)
    for e in range(len(state.entry_card)):
        if not state.entry_alive[e]:
            continue
        state.entry_alive[e] = False
        c = state.entry_card[e]
        if c in state.picked:
            continue
        if state.entry_side[e] == lose and g.kind[c] in (K_FORCE, K_SUPPLY):
            spoils.append(c)
        else:
            to_discard(state, c)
    state.under_card, state.under_side, state.under_player = [], [], []
    if state.advanced:
        elig = share_eligible(state)
        if len(elig) > 1:
            state.share_pool = [state.operation, *sorted(spoils)]
            state.share_eligible = elig
            state.share_count = [0] * state.num_players
            state.stage = ST_SHARE
            return
    award_operation(state, state.winner, state.operation)
    state.captured[state.winner].extend(spoils)
    finish_operation(state)


def award_operation(state: MedSiroccoState, p: int, op: int) -> None:
    """1.1 / 1.5: the Operation is won (its VP, and its freighter for the hand size)."""
    state.won[p].append(op)
    state.log.append((EV_WIN, p, op))
    load = state.game.op_load[op]
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
            state.phase = PH_SHARE
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
    state.phase = PH_CHANCE
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
    state.side = [-1] * state.num_players
    state.cancelled = 0
    state.sat_out = 0
    queue_refill(state, state.first_player)
    state.operations_done += 1
    state.first_player = (state.first_player + 1) % state.num_players
    state.stage = ST_START_OP
    state.phase = PH_CHANCE
    state.chance_kind = -1


# ----- 1.1 / 1.2 Scoring and the end ------------------------------------------------------------------------------
def victory_points(state: MedSiroccoState) -> list[int]:
    """1.1: each Operation won and each card sunk (captured) is worth its VP."""
    g = state.game
    return [sum(g.vp[c] for c in state.won[p]) + sum(g.vp[c] for c in state.captured[p]) for p in range(state.num_players)]


def end_game(state: MedSiroccoState) -> None:
    """1.2: after the last Operation, VP decide; ties go to the most Operations won. Series play deals new
    games until someone has 75 VP or more at the end of a game."""
    vp = victory_points(state)
    if state.series:
        for p in range(state.num_players):
            state.series_vp[p] += vp[p]
            state.series_ops[p] += len(state.won[p])
        if max(state.series_vp) < SERIES_TARGET:
            new_deal(state, (state.dealer + 1) % state.num_players)
            return
    state.stage = ST_DONE
    state.phase = PH_END


def new_deal(state: MedSiroccoState, dealer: int) -> None:
    """1.3: the dealer shuffles the Force-pile cards, deals six to each player, and sets out the Operations."""
    everything = list(range(N_PILE))
    state.pile = everything
    state.discard = []
    state.hands = [[] for _ in range(state.num_players)]
    state.won = [[] for _ in range(state.num_players)]
    state.captured = [[] for _ in range(state.num_players)]
    state.sunk = []
    state.operations_pile = list(range(N_PILE, N_CARDS))
    state.operations_out = []
    state.freighters_full = [0] * state.num_players
    state.freighters_half = [0] * state.num_players
    state.known_cards = [0] * state.num_players
    state.any_known = False
    state.operations_done = 0
    state.dealer = dealer
    state.first_player = dealer
    state.game_number += 1
    for _ in range(HAND_SIZE):
        for i in range(state.num_players):
            state.draw_queue.append((dealer + 1 + i) % state.num_players)
    state.stage = ST_START_OP
    state.phase = PH_CHANCE
    state.chance_kind = -1


def returns(state: MedSiroccoState) -> list[float]:
    """1.2: the winner (most VP, then most Operations won; series: totals) gets 1, shared on a full tie."""
    if state.phase != PH_END:
        return [0.0] * state.num_players
    if state.series:
        vp, ops = state.series_vp, state.series_ops
    else:
        vp = victory_points(state)
        ops = [len(w) for w in state.won]
    best = max(zip(vp, ops, strict=True))
    winners = [p for p in range(state.num_players) if (vp[p], ops[p]) == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(state.num_players)]
