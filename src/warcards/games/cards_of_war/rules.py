"""The rules of Cards of War as functions on a `CowState`: legal actions, transitions, scoring.

Section names are the rule text's headings (SETUP, SPECIAL ABILITIES 1-3, PLAYING A ROUND, WINNING A BATTLE,
WINNING A ROUND, WINNING THE GAME, OPTIONAL RULES, 2 DECK VERSION); "R<n>" cites a ruling in RULES.md.
Card numbers: a physical card is `deck * n + kind`; player actions name the kind (the mover's own copy).
"""

from __future__ import annotations

from bisect import insort
from itertools import chain, repeat
from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, TERMINAL
from warcards.games.cards_of_war.params import (
    BATTLE_TARGET,
    EXHAUSTED_HAND,
    LONG_GAME_LEAD,
    LONG_GAME_ROUND_CAP,
    NORMAL_GAME_ROUNDS,
    ROUND_MOVE_CAP,
    ROUNDS_TO_WIN_NORMAL,
    STALL_LIMIT,
    TACTICAL_HAND_SIZE,
)

if TYPE_CHECKING:
    from warcards.games.cards_of_war.state import CowState

FIRST_DRAW, DEAL, DEPLOY, JOINT2, REINF_DRAW, REINF, REFILL, OVER = range(8)
PHASE_NAMES = ("first_draw", "deal", "deploy", "joint", "reinforce_draw", "reinforce", "refill", "over")
BATTLE_NAMES = ("left", "centre", "right")
VOID = 2  # a battle nobody won (R11)
SHORT, NORMAL, LONG = range(3)


# ----- drawing (PLAYING A ROUND; R10) -----------------------------------------------------------------------
def refresh_pile(s: CowState, deck: int) -> None:
    """PLAYING A ROUND: "Whenever the draw pile runs down to one card, shuffle it into the discards pile" (R10)."""
    pile = s.piles[deck]
    if len(pile) <= 1 and s.discards[deck]:
        pile.extend(s.discards[deck])
        pile.sort()
        s.discards[deck] = []


def can_draw(s: CowState, seat: int) -> bool:
    """Whether `seat` can draw now (the pile is refreshed from the discards first, R10/R11)."""
    deck = s.deck[seat]
    refresh_pile(s, deck)
    return bool(s.piles[deck])


def chance_outcomes(s: CowState) -> list[tuple[int, float]]:
    """Every card of the drawing seat's pile, equally likely (the pile is unordered)."""
    pile = s.piles[s.deck[s.drawer]]
    return list(zip(pile, repeat(1.0 / len(pile))))


# ----- legal actions ------------------------------------------------------------------------------------------
def open_battles(s: CowState) -> list[int]:
    bwin = s.bwin
    return [b for b in (0, 1, 2) if bwin[b] < 0]


def joint_targets(s: CowState, kind: int, b: int) -> list[int]:
    """Joint deployment: the battles the partner of `kind` (played into `b`) may go to: an adjacent open battle,
    or with Theatres of War any other open battle of the pair's theatre or without a theatre yet (R15, R16)."""
    bwin = s.bwin
    if s.tow:
        pt = s.tbl.theatre[kind]
        theatre = s.theatre
        if theatre[b] >= 0 and theatre[b] != pt:
            return []
        return [x for x in (0, 1, 2) if x != b and bwin[x] < 0 and theatre[x] in (-1, pt)]
    return [x for x in (b - 1, b + 1) if 0 <= x <= 2 and bwin[x] < 0]


def _hand_kinds(s: CowState, seat: int) -> int:
    off = s.off[seat]
    mask = 0
    for c in s.hands[seat]:
        mask |= 1 << (c - off)
    return mask


def joint_actions(s: CowState) -> list[int]:
    """Joint deployment: "when a player has both in available, they can be deployed into adjacent battles"."""
    p = s.player
    off = s.off[p]
    partners = s.tbl.partners
    held = _hand_kinds(s, p)
    base = s.jbase
    out: list[int] = []
    for c in s.hands[p]:
        kind = c - off
        if partners[kind] & held & ~(1 << kind):
            for b in open_battles(s):
                if joint_targets(s, kind, b):
                    out.append(base + kind * 3 + b)
    return out


def legal_actions(s: CowState) -> list[int]:
    """Sorted legal actions at a decision node."""
    phase = s.phase
    p = s.player
    off = s.off[p]
    if phase == DEPLOY:
        out = list(chain.from_iterable(map(s.deploy_table[s.omask].__getitem__, s.hands[p])))
        if s.joint and out:
            out.extend(joint_actions(s))
        return out or [s.pass_action]
    if phase == JOINT2:
        jk = s.joint_kind
        pm = s.tbl.partners[jk]
        targets = joint_targets(s, jk, s.joint_battle)
        return [(c - off) * 3 + b for c in s.hands[p] if pm >> (c - off) & 1 for b in targets]
    opened = open_battles(s)
    if s.alt:
        out = []
        rc = s.reinf_card
        if rc >= 0:
            out = [(rc - off) * 3 + b for b in opened]
        if s.discards[s.deck[p]]:
            top = s.tbase
            out.extend(top + b for b in opened)
        if out:
            return out
    return [(c - off) * 3 + b for c in s.hands[p] for b in opened]


# ----- transitions --------------------------------------------------------------------------------------------
def apply(s: CowState, action: int) -> None:
    """Apply a legal action or chance outcome (the state's `_apply`)."""
    phase = s.phase
    if phase == REFILL:
        p = s.player
        deck = s.deck[p]
        pile = s.piles[deck]
        pile.remove(action)
        hand = s.hands[p]
        insort(hand, action)
        if len(pile) <= 1 and s.discards[deck]:
            refresh_pile(s, deck)
            pile = s.piles[deck]
        if len(hand) < s.limits[p] and pile:
            return
        end_turn(s)
    elif phase in (DEPLOY, JOINT2, REINF):
        _apply_player(s, action)
    elif phase == DEAL:
        _draw_to_hand(s, s.drawer, action)
        advance_deal(s)
    elif phase == REINF_DRAW:
        _draw_to_hand(s, s.player, action)
        s.reinf_card = action
        s.phase = REINF
        s.cp = s.player
    else:
        first_draw(s, action)


def _draw_to_hand(s: CowState, seat: int, card: int) -> None:
    deck = s.deck[seat]
    s.piles[deck].remove(card)
    insort(s.hands[seat], card)
    refresh_pile(s, deck)


def first_draw(s: CowState, card: int) -> None:
    """SETUP: "Draw cards to see who goes first on the first round, with the highest score playing first."
    The drawn cards go back into the pile; a tie sets both aside and both draw again (R1)."""
    seat = s.drawer
    s.piles[s.deck[seat]].remove(card)
    s.fd[seat] = card
    if seat == 0:
        s.drawer = 1
        return
    score = s.tbl.score
    n = s.n
    a, b = score[s.fd[0] % n], score[s.fd[1] % n]
    if a == b:
        s.fd_tied.extend(s.fd)
        s.fd = [-1, -1]
        s.drawer = 0
        if s.piles[s.deck[0]] and s.piles[s.deck[1]]:
            return
        first = 0
    else:
        first = 0 if a > b else 1
    for c in (*s.fd_tied, *s.fd):
        if c >= 0:
            s.piles[c // n].append(c)
    for pile in s.piles:
        pile.sort()
    s.fd = [-1, -1]
    s.fd_tied = []
    s.first = first
    start_round(s)


def start_round(s: CowState) -> None:
    """PLAYING A ROUND: three fresh battles; the first player, then the other, fill their hands (SETUP)."""
    s.bwin = [-1, -1, -1]
    s.omask = 7
    s.theatre = [-1, -1, -1]
    s.tot = [0, 0, 0, 0, 0, 0]
    s.moves = 0
    s.idle = 0
    s.player = s.first
    s.queue = [s.first, 1 - s.first]
    s.phase = DEAL
    advance_deal(s)


def advance_deal(s: CowState) -> None:
    """Deal (or, between rounds, top up) each hand to its size; then the first player deploys."""
    queue = s.queue
    while queue:
        seat = queue[0]
        if len(s.hands[seat]) < s.limits[seat] and can_draw(s, seat):
            s.drawer = seat
            s.cp = CHANCE
            return
        queue.pop(0)
    s.phase = DEPLOY
    s.player = s.first
    s.cp = s.first


def _leave_hand(s: CowState, seat: int, card: int) -> None:
    s.hands[seat].remove(card)
    floor = s.floors[seat]
    if any(floor):
        t = s.tbl.theatre[card % s.n]
        if floor[t]:
            floor[t] -= 1


def _apply_player(s: CowState, a: int) -> None:
    p = s.player
    s.moves += 1
    if a < s.jbase and s.phase == DEPLOY:
        card = a // 3 + s.off[p]
        _leave_hand(s, p, card)
        place(s, p, card, a % 3)
        if s.pending:
            continue_turn(s)
        else:
            finish_turn(s)
        return
    if a == s.pass_action:
        s.idle += 1
        finish_turn(s)
        return
    if a >= s.tbase:
        _deploy_top_discard(s, p, a - s.tbase)
        continue_turn(s)
        return
    joint = a >= s.jbase
    if joint:
        a -= s.jbase
    card = a // 3 + s.off[p]
    b = a % 3
    _leave_hand(s, p, card)
    if s.phase == REINF:
        s.reinf_card = -1
    elif s.phase == JOINT2:
        s.joint_kind = -1
        s.joint_battle = -1
    place(s, p, card, b)
    if joint and s.omask:
        s.joint_kind = a // 3
        s.joint_battle = b
        s.phase = JOINT2
        return
    if s.pending:
        continue_turn(s)
    else:
        finish_turn(s)


def _deploy_top_discard(s: CowState, p: int, b: int) -> None:
    """Alternative Reinforce: "If the top discard is chosen, the newly drawn card is discarded instead" (R9)."""
    pile = s.discards[s.deck[p]]
    card = pile.pop()
    rc = s.reinf_card
    if rc >= 0:
        _leave_hand(s, p, rc)
        pile.append(rc)
        s.reinf_card = -1
    place(s, p, card, b)


def place(s: CowState, p: int, card: int, b: int) -> None:
    """Deploy `card` face up onto `p`'s pile in battle `b` and resolve it: Theatres of War (the first card fixes
    the theatre, R15), KILL (SPECIAL ABILITIES 1; automatic, once, R2/R3), the battle's 15 points (WINNING A
    BATTLE, R6), RECON (SPECIAL ABILITIES 3, R8) and REINFORCE (SPECIAL ABILITIES 2, R7)."""
    n = s.n
    kind = card % n
    info = s.info
    theatre_k, _, km, score, has_recon, has_reinforce = info[kind]
    q = 1 - p
    tow = s.tow
    if tow:
        theatre = s.theatre
        if theatre[b] < 0:
            theatre[b] = theatre_k
    if km:
        mine = s.bat[q * 3 + b]
        if mine:
            top = mine[-1]
            tinfo = info[top % n]
            if tinfo[1] & km:
                mine.pop()
                s.discards[top // n].append(top)
                s.kills[p] += 1
                if not tow or tinfo[0] == s.theatre[b]:
                    s.tot[q * 3 + b] -= tinfo[3]
    s.bat[p * 3 + b].append(card)
    if score and (not tow or theatre_k == s.theatre[b]):
        s.idle = 0
        index = p * 3 + b
        total = s.tot[index] + score
        s.tot[index] = total
        if total >= BATTLE_TARGET:
            win_battle(s, b, p)
    else:
        s.idle += 1
    if has_recon:
        recon(s, p)
    if has_reinforce:
        s.pending += 1


def recon(s: CowState, p: int) -> None:
    """RECON: "the opposing player must specify what theatres the cards remaining in their hand belong to" —
    a public answer, given at once (R8)."""
    q = 1 - p
    counts = [0, 0, 0, 0]
    theatre = s.tbl.theatre
    n = s.n
    for c in s.hands[q]:
        counts[theatre[c % n]] += 1
    s.recon.append((s.round_no, p, counts[0], counts[1], counts[2], counts[3]))
    s.floors[q] = counts


def win_battle(s: CowState, b: int, w: int) -> None:
    """WINNING A BATTLE: "Discard all of the cards that the loser played for that battle while turning the
    winners cards face down.\""""
    s.bwin[b] = w
    s.omask &= ~(1 << b)
    loser = 1 - w
    index = loser * 3 + b
    pile = s.bat[index]
    if pile:
        s.discards[s.deck[loser]].extend(pile)
        s.bat[index] = []
    s.tot[index] = 0


def continue_turn(s: CowState) -> None:
    """After a placement: a pending REINFORCE draws a card and deploys again (R7); a resolved round stops the
    turn (R5); otherwise the hand is refilled."""
    p = s.player
    while s.pending:
        if s.bwin.count(-1) == 0:
            s.pending = 0
            break
        s.pending -= 1
        if can_draw(s, p):
            s.phase = REINF_DRAW
            s.drawer = p
            s.cp = CHANCE
            return
        s.reinf_card = -1
        if s.hands[p] or (s.alt and s.discards[s.deck[p]]):
            s.phase = REINF
            s.cp = p
            return
    finish_turn(s)


def finish_turn(s: CowState) -> None:
    """PLAYING A ROUND: "After deploying a card the player draws a new card to refill their hand to 8 cards"
    (once, at the end of the turn, R7/R20)."""
    p = s.player
    s.reinf_card = -1
    if len(s.hands[p]) < s.limits[p] and (len(s.piles[s.deck[p]]) > 1 or can_draw(s, p)):
        s.phase = REFILL
        s.drawer = p
        s.cp = CHANCE
        return
    end_turn(s)


def end_turn(s: CowState) -> None:
    """The turn passes; the round ends when all three battles are resolved (PLAYING A ROUND), or as a
    stalemate when neither player can deploy or draw, or no card has scored for STALL_LIMIT moves (R11), or
    the round reaches ROUND_MOVE_CAP moves (R22)."""
    if not s.omask:
        end_round(s)
        return
    hands = s.hands
    if (
        s.idle >= STALL_LIMIT
        or s.moves >= ROUND_MOVE_CAP
        or (not hands[0] and not hands[1] and not can_draw(s, 0) and not can_draw(s, 1))
    ):
        stalemate(s)
        end_round(s)
        return
    q = 1 - s.player
    s.player = q
    s.phase = DEPLOY
    s.cp = q


def stalemate(s: CowState) -> None:
    """R11: a stalled round settles each open battle by the higher total; a tie is void."""
    for b in (0, 1, 2):
        if s.bwin[b] < 0:
            a, c = s.tot[b], s.tot[3 + b]
            if a != c:
                win_battle(s, b, 0 if a > c else 1)
            else:
                s.bwin[b] = VOID
                s.omask &= ~(1 << b)
                for seat in (0, 1):
                    index = seat * 3 + b
                    s.discards[s.deck[seat]].extend(s.bat[index])
                    s.bat[index] = []
                    s.tot[index] = 0


def end_round(s: CowState) -> None:
    """WINNING A ROUND: "the player who won at least 2 of the 3 battles wins the round"; the face-down cards
    are discarded, hands are kept, no reshuffle. Then Tactical advantage / Strategic exhaustion and WINNING
    THE GAME."""
    wins = (s.bwin.count(0), s.bwin.count(1))
    for seat in (0, 1):
        for b in (0, 1, 2):
            index = seat * 3 + b
            if s.bat[index]:
                s.discards[s.deck[seat]].extend(s.bat[index])
                s.bat[index] = []
    s.tot = [0, 0, 0, 0, 0, 0]
    winner = 0 if wins[0] > wins[1] else 1 if wins[1] > wins[0] else -1
    s.results.append(winner)
    if winner >= 0:
        s.rounds_won[winner] += 1
    sweep = winner if winner >= 0 and wins[winner] == 3 else -1
    if s.tactical:
        s.limits = s.base[:]
        if sweep >= 0:
            s.limits[sweep] = TACTICAL_HAND_SIZE
    if s.exhaustion and sweep >= 0:
        loser = 1 - sweep
        s.base[loser] -= 1
        s.limits[loser] = s.base[loser]
        if s.base[loser] <= EXHAUSTED_HAND:
            game_over(s, sweep)
            return
    if game_decided(s):
        won = s.rounds_won
        game_over(s, 0 if won[0] > won[1] else 1 if won[1] > won[0] else -1)
        return
    s.round_no += 1
    if winner >= 0:
        s.first = winner
    start_round(s)


def game_decided(s: CowState) -> bool:
    """WINNING THE GAME: short = one round; normal = first to 2 rounds, at most 3 (R12); long = a lead of 3
    rounds, cut off after LONG_GAME_ROUND_CAP rounds (R22)."""
    if s.length == SHORT:
        return True
    won = s.rounds_won
    if s.length == NORMAL:
        return max(won) >= ROUNDS_TO_WIN_NORMAL or s.round_no >= NORMAL_GAME_ROUNDS
    return abs(won[0] - won[1]) >= LONG_GAME_LEAD or s.round_no >= LONG_GAME_ROUND_CAP


def game_over(s: CowState, winner: int) -> None:
    s.winner = winner
    s.phase = OVER
    s.cp = TERMINAL


# ----- explanations ---------------------------------------------------------------------------------------
def battle_name(b: int) -> str:
    return BATTLE_NAMES[b]


def illegal_reason(s: CowState, a: int) -> str:
    """Why player action `a` is not legal now, citing the rule section or ruling."""
    tbl = s.tbl
    p = s.player
    opened = open_battles(s)
    open_names = ", ".join(BATTLE_NAMES[b] for b in opened) or "none"
    hand = ", ".join(f"{s.card_id(c)} {tbl.names[c % s.n]}" for c in s.hands[p]) or "empty"
    if a == s.pass_action:
        return ("PLAYING A ROUND: a player deploys one card each turn; pass is allowed only with an empty hand "
                f"(R11). Your hand: {hand}")
    if a >= s.tbase:
        if not s.alt:
            return "Alternative Reinforce is an optional rule not in play (option alternative_reinforce)"
        if s.phase != REINF:
            return "Alternative Reinforce: the top discard may be deployed only as a REINFORCE deployment"
        if not s.discards[s.deck[p]]:
            return "Alternative Reinforce: the discard pile is empty"
        return f"WINNING A BATTLE: the {BATTLE_NAMES[a - s.tbase]} battle is resolved; open battles: {open_names} (R5)"
    joint = a >= s.jbase
    kind = (a - s.jbase if joint else a) // 3
    b = a % 3
    card = kind + s.off[p]
    label = f"{s.card_id(card)} {tbl.names[kind]}"
    if joint and not s.joint:
        return "Joint deployment is an optional rule not in play (option joint_deployment)"
    if joint and s.phase != DEPLOY:
        return "Joint deployment starts a turn's deployment; it is not allowed now (R17)"
    if card not in s.hands[p]:
        return f"PLAYING A ROUND: {label} is not in your hand; your hand: {hand}"
    if s.bwin[b] >= 0:
        return f"WINNING A BATTLE: the {BATTLE_NAMES[b]} battle is resolved; open battles: {open_names} (R5)"
    if s.phase == JOINT2:
        jk = s.joint_kind
        targets = ", ".join(BATTLE_NAMES[x] for x in joint_targets(s, jk, s.joint_battle)) or "none"
        return (f"Joint deployment: the second card must be a partner of {tbl.names[jk]} "
                f"({', '.join(sorted({tbl.names[k] for k in range(s.n) if tbl.partners[jk] >> k & 1}))}) "
                f"deployed into: {targets}")
    if s.phase == REINF and s.alt:
        return ("Alternative Reinforce: deploy either the newly drawn card or the top card of the discard pile "
                "(R9)")
    if joint:
        partners = sorted({tbl.names[k] for k in range(s.n) if tbl.partners[kind] >> k & 1})
        if not partners:
            return f"Joint deployment: {tbl.names[kind]} has no joint-deployment partner"
        return (f"Joint deployment: {label} needs a partner in hand ({', '.join(partners)}) and a second open "
                "battle adjacent to this one (with Theatres of War: of the pair's theatre) (R15, R16)")
    return f"{label} cannot be deployed to the {BATTLE_NAMES[b]} battle now"
