"""Race to Messina rules: legal actions and transitions, one function per phase of the turn.

The six phases of a turn (rule text): Logistics, Strategy, Deployment, Action, Resolution, Recovery.
Every ruling on a gap of the text is numbered in RULES.md (R1, R2, ...) and cited where it is applied.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, TERMINAL, Chance, Uniform, not_a_chance_node, pick_uniform
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
from warcards.games.race_to_messina.codes import (
    DRAW,
    EV_ACTIVATE,
    EV_DEPLOYED,
    EV_DISCARD,
    EV_DRAWN,
    EV_HAND,
    EV_KEEP,
    EV_PASS,
    EV_PT,
    EV_RECON,
    EV_REVEAL,
    EV_SUPPLY,
    EV_SUPPLY_EMPTY,
    EV_TARGET,
    NO_CARD,
    NO_GROUP,
    NO_SEAT,
    PHASE_TITLES,
    PT_HAND,
    PT_HUBE,
    PT_PROGRESS,
    PT_TURN,
    Phase,
)
from warcards.games.race_to_messina.notation import (
    K_ACTIVATE,
    K_DEPLOY,
    K_DEPLOY_SECOND,
    K_DISCARD,
    K_DONE,
    K_REVEAL,
    K_TARGET,
    card_label,
    decode,
)

if TYPE_CHECKING:
    from warcards.games.race_to_messina.state import RaceToMessinaState

# ----- phase 1: Logistics ------------------------------------------------------------------------------------
def start_turn(state: RaceToMessinaState) -> None:
    """Logistics: "Each player fills their hand to 10 cards" (Race 12; Sicily 14 / 7 / 7, R21)."""
    state.phase = Phase.LOGISTICS
    state.order_index = 0
    state.log = []
    logistics_next(state)


def ensure_deck(state: RaceToMessinaState, family: int) -> bool:
    """"If a deck ever runs out, shuffle the discard and draw from it" (R27: each deck its own pile).

    Decks are unordered, so the shuffle is the next draw's chance node. False when both are empty.
    """
    if state.decks[family]:
        return True
    pile = state.discards[family]
    if not pile:
        return False
    pile.sort()
    state.decks[family] = pile
    state.discards[family] = []
    return True


def logistics_next(state: RaceToMessinaState) -> None:
    """Advance Logistics to the next seat that still needs cards, or on to Strategy."""
    v = state.variant
    order = v.order
    while state.order_index < len(order):
        seat = order[state.order_index]
        if len(state.hands[seat]) < v.hand_size[seat] and ensure_deck(state, v.seat_family[seat]):
            return
        state.order_index += 1
    state.phase = Phase.STRATEGY
    state.order_index = 0
    state.discarded = 0
    state.to_draw = 0


def draw(state: RaceToMessinaState, seat: int, card: int) -> None:
    """`card` leaves the seat's sorted deck (found by a search in halves) for its sorted hand."""
    deck = state.decks[state.variant.seat_family[seat]]
    del deck[bisect_left(deck, card)]
    insort(state.hands[seat], card)


# ----- phase 2: Strategy -------------------------------------------------------------------------------------
def strategy_draws(state: RaceToMessinaState) -> None:
    """Strategy: draw the replacements one chance node at a time, then hand over to the next seat (R26)."""
    seat = state.variant.order[state.order_index]
    if state.to_draw > 0 and ensure_deck(state, state.variant.seat_family[seat]):
        return
    state.to_draw = 0
    state.discarded = 0
    state.order_index += 1
    if state.order_index >= len(state.variant.order):
        state.phase = Phase.DEPLOYMENT
        state.order_index = 0


def forget(state: RaceToMessinaState, card: int) -> None:
    """A card that leaves a hand publicly is no longer "known in that hand" to anyone (R33)."""
    known = state.recon_known
    if any(known):
        bit = ~(1 << card)
        for seat in range(len(known)):
            known[seat] &= bit


# ----- phase 3: Deployment -----------------------------------------------------------------------------------
def may_use(state: RaceToMessinaState, seat: int, card: int) -> bool:
    """AA / AB cards: "only American player can use" / "only British" (R20: use means deploy)."""
    return bool(state.variant.allowed_restrictions[seat] >> state.table.restriction[card] & 1)


def group_full(state: RaceToMessinaState, group: int, size: int) -> bool:
    """Sicily: "A Set can have a max of 7 cards" (Axis Sets only; R22)."""
    cap = state.variant.set_cap
    return cap > 0 and state.variant.group_owner[group] == state.variant.axis_seat and size >= cap


def reveal_deployments(state: RaceToMessinaState) -> None:
    """"Both Players reveal all cards they want to play": hidden choices turn face-up together (R31)."""
    for group, cards in enumerate(state.deploying):
        if cards:
            cards.sort()
            state.on_table[group] = cards
            state.deploying[group] = []
            for card in cards:
                forget(state, card)
        state.log.append((EV_DEPLOYED, group, len(state.on_table[group])))
    state.phase = Phase.ACTION
    state.active_slot = 0
    state.passed_slots = 0


# ----- phase 4: Action ---------------------------------------------------------------------------------------
def next_slot(state: RaceToMessinaState) -> None:
    """Activation passes to the next slot that has not passed (R1: a pass is final for the phase)."""
    slots = len(state.variant.slots)
    slot = state.active_slot
    for _ in range(slots):
        slot = (slot + 1) % slots
        if not state.passed_slots >> slot & 1:
            state.active_slot = slot
            return


def activate(state: RaceToMessinaState, card: int) -> None:
    """Activate a card without a target: Supply, Recon, Progress or Hube's "Gain 1 PT"."""
    v = state.variant
    group = v.slots[state.active_slot]
    seat = v.group_owner[group]
    state.activated |= 1 << card
    state.log.append((EV_ACTIVATE, seat, card))
    ability = state.table.ability[card]
    if ability == SUPPLY:
        if ensure_deck(state, v.seat_family[seat]):
            state.supply_group = group
            state.supply_draw = True
            return
        state.log.append((EV_SUPPLY_EMPTY, seat))
    elif ability == RECON:
        other = v.group_owner[v.group_opponent[group]]
        mask = 0
        for c in state.hands[other]:
            mask |= 1 << c
        for c in state.deploying[v.group_opponent[group]]:
            mask |= 1 << c
        state.recon_known[seat] |= mask
        state.log.append((EV_RECON, seat, other, mask))
    elif ability == GAIN_PT:
        state.progress_tokens[seat] += 1
        state.log.append((EV_PT, seat, 1, PT_HUBE))
        if check_victory(state):
            return
    next_slot(state)


def supply_drawn(state: RaceToMessinaState, card: int) -> None:
    """Supply: "Draw 1 card: Put it in you hand or Reveal it Immediately" — the drawn card waits in hand."""
    seat = state.variant.group_owner[state.supply_group]
    draw(state, seat, card)
    state.supply_draw = False
    state.supply_card = card
    state.log.append((EV_SUPPLY, seat, card))


def can_reveal(state: RaceToMessinaState) -> bool:
    """A Supply card may be revealed if its owner may use it (R29) and its Set has room (R22)."""
    group = state.supply_group
    seat = state.variant.group_owner[group]
    return may_use(state, seat, state.supply_card) and not group_full(state, group, len(state.on_table[group]))


def resolve_supply(state: RaceToMessinaState, reveal: bool) -> None:
    group = state.supply_group
    seat = state.variant.group_owner[group]
    card = state.supply_card
    if reveal:
        state.hands[seat].remove(card)
        insort(state.on_table[group], card)
        forget(state, card)
        state.log.append((EV_REVEAL, seat, card))
    else:
        state.log.append((EV_KEEP, seat, card))
    state.supply_card = NO_CARD
    state.supply_group = NO_GROUP
    next_slot(state)


# ----- phase 5: Resolution -----------------------------------------------------------------------------------
def side_total(state: RaceToMessinaState, group: int, faction: int) -> int:
    """The force total of one side of a group: its cards of `faction` with their modifiers (R9, R10)."""
    faction_of = state.table.faction
    return force_total(state.table, [c for c in state.on_table[group] if faction_of[c] == faction])


def progress_count(state: RaceToMessinaState, group: int) -> int:
    """Activated Progress cards of a group still in play at Resolution (R30, R38)."""
    activated = state.activated
    ability = state.table.ability
    return sum(1 for c in state.on_table[group] if ability[c] == PROGRESS and activated >> c & 1)


def resolution(state: RaceToMessinaState) -> None:
    """Resolution: totals compared per battle; a strictly greater Ally total wins the hand, a tie goes to
    the Axis side (R6); the winner's activated Progress cards add 1 PT each (R8, R25, R30). Deployed
    cards are then discarded (R2)."""
    v = state.variant
    pt = state.progress_tokens
    for attacker, defender in v.battles:
        ally = side_total(state, attacker, ALLY)
        axis = side_total(state, defender, AXIS)
        won = ally > axis
        state.log.append((EV_HAND, attacker, ally, defender, axis, int(won)))
        if won:
            seat = v.group_owner[attacker]
            pt[seat] += 1
            state.log.append((EV_PT, seat, 1, PT_HAND))
            progress = progress_count(state, attacker)
            if progress:
                pt[seat] += progress
                state.log.append((EV_PT, seat, progress, PT_PROGRESS))
        elif v.defender_scores:
            progress = progress_count(state, defender)
            if progress:
                seat = v.group_owner[defender]
                pt[seat] += progress
                state.log.append((EV_PT, seat, progress, PT_PROGRESS))
    family = state.card_family
    for group, cards in enumerate(state.on_table):
        for card in cards:
            state.discards[family[card]].append(card)
        state.on_table[group] = []
    state.activated = 0
    if check_victory(state):
        return
    state.phase = Phase.RECOVERY
    state.order_index = 0


# ----- phase 6: Recovery -------------------------------------------------------------------------------------
def end_turn(state: RaceToMessinaState) -> None:
    """Recovery: "The Axis player gets 1 PT at the end of every turn no matter what" (not in Race, R5)."""
    v = state.variant
    if v.axis_seat != NO_SEAT:
        state.progress_tokens[v.axis_seat] += 1
        state.log.append((EV_PT, v.axis_seat, 1, PT_TURN))
        if check_victory(state):
            return
    if state.turn >= v.turn_limit and v.axis_seat == NO_SEAT:
        finish_race_by_limit(state)
        return
    state.turn += 1
    start_turn(state)


def finish_race_by_limit(state: RaceToMessinaState) -> None:
    """Race table limit (R37): after the last turn the player with more PT wins; equal PT is a draw."""
    british, americans = state.progress_tokens
    state.winner = 0 if british > americans else 1 if americans > british else DRAW
    state.phase = Phase.OVER


def check_victory(state: RaceToMessinaState) -> bool:
    """The variant's end conditions, checked whenever PT are gained (R3, R4, R7)."""
    v = state.variant
    pt = state.progress_tokens
    if v.name == "invasion":
        allies, axis = pt
        if allies < v.pt_goal[0] and axis < v.pt_goal[1]:
            return False
        # "If the Axis player has 15 or less PT at the end of the game, the Ally player wins."
        state.winner = 0 if allies >= v.pt_goal[0] and axis < v.axis_holds_at else 1
    elif v.name == "race":
        reached = [seat for seat in (0, 1) if pt[seat] >= v.pt_goal[seat]]
        if not reached:
            return False
        if len(reached) == 1:
            state.winner = reached[0]
        else:
            state.winner = 0 if pt[0] > pt[1] else 1 if pt[1] > pt[0] else DRAW
    else:
        axis_seat = v.axis_seat
        reached = [seat for seat in range(3) if pt[seat] >= v.pt_goal[seat]]
        if not reached:
            return False
        state.winner = reached[0] if len(reached) == 1 else axis_seat
    state.phase = Phase.OVER
    return True


# ----- whose turn -------------------------------------------------------------------------------------------------
def player_to_act(state: RaceToMessinaState) -> int:
    """Whose turn it is, from the data: a seat, `CHANCE` (a draw) or `TERMINAL` (`RaceToMessinaState.to_act`
    holds it, set by every `apply`, the first deal and a setup)."""
    phase = state.phase
    if phase == Phase.LOGISTICS:
        return CHANCE
    if phase == Phase.ACTION:
        if state.supply_draw:
            return CHANCE
        if state.supply_card != NO_CARD:
            return state.variant.group_owner[state.supply_group]
        return state.variant.group_owner[state.variant.slots[state.active_slot]]
    if phase == Phase.STRATEGY and state.to_draw:
        return CHANCE
    if phase == Phase.OVER:
        return TERMINAL
    return state.variant.order[state.order_index]


def returns(state: RaceToMessinaState) -> list[float]:
    """+1 to the winner and -1 to every other seat at the end; zeros before it and for a drawn Race."""
    winner = state.winner
    if state.phase != Phase.OVER or winner == DRAW:
        return [0.0] * state.variant.num_players
    return [1.0 if seat == winner else -1.0 for seat in range(state.variant.num_players)]


def drawing_seat(state: RaceToMessinaState) -> int:
    """The seat whose draw the current chance node is."""
    if state.phase == Phase.ACTION:
        return state.variant.group_owner[state.supply_group]
    return state.variant.order[state.order_index]


# ----- chance nodes ---------------------------------------------------------------------------------------------
def drawing_deck(state: RaceToMessinaState) -> list[int]:
    """The deck the current chance node draws from: the drawing seat's (`drawing_seat`, inlined: this runs at
    every draw). Sorted, each card once."""
    variant = state.variant
    seat = variant.group_owner[state.supply_group] if state.phase == Phase.ACTION else variant.order[state.order_index]
    return state.decks[variant.seat_family[seat]]


def chance(state: RaceToMessinaState) -> Chance:
    """Every chance node is a draw from the drawing seat's deck, each card in it equally likely (decks are
    unordered): the deck itself, held by the description, not copied — in a description the state keeps while
    it describes that very list (`deck_chance`: making a `Uniform` at every draw cost a tenth of a draw)."""
    variant = state.variant
    seat = variant.group_owner[state.supply_group] if state.phase == Phase.ACTION else variant.order[state.order_index]
    deck = state.decks[variant.seat_family[seat]]
    described = state.deck_chance
    if described.outcomes is not deck:
        described = state.deck_chance = Uniform(deck)
    return described


def apply_chance(state: RaceToMessinaState, u: float) -> int:
    """The draw in one go (the driver loops' chance step, most of the game's actions): the card
    `chance(state).pick(u)` picks, applied and returned; away from a chance node `ValueError`, state unchanged."""
    if state.to_act != CHANCE:
        raise not_a_chance_node()
    card = pick_uniform(drawing_deck(state), u)
    apply(state, card)
    return card


# ----- the action space ----------------------------------------------------------------------------------------
def legal_actions(state: RaceToMessinaState) -> list[int]:
    """Sorted legal actions of the seat to act (never called at chance or terminal nodes)."""
    phase = state.phase
    layout = state.layout
    if phase == Phase.ACTION:
        if state.supply_card != NO_CARD:
            return [layout.keep, layout.reveal] if can_reveal(state) else [layout.keep]
        return action_phase_actions(state)
    seat = state.variant.order[state.order_index]
    hand = state.hands[seat]
    if phase == Phase.DEPLOYMENT:
        return deployment_actions(state, seat)
    if phase == Phase.STRATEGY:
        if state.discarded < state.variant.discard_limit:
            return [*hand, layout.done]
        return [layout.done]
    # Recovery: discard freely; done once the hand is down to 2 or fewer (R28).
    if len(hand) <= state.variant.recovery_keep:
        return [*hand, layout.done]
    return hand[:]


def deployment_actions(state: RaceToMessinaState, seat: int) -> list[int]:
    """Deployment: each card of the hand the seat may use (AA/AB, R20) into each of its groups with room
    (R22; only Sicily caps a Set), then done. One pass over the hand per group. A seat with one group and no
    cap keeps its list (`deploy_cache`): each deployment takes its action out (`apply`), 'done' drops it."""
    variant = state.variant
    groups = variant.seat_groups[seat]
    kept = len(groups) == 1 and variant.set_cap == 0
    if kept and state.deploy_cache is not None:
        return state.deploy_cache[:]
    layout = state.layout
    allowed = variant.allowed_restrictions[seat]
    restriction = state.table.restriction
    hand = state.hands[seat]
    capped = variant.set_cap > 0
    first = groups[0]
    if capped and group_full(state, first, len(state.deploying[first])):
        result = []
    else:
        deploy = layout.deploy
        result = [deploy + c for c in hand if allowed >> restriction[c] & 1]
    if len(groups) > 1 and not (capped and group_full(state, groups[1], len(state.deploying[groups[1]]))):
        second = layout.deploy_second
        result += [second + c for c in hand if allowed >> restriction[c] & 1]
    result.append(layout.done)
    if kept:
        state.deploy_cache = result
        return result[:]
    return result


def action_phase_actions(state: RaceToMessinaState) -> list[int]:
    """Action phase: activate one not-yet-activated card of the slot's group, or pass.

    A DT card names its target (R35): a card of the opposing group (Sicily: the Set or Ally it faces, R23,
    R24) with one of its traits, of the other faction (Race: "Use your Ally cards only to target your
    opponents revealed Axis cards"), and not immune to it (Night Bombing, R18).
    """
    v = state.variant
    t = state.table
    group = v.slots[state.active_slot]
    layout = state.layout
    activated = state.activated
    ability = t.ability
    acts: list[int] = []
    pairs: list[int] = []
    opposing = state.on_table[v.group_opponent[group]]
    for card in state.on_table[group]:
        if activated >> card & 1:
            continue
        kind = ability[card]
        if kind == DISCARD:
            mask = t.targets[card]
            faction = t.faction[card]
            base = layout.target + t.dt_index[card] * t.size
            for target in opposing:
                if t.traits[target] & mask and t.faction[target] != faction and not t.immune[target] & mask:
                    pairs.append(base + target)
        elif kind:
            acts.append(layout.activate + card)
    acts += pairs
    acts.append(layout.pass_)
    return acts


def apply(state: RaceToMessinaState, action: int) -> None:
    """Apply a legal action or chance outcome (already checked): play it, then recompute whose turn it is.
    The commonest steps are played here, whoever acts next known without asking `player_to_act`: a Logistics
    draw (a third of the game's actions: while the hand takes another card the same seat draws again), and a
    discard (Strategy, Recovery) or a deployment, after which the same seat acts again."""
    phase = state.phase
    if phase == Phase.LOGISTICS:
        variant = state.variant
        seat = variant.order[state.order_index]
        deck = state.decks[variant.seat_family[seat]]
        del deck[bisect_left(deck, action)]  # the deck is sorted: a search in halves, not `list.remove`'s scan
        hand = state.hands[seat]
        insort(hand, action)
        if deck and len(hand) < variant.hand_size[seat]:
            return
        logistics_next(state)
    elif phase == Phase.RECOVERY or phase == Phase.DEPLOYMENT or (phase == Phase.STRATEGY and not state.to_draw):
        layout = state.layout
        if action == layout.done:
            play(state, action)
        else:  # a discard (Strategy, Recovery) or a deployment: the same seat acts next
            seat = state.to_act
            hand = state.hands[seat]
            if phase == Phase.DEPLOYMENT:
                if action < layout.deploy_second:
                    group = state.variant.seat_groups[seat][0]
                    card = action - layout.deploy
                else:
                    group = state.variant.seat_groups[seat][1]
                    card = action - layout.deploy_second
                hand.remove(card)
                state.deploying[group].append(card)
                cached = state.deploy_cache
                if cached is not None:
                    cached.remove(action)
                return
            hand.remove(action)  # a face-up discard: public, so Recon knowledge of it ends (R33)
            state.discards[state.card_family[action]].append(action)
            if any(state.recon_known):
                forget(state, action)
            state.log.append((EV_DISCARD, seat, action))
            if phase == Phase.STRATEGY:
                state.discarded += 1
            return
    else:
        play(state, action)
    state.to_act = player_to_act(state)


def play(state: RaceToMessinaState, action: int) -> None:
    """The steps `apply` does not play itself, phase by phase (`apply` keeps `to_act` up to date): a Strategy
    draw or 'done', any Action-phase step, and the 'done' that ends a seat's Deployment or Recovery."""
    phase = state.phase
    if phase == Phase.ACTION:
        apply_action_phase(state, action)
        return
    if phase == Phase.STRATEGY:
        if state.to_draw:
            draw(state, state.variant.order[state.order_index], action)
            state.to_draw -= 1
            strategy_draws(state)
            return
        state.to_draw = state.discarded  # done
        if state.discarded:
            state.log.append((EV_DRAWN, state.variant.order[state.order_index], state.discarded))
        strategy_draws(state)
        return
    state.order_index += 1  # done, in Deployment or Recovery
    state.deploy_cache = None
    if state.order_index >= len(state.variant.order):
        if phase == Phase.DEPLOYMENT:
            reveal_deployments(state)
        else:
            end_turn(state)


def apply_action_phase(state: RaceToMessinaState, action: int) -> None:
    layout = state.layout
    if state.supply_draw:
        supply_drawn(state, action)
        return
    if action >= layout.keep:
        if action == layout.pass_:
            group = state.variant.slots[state.active_slot]
            state.log.append((EV_PASS, state.variant.group_owner[group], group))
            state.passed_slots |= 1 << state.active_slot
            if state.passed_slots == (1 << len(state.variant.slots)) - 1:
                resolution(state)
            else:
                next_slot(state)
        else:
            resolve_supply(state, action == layout.reveal)
        return
    if action < layout.target:
        activate(state, action - layout.activate)
        return
    k, target = divmod(action - layout.target, state.table.size)
    source = state.table.dt_cards[k]
    group = state.variant.slots[state.active_slot]
    state.activated |= 1 << source
    opposing = state.variant.group_opponent[group]
    state.on_table[opposing].remove(target)
    state.discards[state.card_family[target]].append(target)
    state.log.append((EV_TARGET, state.variant.group_owner[group], source, target))
    next_slot(state)


# ----- why an action is refused ----------------------------------------------------------------------------------
def illegal_reason(state: RaceToMessinaState, action: int) -> str:
    """A sentence saying why `action` is not legal now, citing the rule section."""
    v = state.variant
    t = state.table
    kind, card, target = decode(t, action)
    phase = state.phase
    seat = state.current_player()
    seat_name = v.seats[seat] if seat >= 0 else "nobody"
    phase_name = PHASE_TITLES[phase]
    label = card_label(t, card) if card != NO_CARD else ""
    if phase == Phase.STRATEGY:
        if kind == K_DISCARD:
            if card not in state.hands[seat]:
                return f"Strategy: {label} is not in the {seat_name} hand"
            return (f"Strategy: \"Each player may discard up to {v.discard_limit} cards\" — "
                    f"{seat_name} has discarded {state.discarded} already; write 'done'")
        return f"Strategy: {seat_name} may only discard cards from hand or say 'done'"
    if phase == Phase.DEPLOYMENT:
        if kind in (K_DEPLOY, K_DEPLOY_SECOND):
            if kind == K_DEPLOY_SECOND and len(v.seat_groups[seat]) < 2:
                return "Deployment: only the Sicily Axis deploys two Sets ('vs british'); deploy with 'deploy CARD'"
            if card not in state.hands[seat]:
                return f"Deployment: {label} is not in the {seat_name} hand"
            if not may_use(state, seat, card):
                nation = "American" if t.restriction[card] == 1 else "British"
                return f"Deployment (card list, AA/AB): {label} can only be used by the {nation} player"
            return "Deployment (Sicily): \"A Set can have a max of 7 cards\" — that Set is full"
        return f"Deployment: {seat_name} may only deploy cards from hand or say 'done'"
    if phase == Phase.RECOVERY:
        if kind == K_DONE:
            return (f"Recovery: \"You must discard down to 2 cards or less\" — {seat_name} holds "
                    f"{len(state.hands[seat])} cards")
        if kind == K_DISCARD:
            return f"Recovery: {label} is not in the {seat_name} hand"
        return f"Recovery: {seat_name} may only discard cards or say 'done'"
    if phase == Phase.ACTION:
        if state.supply_card != NO_CARD:
            if kind == K_REVEAL:
                return ("Action (Supply): this card cannot be revealed — its owner may not use it (AA/AB) "
                        "or its Set holds 7 cards; write 'keep'")
            return "Action (Supply): put the drawn card in hand ('keep') or reveal it ('reveal')"
        group = v.slots[state.active_slot]
        if kind in (K_ACTIVATE, K_TARGET):
            if card not in state.on_table[group]:
                return f"Action: {label} is not among the {v.group_zone[group]} cards ('activate' your deployed cards)"
            if state.activated >> card & 1:
                return f"Action: \"A single card can only be activated once\" — {label} has been activated"
            if t.ability[card] == 0:
                return f"Action: {label} has no special ability to activate (its note is not an SA)"
            if kind == K_ACTIVATE:
                return f"Action: {label} discards a target card; write 'activate {t.ids[card]} target CARD'"
            if t.dt_index[card] < 0:
                return f"Action: {label} takes no target; write 'activate {t.ids[card]}'"
            opposing = v.group_opponent[group]
            tl = card_label(t, target)
            if target not in state.on_table[opposing]:
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
