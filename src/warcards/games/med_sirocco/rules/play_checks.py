"""Play checks (1.4 C, 1.5, 2.2–2.48, 3.1, 3.2): whether a card may join a player's play now, and why not.

Queries only: nothing here changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.games.med_sirocco.cards import (
    ALLIES,
    AXIS,
    E_ADMIRAL,
    E_BOMB,
    E_FOG,
    E_FUEL,
    E_INTEL,
    E_LOST,
    E_NIGHT,
    E_RAID,
    E_SHALLOWS,
    K_BONUS,
    K_FORCE,
    K_SPECIAL,
    K_SUPPLY,
    NEUTRAL,
    ON_ALLIES,
    ON_AXIS,
    ON_NATION,
    SUB,
    SURFACE,
)
from warcards.games.med_sirocco.codes import (
    FIRST_YEAR,
    NO_ADMIRAL_FORCE,
    NO_BOMB_NONE,
    NO_BONUS_HOST,
    NO_FOG_NONE,
    NO_INTEL_FORCE,
    NO_INTEL_ROUND,
    NO_INTEL_SIDE,
    NO_LOST,
    NO_NIGHT,
    NO_ONE_FORCE,
    NO_RAID_ROUND,
    NO_RAID_SURFACE,
    NO_RAID_TYPE,
    NO_REFUSAL,
    NO_RESTRICT,
    NO_SHALLOWS,
    NO_SHALLOWS_ROUND,
    NO_SIDE,
    NO_TWIN,
    NO_YEAR,
)

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoState


def hand_limit(state: MedSiroccoState, p: int) -> int:
    """1.5: six cards, +1 per full freighter won, +1 per two half freighters, at most nine."""
    numbers = state.game.numbers
    limit = numbers.hand_size + state.freighters_full[p] + state.freighters_half[p] // 2
    return limit if limit < numbers.max_hand else numbers.max_hand  # `min` without the builtin's call (refills at every round)


def face_down_round(state: MedSiroccoState) -> bool:
    """3.2 / 4.0: the 2nd round of a Battle is played face down."""
    return state.is_battle and state.round_index == 1


def must_play(state: MedSiroccoState) -> bool:
    """3.2: every round of a Battle is compulsory; a Convoy's are optional (3.1)."""
    return state.is_battle


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
    deck_kind = state.table.kind
    for e in range(len(state.entry_card)):
        if state.entry_alive[e] and not state.entry_face_down[e] and deck_kind[state.entry_card[e]] == kind:
            return True
    return False


def find_host(state: MedSiroccoState, p: int, bonus: int) -> int:
    """2.3: the Force card of this play that a Bonus joins: same type, and same nation (Axis), same side
    (Allies), any Allied card (X54) or any Axis card (A53). The latest such card, or -1."""
    table = state.table
    frame = table.frame[bonus]
    on = table.plays_on[bonus]
    bside = table.side[bonus]
    bnation = table.nation[bonus]
    e_card = state.entry_card
    e_player = state.entry_player
    alive = state.entry_alive
    face_down = state.entry_face_down
    kind = table.kind
    frames = table.frame
    for e in range(len(e_card) - 1, state.turn_first_entry - 1, -1):
        if e_player[e] != p or not alive[e] or face_down[e]:
            continue
        c = e_card[e]
        if kind[c] != K_FORCE or not (frames[c] & frame):
            continue
        if on == ON_NATION:
            if table.nation[c] != bnation:
                continue
        elif on == ON_ALLIES:
            if table.side[c] != ALLIES:
                continue
        elif on == ON_AXIS:
            if table.side[c] != AXIS:
                continue
        elif table.side[c] != bside:
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
    """Why card `c` may not join `p`'s face-up play now (a reason code), or NO_REFUSAL.

    1.4 C, 3.1, 3.2 (one side per player), 2.2 / 3.1 (the year), 2.3 (Bonus), 2.41–2.48 and the Storm cards.
    """
    g = state.game
    table = state.table
    k, sd, years, frame = g.card_facts[c]
    if sd != NEUTRAL:
        t_side = state.turn_side
        if t_side >= 0 and sd != t_side:
            return NO_SIDE
    if state.turn_mode == 1 and len(state.entry_card) == state.turn_first_entry and sd != state.seat_side[p]:
        return NO_INTEL_SIDE
    if state.restrict_by >= 0 and restricted(state, p) and sd != state.restrict_side:
        return NO_RESTRICT
    if k == K_FORCE:
        if not years & state.year_bit:
            return NO_YEAR
        if state.turn_intel:
            return NO_INTEL_FORCE
        if state.turn_forces >= state.turn_force_limit:
            return NO_ONE_FORCE
        if frame == SUB and state.shallows_by >= 0 and shallows_active(state, p):
            return NO_SHALLOWS
        if state.turn_raid and not frame & SURFACE:
            return NO_RAID_SURFACE
        return NO_REFUSAL
    if k == K_BONUS:
        if table.frame[c] == SUB and shallows_active(state, p):
            return NO_SHALLOWS
        if not table.solo[c] and find_host(state, p, c) < 0:
            return NO_BONUS_HOST
        return NO_REFUSAL
    if k == K_SUPPLY:
        return NO_REFUSAL
    eff = table.effect[c]
    if k == K_SPECIAL:
        if eff in (E_RAID, E_FUEL):
            if not state.engagement_type & SURFACE:
                return NO_RAID_TYPE
            if state.is_battle and state.round_index > 0 and state.num_players > 2:
                return NO_RAID_ROUND
            if state.raid_players >> p & 1:
                return NO_TWIN
            for e in range(state.turn_first_entry, len(state.entry_card)):
                ce = state.entry_card[e]
                if state.entry_alive[e] and not state.entry_face_down[e] and table.kind[ce] == K_FORCE and not table.frame[ce] & SURFACE:
                    return NO_RAID_SURFACE
            return NO_REFUSAL
        if eff == E_INTEL:
            if state.is_battle and state.round_index > 0:
                return NO_INTEL_ROUND
            if state.turn_forces > 0 or state.turn_mode == 1 or state.turn_intel:
                return NO_INTEL_FORCE
            return NO_REFUSAL
        if eff == E_ADMIRAL:
            if state.turn_forces == 0:
                return NO_ADMIRAL_FORCE
            return NO_REFUSAL
        return NO_REFUSAL
    # Storm cards (Explanation of significant cards).
    if eff == E_NIGHT:
        return NO_NIGHT
    if eff == E_SHALLOWS:
        return NO_SHALLOWS_ROUND if state.is_battle and state.round_index > 0 else NO_REFUSAL
    if eff == E_FOG:
        return NO_REFUSAL if visible_alive(state, K_BONUS) else NO_FOG_NONE
    if eff == E_BOMB:
        return NO_REFUSAL if visible_alive(state, K_FORCE) else NO_BOMB_NONE
    if eff == E_LOST:
        return NO_REFUSAL if lost_possible(state, p) else NO_LOST
    return NO_REFUSAL


def reason_text(state: MedSiroccoState, p: int, c: int, code: int) -> str:
    """The refusal message for `check_play`'s code, citing the rule."""
    table = state.table
    label = table.label(c)
    if code == NO_SIDE:
        return (f"3.1/3.2: a player plays cards of one side only in an Engagement; you fight for "
                f"{('Allies', 'Axis')[state.turn_side]} and {label} is not")
    if code == NO_RESTRICT:
        return (f"2.42/2.43: after {table.label(state.restrict_card)} the remaining players may only play "
                f"{('Allied', 'Axis')[state.restrict_side]} cards or discard")
    if code == NO_YEAR:
        years = [str(FIRST_YEAR + i) for i in range(4) if table.years[c] >> i & 1]
        return f"3.1 The year: {label} is playable in {', '.join(years)}; this Operation is {state.year}"
    if code == NO_ONE_FORCE:
        return "1.4 C: one Force card per play (two only with an Admiral's option B, 2.46)"
    if code == NO_SHALLOWS:
        return f"S07 Shallows: no periscope-view (submarine) card may be played after it this round ({label})"
    if code == NO_BONUS_HOST:
        return (f"2.3: {label} must join a Force card of this play of the same type and "
                f"{'nation' if table.plays_on[c] == ON_NATION else 'side'}; it may not be played on its own")
    if code == NO_RAID_TYPE:
        return f"2.42/2.43: {label} is played in a surface or combined Engagement only"
    if code == NO_RAID_SURFACE:
        return "2.42/2.43: Raid on La Spezia / Romanian Fuel is played alone or with a surface card only"
    if code == NO_TWIN:
        return "2.4: a player may play only one of Raid on La Spezia and Romanian Fuel per Engagement"
    if code == NO_INTEL_ROUND:
        return "2.45: during a Battle, an Intelligence card can only be played in the 1st round"
    if code == NO_INTEL_FORCE:
        return "2.45: an Intelligence card is played in place of a Force card"
    if code == NO_ADMIRAL_FORCE:
        return "2.46: an Admiral is played in addition to a Force card; play the Force card first"
    if code == NO_FOG_NONE:
        return "S04 Fog: there is no face-up Bonus card in play to cancel"
    if code == NO_BOMB_NONE:
        return "S06 Bomb alley: there is no face-up Force card in play"
    if code == NO_NIGHT:
        return "S05 Night action: played face down during the 2nd round of a Battle only"
    if code == NO_SHALLOWS_ROUND:
        return "S07 Shallows: may not be played during the 2nd round of a Battle"
    if code == NO_LOST:
        return "S02 Lost: you need two other cards in hand and two other players holding cards"
    if code == NO_INTEL_SIDE:
        return "2.45: after an Intelligence card, the player must play a card of its side"
    if code == NO_RAID_ROUND:
        return "2.42/2.43: this card can only affect the 1st round of a Battle"
    return "this card may be played"
