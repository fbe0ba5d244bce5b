"""Race to Messina rules: legal actions and transitions, one function per phase of the turn.

The six phases of a turn (rule text): Logistics, Strategy, Deployment, Action, Resolution, Recovery.
Every ruling on a gap of the text is numbered in RULES.md (R1, R2, ...) and cited where it is applied.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from warcards.games.race_to_messina.cards import (
    ALLY,
    AXIS,
    DISCARD,
    GAIN_PT,
    PROGRESS,
    RECON,
    SUPPLY,
    force_total,
    mask_names,
)
from warcards.games.race_to_messina.notation import (
    K_ACTIVATE,
    K_DEPLOY,
    K_DEPLOY2,
    K_DISCARD,
    K_DONE,
    K_REVEAL,
    K_TARGET,
    card_label,
    decode,
)
from warcards.games.race_to_messina.params import RECOVERY_KEEP

if TYPE_CHECKING:
    from warcards.games.race_to_messina.state import RaceToMessinaState

LOGISTICS = 0
STRATEGY = 1
DEPLOYMENT = 2
ACTION = 3
RECOVERY = 4
OVER = 5

# Log events: (kind, ...ints). Rendered per viewer by views.py.
EV_DISCARD = 0  # seat, card
EV_DRAWN = 1  # seat, count (Strategy replacements)
EV_DEPLOYED = 2  # group, count
EV_ACTIVATE = 3  # seat, card
EV_TARGET = 4  # seat, card, target
EV_RECON = 5  # seat, looked-at seat, bitmask of that hand (private to seat)
EV_SUPPLY = 6  # seat, card (the card is private to seat)
EV_KEEP = 7  # seat, card (private)
EV_REVEAL = 8  # seat, card
EV_PT = 9  # seat, amount, reason (0 hand won, 1 Progress, 2 Hube, 3 end of turn)
EV_HAND = 10  # attacking group, its Ally total, defending group, its Axis total, 1 if the attacker won
EV_SUPPLY_EMPTY = 11  # seat
EV_PASS = 12  # seat, group

PT_HAND = 0
PT_PROGRESS = 1
PT_HUBE = 2
PT_TURN = 3


# ----- phase 1: Logistics ------------------------------------------------------------------------------------
def start_turn(s: RaceToMessinaState) -> None:
    """Logistics: "Each player fills their hand to 10 cards" (Race 12; Sicily 14 / 7 / 7, R21)."""
    s.phase = LOGISTICS
    s.step = 0
    s.log = []
    logistics_next(s)


def ensure_deck(s: RaceToMessinaState, family: int) -> bool:
    """"If a deck ever runs out, shuffle the discard and draw from it" (R27: each deck its own pile).

    Decks are unordered, so the shuffle is the next draw's chance node. False when both are empty.
    """
    if s.decks[family]:
        return True
    pile = s.discards[family]
    if not pile:
        return False
    pile.sort()
    s.decks[family] = pile
    s.discards[family] = []
    return True


def logistics_next(s: RaceToMessinaState) -> None:
    """Advance Logistics to the next seat that still needs cards, or on to Strategy."""
    v = s.v
    order = v.order
    while s.step < len(order):
        seat = order[s.step]
        if len(s.hands[seat]) < v.hand_size[seat] and ensure_deck(s, v.seat_family[seat]):
            return
        s.step += 1
    s.phase = STRATEGY
    s.step = 0
    s.discarded = 0
    s.to_draw = 0


def draw(s: RaceToMessinaState, seat: int, card: int) -> None:
    s.decks[s.v.seat_family[seat]].remove(card)
    insort(s.hands[seat], card)


# ----- phase 2: Strategy -------------------------------------------------------------------------------------
def strategy_draws(s: RaceToMessinaState) -> None:
    """Strategy: draw the replacements one chance node at a time, then hand over to the next seat (R26)."""
    seat = s.v.order[s.step]
    if s.to_draw > 0 and ensure_deck(s, s.v.seat_family[seat]):
        return
    s.to_draw = 0
    s.discarded = 0
    s.step += 1
    if s.step >= len(s.v.order):
        s.phase = DEPLOYMENT
        s.step = 0


def discard_from_hand(s: RaceToMessinaState, seat: int, card: int) -> None:
    """A face-up discard from a hand (Strategy, Recovery): public, so Recon knowledge of it ends (R33)."""
    s.hands[seat].remove(card)
    s.discards[s.family[card]].append(card)
    forget(s, card)
    s.log.append((EV_DISCARD, seat, card))


def forget(s: RaceToMessinaState, card: int) -> None:
    """A card that leaves a hand publicly is no longer "known in that hand" to anyone (R33)."""
    known = s.known
    if any(known):
        bit = ~(1 << card)
        for seat in range(len(known)):
            known[seat] &= bit


# ----- phase 3: Deployment -----------------------------------------------------------------------------------
def may_use(s: RaceToMessinaState, seat: int, card: int) -> bool:
    """AA / AB cards: "only American player can use" / "only British" (R20: use means deploy)."""
    return bool(s.v.allowed_restrictions[seat] >> s.t.restriction[card] & 1)


def group_full(s: RaceToMessinaState, group: int, size: int) -> bool:
    """Sicily: "A Set can have a max of 7 cards" (Axis Sets only; R22)."""
    cap = s.v.set_cap
    return cap > 0 and s.v.group_owner[group] == s.v.axis_seat and size >= cap


def reveal_deployments(s: RaceToMessinaState) -> None:
    """"Both Players reveal all cards they want to play": hidden choices turn face-up together (R31)."""
    for group, cards in enumerate(s.pending):
        if cards:
            cards.sort()
            s.tables[group] = cards
            s.pending[group] = []
            for card in cards:
                forget(s, card)
        s.log.append((EV_DEPLOYED, group, len(s.tables[group])))
    s.phase = ACTION
    s.slot = 0
    s.passed = 0


# ----- phase 4: Action ---------------------------------------------------------------------------------------
def next_slot(s: RaceToMessinaState) -> None:
    """Activation passes to the next slot that has not passed (R1: a pass is final for the phase)."""
    slots = len(s.v.slots)
    slot = s.slot
    for _ in range(slots):
        slot = (slot + 1) % slots
        if not s.passed >> slot & 1:
            s.slot = slot
            return


def activate(s: RaceToMessinaState, card: int) -> None:
    """Activate a card without a target: Supply, Recon, Progress or Hube's "Gain 1 PT"."""
    v = s.v
    group = v.slots[s.slot]
    seat = v.group_owner[group]
    s.activated |= 1 << card
    s.log.append((EV_ACTIVATE, seat, card))
    ability = s.t.ability[card]
    if ability == SUPPLY:
        if ensure_deck(s, v.seat_family[seat]):
            s.supply_group = group
            s.supply_draw = True
            return
        s.log.append((EV_SUPPLY_EMPTY, seat))
    elif ability == RECON:
        other = v.group_owner[v.group_opponent[group]]
        mask = 0
        for c in s.hands[other]:
            mask |= 1 << c
        for c in s.pending[v.group_opponent[group]]:
            mask |= 1 << c
        s.known[seat] |= mask
        s.log.append((EV_RECON, seat, other, mask))
    elif ability == GAIN_PT:
        s.pt[seat] += 1
        s.log.append((EV_PT, seat, 1, PT_HUBE))
        if check_victory(s):
            return
    next_slot(s)


def supply_drawn(s: RaceToMessinaState, card: int) -> None:
    """Supply: "Draw 1 card: Put it in you hand or Reveal it Immediately" — the drawn card waits in hand."""
    seat = s.v.group_owner[s.supply_group]
    draw(s, seat, card)
    s.supply_draw = False
    s.supply_card = card
    s.log.append((EV_SUPPLY, seat, card))


def can_reveal(s: RaceToMessinaState) -> bool:
    """A Supply card may be revealed if its owner may use it (R29) and its Set has room (R22)."""
    group = s.supply_group
    seat = s.v.group_owner[group]
    return may_use(s, seat, s.supply_card) and not group_full(s, group, len(s.tables[group]))


def resolve_supply(s: RaceToMessinaState, reveal: bool) -> None:
    group = s.supply_group
    seat = s.v.group_owner[group]
    card = s.supply_card
    if reveal:
        s.hands[seat].remove(card)
        insort(s.tables[group], card)
        forget(s, card)
        s.log.append((EV_REVEAL, seat, card))
    else:
        s.log.append((EV_KEEP, seat, card))
    s.supply_card = -1
    s.supply_group = -1
    next_slot(s)


# ----- phase 5: Resolution -----------------------------------------------------------------------------------
def side_total(s: RaceToMessinaState, group: int, faction: int) -> int:
    """The force total of one side of a group: its cards of `faction` with their modifiers (R9, R10)."""
    faction_of = s.t.faction
    return force_total(s.t, [c for c in s.tables[group] if faction_of[c] == faction])


def progress_count(s: RaceToMessinaState, group: int) -> int:
    """Activated Progress cards of a group still in play at Resolution (R30, R38)."""
    activated = s.activated
    ability = s.t.ability
    return sum(1 for c in s.tables[group] if ability[c] == PROGRESS and activated >> c & 1)


def resolution(s: RaceToMessinaState) -> None:
    """Resolution: totals compared per battle; a strictly greater Ally total wins the hand, a tie goes to
    the Axis side (R6); the winner's activated Progress cards add 1 PT each (R8, R25, R30). Deployed
    cards are then discarded (R2)."""
    v = s.v
    pt = s.pt
    for attacker, defender in v.battles:
        ally = side_total(s, attacker, ALLY)
        axis = side_total(s, defender, AXIS)
        won = ally > axis
        s.log.append((EV_HAND, attacker, ally, defender, axis, int(won)))
        if won:
            seat = v.group_owner[attacker]
            pt[seat] += 1
            s.log.append((EV_PT, seat, 1, PT_HAND))
            progress = progress_count(s, attacker)
            if progress:
                pt[seat] += progress
                s.log.append((EV_PT, seat, progress, PT_PROGRESS))
        elif v.defender_scores:
            progress = progress_count(s, defender)
            if progress:
                seat = v.group_owner[defender]
                pt[seat] += progress
                s.log.append((EV_PT, seat, progress, PT_PROGRESS))
    family = s.family
    for group, cards in enumerate(s.tables):
        for card in cards:
            s.discards[family[card]].append(card)
        s.tables[group] = []
    s.activated = 0
    if check_victory(s):
        return
    s.phase = RECOVERY
    s.step = 0


# ----- phase 6: Recovery -------------------------------------------------------------------------------------
def end_turn(s: RaceToMessinaState) -> None:
    """Recovery: "The Axis player gets 1 PT at the end of every turn no matter what" (not in Race, R5)."""
    v = s.v
    if v.axis_seat >= 0:
        s.pt[v.axis_seat] += 1
        s.log.append((EV_PT, v.axis_seat, 1, PT_TURN))
        if check_victory(s):
            return
    if s.turn >= v.turn_limit and v.axis_seat < 0:
        finish_race_by_limit(s)
        return
    s.turn += 1
    start_turn(s)


def finish_race_by_limit(s: RaceToMessinaState) -> None:
    """Race table limit (R37): after the last turn the player with more PT wins; equal PT is a draw."""
    british, americans = s.pt
    s.winner = 0 if british > americans else 1 if americans > british else -2
    s.phase = OVER


def check_victory(s: RaceToMessinaState) -> bool:
    """The variant's end conditions, checked whenever PT are gained (R3, R4, R7)."""
    v = s.v
    pt = s.pt
    if v.name == "invasion":
        allies, axis = pt
        if allies < v.pt_goal[0] and axis < v.pt_goal[1]:
            return False
        # "If the Axis player has 15 or less PT at the end of the game, the Ally player wins."
        s.winner = 0 if allies >= v.pt_goal[0] and axis <= 15 else 1
    elif v.name == "race":
        reached = [seat for seat in (0, 1) if pt[seat] >= v.pt_goal[seat]]
        if not reached:
            return False
        if len(reached) == 1:
            s.winner = reached[0]
        else:
            s.winner = 0 if pt[0] > pt[1] else 1 if pt[1] > pt[0] else -2
    else:
        axis_seat = v.axis_seat
        reached = [seat for seat in range(3) if pt[seat] >= v.pt_goal[seat]]
        if not reached:
            return False
        s.winner = reached[0] if len(reached) == 1 else axis_seat
    s.phase = OVER
    return True


# ----- the action space ----------------------------------------------------------------------------------------
def legal_actions(s: RaceToMessinaState) -> list[int]:
    """Sorted legal actions of the seat to act (never called at chance or terminal nodes)."""
    phase = s.phase
    enc = s.enc
    if phase == ACTION:
        if s.supply_card >= 0:
            return [enc.keep, enc.reveal] if can_reveal(s) else [enc.keep]
        return action_phase_actions(s)
    seat = s.v.order[s.step]
    hand = s.hands[seat]
    if phase == DEPLOYMENT:
        return deployment_actions(s, seat)
    if phase == STRATEGY:
        if s.discarded < s.v.discard_limit:
            return [*hand, enc.done]
        return [enc.done]
    # Recovery: discard freely; done once the hand is down to 2 or fewer (R28).
    if len(hand) <= RECOVERY_KEEP:
        return [*hand, enc.done]
    return hand[:]


def deployment_actions(s: RaceToMessinaState, seat: int) -> list[int]:
    enc = s.enc
    groups = s.v.seat_groups[seat]
    allowed = s.v.allowed_restrictions[seat]
    restriction = s.t.restriction
    usable = [c for c in s.hands[seat] if allowed >> restriction[c] & 1]
    first = groups[0]
    result = [] if group_full(s, first, len(s.pending[first])) else [enc.deploy + c for c in usable]
    if len(groups) > 1 and not group_full(s, groups[1], len(s.pending[groups[1]])):
        result += [enc.deploy2 + c for c in usable]
    result.append(enc.done)
    return result


def action_phase_actions(s: RaceToMessinaState) -> list[int]:
    """Action phase: activate one not-yet-activated card of the slot's group, or pass.

    A DT card names its target (R35): a card of the opposing group (Sicily: the Set or Ally it faces, R23,
    R24) with one of its traits, of the other faction (Race: "Use your Ally cards only to target your
    opponents revealed Axis cards"), and not immune to it (Night Bombing, R18).
    """
    v = s.v
    t = s.t
    group = v.slots[s.slot]
    enc = s.enc
    activated = s.activated
    ability = t.ability
    acts: list[int] = []
    pairs: list[int] = []
    opposing = s.tables[v.group_opponent[group]]
    for card in s.tables[group]:
        if activated >> card & 1:
            continue
        kind = ability[card]
        if kind == DISCARD:
            mask = t.targets[card]
            faction = t.faction[card]
            base = enc.target + t.dt_index[card] * enc.n
            for target in opposing:
                if t.traits[target] & mask and t.faction[target] != faction and not t.immune[target] & mask:
                    pairs.append(base + target)
        elif kind:
            acts.append(enc.activate + card)
    acts += pairs
    acts.append(enc.pass_)
    return acts


def apply(s: RaceToMessinaState, action: int) -> None:
    """Apply a legal action or chance outcome."""
    phase = s.phase
    if phase == LOGISTICS:
        v = s.v
        seat = v.order[s.step]
        deck = s.decks[v.seat_family[seat]]
        deck.remove(action)
        hand = s.hands[seat]
        insort(hand, action)
        if deck and len(hand) < v.hand_size[seat]:
            return
        logistics_next(s)
        return
    if phase == ACTION:
        apply_action_phase(s, action)
        return
    if phase == STRATEGY:
        if s.to_draw:
            draw(s, s.v.order[s.step], action)
            s.to_draw -= 1
            strategy_draws(s)
            return
        seat = s.v.order[s.step]
        if action == s.enc.done:
            s.to_draw = s.discarded
            if s.discarded:
                s.log.append((EV_DRAWN, seat, s.discarded))
            strategy_draws(s)
        else:
            discard_from_hand(s, seat, action)
            s.discarded += 1
        return
    seat = s.v.order[s.step]
    if phase == DEPLOYMENT:
        enc = s.enc
        if action == enc.done:
            s.step += 1
            if s.step >= len(s.v.order):
                reveal_deployments(s)
            return
        if action < enc.deploy2:
            group = s.v.seat_groups[seat][0]
            card = action - enc.deploy
        else:
            group = s.v.seat_groups[seat][1]
            card = action - enc.deploy2
        s.hands[seat].remove(card)
        s.pending[group].append(card)
        return
    # Recovery
    if action == s.enc.done:
        s.step += 1
        if s.step >= len(s.v.order):
            end_turn(s)
        return
    discard_from_hand(s, seat, action)


def apply_action_phase(s: RaceToMessinaState, action: int) -> None:
    enc = s.enc
    if s.supply_draw:
        supply_drawn(s, action)
        return
    if action >= enc.keep:
        if action == enc.pass_:
            group = s.v.slots[s.slot]
            s.log.append((EV_PASS, s.v.group_owner[group], group))
            s.passed |= 1 << s.slot
            if s.passed == (1 << len(s.v.slots)) - 1:
                resolution(s)
            else:
                next_slot(s)
        else:
            resolve_supply(s, action == enc.reveal)
        return
    if action < enc.target:
        activate(s, action - enc.activate)
        return
    k, target = divmod(action - enc.target, enc.n)
    source = s.t.dt_cards[k]
    group = s.v.slots[s.slot]
    s.activated |= 1 << source
    opposing = s.v.group_opponent[group]
    s.tables[opposing].remove(target)
    s.discards[s.family[target]].append(target)
    s.log.append((EV_TARGET, s.v.group_owner[group], source, target))
    next_slot(s)


# ----- why an action is refused ----------------------------------------------------------------------------------
def illegal_reason(s: RaceToMessinaState, action: int) -> str:
    """A sentence saying why `action` is not legal now, citing the rule section."""
    v = s.v
    t = s.t
    kind, card, target = decode(action)
    phase = s.phase
    seat = s.current_player()
    seat_name = v.seats[seat] if seat >= 0 else "nobody"
    phase_name = ("Logistics", "Strategy", "Deployment", "Action", "Recovery", "Over")[phase]
    label = card_label(t, card) if card >= 0 else ""
    if phase == STRATEGY:
        if kind == K_DISCARD:
            if card not in s.hands[seat]:
                return f"Strategy: {label} is not in the {seat_name} hand"
            return (f"Strategy: \"Each player may discard up to {v.discard_limit} cards\" — "
                    f"{seat_name} has discarded {s.discarded} already; write 'done'")
        return f"Strategy: {seat_name} may only discard cards from hand or say 'done'"
    if phase == DEPLOYMENT:
        if kind in (K_DEPLOY, K_DEPLOY2):
            if kind == K_DEPLOY2 and len(v.seat_groups[seat]) < 2:
                return "Deployment: only the Sicily Axis deploys two Sets ('vs british'); deploy with 'deploy CARD'"
            if card not in s.hands[seat]:
                return f"Deployment: {label} is not in the {seat_name} hand"
            if not may_use(s, seat, card):
                nation = "American" if t.restriction[card] == 1 else "British"
                return f"Deployment (card list, AA/AB): {label} can only be used by the {nation} player"
            return "Deployment (Sicily): \"A Set can have a max of 7 cards\" — that Set is full"
        return f"Deployment: {seat_name} may only deploy cards from hand or say 'done'"
    if phase == RECOVERY:
        if kind == K_DONE:
            return (f"Recovery: \"You must discard down to 2 cards or less\" — {seat_name} holds "
                    f"{len(s.hands[seat])} cards")
        if kind == K_DISCARD:
            return f"Recovery: {label} is not in the {seat_name} hand"
        return f"Recovery: {seat_name} may only discard cards or say 'done'"
    if phase == ACTION:
        if s.supply_card >= 0:
            if kind == K_REVEAL:
                return ("Action (Supply): this card cannot be revealed — its owner may not use it (AA/AB) "
                        "or its Set holds 7 cards; write 'keep'")
            return "Action (Supply): put the drawn card in hand ('keep') or reveal it ('reveal')"
        group = v.slots[s.slot]
        if kind in (K_ACTIVATE, K_TARGET):
            if card not in s.tables[group]:
                return f"Action: {label} is not among the {v.group_zone[group]} cards ('activate' your deployed cards)"
            if s.activated >> card & 1:
                return f"Action: \"A single card can only be activated once\" — {label} has been activated"
            if t.ability[card] == 0:
                return f"Action: {label} has no special ability to activate (its note is not an SA)"
            if kind == K_ACTIVATE:
                return f"Action: {label} discards a target card; write 'activate {t.ids[card]} target CARD'"
            if t.dt_index[card] < 0:
                return f"Action: {label} takes no target; write 'activate {t.ids[card]}'"
            opposing = v.group_opponent[group]
            tl = card_label(t, target)
            if target not in s.tables[opposing]:
                return f"Action: {tl} is not among the opposing {v.group_zone[opposing]} cards in play"
            if t.faction[target] == t.faction[card]:
                return (f"Action (Race): \"Use your Ally cards only to target your opponents revealed Axis cards\" "
                        f"(and Axis cards only Ally cards) — {label} cannot target {tl}")
            if t.immune[target] & t.targets[card]:
                return f"Action: {tl} is \"Immune to Anti-Air\" (R18)"
            wanted = " or ".join(mask_names(t.targets[card]))
            return f"Action: DT — {label} discards a {wanted} card, and {tl} has no such trait"
        return f"Action: {seat_name} activates a deployed card or passes"
    return f"{phase_name}: no action of that kind now"
