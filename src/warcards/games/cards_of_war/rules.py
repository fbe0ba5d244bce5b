"""The rules of Cards of War as functions on a `CardsOfWarState`: legal actions, transitions, scoring.

Section names are the rule text's headings (SETUP, SPECIAL ABILITIES 1-3, PLAYING A ROUND, WINNING A BATTLE,
WINNING A ROUND, WINNING THE GAME, OPTIONAL RULES, 2 DECK VERSION); "R<n>" cites a ruling in RULES.md.
Card numbers: a physical card is `deck * num_kinds + kind`; player actions name the kind (the mover's own copy)
and are laid out by `notation.action_layout`.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, TERMINAL, Chance, Uniform, not_a_chance_node, pick_uniform
from warcards.games.cards_of_war.codes import (
    ALL_BATTLES_OPEN,
    BATTLE_NAMES,
    NO_BATTLE,
    NO_CARD,
    NO_SEAT,
    NO_THEATRE,
    NUM_BATTLES,
    OPEN,
    VOID,
    Length,
    Phase,
)
from warcards.games.cards_of_war.params import LONG_GAME_ROUND_CAP, ROUND_MOVE_CAP, STALL_LIMIT

if TYPE_CHECKING:
    from warcards.games.cards_of_war.state import CardsOfWarState

BATTLES = tuple(range(NUM_BATTLES))
"""The battle numbers, in order."""


# ----- drawing (PLAYING A ROUND; R10) -----------------------------------------------------------------------
def refresh_pile(state: CardsOfWarState, deck: int) -> None:
    """PLAYING A ROUND: "Whenever the draw pile runs down to one card, shuffle it into the discards pile" (R10)."""
    pile = state.draw_piles[deck]
    if len(pile) <= 1 and state.discards[deck]:
        pile.extend(state.discards[deck])
        pile.sort()
        state.discards[deck] = []


def can_draw(state: CardsOfWarState, seat: int) -> bool:
    """Whether `seat` can draw now (the pile is refreshed from the discards first, R10/R11)."""
    deck = state.deck_of[seat]
    refresh_pile(state, deck)
    return bool(state.draw_piles[deck])


# ----- legal actions ------------------------------------------------------------------------------------------
def open_battle_list(state: CardsOfWarState) -> list[int]:
    """The unresolved battles, in battle order."""
    bwin = state.battle_winner
    return [b for b in BATTLES if bwin[b] == OPEN]


def joint_targets(state: CardsOfWarState, kind: int, b: int) -> list[int]:
    """Joint deployment: the battles the partner of `kind` (played into `b`) may go to: an adjacent open battle,
    or with Theatres of War any other open battle of the pair's theatre or without a theatre yet (R15, R16)."""
    bwin = state.battle_winner
    if state.theatres_of_war:
        pt = state.table.theatre[kind]
        theatre = state.battle_theatre
        if theatre[b] >= 0 and theatre[b] != pt:
            return []
        return [x for x in BATTLES if x != b and bwin[x] == OPEN and theatre[x] in (NO_THEATRE, pt)]
    return [x for x in (b - 1, b + 1) if 0 <= x < NUM_BATTLES and bwin[x] == OPEN]


def _hand_kinds(state: CardsOfWarState, seat: int) -> int:
    off = state.deck_offset[seat]
    mask = 0
    for c in state.hands[seat]:
        mask |= 1 << (c - off)
    return mask


def joint_actions(state: CardsOfWarState) -> list[int]:
    """Joint deployment: "when a player has both in available, they can be deployed into adjacent battles"."""
    p = state.mover
    off = state.deck_offset[p]
    partners = state.table.partners
    held = _hand_kinds(state, p)
    base = state.layout.joint
    out: list[int] = []
    for c in state.hands[p]:
        kind = c - off
        if partners[kind] & held & ~(1 << kind):
            for b in open_battle_list(state):
                if joint_targets(state, kind, b):
                    out.append(base + kind * NUM_BATTLES + b)
    return out


def legal_actions(state: CardsOfWarState) -> list[int]:
    """Sorted legal actions at a decision node."""
    phase = state.phase
    p = state.mover
    if phase == Phase.DEPLOY:
        deploys = state.deploy_table[state.open_battles]
        out: list[int] = []
        for card in state.hands[p]:  # a loop of extends: a nested comprehension costs twice as much
            out += deploys[card]
        if state.joint_deployment and out:
            out.extend(joint_actions(state))
        return out or [state.layout.pass_turn]
    off = state.deck_offset[p]
    if phase == Phase.JOINT_SECOND:
        jk = state.joint_first_kind
        pm = state.table.partners[jk]
        targets = joint_targets(state, jk, state.joint_first_battle)
        return [(c - off) * NUM_BATTLES + b for c in state.hands[p] if pm >> (c - off) & 1 for b in targets]
    if state.alternative_reinforce:
        opened = open_battle_list(state)
        out = []
        rc = state.reinforce_card
        if rc >= 0:
            out = [(rc - off) * NUM_BATTLES + b for b in opened]
        if state.discards[state.deck_of[p]]:
            top = state.layout.top_discard
            out.extend(top + b for b in opened)
        if out:
            return out
    deploys = state.deploy_table[state.open_battles]  # REINFORCE: any card of the hand, as in DEPLOY
    out = []
    for card in state.hands[p]:
        out += deploys[card]
    return out


# ----- chance nodes --------------------------------------------------------------------------------------------
def chance(state: CardsOfWarState) -> Chance:
    """Every chance node is a draw from the drawing seat's pile, any of its cards equally likely (the pile is
    an unordered, sorted list of distinct physical cards: PLAYING A ROUND, R10). The pile itself, uncopied, in
    a description the state keeps while it describes that very list (`pile_chance`: making a `Uniform` at
    every draw cost more than the rest of this function)."""
    pile = state.draw_piles[state.deck_of[state.drawer]]
    described = state.pile_chance
    if described.outcomes is not pile:
        described = state.pile_chance = Uniform(pile)
    return described


def apply_chance(state: CardsOfWarState, u: float) -> int:
    """The engine's `apply_chance` in one go (draws are over half the game's actions): the card `chance`
    picks at cumulative probability `u` (`Uniform.pick` is `pick_uniform`), drawn and returned; away from a
    chance node `not_a_chance_node()`, the state unchanged. The pile is named here a second time: building
    the description to pick from it costs about 1.2k instructions per action (scripts/speed/instructions.sh)."""
    if state.to_act != CHANCE:
        raise not_a_chance_node()
    card = pick_uniform(state.draw_piles[state.deck_of[state.drawer]], u)
    apply(state, card)
    return card


# ----- transitions --------------------------------------------------------------------------------------------
def apply(state: CardsOfWarState, action: int) -> None:
    """Apply a legal action or chance outcome (the state's `_apply`). At a chance node, the card drawn: a
    first-player draw, or a card the drawer takes into its hand — a refill (PLAYING A ROUND), a deal (SETUP)
    or a REINFORCE draw — inline, since draws are over half the game's actions. The drawer is the seat the
    card goes to: the mover at a refill or a REINFORCE draw, the head of the deal queue at a deal
    (`advance_deal` makes every deal's chance node). A plain deployment in DEPLOY (most decisions) is played
    here too; every other player action by `apply_move`."""
    if state.to_act >= 0:
        if action < state.layout.joint and state.phase == Phase.DEPLOY:
            # The common turn, inlined (`apply_move`, `_leave_hand`, `finish_turn`): deploy one card, then
            # refill (R7, R20).
            p = state.mover
            state.moves += 1
            card = action // NUM_BATTLES + state.deck_offset[p]
            hand = state.hands[p]
            hand.remove(card)
            floor = state.recon_floors[p]
            if any(floor):
                t = state.table.theatre[card % state.num_kinds]
                if floor[t]:
                    floor[t] -= 1
            place(state, p, card, action % NUM_BATTLES)
            if state.pending_reinforce:
                continue_turn(state)
                return
            state.reinforce_card = NO_CARD
            if len(hand) < state.hand_limits[p] and (
                len(state.draw_piles[state.deck_of[p]]) > 1 or can_draw(state, p)
            ):
                state.phase = Phase.REFILL
                state.drawer = p
                state.to_act = CHANCE
                return
            end_turn(state)
            return
        apply_move(state, action)
        return
    phase = state.phase
    if phase == Phase.FIRST_DRAW:
        first_draw(state, action)
        return
    seat = state.drawer
    deck = state.deck_of[seat]
    pile = state.draw_piles[deck]
    del pile[bisect_left(pile, action)]  # the pile is sorted: a search in halves, not a scan (`list.remove`)
    hand = state.hands[seat]
    insort(hand, action)
    if len(pile) <= 1 and state.discards[deck]:
        refresh_pile(state, deck)
    if phase == Phase.REINFORCE_DRAW:
        state.reinforce_card = action
        state.phase = Phase.REINFORCE
        state.to_act = seat
    elif len(hand) < state.hand_limits[seat] and pile:
        return  # the hand takes another card: the refill or the deal goes on (`advance_deal`'s test, R10)
    elif phase == Phase.REFILL:
        if state.open_battles and state.idle_moves < STALL_LIMIT and state.moves < ROUND_MOVE_CAP:
            # `end_turn`'s common case, inline: the round goes on (the drawer's hand is not empty: no stalemate
            # by empty hands) and the turn passes.
            q = 1 - state.mover
            state.mover = q
            state.phase = Phase.DEPLOY
            state.to_act = q
        else:
            end_turn(state)
    else:
        advance_deal(state)


def first_draw(state: CardsOfWarState, card: int) -> None:
    """SETUP: "Draw cards to see who goes first on the first round, with the highest score playing first."
    The drawn cards go back into the pile; a tie sets both aside and both draw again (R1)."""
    seat = state.drawer
    state.draw_piles[state.deck_of[seat]].remove(card)
    state.first_draw[seat] = card
    if seat == 0:
        state.drawer = 1
        return
    score = state.table.score
    n = state.num_kinds
    a, b = score[state.first_draw[0] % n], score[state.first_draw[1] % n]
    if a == b:
        state.first_draw_tied.extend(state.first_draw)
        state.first_draw = [NO_CARD, NO_CARD]
        state.drawer = 0
        if state.draw_piles[state.deck_of[0]] and state.draw_piles[state.deck_of[1]]:
            return
        first = 0
    else:
        first = 0 if a > b else 1
    for c in (*state.first_draw_tied, *state.first_draw):
        if c >= 0:
            state.draw_piles[c // n].append(c)
    for pile in state.draw_piles:
        pile.sort()
    state.first_draw = [NO_CARD, NO_CARD]
    state.first_draw_tied = []
    state.first_player = first
    start_round(state)


def start_round(state: CardsOfWarState) -> None:
    """PLAYING A ROUND: three fresh battles; the first player, then the other, fill their hands (SETUP)."""
    state.battle_winner = [OPEN, OPEN, OPEN]
    state.open_battles = ALL_BATTLES_OPEN
    state.battle_theatre = [NO_THEATRE, NO_THEATRE, NO_THEATRE]
    state.battle_totals = [0, 0, 0, 0, 0, 0]
    state.moves = 0
    state.idle_moves = 0
    state.mover = state.first_player
    state.deal_queue = [state.first_player, 1 - state.first_player]
    state.phase = Phase.DEAL
    advance_deal(state)


def advance_deal(state: CardsOfWarState) -> None:
    """Deal (or, between rounds, top up) each hand to its size; then the first player deploys."""
    queue = state.deal_queue
    while queue:
        seat = queue[0]
        if len(state.hands[seat]) < state.hand_limits[seat] and can_draw(state, seat):
            state.drawer = seat
            state.to_act = CHANCE
            return
        queue.pop(0)
    state.phase = Phase.DEPLOY
    state.mover = state.first_player
    state.to_act = state.first_player


def _leave_hand(state: CardsOfWarState, seat: int, card: int) -> None:
    state.hands[seat].remove(card)
    floor = state.recon_floors[seat]
    if any(floor):
        t = state.table.theatre[card % state.num_kinds]
        if floor[t]:
            floor[t] -= 1


def apply_move(state: CardsOfWarState, a: int) -> None:
    """Apply a legal player action (the state's `_apply` when a seat acts: JOINT_SECOND, REINFORCE, and in
    DEPLOY all but a plain deployment, which `apply` plays itself): a deployment, the first card of a joint
    deployment, the top discard (Alternative Reinforce) or a pass."""
    p = state.mover
    state.moves += 1
    layout = state.layout
    if a == layout.pass_turn:
        state.idle_moves += 1
        finish_turn(state)
        return
    if a >= layout.top_discard:
        _deploy_top_discard(state, p, a - layout.top_discard)
        continue_turn(state)
        return
    joint = a >= layout.joint
    if joint:
        a -= layout.joint
    card = a // NUM_BATTLES + state.deck_offset[p]
    b = a % NUM_BATTLES
    _leave_hand(state, p, card)
    if state.phase == Phase.REINFORCE:
        state.reinforce_card = NO_CARD
    elif state.phase == Phase.JOINT_SECOND:
        state.joint_first_kind = NO_CARD
        state.joint_first_battle = NO_BATTLE
    place(state, p, card, b)
    if joint and state.open_battles:
        state.joint_first_kind = a // NUM_BATTLES
        state.joint_first_battle = b
        state.phase = Phase.JOINT_SECOND
        return
    if state.pending_reinforce:
        continue_turn(state)
    else:
        finish_turn(state)


def _deploy_top_discard(state: CardsOfWarState, p: int, b: int) -> None:
    """Alternative Reinforce: "If the top discard is chosen, the newly drawn card is discarded instead" (R9)."""
    pile = state.discards[state.deck_of[p]]
    card = pile.pop()
    rc = state.reinforce_card
    if rc >= 0:
        _leave_hand(state, p, rc)
        pile.append(rc)
        state.reinforce_card = NO_CARD
    place(state, p, card, b)


def place(state: CardsOfWarState, p: int, card: int, b: int) -> None:
    """Deploy `card` face up onto `p`'s pile in battle `b` and resolve it: Theatres of War (the first card fixes
    the theatre, R15), KILL (SPECIAL ABILITIES 1; automatic, once, R2/R3), the battle's 15 points (WINNING A
    BATTLE, R6), RECON (SPECIAL ABILITIES 3, R8) and REINFORCE (SPECIAL ABILITIES 2, R7)."""
    n = state.num_kinds
    kind = card % n
    info = state.kind_info
    theatre_k, _, km, score, has_recon, has_reinforce = info[kind]
    q = 1 - p
    tow = state.theatres_of_war
    if tow:
        theatre = state.battle_theatre
        if theatre[b] < 0:
            theatre[b] = theatre_k
    if km:
        mine = state.battle_piles[q * NUM_BATTLES + b]
        if mine:
            top = mine[-1]
            tinfo = info[top % n]
            if tinfo[1] & km:
                mine.pop()
                state.discards[top // n].append(top)
                state.kills[p] += 1
                if not tow or tinfo[0] == state.battle_theatre[b]:
                    state.battle_totals[q * NUM_BATTLES + b] -= tinfo[3]
    state.battle_piles[p * NUM_BATTLES + b].append(card)
    if score and (not tow or theatre_k == state.battle_theatre[b]):
        state.idle_moves = 0
        index = p * NUM_BATTLES + b
        total = state.battle_totals[index] + score
        state.battle_totals[index] = total
        if total >= state.game.numbers.battle_target:
            win_battle(state, b, p)
    else:
        state.idle_moves += 1
    if has_recon:
        recon(state, p)
    if has_reinforce:
        state.pending_reinforce += 1


def recon(state: CardsOfWarState, p: int) -> None:
    """RECON: "the opposing player must specify what theatres the cards remaining in their hand belong to" —
    a public answer, given at once (R8)."""
    q = 1 - p
    counts = [0, 0, 0, 0]
    theatre = state.table.theatre
    n = state.num_kinds
    for c in state.hands[q]:
        counts[theatre[c % n]] += 1
    state.recon_answers.append((state.round_number, p, counts[0], counts[1], counts[2], counts[3]))
    state.recon_floors[q] = counts


def win_battle(state: CardsOfWarState, b: int, w: int) -> None:
    """WINNING A BATTLE: "Discard all of the cards that the loser played for that battle while turning the
    winners cards face down.\""""
    state.battle_winner[b] = w
    state.open_battles &= ~(1 << b)
    loser = 1 - w
    index = loser * NUM_BATTLES + b
    pile = state.battle_piles[index]
    if pile:
        state.discards[state.deck_of[loser]].extend(pile)
        state.battle_piles[index] = []
    state.battle_totals[index] = 0


def continue_turn(state: CardsOfWarState) -> None:
    """After a placement: a pending REINFORCE draws a card and deploys again (R7); a resolved round stops the
    turn (R5); otherwise the hand is refilled."""
    p = state.mover
    while state.pending_reinforce:
        if state.battle_winner.count(OPEN) == 0:
            state.pending_reinforce = 0
            break
        state.pending_reinforce -= 1
        if can_draw(state, p):
            state.phase = Phase.REINFORCE_DRAW
            state.drawer = p
            state.to_act = CHANCE
            return
        state.reinforce_card = NO_CARD
        if state.hands[p] or (state.alternative_reinforce and state.discards[state.deck_of[p]]):
            state.phase = Phase.REINFORCE
            state.to_act = p
            return
    finish_turn(state)


def finish_turn(state: CardsOfWarState) -> None:
    """PLAYING A ROUND: "After deploying a card the player draws a new card to refill their hand to 8 cards"
    (once, at the end of the turn, R7/R20)."""
    p = state.mover
    state.reinforce_card = NO_CARD
    if len(state.hands[p]) < state.hand_limits[p] and (len(state.draw_piles[state.deck_of[p]]) > 1 or can_draw(state, p)):
        state.phase = Phase.REFILL
        state.drawer = p
        state.to_act = CHANCE
        return
    end_turn(state)


def end_turn(state: CardsOfWarState) -> None:
    """The turn passes; the round ends when all three battles are resolved (PLAYING A ROUND), or as a
    stalemate when neither player can deploy or draw, or no card has scored for STALL_LIMIT moves (R11), or
    the round reaches ROUND_MOVE_CAP moves (R22)."""
    if not state.open_battles:
        end_round(state)
        return
    hands = state.hands
    if (
        state.idle_moves >= STALL_LIMIT
        or state.moves >= ROUND_MOVE_CAP
        or (not hands[0] and not hands[1] and not can_draw(state, 0) and not can_draw(state, 1))
    ):
        stalemate(state)
        end_round(state)
        return
    q = 1 - state.mover
    state.mover = q
    state.phase = Phase.DEPLOY
    state.to_act = q


def stalemate(state: CardsOfWarState) -> None:
    """R11: a stalled round settles each open battle by the higher total; a tie is void."""
    for b in BATTLES:
        if state.battle_winner[b] == OPEN:
            a, c = state.battle_totals[b], state.battle_totals[NUM_BATTLES + b]
            if a != c:
                win_battle(state, b, 0 if a > c else 1)
            else:
                state.battle_winner[b] = VOID
                state.open_battles &= ~(1 << b)
                for seat in (0, 1):
                    index = seat * NUM_BATTLES + b
                    state.discards[state.deck_of[seat]].extend(state.battle_piles[index])
                    state.battle_piles[index] = []
                    state.battle_totals[index] = 0


def end_round(state: CardsOfWarState) -> None:
    """WINNING A ROUND: "the player who won at least 2 of the 3 battles wins the round"; the face-down cards
    are discarded, hands are kept, no reshuffle. Then Tactical advantage / Strategic exhaustion and WINNING
    THE GAME."""
    wins = (state.battle_winner.count(0), state.battle_winner.count(1))
    for seat in (0, 1):
        for b in BATTLES:
            index = seat * NUM_BATTLES + b
            if state.battle_piles[index]:
                state.discards[state.deck_of[seat]].extend(state.battle_piles[index])
                state.battle_piles[index] = []
    state.battle_totals = [0, 0, 0, 0, 0, 0]
    winner = 0 if wins[0] > wins[1] else 1 if wins[1] > wins[0] else NO_SEAT
    state.round_results.append(winner)
    if winner >= 0:
        state.rounds_won[winner] += 1
    sweep = winner if winner >= 0 and wins[winner] == NUM_BATTLES else NO_SEAT
    if state.tactical_advantage:
        state.hand_limits = state.base_hand_limits[:]
        if sweep >= 0:
            state.hand_limits[sweep] = state.game.numbers.tactical_hand_size
    if state.strategic_exhaustion and sweep >= 0:
        loser = 1 - sweep
        state.base_hand_limits[loser] -= 1
        state.hand_limits[loser] = state.base_hand_limits[loser]
        if state.base_hand_limits[loser] <= state.game.numbers.exhausted_hand:
            game_over(state, sweep)
            return
    if game_decided(state):
        won = state.rounds_won
        game_over(state, 0 if won[0] > won[1] else 1 if won[1] > won[0] else NO_SEAT)
        return
    state.round_number += 1
    if winner >= 0:
        state.first_player = winner
    start_round(state)


def game_decided(state: CardsOfWarState) -> bool:
    """WINNING THE GAME: short = one round; normal = first to 2 rounds, at most 3 (R12); long = a lead of 3
    rounds, cut off after LONG_GAME_ROUND_CAP rounds (R22)."""
    if state.length == Length.SHORT:
        return True
    won = state.rounds_won
    numbers = state.game.numbers
    if state.length == Length.NORMAL:
        return max(won) >= numbers.rounds_to_win or state.round_number >= numbers.normal_rounds
    return abs(won[0] - won[1]) >= numbers.long_game_lead or state.round_number >= LONG_GAME_ROUND_CAP


def game_over(state: CardsOfWarState, winner: int) -> None:
    """WINNING THE GAME: the game ends; `winner` is a seat or `NO_SEAT` (a drawn long game, R22)."""
    state.winner = winner
    state.phase = Phase.OVER
    state.to_act = TERMINAL


# ----- explanations ---------------------------------------------------------------------------------------
def battle_name(b: int) -> str:
    """The battle's name (left, centre, right)."""
    return BATTLE_NAMES[b]


def illegal_reason(state: CardsOfWarState, action: int) -> str:
    """Why player `action` is not legal now, citing the rule section or ruling."""
    table = state.table
    layout = state.layout
    p = state.mover
    opened = open_battle_list(state)
    open_names = ", ".join(BATTLE_NAMES[b] for b in opened) or "none"
    hand = ", ".join(f"{state.card_id(c)} {table.names[c % state.num_kinds]}" for c in state.hands[p]) or "empty"
    if action == layout.pass_turn:
        return ("PLAYING A ROUND: a player deploys one card each turn; pass is allowed only with an empty hand "
                f"(R11). Your hand: {hand}")
    if action >= layout.top_discard:
        if not state.alternative_reinforce:
            return "Alternative Reinforce is an optional rule not in play (option alternative_reinforce)"
        if state.phase != Phase.REINFORCE:
            return "Alternative Reinforce: the top discard may be deployed only as a REINFORCE deployment"
        if not state.discards[state.deck_of[p]]:
            return "Alternative Reinforce: the discard pile is empty"
        return (f"WINNING A BATTLE: the {BATTLE_NAMES[action - layout.top_discard]} battle is resolved; "
                f"open battles: {open_names} (R5)")
    joint = action >= layout.joint
    kind = (action - layout.joint if joint else action) // NUM_BATTLES
    b = action % NUM_BATTLES
    card = kind + state.deck_offset[p]
    label = f"{state.card_id(card)} {table.names[kind]}"
    if joint and not state.joint_deployment:
        return "Joint deployment is an optional rule not in play (option joint_deployment)"
    if joint and state.phase != Phase.DEPLOY:
        return "Joint deployment starts a turn's deployment; it is not allowed now (R17)"
    if card not in state.hands[p]:
        return f"PLAYING A ROUND: {label} is not in your hand; your hand: {hand}"
    if state.battle_winner[b] >= 0:
        return f"WINNING A BATTLE: the {BATTLE_NAMES[b]} battle is resolved; open battles: {open_names} (R5)"
    if state.phase == Phase.JOINT_SECOND:
        jk = state.joint_first_kind
        targets = ", ".join(BATTLE_NAMES[x] for x in joint_targets(state, jk, state.joint_first_battle)) or "none"
        return (f"Joint deployment: the second card must be a partner of {table.names[jk]} "
                f"({', '.join(sorted({table.names[k] for k in range(state.num_kinds) if table.partners[jk] >> k & 1}))}) "
                f"deployed into: {targets}")
    if state.phase == Phase.REINFORCE and state.alternative_reinforce:
        return ("Alternative Reinforce: deploy either the newly drawn card or the top card of the discard pile "
                "(R9)")
    if joint:
        partners = sorted({table.names[k] for k in range(state.num_kinds) if table.partners[kind] >> k & 1})
        if not partners:
            return f"Joint deployment: {table.names[kind]} has no joint-deployment partner"
        return (f"Joint deployment: {label} needs a partner in hand ({', '.join(partners)}) and a second open "
                "battle adjacent to this one (with Theatres of War: of the pair's theatre) (R15, R16)")
    return f"{label} cannot be deployed to the {BATTLE_NAMES[b]} battle now"
