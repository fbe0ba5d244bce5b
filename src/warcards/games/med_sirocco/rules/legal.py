"""The legal actions of each phase and why any other action is refused (1.4 C, 3.1, 3.2, 4.0, 5.0 and the
card texts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from warcards.games.med_sirocco.cards import (
    E_EXPLOSION,
    E_FOG,
    E_NIGHT,
    E_SIROCCO,
    K_BONUS,
    K_FORCE,
    K_STORM,
    K_SUPPLY,
    NEUTRAL,
    SUB,
    SURFACE,
)
from warcards.games.med_sirocco.codes import NO_REFUSAL, PLAY_PHASES, Phase
from warcards.games.med_sirocco.notation import (
    ADMIRAL_A,
    ADMIRAL_B,
    DISCARD,
    DISCARD_ALL,
    DONE,
    N_PILE,
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
    find_host,
    must_play,
    reason_text,
    restricted,
    shallows_active,
)
from warcards.games.med_sirocco.rules.specials import (
    sirocco_targets,
)

if TYPE_CHECKING:
    from warcards.games.med_sirocco.game import MedSiroccoGame
    from warcards.games.med_sirocco.state import MedSiroccoState


PlaySets = tuple[frozenset[int], frozenset[int], frozenset[int]]
"""`play_sets`' answer: the cards playable outright, those needing a host or `check_play`, those needing a host."""
PlayKey = tuple[int, int | None, int | None, bool, int, bool, bool]
"""What `legal_actions` reads of a face-up play (the tests that hold for all its cards): `play_sets`' key."""

if PLAY != 0:
    raise ImportError("med-sirocco's play actions must be numbered first: card c's play action is c")
DISCARD_ACTIONS = [DISCARD + c for c in range(N_PILE)]
"""Card c's discard action (read through the list's `__getitem__` by `map`: no Python-level loop)."""


def legal_actions(state: MedSiroccoState) -> list[int]:
    """The sorted legal actions of the player to act (1.4 C, 3.1, 3.2, 4.0, 5.0 and the card texts): the state's
    `_legal_actions` (the engine asks it at decision nodes only; a chance node is described by `chance`).

    A play's phases (most decisions) are answered here; `legal_other` answers the rest. The play actions
    are the card numbers themselves (PLAY is 0), so a set of cards met with the hand is a set of actions;
    PASS, DONE and DISCARD_ALL are above every play and discard action, appended after the sort."""
    ph = state.phase
    if ph not in PLAY_PHASES:
        return legal_other(state, ph)
    p = state.to_act
    hand = state.hands[p]
    g = state.game
    acts: list[int]
    if state.is_battle and state.round_index == 1 and state.turn_mode == 0:
        # 3.2: any card may be played face down, but the Storm cards other than Night action (S05) are checked.
        # Most hands hold none of those: then the legal plays are the hand itself (one C-level test, no filter).
        checked = g.face_down_checked
        if checked.isdisjoint(hand):
            acts = sorted(hand)
        else:
            acts = list(filter(g.face_down_free.__contains__, hand))
            for c in checked.intersection(hand):
                if check_play(state, p, c) == NO_REFUSAL:
                    acts.append(c)
            acts.sort()
        if ph == Phase.BUILD:
            acts.append(DONE)
        elif not acts:
            acts.append(PASS)
        return acts
    # A face-up play: the cards `check_play` lets join it. The tests that hold for the whole play (side, year,
    # room for a Force card, Shallows, Raid, restriction) are read once into a key; `play_sets` sorts the deck
    # by them once per key (kept on the game), so only the cards whose answer depends on the cards in play (a
    # Bonus card's host, some Special and Storm cards) are looked at one by one.
    empty = len(state.entry_card) == state.turn_first_entry
    key = (
        state.turn_side,
        # 2.45: the first card after an Intelligence card is of the player's side.
        state.seat_side[p] if state.turn_mode == 1 and empty else None,
        # 2.42 / 2.43: after a Raid on La Spezia / Romanian Fuel only its side's cards.
        state.restrict_side if state.restrict_by >= 0 and restricted(state, p) else None,
        # 1.4 C, 2.45, 2.46: room for a Force card in this play.
        state.turn_forces < state.turn_force_limit and not state.turn_intel,
        state.year_bit,  # 2.2 / 3.1
        state.shallows_by >= 0 and shallows_active(state, p),  # S07
        state.turn_raid,  # 2.42 / 2.43
    )
    sets = g.play_sets.get(key)
    if sets is None:
        sets = g.play_sets[key] = play_sets(g, key)
    outright, checked, hosted = sets
    acts = list(filter(outright.__contains__, hand))  # sorted below
    more = checked.intersection(hand)
    if more:
        for c in more:
            if c in hosted:
                if not empty and find_host(state, p, c) >= 0:  # 2.3: a Force card of this play to join
                    acts.append(c)
            elif check_play(state, p, c) == NO_REFUSAL:
                acts.append(c)
    if ph == Phase.BUILD:
        acts.sort()
        acts.append(DONE)
    elif state.turn_mode == 1:
        acts.sort()
        acts.append(PASS)
    elif state.is_battle:
        if acts:
            acts.sort()
        else:
            acts.append(DISCARD_ALL if hand else PASS)
    elif hand:
        acts.extend(map(DISCARD_ACTIONS.__getitem__, hand))
        acts.sort()
        acts.append(DISCARD_ALL)
    else:
        acts.append(PASS)
    return acts


def legal_other(state: MedSiroccoState, ph: int) -> list[int]:
    """The sorted legal actions in the phases other than a play's (5.0, 3.1, 2.41–2.46, S02, S04, S06)."""
    p = state.to_act
    if ph == Phase.TYPE:
        return [TYPE, TYPE + 1, TYPE + 2, TYPE + 3]
    if ph == Phase.OP_CHOOSE:
        return sorted(SELECT + c for c in state.operation_choice)
    if ph == Phase.ADMIRAL:
        return [ADMIRAL_A, ADMIRAL_B]
    if ph == Phase.TARGET:
        kind = K_BONUS if state.target_effect == E_FOG else K_FORCE
        table = state.table
        return sorted({SELECT + state.entry_card[e] for e in range(len(state.entry_card))
                       if state.entry_alive[e] and not state.entry_face_down[e] and table.kind[state.entry_card[e]] == kind})
    if ph == Phase.SIROCCO_TARGET:
        return [SEAT + q for q in sirocco_targets(state, p)]
    if ph == Phase.HELD:
        return [PASS, USE]
    if ph == Phase.LOST_CARD:
        return sorted(SELECT + c for c in state.hands[p] if c not in state.lost_cards)
    if ph == Phase.LOST_SEAT:
        return [SEAT + q for q in range(state.num_players) if q != p and q not in state.lost_seats and state.hands[q]]
    if ph == Phase.SUPPLY:
        return sorted([SELECT + c for c in supply_candidates(state)] + [PASS])
    if ph == Phase.SHARE:
        return [SEAT + q for q in share_targets(state)]
    return []  # the end


@dataclass(frozen=True, slots=True)
class CardGroups:
    """The deck's Force-pile cards grouped by what `check_play` asks of them in a face-up play (`play_sets`)."""

    side_free: tuple[frozenset[int], frozenset[int], frozenset[int]]
    """Per play side -1 (none yet), 0 and 1 (at index side + 1): the cards of no other side (3.1 / 3.2)."""
    of_side: dict[int, frozenset[int]]
    """Per side value (-1 .. NEUTRAL): the cards whose side when played is exactly that."""
    force_year: dict[int, frozenset[int]]
    """Per year bit: the Force cards playable in that year (2.2 / 3.1)."""
    force_sub: frozenset[int]
    """The Force cards of the sub frame (S07)."""
    force_not_surface: frozenset[int]
    """The Force cards without a surface frame (2.42 / 2.43)."""
    supply: frozenset[int]
    """The Supply cards (2.41: no test of their own)."""
    bonus_solo: frozenset[int]
    """The Bonus cards that may be played alone (2.3)."""
    bonus_hosted: frozenset[int]
    """The Bonus cards that must join a Force card of the play (2.3, `find_host`)."""
    bonus_sub: frozenset[int]
    """The Bonus cards of the sub frame (S07)."""
    storm_free: frozenset[int]
    """Sirocco (S01) and Explosion (S03): Storm cards with no test of their own in a face-up play."""
    others: frozenset[int]
    """The other Special and Storm cards but Night action (`check_play` decides each; S05 is never played
    face up)."""

    def __reduce__(self) -> tuple[type[CardGroups], tuple[object, ...]]:
        """Pickled as the constructor and its fields (a process pool sends the game that holds it): compiled, a
        frozen dataclass cannot be rebuilt the default way (it sets each field on a blank object and fails)."""
        return (CardGroups, (self.side_free, self.of_side, self.force_year, self.force_sub, self.force_not_surface,
                             self.supply, self.bonus_solo, self.bonus_hosted, self.bonus_sub, self.storm_free,
                             self.others))


def card_groups(g: MedSiroccoGame) -> CardGroups:
    """The deck's `CardGroups`, from the card facts `check_play` reads (the game keeps them)."""
    side_free: dict[int, list[int]] = {t: [] for t in (-1, 0, 1)}
    of_side: dict[int, list[int]] = {v: [] for v in range(-1, NEUTRAL + 1)}
    force_year: dict[int, list[int]] = {1 << i: [] for i in range(4)}
    force_sub: list[int] = []
    force_not_surface: list[int] = []
    supply: list[int] = []
    bonus_solo: list[int] = []
    bonus_hosted: list[int] = []
    bonus_sub: list[int] = []
    storm_free: list[int] = []
    others: list[int] = []
    for c in range(N_PILE):
        k, sd, years, frame = g.card_facts[c]
        for t, cards in side_free.items():
            if t < 0 or sd in (NEUTRAL, t):
                cards.append(c)
        of_side[sd].append(c)
        if k == K_FORCE:
            for bit, cards in force_year.items():
                if years & bit:
                    cards.append(c)
            if frame == SUB:
                force_sub.append(c)
            if not frame & SURFACE:
                force_not_surface.append(c)
        elif k == K_SUPPLY:
            supply.append(c)
        elif k == K_BONUS:
            (bonus_solo if g.table.solo[c] else bonus_hosted).append(c)
            if frame == SUB:
                bonus_sub.append(c)
        elif k == K_STORM and g.table.effect[c] in (E_SIROCCO, E_EXPLOSION):
            storm_free.append(c)
        elif k != K_STORM or g.table.effect[c] != E_NIGHT:
            others.append(c)
    return CardGroups(
        side_free=(frozenset(side_free[-1]), frozenset(side_free[0]), frozenset(side_free[1])),
        of_side={v: frozenset(cards) for v, cards in of_side.items()},
        force_year={bit: frozenset(cards) for bit, cards in force_year.items()},
        force_sub=frozenset(force_sub),
        force_not_surface=frozenset(force_not_surface),
        supply=frozenset(supply),
        bonus_solo=frozenset(bonus_solo),
        bonus_hosted=frozenset(bonus_hosted),
        bonus_sub=frozenset(bonus_sub),
        storm_free=frozenset(storm_free),
        others=frozenset(others),
    )


def play_sets(g: MedSiroccoGame, key: PlayKey) -> PlaySets:
    """`check_play`'s tests that `legal_actions`' key fixes, over the whole deck: the cards they let be played
    outright (Force and Supply cards, Bonus cards played alone, Sirocco and Explosion), the cards that also need `find_host` (2.3: a
    Bonus card joining a Force card of the play) or `check_play` (Special and Storm cards), and the former."""
    t_side, intel_side, r_side, forces, year_bit, no_sub, raid = key
    groups = g.card_groups
    allowed = groups.side_free[t_side + 1]  # 3.1 / 3.2: one side per play
    if intel_side is not None:  # 2.45
        allowed = allowed & groups.of_side[intel_side]
    if r_side is not None:  # 2.42 / 2.43
        allowed = allowed & groups.of_side[r_side]
    force = groups.force_year[year_bit] if forces else frozenset()  # 1.4 C, 2.45, 2.46; 2.2 / 3.1
    bonus_solo, bonus_hosted = groups.bonus_solo, groups.bonus_hosted
    if no_sub:  # S07
        force = force - groups.force_sub
        bonus_solo = bonus_solo - groups.bonus_sub
        bonus_hosted = bonus_hosted - groups.bonus_sub
    if raid:  # 2.42 / 2.43
        force = force - groups.force_not_surface
    hosted = allowed & bonus_hosted
    return allowed & (force | groups.supply | bonus_solo | groups.storm_free), hosted | (allowed & groups.others), hosted


def illegal_reason(state: MedSiroccoState, action: int) -> str:
    """Why a real action is not legal now, citing the rule."""
    ph = state.phase
    p = state.to_act
    if ph == Phase.END:
        return "the game is over"
    if ph in (Phase.TURN, Phase.BUILD) and PLAY <= action < DISCARD:
        c = action - PLAY
        if c not in state.hands[p]:
            return f"1.4 C: {state.table.label(c)} is not in your hand"
        if face_down_round(state) and state.turn_mode == 0:
            code = check_play(state, p, c)
            return reason_text(state, p, c, code)
        code = check_play(state, p, c)
        if code != NO_REFUSAL:
            return reason_text(state, p, c, code)
    if (ph == Phase.TURN and action in (PASS, DISCARD_ALL)) or (DISCARD <= action < SELECT and ph == Phase.TURN):
        if must_play(state) and not face_down_round(state):
            return "3.2: in the 1st round of a Battle each player must play a card if he has a valid one"
        if face_down_round(state):
            return "3.2: in the 2nd round of a Battle each player must play a card face down"
        if DISCARD <= action < SELECT:
            return f"1.4 C: {state.table.label(action - DISCARD)} is not in your hand"
    if ph == Phase.BUILD and (DISCARD <= action < SELECT or action in (DISCARD_ALL, PASS)):
        return "1.4 C: you have played a card; add cards to the play or end it with done"
    if ph == Phase.TURN and action == PASS and state.hands[p]:
        return "1.4 C: you hold cards: play a card, discard one card or discard all (pass only with an empty hand)"
    if ph == Phase.TURN and action == DONE:
        return "1.4 C: play a card, discard one card or discard all before done"
    names = {Phase.CHANCE: "chance acts now", Phase.OP_CHOOSE: "5.0: choose which of the two Operations to play",
             Phase.TYPE: "3.1: the first player declares the engagement type (air, surface, sub or combined)",
             Phase.ADMIRAL: "2.46: choose the Admiral's action: combined type (A) or two Force cards (B)",
             Phase.TARGET: "S04/S06: select a face-up card in play as the target",
             Phase.SIROCCO_TARGET: "2.44: choose the player whose involvement the Sirocco cancels",
             Phase.HELD: "2.44: use the Sirocco passed to you, or discard it (pass)",
             Phase.LOST_CARD: "S02: select a card of your hand to exchange",
             Phase.LOST_SEAT: "S02: choose another player holding cards",
             Phase.SUPPLY: "2.41: pick up a ship card of the winning side, or pass",
             Phase.SHARE: "5.0: name the winning-side player who receives the next prize card (in the end each "
                       "receives as many cards as the others, or one more)"}
    if TYPE <= action < ADMIRAL_A and ph != Phase.TYPE:
        return "3.1: the 1st player declares the type at the start of a Convoy only (a Battle is combined, 3.2)"
    if action in (ADMIRAL_A, ADMIRAL_B) and ph != Phase.ADMIRAL:
        return "2.46: the Admiral's choice is made right after he is played, when the type is not combined"
    if action == USE and ph != Phase.HELD:
        return "2.44: you hold no Sirocco passed to you"
    if SEAT <= action < TYPE and ph not in (Phase.SIROCCO_TARGET, Phase.LOST_SEAT, Phase.SHARE):
        return "no player is to be chosen now (2.44 Sirocco, S02 Lost, 5.0 sharing)"
    if SELECT <= action < SEAT and ph not in (Phase.OP_CHOOSE, Phase.TARGET, Phase.LOST_CARD, Phase.SUPPLY):
        return "no card is to be selected now (5.0, S02, S04, S06, 2.41)"
    if ph in (Phase.TURN, Phase.BUILD):
        return "1.4 C: that is not a legal play now"
    return names.get(ph, "not legal now")
