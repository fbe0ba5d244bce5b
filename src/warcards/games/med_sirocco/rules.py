"""Med Sirocco rules: legal actions, transitions and scoring, one function per rule section.

The functions take the `MedSiroccoState` (plain lists and ints) and change it in place. `advance` runs the
engagement procedure (1.4, 3.0–3.4, 4.0) until a player must decide or chance must act. Section numbers
are those of the rulebook; the rulings on its gaps are in RULES.md.
"""

from __future__ import annotations

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
from warcards.games.med_sirocco.notation import (
    ADMIRAL_A,
    ADMIRAL_B,
    DIE,
    DISCARD,
    DISCARD_ALL,
    DONE,
    N_CARDS,
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
    from warcards.games.med_sirocco.state import MedSiroccoState as S

# Phases (who acts and on what).
PH_CHANCE, PH_OP_CHOOSE, PH_TYPE, PH_TURN, PH_BUILD, PH_ADMIRAL = 0, 1, 2, 3, 4, 5
PH_TARGET, PH_SIROCCO_TARGET, PH_HELD, PH_LOST_CARD, PH_LOST_SEAT, PH_SUPPLY, PH_SHARE, PH_END = (
    6, 7, 8, 9, 10, 11, 12, 13)
PHASE_NAMES = ("chance", "choose-operation", "declare-type", "turn", "play", "admiral", "target", "sirocco-target",
               "held-sirocco", "lost-card", "lost-seat", "supply", "share", "end")
# Chance kinds.
CK_DRAW, CK_OP, CK_SIROCCO, CK_EXPLOSION, CK_EXPL_PICK, CK_LOST_PICK, CK_ROLL = 0, 1, 2, 3, 4, 5, 6
# Stages of the procedure.
ST_START_OP, ST_ROUND_START, ST_TURNS, ST_INTEL, ST_ROUND_END, ST_RESOLVE, ST_SUPPLY, ST_SHARE, ST_DONE = range(9)
STAGE_NAMES = ("start-operation", "round-start", "turns", "intelligence", "round-end", "resolve", "supply", "share",
               "over")

# Public events kept for the views (code, a, b); `views.EVENT_TEXT` writes them out.
EV_OP, EV_ROLL_SIROCCO, EV_ROLL_EXPL, EV_ROLL_CARD, EV_CANCEL, EV_SIROCCO_PASS, EV_SIROCCO_GONE = range(7)
EV_DESTROY, EV_SUNK, EV_INVALID, EV_TOTALS, EV_WIN, EV_DRAW, EV_NO_COMBAT, EV_PICKUP, EV_SHARE = range(7, 16)

# Reasons a card may not be played now (codes; `reason_text` writes them out).
R_OK, R_SIDE, R_RESTRICT, R_YEAR, R_ONE_FORCE, R_SHALLOWS, R_BONUS_HOST, R_RAID_TYPE, R_RAID_SURFACE = range(9)
R_TWIN, R_INTEL_ROUND, R_INTEL_FORCE, R_ADMIRAL_FORCE, R_FOG_NONE, R_BOMB_NONE, R_NIGHT = range(9, 16)
R_SHALLOWS_ROUND, R_LOST, R_INTEL_SIDE, R_RAID_ROUND = range(16, 20)


# ----- small helpers -------------------------------------------------------------------------------------------
def hand_limit(s: S, p: int) -> int:
    """1.5: six cards, +1 per full freighter won, +1 per two half freighters, at most nine."""
    return min(MAX_HAND, HAND_SIZE + s.full[p] + s.half[p] // 2)


def face_down_round(s: S) -> bool:
    """3.2 / 4.0: the 2nd round of a Battle is played face down."""
    return s.battle and s.rnd == 1


def must_play(s: S) -> bool:
    """3.2: every round of a Battle is compulsory; a Convoy's are optional (3.1)."""
    return s.battle


def leave_hand(s: S, p: int, card: int) -> None:
    s.hands[p].remove(card)
    if s.any_known:
        forget(s, card)


def forget(s: S, card: int) -> None:
    """A card that leaves a hand is no longer known to be there."""
    if s.any_known:
        mask = ~(1 << card)
        known = s.known
        for i in range(s.n):
            known[i] &= mask


def to_discard(s: S, card: int) -> None:
    """1.0 / 1.5: a discarded card goes to the discard pile, reshuffled into the Force pile when it runs out."""
    s.discard.append(card)


def restricted(s: S, p: int) -> bool:
    """2.42 / 2.43: players after Raid on La Spezia / Romanian Fuel play only its side (4.0: both rounds)."""
    if s.restrict_by < 0:
        return False
    if s.rnd == s.restrict_round:
        return p != s.restrict_by
    return s.n == 2 and s.rnd > s.restrict_round


def shallows_active(s: S, p: int) -> bool:
    """S07: no player after Shallows may play periscope-view cards this round."""
    return s.shallows_by >= 0 and s.shallows_by != p and s.shallows_round == s.rnd


def visible_alive(s: S, kind: int) -> bool:
    deck_kind = s.g.kind
    for e in range(len(s.e_card)):
        if s.e_alive[e] and not s.e_down[e] and deck_kind[s.e_card[e]] == kind:
            return True
    return False


def find_host(s: S, p: int, bonus: int) -> int:
    """2.3: the Force card of this play that a Bonus joins: same type, and same nation (Axis), same side
    (Allies), any Allied card (X54) or any Axis card (A53). The latest such card, or -1."""
    g = s.g
    frame = g.frame[bonus]
    on = g.plays_on[bonus]
    bside = g.side[bonus]
    bnation = g.nation[bonus]
    e_card = s.e_card
    for e in range(len(e_card) - 1, s.t_start - 1, -1):
        if s.e_player[e] != p or not s.e_alive[e] or s.e_down[e]:
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


def lost_possible(s: S, p: int) -> bool:
    """S02 (ruling): two other cards in hand and two other players holding a card (one holding two, at 2)."""
    if len(s.hands[p]) < 3:
        return False
    others = [q for q in range(s.n) if q != p and s.hands[q]]
    if s.n == 2:
        return bool(others) and len(s.hands[others[0]]) >= 2
    return len(others) >= 2


def check_play(s: S, p: int, c: int) -> int:
    """Why card `c` may not join `p`'s face-up play now (a reason code), or R_OK.

    1.4 C, 3.1, 3.2 (one side per player), 2.2 / 3.1 (the year), 2.3 (Bonus), 2.41–2.48 and the Storm cards.
    """
    g = s.g
    k, sd, years, frame = g.info[c]
    if sd != NEUTRAL:
        t_side = s.t_side
        if t_side >= 0 and sd != t_side:
            return R_SIDE
    if s.t_mode == 1 and len(s.e_card) == s.t_start and sd != s.side[p]:
        return R_INTEL_SIDE
    if s.restrict_by >= 0 and restricted(s, p) and sd != s.restrict_side:
        return R_RESTRICT
    if k == K_FORCE:
        if not years & s.year_bit:
            return R_YEAR
        if s.t_intel:
            return R_INTEL_FORCE
        if s.t_force >= s.t_fmax:
            return R_ONE_FORCE
        if frame == SUB and s.shallows_by >= 0 and shallows_active(s, p):
            return R_SHALLOWS
        if s.t_raid and not frame & SURFACE:
            return R_RAID_SURFACE
        return R_OK
    if k == K_BONUS:
        if g.frame[c] == SUB and shallows_active(s, p):
            return R_SHALLOWS
        if not g.solo[c] and find_host(s, p, c) < 0:
            return R_BONUS_HOST
        return R_OK
    if k == K_SUPPLY:
        return R_OK
    eff = g.effect[c]
    if k == K_SPECIAL:
        if eff in (E_RAID, E_FUEL):
            if not s.eng_type & SURFACE:
                return R_RAID_TYPE
            if s.battle and s.rnd > 0 and s.n > 2:
                return R_RAID_ROUND
            if s.twin >> p & 1:
                return R_TWIN
            for e in range(s.t_start, len(s.e_card)):
                ce = s.e_card[e]
                if s.e_alive[e] and not s.e_down[e] and g.kind[ce] == K_FORCE and not g.frame[ce] & SURFACE:
                    return R_RAID_SURFACE
            return R_OK
        if eff == E_INTEL:
            if s.battle and s.rnd > 0:
                return R_INTEL_ROUND
            if s.t_force > 0 or s.t_mode == 1 or s.t_intel:
                return R_INTEL_FORCE
            return R_OK
        if eff == E_ADMIRAL:
            if s.t_force == 0:
                return R_ADMIRAL_FORCE
            return R_OK
        return R_OK
    # Storm cards (Explanation of significant cards).
    if eff == E_NIGHT:
        return R_NIGHT
    if eff == E_SHALLOWS:
        return R_SHALLOWS_ROUND if s.battle and s.rnd > 0 else R_OK
    if eff == E_FOG:
        return R_OK if visible_alive(s, K_BONUS) else R_FOG_NONE
    if eff == E_BOMB:
        return R_OK if visible_alive(s, K_FORCE) else R_BOMB_NONE
    if eff == E_LOST:
        return R_OK if lost_possible(s, p) else R_LOST
    return R_OK


def reason_text(s: S, p: int, c: int, code: int) -> str:
    """The refusal message for `check_play`'s code, citing the rule."""
    g = s.g
    label = g.label(c)
    if code == R_SIDE:
        return (f"3.1/3.2: a player plays cards of one side only in an Engagement; you fight for "
                f"{('Allies', 'Axis')[s.t_side]} and {label} is not")
    if code == R_RESTRICT:
        return (f"2.42/2.43: after {g.label(s.restrict_card)} the remaining players may only play "
                f"{('Allied', 'Axis')[s.restrict_side]} cards or discard")
    if code == R_YEAR:
        years = [str(1940 + i) for i in range(4) if g.years[c] >> i & 1]
        return f"3.1 The year: {label} is playable in {', '.join(years)}; this Operation is {s.year}"
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
def legal_actions(s: S) -> list[int]:
    """The sorted legal actions of the player to act (1.4 C, 3.1, 3.2, 4.0, 5.0 and the card texts)."""
    ph = s.phase
    p = s.cur
    if ph in (PH_TURN, PH_BUILD):
        hand = s.hands[p]
        g = s.g
        acts: list[int]
        if (s.battle and s.rnd == 1) and s.t_mode == 0:
            acts = [PLAY + c for c in hand if g.kind[c] != K_STORM or g.effect[c] == E_NIGHT
                    or check_play(s, p, c) == R_OK]
            if ph == PH_BUILD:
                acts.append(DONE)
            elif not acts:
                acts.append(PASS)
            acts.sort()
            return acts
        acts = [PLAY + c for c in hand if check_play(s, p, c) == R_OK]
        if ph == PH_BUILD:
            acts.append(DONE)
        elif s.t_mode == 1:
            acts.append(PASS)
        elif s.battle:
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
        return sorted(SELECT + c for c in s.op_choice)
    if ph == PH_ADMIRAL:
        return [ADMIRAL_A, ADMIRAL_B]
    if ph == PH_TARGET:
        kind = K_BONUS if s.target_effect == E_FOG else K_FORCE
        g = s.g
        return sorted({SELECT + s.e_card[e] for e in range(len(s.e_card))
                       if s.e_alive[e] and not s.e_down[e] and g.kind[s.e_card[e]] == kind})
    if ph == PH_SIROCCO_TARGET:
        return [SEAT + q for q in sirocco_targets(s, p)]
    if ph == PH_HELD:
        return [PASS, USE]
    if ph == PH_LOST_CARD:
        return sorted(SELECT + c for c in s.hands[p] if c not in s.lost_cards)
    if ph == PH_LOST_SEAT:
        return [SEAT + q for q in range(s.n) if q != p and q not in s.lost_seats and s.hands[q]]
    if ph == PH_SUPPLY:
        return sorted([SELECT + c for c in supply_candidates(s)] + [PASS])
    if ph == PH_SHARE:
        return [SEAT + q for q in share_targets(s)]
    return []


def illegal_reason(s: S, action: int) -> str:
    """Why a real action is not legal now, citing the rule."""
    ph = s.phase
    p = s.cur
    if ph == PH_END:
        return "the game is over"
    if ph in (PH_TURN, PH_BUILD) and PLAY <= action < DISCARD:
        c = action - PLAY
        if c not in s.hands[p]:
            return f"1.4 C: {s.g.label(c)} is not in your hand"
        if face_down_round(s) and s.t_mode == 0:
            code = check_play(s, p, c)
            return reason_text(s, p, c, code)
        code = check_play(s, p, c)
        if code != R_OK:
            return reason_text(s, p, c, code)
    if (ph == PH_TURN and action in (PASS, DISCARD_ALL)) or (DISCARD <= action < SELECT and ph == PH_TURN):
        if must_play(s) and not face_down_round(s):
            return "3.2: in the 1st round of a Battle each player must play a card if he has a valid one"
        if face_down_round(s):
            return "3.2: in the 2nd round of a Battle each player must play a card face down"
        if DISCARD <= action < SELECT:
            return f"1.4 C: {s.g.label(action - DISCARD)} is not in your hand"
    if ph == PH_BUILD and (DISCARD <= action < SELECT or action in (DISCARD_ALL, PASS)):
        return "1.4 C: you have played a card; add cards to the play or end it with done"
    if ph == PH_TURN and action == PASS and s.hands[p]:
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
def apply_action(s: S, a: int) -> None:
    """Apply a legal player action, then run the procedure to the next decision (1.4)."""
    ph = s.phase
    p = s.cur
    if ph in (PH_TURN, PH_BUILD):
        if a < DISCARD:
            play_card(s, p, a - PLAY)
        elif a < SELECT:
            c = a - DISCARD
            leave_hand(s, p, c)
            to_discard(s, c)
            end_turn(s)
        elif a == DISCARD_ALL:
            hand = s.hands[p]
            s.hands[p] = []
            for c in hand:
                to_discard(s, c)
                forget(s, c)
            if must_play(s) and not face_down_round(s):
                s.satout |= 1 << p
            end_turn(s)
        elif a == PASS:
            if s.t_mode == 1:
                kill_entry(s, s.t_intel_entry, to_pile=True)
            end_turn(s)
        else:
            end_turn(s)
    elif ph == PH_TYPE:
        declare_type(s, TYPE_MASKS[a - TYPE])
    elif ph == PH_OP_CHOOSE:
        choose_operation(s, a - SELECT)
    elif ph == PH_ADMIRAL:
        admiral(s, p, a == ADMIRAL_A)
    elif ph == PH_TARGET:
        target_card(s, p, a - SELECT)
    elif ph == PH_SIROCCO_TARGET:
        sirocco_cancel(s, p, a - SEAT)
    elif ph == PH_HELD:
        held_sirocco(s, p, a == USE)
    elif ph == PH_LOST_CARD:
        s.lost_cards.append(a - SELECT)
        if len(s.lost_cards) == 2:
            if s.n == 2:
                opp = 1 - p
                s.lost_seats = [opp, opp]
                s.lost_step = 0
                set_chance(s, CK_LOST_PICK)
            else:
                s.phase = PH_LOST_SEAT
    elif ph == PH_LOST_SEAT:
        s.lost_seats.append(a - SEAT)
        if len(s.lost_seats) == 2:
            s.lost_step = 0
            set_chance(s, CK_LOST_PICK)
    elif ph == PH_SUPPLY:
        supply_pick(s, p, -1 if a == PASS else a - SELECT)
    elif ph == PH_SHARE:
        share_give(s, a - SEAT)
    advance(s)


DICE_ACTIONS = [DIE + k for k in range(6)]


def chance_actions(s: S) -> list[int]:
    """The possible outcomes at a chance node, sorted (a fast path for `legal_actions`)."""
    ck = s.ck
    if ck == CK_DRAW:
        return s.pile  # the caller caches it until the next action and hands out copies
    if ck == CK_OP:
        return s.ops_pile
    if ck in (CK_EXPL_PICK, CK_LOST_PICK):
        return [c for c, _ in chance_outcomes(s)]
    return DICE_ACTIONS[:]


def set_chance(s: S, kind: int) -> None:
    s.phase = PH_CHANCE
    s.ck = kind


_UNIFORM: dict[int, list[tuple[int, float]]] = {}


def _uniform(size: int) -> list[tuple[int, float]]:
    """1.3 / 1.5: a draw from a pile of `size` cards; per card number, the pair (card, 1 / size). A draw's
    outcomes are looked up in it rather than built (about half of all actions are draws)."""
    row = _UNIFORM.get(size)
    if row is None:
        q = 1.0 / size
        row = _UNIFORM[size] = [(c, q) for c in range(N_CARDS)]
    return row


def chance_outcomes(s: S) -> list[tuple[int, float]]:
    """Chance outcomes: a card from the Force or Operations pile, a die, a random card (1.3, 1.5, 3.4, S02, S03)."""
    ck = s.ck
    if ck in (CK_DRAW, CK_OP):
        pile = s.pile if ck == CK_DRAW else s.ops_pile
        return list(map(_uniform(len(pile)).__getitem__, pile))
    if ck == CK_EXPL_PICK:
        cands = explosion_own(s)
        q = 1.0 / len(cands)
        return [(s.e_card[e], q) for e in sorted(cands, key=lambda e: s.e_card[e])]
    if ck == CK_LOST_PICK:
        cands = lost_pick_candidates(s)
        q = 1.0 / len(cands)
        return [(c, q) for c in cands]
    sixth = 1.0 / 6.0
    return [(DIE + k, sixth) for k in range(6)]


def apply_chance(s: S, outcome: int) -> None:
    """Apply a chance outcome and run the procedure on."""
    ck = s.ck
    s.ck = -1
    if ck == CK_DRAW:
        p = s.draw_queue.pop(0)
        s.pile.remove(outcome)
        s.hands[p].append(outcome)
    elif ck == CK_OP:
        s.ops_pile.remove(outcome)
        s.op_choice.append(outcome)
        if s.advanced and len(s.op_choice) < 2 and s.ops_pile:
            s.ck = CK_OP
        elif len(s.op_choice) == 1:
            start_operation(s, outcome)
        else:
            s.cur = s.first
            s.phase = PH_OP_CHOOSE
    elif ck == CK_SIROCCO:
        s.log.append((EV_ROLL_SIROCCO, s.cur, outcome - DIE + 1))
        sirocco_roll(s, outcome - DIE + 1)
    elif ck == CK_EXPLOSION:
        s.log.append((EV_ROLL_EXPL, s.e_player[s.expl_entry], outcome - DIE + 1))
        s.expl_sum += outcome - DIE + 1
        s.expl_left -= 1
        if s.expl_left == 0:
            explosion_effect(s)
        else:
            s.ck = CK_EXPLOSION
    elif ck == CK_EXPL_PICK:
        for e in explosion_own(s):
            if s.e_card[e] == outcome:
                kill_entry(s, e, to_pile=False)
                s.sunk.append(outcome)
                s.log.append((EV_SUNK, s.e_player[e], outcome))
                discard_dependents(s, e)
                break
        finish_explosion(s)
    elif ck == CK_LOST_PICK:
        lost_exchange(s, outcome)
    elif ck == CK_ROLL:
        code = s.roll_queue.pop()
        s.e_roll[code] += outcome - DIE + 1
        s.log.append((EV_ROLL_CARD, s.e_card[code // 3], outcome - DIE + 1))
    advance(s)


# ----- 1.3 / 1.4 / 1.5 ------------------------------------------------------------------------------------------
def queue_refill(s: S, start: int) -> None:
    """1.5: players draw to their hand size in the order of play, starting with the 1st player."""
    n = s.n
    for i in range(n):
        p = (start + i) % n
        need = hand_limit(s, p) - len(s.hands[p])
        for _ in range(need):
            s.draw_queue.append(p)


def advance(s: S) -> None:
    """Run the procedure (1.4 A–D) until a player must decide or chance must act."""
    while True:
        if s.phase != PH_CHANCE or s.ck >= 0:
            return
        if s.draw_queue:
            if not s.pile:
                if s.discard:
                    s.pile = sorted(s.discard)
                    s.discard = []
                else:
                    s.draw_queue.clear()
                    continue
            set_chance(s, CK_DRAW)
            return
        if s.post_sirocco >= 0:
            s.cur = s.post_sirocco
            s.post_sirocco = -1
            set_chance(s, CK_SIROCCO)
            return
        if s.post_held >= 0:
            p = s.post_held
            s.post_held = -1
            if s.sirocco_holder == p:
                s.cur = p
                s.phase = PH_HELD
                return
            continue
        st = s.stage
        if st == ST_TURNS:
            if next_turn(s):
                return
            s.stage = ST_INTEL
        elif st == ST_INTEL:
            if next_intel(s):
                return
            s.stage = ST_ROUND_END
        elif st == ST_ROUND_END:
            if round_end(s):
                return
        elif st == ST_RESOLVE:
            if resolve(s):
                return
        elif st == ST_SUPPLY:
            if next_supply(s):
                return
            after_supply(s)
        elif st == ST_SHARE:
            if share_next(s):
                return
        elif st == ST_ROUND_START:
            s.turn_idx = 0
            s.stage = ST_TURNS
        elif st == ST_START_OP:
            if s.ops_done >= s.ops_total:
                end_game(s)
                if s.stage == ST_DONE:
                    return
                continue
            s.op_choice = []
            set_chance(s, CK_OP)
            return
        else:
            s.phase = PH_END
            return


def start_operation(s: S, op: int) -> None:
    """1.4 B: the 1st player turns over the Operation; its card says Convoy or Battle (2.1; 6.3: all Convoys)."""
    g = s.g
    s.op = op
    s.op_choice = []
    s.log_prev = s.log
    s.log = [(EV_OP, s.first, op)]
    s.year = g.op_year[op]
    s.year_bit = 1 << (s.year - 1940)
    s.battle = g.op_battle[op] and not s.faster
    s.rounds = 2 if (s.battle or s.n == 2) else 1
    s.u_card, s.u_side, s.u_player = [], [], []
    if s.battle:
        s.base_type = g.op_type[op] if s.historicity else ALL_TYPES
        begin_engagement(s)
    else:
        s.cur = s.first
        s.phase = PH_TYPE


def choose_operation(s: S, op: int) -> None:
    """5.0: the 1st player keeps one of the two Operations drawn; the other is discarded."""
    for other in s.op_choice:
        if other != op:
            s.ops_out.append(other)
    s.op_choice = []
    start_operation(s, op)


def declare_type(s: S, mask: int) -> None:
    """3.1 Engagement: the first player announces air, surface, sub or combined."""
    s.base_type = mask
    begin_engagement(s)


def begin_engagement(s: S) -> None:
    """1.4 C: a fresh Engagement (or the replay of a drawn one, 3.4 Tie) starts with its 1st player."""
    s.eng_type = s.base_type
    s.rnd = 0
    s.turn_idx = 0
    s.cancelled = 0
    s.satout = 0
    s.victims = 0
    s.twin = 0
    s.side = [-1] * s.n
    s.e_card, s.e_player, s.e_round, s.e_host = [], [], [], []
    s.e_alive, s.e_down, s.e_side, s.e_roll = [], [], [], []
    s.restrict_by = -1
    s.admiral_by = -1
    s.bomb_entry = -1
    s.bomb_by = -1
    s.shallows_by = -1
    s.sirocco_holder = -1
    s.intel_queue = []
    s.expl_queue = []
    s.roll_queue = []
    s.resolved = False
    s.stage = ST_TURNS
    s.phase = PH_CHANCE
    s.ck = -1


def begin_turn(s: S, p: int, intel_entry: int = -1) -> None:
    s.cur = p
    s.phase = PH_TURN
    s.ck = -1
    s.t_force = 0
    s.t_fmax = 1
    s.t_intel = False
    s.t_raid = False
    s.t_start = len(s.e_card)
    s.t_side = s.side[p]
    s.t_mode = 1 if intel_entry >= 0 else 0
    s.t_intel_entry = intel_entry
    s.t_shallows = False
    s.t_sirocco = -1
    if face_down_round(s) and intel_entry < 0 and (s.change_sides and s.n > 2):
        s.t_side = -1


def next_turn(s: S) -> bool:
    """1.4 C: each player in clockwise order from the 1st player (skipping cancelled and sat-out players)."""
    n = s.n
    while s.turn_idx < n:
        p = (s.first + s.turn_idx) % n
        s.turn_idx += 1
        if s.cancelled >> p & 1 or (s.rnd > 0 and s.satout >> p & 1):
            continue
        begin_turn(s, p)
        return True
    return False


def next_intel(s: S) -> bool:
    """2.45: a player who played an Intelligence card plays again after all the others have finished."""
    while s.intel_queue:
        e = s.intel_queue.pop(0)
        p = s.e_player[e]
        if s.e_alive[e] and not s.cancelled >> p & 1:
            begin_turn(s, p, e)
            return True
    return False


def end_turn(s: S) -> None:
    """End of a player's play: Shallows takes effect (S07), then Sirocco rolls (2.44)."""
    p = s.cur
    if s.t_shallows:
        shallows(s, p)
    if s.t_sirocco >= 0 and s.e_alive[s.t_sirocco]:
        s.post_sirocco = p
        s.sirocco_entry = s.t_sirocco
    if s.sirocco_holder == p:
        s.post_held = p
    s.phase = PH_CHANCE
    s.ck = -1


def add_entry(s: S, p: int, c: int, down: bool) -> int:
    s.e_card.append(c)
    s.e_player.append(p)
    s.e_round.append(s.rnd)
    s.e_host.append(-1)
    s.e_alive.append(True)
    s.e_down.append(down)
    s.e_side.append(s.g.pside[c])
    s.e_roll.extend((0, 0, 0))
    return len(s.e_card) - 1


def kill_entry(s: S, e: int, to_pile: bool) -> None:
    """Take an entry out of play; `to_pile` discards its card (otherwise the caller places it)."""
    if not s.e_alive[e]:
        return
    s.e_alive[e] = False
    if to_pile:
        to_discard(s, s.e_card[e])


def discard_dependents(s: S, e: int) -> None:
    """3.3: if the victim had a Bonus card, the Bonus card is discarded."""
    for b in range(len(s.e_card)):
        if s.e_host[b] == e and s.e_alive[b]:
            kill_entry(s, b, to_pile=True)


def play_card(s: S, p: int, c: int) -> None:
    """1.4 C: play one card of a compound play (a Force card plus Bonus, Storm, Special and Supply cards)."""
    g = s.g
    leave_hand(s, p, c)
    k = g.kind[c]
    if (s.battle and s.rnd == 1) and s.t_mode == 0 and not (k == K_STORM and g.effect[c] != E_NIGHT):
        add_entry(s, p, c, True)
        s.phase = PH_BUILD
        return
    e = add_entry(s, p, c, False)
    sd = g.pside[c]
    if sd != NEUTRAL and s.t_side < 0:
        s.t_side = sd
        if not ((s.battle and s.rnd == 1) and s.change_sides):
            s.side[p] = sd
    s.phase = PH_BUILD
    if k == K_FORCE:
        s.t_force += 1
        destiny_on_play(s, e)
    elif k == K_BONUS:
        s.e_host[e] = find_host(s, p, c)
    elif k == K_SPECIAL:
        eff = g.effect[c]
        if eff in (E_RAID, E_FUEL):
            s.restrict_by = p
            s.restrict_side = sd
            s.restrict_round = s.rnd
            s.restrict_card = c
            s.t_raid = True
            s.twin |= 1 << p
        elif eff == E_INTEL:
            s.t_intel = True
            s.intel_queue.append(e)
        elif eff == E_ADMIRAL:
            if s.eng_type != ALL_TYPES:
                s.phase = PH_ADMIRAL
                s.admiral_entry = e
            else:
                s.t_fmax = 2
    elif k == K_STORM:
        eff = g.effect[c]
        if eff == E_SIROCCO:
            s.t_sirocco = e
        elif eff == E_EXPLOSION:
            s.expl_queue.append(e)
        elif eff == E_SHALLOWS:
            s.t_shallows = True
        elif eff in (E_FOG, E_BOMB):
            s.phase = PH_TARGET
            s.target_effect = eff
            s.target_entry = e
        elif eff == E_LOST:
            kill_entry(s, e, to_pile=True)
            s.lost_player = p
            s.lost_cards = []
            s.lost_seats = []
            s.lost_step = 0
            s.phase = PH_LOST_CARD


# ----- 3.3 Victims of Destiny ------------------------------------------------------------------------------------
def destroy(s: S, e: int, by: int) -> None:
    """3.3: the victim leaves the Engagement, face down in front of the Destiny card's player; its Bonus
    cards are discarded."""
    if not s.e_alive[e]:
        return
    s.e_alive[e] = False
    s.captured[by].append(s.e_card[e])
    s.log.append((EV_DESTROY, by, s.e_card[e]))
    s.victims |= 1 << s.e_player[e]
    discard_dependents(s, e)


def destiny_on_play(s: S, e: int) -> None:
    """3.3: in a Convoy a Destiny card played after its victim destroys it; in a Battle the victim is
    destroyed as soon as both are face up, whatever the order."""
    if s.battle:
        destiny_sweep(s)
        return
    victim = s.g.victim[s.e_card[e]]
    if victim < 0 or victim >= 121:
        return
    for v in range(len(s.e_card)):
        if s.e_card[v] == victim and s.e_alive[v] and not s.e_down[v]:
            destroy(s, v, s.e_player[e])


def destiny_sweep(s: S) -> None:
    """3.3 (Battle): every face-up Destiny card destroys its face-up victim."""
    g = s.g
    e_card = s.e_card
    for d in range(len(e_card)):
        if not s.e_alive[d] or s.e_down[d]:
            continue
        victim = g.victim[e_card[d]]
        if victim < 0 or victim >= 121:
            continue
        for v in range(len(e_card)):
            if e_card[v] == victim and s.e_alive[v] and not s.e_down[v]:
                destroy(s, v, s.e_player[d])


# ----- 2.44 Sirocco ------------------------------------------------------------------------------------------------
def sirocco_targets(s: S, p: int) -> list[int]:
    """2.44 / S01: any other player still in the Engagement."""
    return [q for q in range(s.n) if q != p and not s.cancelled >> q & 1 and not s.satout >> q & 1]


def sirocco_card(s: S) -> int:
    return s.g.index["S01"]


def release_sirocco(s: S) -> None:
    """2.44: the Sirocco card is discarded after use (from play or from its holder)."""
    if s.sirocco_holder >= 0:
        s.sirocco_holder = -1
        to_discard(s, sirocco_card(s))
    elif s.sirocco_entry >= 0 and s.e_alive[s.sirocco_entry]:
        kill_entry(s, s.sirocco_entry, to_pile=True)
    s.sirocco_entry = -1


def sirocco_roll(s: S, face: int) -> None:
    """2.44: 1–3 cancels one player's involvement; 4–6 passes the card to the left."""
    p = s.cur
    if face <= 3:
        if sirocco_targets(s, p):
            s.phase = PH_SIROCCO_TARGET
            s.ck = -1
            return
        release_sirocco(s)
        return
    left = (p + 1) % s.n
    release_sirocco(s)
    if has_turn_to_come(s, left):
        s.discard.pop()
        s.sirocco_holder = left
        s.log.append((EV_SIROCCO_PASS, p, left))
    else:
        s.log.append((EV_SIROCCO_GONE, p, left))


def has_turn_to_come(s: S, q: int) -> bool:
    """Whether `q` plays again in this Engagement (later in this round or in a later round)."""
    if s.cancelled >> q & 1:
        return False
    if s.stage == ST_TURNS:
        pos_q = (q - s.first) % s.n
        if pos_q >= s.turn_idx and not (s.rnd > 0 and s.satout >> q & 1):
            return True
    return s.rnd < s.rounds - 1 and not s.satout >> q & 1


def sirocco_cancel(s: S, p: int, q: int) -> None:
    """2.44: the chosen player's cards in this Engagement are discarded and he plays no more in it; Special
    and Storm effects of his cards are cancelled (an Admiral's combined type reverts)."""
    release_sirocco(s)
    cancel_player(s, q)
    s.log.append((EV_CANCEL, p, q))
    s.phase = PH_CHANCE
    s.ck = -1


def cancel_player(s: S, q: int) -> None:
    s.cancelled |= 1 << q
    for e in range(len(s.e_card)):
        if s.e_player[e] == q and s.e_alive[e]:
            kill_entry(s, e, to_pile=True)
    if s.sirocco_holder == q:
        release_sirocco(s)
    if s.restrict_by == q:
        s.restrict_by = -1
    if s.admiral_by == q:
        s.admiral_by = -1
        s.eng_type = s.base_type
    if s.bomb_by == q:
        s.bomb_by = -1
        s.bomb_entry = -1
    if s.shallows_by == q:
        s.shallows_by = -1


def held_sirocco(s: S, p: int, use: bool) -> None:
    """2.44: the player given the Sirocco uses it at the end of his play, or discards it."""
    if use:
        s.sirocco_entry = -1
        s.post_sirocco = p
        s.phase = PH_CHANCE
        s.ck = -1
        return
    release_sirocco(s)
    s.phase = PH_CHANCE
    s.ck = -1


# ----- 2.46 Admirals, S04 Fog, S06 Bomb alley, S07 Shallows, S02 Lost, S03 Explosion -------------------------------
def admiral(s: S, p: int, combined: bool) -> None:
    """2.46: A. the Engagement becomes combined for all; B. the player may play two Force cards."""
    if combined:
        s.eng_type = ALL_TYPES
        s.admiral_by = p
    else:
        s.t_fmax = 2
    s.phase = PH_BUILD


def target_card(s: S, p: int, card: int) -> None:
    """S04: cancel one Bonus card (discarded). S06: double one Force card's Air value (with its Bonuses)."""
    for e in range(len(s.e_card)):
        if s.e_card[e] == card and s.e_alive[e]:
            if s.target_effect == E_FOG:
                kill_entry(s, e, to_pile=True)
            else:
                s.bomb_entry = e
                s.bomb_by = p
            break
    s.phase = PH_BUILD


def shallows(s: S, p: int) -> None:
    """S07: discard every submarine (periscope) card in play; later players may not play one this round."""
    g = s.g
    for e in range(len(s.e_card)):
        if s.e_alive[e] and not s.e_down[e] and g.frame[s.e_card[e]] == SUB:
            kill_entry(s, e, to_pile=True)
            discard_dependents(s, e)
    s.shallows_by = p
    s.shallows_round = s.rnd


def lost_pick_candidates(s: S) -> list[int]:
    q = s.lost_seats[s.lost_step]
    given = s.lost_cards[: s.lost_step]
    return sorted(c for c in s.hands[q] if c not in given)


def lost_exchange(s: S, taken: int) -> None:
    """S02: one chosen card of the player's hand is exchanged with a random card of the chosen player."""
    p = s.lost_player
    q = s.lost_seats[s.lost_step]
    mine = s.lost_cards[s.lost_step]
    leave_hand(s, q, taken)
    leave_hand(s, p, mine)
    s.hands[q].append(mine)
    s.hands[p].append(taken)
    s.known[p] |= 1 << mine
    s.known[q] |= 1 << taken
    s.any_known = True
    s.lost_step += 1
    if s.lost_step == 2:
        s.lost_cards = []
        s.lost_seats = []
        s.lost_player = -1
        s.lost_step = 0
        s.cur = p
        s.phase = PH_BUILD
        s.ck = -1
    else:
        s.ck = CK_LOST_PICK


def explosion_targets(s: S, p: int, total: int) -> int:
    """S03: below 7 the right-hand neighbour, above 7 the left-hand neighbour, 7 yourself."""
    if total < 7:
        return (p - 1) % s.n
    if total > 7:
        return (p + 1) % s.n
    return p


def round_forces(s: S, q: int) -> list[int]:
    """2.47: the Force cards a player played in this round (alive, face up)."""
    g = s.g
    return [e for e in range(len(s.e_card)) if s.e_player[e] == q and s.e_alive[e] and not s.e_down[e]
            and s.e_round[e] == s.rnd and g.kind[s.e_card[e]] == K_FORCE]


def explosion_own(s: S) -> list[int]:
    return round_forces(s, s.e_player[s.expl_entry])


def explosion_effect(s: S) -> None:
    """S03: the neighbour's Force card of this round is destroyed and goes to the Explosion's player (with
    its Supply; its Bonus cards are discarded); on a 7 one of his own, chosen at random, is sunk."""
    p = s.e_player[s.expl_entry]
    target = explosion_targets(s, p, s.expl_sum)
    if target == p:
        own = explosion_own(s)
        if len(own) > 1:
            s.ck = CK_EXPL_PICK
            return
        if own:
            kill_entry(s, own[0], to_pile=False)
            s.sunk.append(s.e_card[own[0]])
            s.log.append((EV_SUNK, p, s.e_card[own[0]]))
            discard_dependents(s, own[0])
        finish_explosion(s)
        return
    forces = round_forces(s, target)
    if forces:
        e = forces[0]
        destroy_by_explosion(s, e, p)
    finish_explosion(s)


def destroy_by_explosion(s: S, e: int, by: int) -> None:
    s.e_alive[e] = False
    s.captured[by].append(s.e_card[e])
    s.log.append((EV_DESTROY, by, s.e_card[e]))
    discard_dependents(s, e)
    g = s.g
    q = s.e_player[e]
    for x in range(len(s.e_card)):
        if (s.e_alive[x] and s.e_player[x] == q and s.e_round[x] == s.e_round[e]
                and g.kind[s.e_card[x]] == K_SUPPLY):
            s.e_alive[x] = False
            s.captured[by].append(s.e_card[x])


def finish_explosion(s: S) -> None:
    kill_entry(s, s.expl_entry, to_pile=True)
    s.expl_entry = -1
    s.ck = -1


# ----- end of a round, 3.2 reveal ------------------------------------------------------------------------------
def round_end(s: S) -> bool:
    """End of a round: reveal a Battle's face-down cards (3.2), roll Explosions (S03), draw between rounds
    (3.2: one card each; 4.0: hands made up), or go to the outcome (3.4). True when a node was set."""
    if face_down_round(s) and not s.revealed:
        reveal(s)
        s.revealed = True
    while s.expl_queue:
        e = s.expl_queue.pop(0)
        if s.e_alive[e] and not s.cancelled >> s.e_player[e] & 1:
            s.expl_entry = e
            s.expl_sum = 0
            s.expl_left = 2
            set_chance(s, CK_EXPLOSION)
            return True
    s.revealed = False
    s.shallows_by = -1
    if s.rnd < s.rounds - 1:
        if s.n == 2:
            queue_refill(s, s.first)
        else:
            for i in range(s.n):
                s.draw_queue.append((s.first + i) % s.n)
        s.rnd += 1
        s.turn_idx = 0
        if s.n > 2 and s.battle:
            s.restrict_by = -1
        s.stage = ST_TURNS
        return False
    s.stage = ST_RESOLVE
    return False


def reveal(s: S) -> None:
    """3.2: the face-down cards are turned over; invalid cards are discarded and do not affect the outcome.
    S05 (and option 6.1) let the player's 2nd-round cards be of the other side."""
    g = s.g
    n = s.n
    night = g.index["S05"]
    for i in range(n):
        p = (s.first + i) % n
        mine = [e for e in range(len(s.e_card)) if s.e_player[e] == p and s.e_alive[e] and s.e_down[e]]
        if not mine:
            continue
        free = (s.change_sides and n > 2) or any(s.e_card[e] == night for e in mine)
        s.cur = p
        s.t_force = 0
        s.t_fmax = 1
        s.t_intel = False
        s.t_raid = False
        s.t_mode = 0
        s.t_start = mine[0]
        s.t_side = -1 if free else s.side[p]
        for e in mine:
            c = s.e_card[e]
            code = reveal_check(s, p, c)
            s.e_down[e] = False
            if code != R_OK:
                kill_entry(s, e, to_pile=True)
                s.log.append((EV_INVALID, p, c))
                continue
            sd = g.pside[c]
            if sd != NEUTRAL and s.t_side < 0:
                s.t_side = sd
                if not free:
                    s.side[p] = sd
            k = g.kind[c]
            if k == K_FORCE:
                s.t_force += 1
            elif k == K_BONUS:
                s.e_host[e] = find_host(s, p, c)
            elif k == K_SPECIAL and g.effect[c] == E_ADMIRAL:
                s.t_fmax = 2
            elif k == K_SPECIAL and g.effect[c] in (E_RAID, E_FUEL):
                s.t_raid = True
                s.twin |= 1 << p
    destiny_sweep(s)


def reveal_check(s: S, p: int, c: int) -> int:
    """3.2: the validity of a face-down card at the reveal (the same rules as a face-up play)."""
    g = s.g
    if g.kind[c] == K_STORM:
        return R_OK if g.effect[c] == E_NIGHT else R_NIGHT
    if g.kind[c] == K_SPECIAL and g.effect[c] == E_INTEL:
        return R_INTEL_ROUND
    return check_play(s, p, c)


# ----- 3.4 Outcome ---------------------------------------------------------------------------------------------------
def resolve(s: S) -> bool:
    """3.4: dice for '?' after all plays (one per '?' per value counted), then the side totals decide."""
    g = s.g
    if not s.resolved:
        s.resolved = True
        q: list[int] = []
        et = s.eng_type
        for e in range(len(s.e_card)):
            if not s.e_alive[e]:
                continue
            c = s.e_card[e]
            if g.kind[c] != K_FORCE:
                continue
            dice = g.dice[c]
            for ti in range(3):
                if et >> ti & 1 and dice[ti]:
                    count = dice[ti] * (2 if ti == 0 and e == s.bomb_entry else 1)
                    q.extend([e * 3 + ti] * count)
        s.roll_queue = q
    if s.roll_queue:
        set_chance(s, CK_ROLL)
        return True
    outcome(s)
    return False


def entry_value(s: S, e: int) -> int:
    """3.4 / 3.3 / 2.48 / S06 / O32–O38: a card's combat value in the declared type, Bonus cards included."""
    g = s.g
    c = s.e_card[e]
    et = s.eng_type
    op_air = g.op_air_bonus[s.op] and et & AIR
    if g.kind[c] == K_BONUS:
        f = g.fixed[c]
        v = 0
        for ti in range(3):
            if et >> ti & 1:
                v += f[ti]
        return v + (1 if op_air else 0)
    fixed = g.fixed[c]
    destiny_op = g.victim[c] == s.op
    bombed = e == s.bomb_entry
    bonuses = [b for b in range(len(s.e_card)) if s.e_host[b] == e and s.e_alive[b]]
    total = 0
    for ti in range(3):
        if not et >> ti & 1:
            continue
        own = fixed[ti] * (2 if bombed and ti == 0 else 1) + s.e_roll[e * 3 + ti]
        if destiny_op:
            own *= 2
        bon = 0
        for b in bonuses:
            bon += g.fixed[s.e_card[b]][ti]
        if bombed and ti == 0:
            bon *= 2
        total += own + bon
    if op_air:
        total += 1 if bombed else 1 + len(bonuses)
    return total


def outcome(s: S) -> None:
    """3.4: the higher side total wins; equal totals replay (the Intelligence player's side loses, 2.45);
    all zero is no combat."""
    g = s.g
    vals = [0] * len(s.e_card)
    tot = [0, 0]
    for e in range(len(s.e_card)):
        if not s.e_alive[e]:
            continue
        c = s.e_card[e]
        k = g.kind[c]
        if k == K_FORCE or (k == K_BONUS and s.e_host[e] < 0):
            v = entry_value(s, e)
            vals[e] = v
            tot[s.e_side[e]] += v
    s.e_val = vals
    s.log.append((EV_TOTALS, tot[0], tot[1]))
    if tot[0] == 0 and tot[1] == 0:
        no_combat(s)
        return
    if tot[0] == tot[1]:
        intel_sides = {s.e_side[e] for e in range(len(s.e_card))
                       if s.e_alive[e] and g.kind[s.e_card[e]] == K_SPECIAL and g.effect[s.e_card[e]] == E_INTEL}
        if len(intel_sides) == 1:
            win = 1 - intel_sides.pop()
        else:
            draw(s)
            return
    else:
        win = ALLIES if tot[0] > tot[1] else AXIS
    best = -1
    winner = -1
    for e in range(len(s.e_card)):
        if s.e_alive[e] and s.e_side[e] == win and vals[e] > best:
            c = s.e_card[e]
            k = g.kind[c]
            if k == K_FORCE or (k == K_BONUS and s.e_host[e] < 0):
                best = vals[e]
                winner = s.e_player[e]
    s.win_side = win
    s.winner = winner
    s.supply_queue = [i for i in range(len(s.u_card)) if g.kind[s.u_card[i]] == K_SUPPLY and s.u_side[i] == win]
    s.supply_queue += [1000 + e for e in range(len(s.e_card))
                       if s.e_alive[e] and g.kind[s.e_card[e]] == K_SUPPLY and s.e_side[e] == win]
    s.picked = []
    s.stage = ST_SUPPLY


def no_combat(s: S) -> None:
    """3.4 No combat: nobody wins; the Operation and anything under it are discarded."""
    s.log.append((EV_NO_COMBAT, -1, s.op))
    s.ops_out.append(s.op)
    for e in range(len(s.e_card)):
        if s.e_alive[e]:
            kill_entry(s, e, to_pile=True)
    for c in s.u_card:
        to_discard(s, c)
    s.u_card, s.u_side, s.u_player = [], [], []
    finish_operation(s)


def draw(s: S) -> None:
    """3.4 Tie: every card still in play (Force, Supply, Bonus, Special and Storm cards) goes under the
    Operation until the Engagement ends, where it no longer acts; hands are made up, and the Engagement is
    replayed from the next player (sides may change; effects do not carry over)."""
    s.log.append((EV_DRAW, -1, s.op))
    for e in range(len(s.e_card)):
        if s.e_alive[e]:
            s.e_alive[e] = False
            s.u_card.append(s.e_card[e])
            s.u_side.append(s.e_side[e])
            s.u_player.append(s.e_player[e])
    if s.sirocco_holder >= 0:
        # 2.44: a Sirocco passed on and not yet used is discarded only at the end of the Engagement.
        s.u_card.append(sirocco_card(s))
        s.u_side.append(NEUTRAL)
        s.u_player.append(s.sirocco_holder)
        s.sirocco_holder = -1
        s.sirocco_entry = -1
    s.first = (s.first + 1) % s.n
    queue_refill(s, s.first)
    begin_engagement(s)


def supply_candidates(s: S) -> list[int]:
    """2.41: a binoculars-view (surface) Force card of the winning side, played by anyone in this Engagement."""
    g = s.g
    win = s.win_side
    out = [c for i, c in enumerate(s.u_card) if s.u_side[i] == win and g.kind[c] == K_FORCE and g.frame[c] == SURFACE]
    out += [s.e_card[e] for e in range(len(s.e_card)) if s.e_alive[e] and s.e_side[e] == win
            and g.kind[s.e_card[e]] == K_FORCE and g.frame[s.e_card[e]] == SURFACE]
    return sorted(c for c in out if c not in s.picked)


def next_supply(s: S) -> bool:
    """2.41: each Supply card of the winning side lets its player pick up a ship card (in play order)."""
    while s.supply_queue:
        code = s.supply_queue[0]
        player = s.u_player[code] if code < 1000 else s.e_player[code - 1000]
        if supply_candidates(s):
            s.cur = player
            s.phase = PH_SUPPLY
            return True
        s.supply_queue.pop(0)
        supply_done(s, code)
    return False


def supply_done(s: S, code: int) -> None:
    if code < 1000:
        to_discard(s, s.u_card[code])
        s.u_card[code] = -1
    else:
        kill_entry(s, code - 1000, to_pile=True)


def supply_pick(s: S, p: int, card: int) -> None:
    """2.41: the picked-up card goes to the Supply player's hand (known to all); the Supply card is discarded."""
    code = s.supply_queue.pop(0)
    if card >= 0:
        s.log.append((EV_PICKUP, p, card))
        s.picked.append(card)
        s.hands[p].append(card)
        for i in range(s.n):
            if i != p:
                s.known[i] |= 1 << card
        s.any_known = True
    supply_done(s, code)
    s.phase = PH_CHANCE
    s.ck = -1


def after_supply(s: S) -> None:
    """3.4 Winning the trick: the Operation and the losing side's Force and Supply cards (of every round)
    go to the winner (5.0: shared); every other card is discarded."""
    g = s.g
    lose = 1 - s.win_side
    spoils: list[int] = []
    for i, c in enumerate(s.u_card):
        if c < 0 or c in s.picked:
            continue
        if s.u_side[i] == lose and g.kind[c] in (K_FORCE, K_SUPPLY):
            spoils.append(c)
        else:
            to_discard(s, c)
    for e in range(len(s.e_card)):
        if not s.e_alive[e]:
            continue
        s.e_alive[e] = False
        c = s.e_card[e]
        if c in s.picked:
            continue
        if s.e_side[e] == lose and g.kind[c] in (K_FORCE, K_SUPPLY):
            spoils.append(c)
        else:
            to_discard(s, c)
    s.u_card, s.u_side, s.u_player = [], [], []
    if s.advanced:
        elig = share_eligible(s)
        if len(elig) > 1:
            s.share_pool = [s.op, *sorted(spoils)]
            s.share_elig = elig
            s.share_count = [0] * s.n
            s.stage = ST_SHARE
            return
    award_operation(s, s.winner, s.op)
    s.captured[s.winner].extend(spoils)
    finish_operation(s)


def award_operation(s: S, p: int, op: int) -> None:
    """1.1 / 1.5: the Operation is won (its VP, and its freighter for the hand size)."""
    s.won[p].append(op)
    s.log.append((EV_WIN, p, op))
    load = s.g.op_load[op]
    if load == 2:
        s.full[p] += 1
    elif load == 1:
        s.half[p] += 1


def share_eligible(s: S) -> list[int]:
    """5.0: winning-side players (of the final round) who played a card of value 1 or more, not Sirocco'd
    and not Destiny victims; the trick's winner always shares."""
    elig = set()
    for e in range(len(s.e_card)):
        if s.e_side[e] == s.win_side and s.e_val[e] >= 1:
            q = s.e_player[e]
            if not s.cancelled >> q & 1 and not s.victims >> q & 1:
                elig.add(q)
    elig.add(s.winner)
    return sorted(elig)


def share_targets(s: S) -> list[int]:
    """5.0: who may receive the next prize card (`share_pool[0]`) so that the split can still end as the
    text allows: with m cards for k players, everyone receives m // k cards and m % k of them one more
    ("each player ... must receive at least one card before any player can receive a 2nd card", and so on).
    A player below m // k may receive it; one at m // k only while fewer than m % k players are above it."""
    count = s.share_count
    elig = s.share_elig
    base, extra = divmod(len(s.share_pool) + sum(count[q] for q in elig), len(elig))
    above = sum(1 for q in elig if count[q] > base)
    return [q for q in elig if count[q] < base or (count[q] == base and above < extra)]


def share_next(s: S) -> bool:
    """5.0: the winner names the receiver of each prize card in turn (the Operation first, then by card
    number), among `share_targets`, so every split the text allows is reached, each in one way; a forced
    gift is made without asking."""
    while s.share_pool:
        cands = share_targets(s)
        if len(cands) > 1:
            s.cur = s.winner
            s.phase = PH_SHARE
            return True
        share_give(s, cands[0])
    finish_operation(s)
    return False


def share_give(s: S, q: int) -> None:
    c = s.share_pool.pop(0)
    s.share_count[q] += 1
    if c == s.op:
        award_operation(s, q, c)
    else:
        s.captured[q].append(c)
    s.phase = PH_CHANCE
    s.ck = -1


def finish_operation(s: S) -> None:
    """1.5 and 1.4 A: hands are made up from the 1st player; the next player to the left starts the next
    Operation."""
    if s.sirocco_holder >= 0:
        release_sirocco(s)
    s.e_card, s.e_player, s.e_round, s.e_host = [], [], [], []
    s.e_alive, s.e_down, s.e_side, s.e_roll = [], [], [], []
    s.restrict_by = -1
    s.admiral_by = -1
    s.bomb_entry = -1
    s.op = -1
    s.side = [-1] * s.n
    s.cancelled = 0
    s.satout = 0
    queue_refill(s, s.first)
    s.ops_done += 1
    s.first = (s.first + 1) % s.n
    s.stage = ST_START_OP
    s.phase = PH_CHANCE
    s.ck = -1


# ----- 1.1 / 1.2 Scoring and the end ------------------------------------------------------------------------------
def victory_points(s: S) -> list[int]:
    """1.1: each Operation won and each card sunk (captured) is worth its VP."""
    g = s.g
    return [sum(g.vp[c] for c in s.won[p]) + sum(g.vp[c] for c in s.captured[p]) for p in range(s.n)]


def end_game(s: S) -> None:
    """1.2: after the last Operation, VP decide; ties go to the most Operations won. Series play deals new
    games until someone has 75 VP or more at the end of a game."""
    vp = victory_points(s)
    if s.series:
        for p in range(s.n):
            s.series_vp[p] += vp[p]
            s.series_ops[p] += len(s.won[p])
        if max(s.series_vp) < SERIES_TARGET:
            new_deal(s, (s.dealer + 1) % s.n)
            return
    s.stage = ST_DONE
    s.phase = PH_END


def new_deal(s: S, dealer: int) -> None:
    """1.3: the dealer shuffles the Force-pile cards, deals six to each player, and sets out the Operations."""
    everything = list(range(121))
    s.pile = everything
    s.discard = []
    s.hands = [[] for _ in range(s.n)]
    s.won = [[] for _ in range(s.n)]
    s.captured = [[] for _ in range(s.n)]
    s.sunk = []
    s.ops_pile = list(range(121, 165))
    s.ops_out = []
    s.full = [0] * s.n
    s.half = [0] * s.n
    s.known = [0] * s.n
    s.any_known = False
    s.ops_done = 0
    s.dealer = dealer
    s.first = dealer
    s.game_no += 1
    for _ in range(HAND_SIZE):
        for i in range(s.n):
            s.draw_queue.append((dealer + 1 + i) % s.n)
    s.stage = ST_START_OP
    s.phase = PH_CHANCE
    s.ck = -1


def returns(s: S) -> list[float]:
    """1.2: the winner (most VP, then most Operations won; series: totals) gets 1, shared on a full tie."""
    if s.phase != PH_END:
        return [0.0] * s.n
    if s.series:
        vp, ops = s.series_vp, s.series_ops
    else:
        vp = victory_points(s)
        ops = [len(w) for w in s.won]
    best = max(zip(vp, ops, strict=True))
    winners = [p for p in range(s.n) if (vp[p], ops[p]) == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(s.n)]
