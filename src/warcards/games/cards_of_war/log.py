"""What a player reads of Cards of War (docs/contributing/log.md): the game log in player's words, move labels
with card names and the result with its reason (the spectator's view is `views.observe_public`).

Every deployment is face up, the discard pile is face up and RECON answers are spoken at the table (R8), so
the only hidden event is a card drawn into a hand: its drawer reads the card, the other seat and a spectator
read "player 1 draws a card". A placement's effects (theatre, KILL, points, a battle won) are worked out by
placing the card on a copy of the state before the move with the rules' own `place`, since a round that ends
in the same step leaves no trace of its battles in the state after it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, GameResult, LogLine, SeenAction
from warcards.games.cards_of_war import rules
from warcards.games.cards_of_war.cards import THEATRES
from warcards.games.cards_of_war.codes import (
    BATTLE_NAMES,
    NO_SEAT,
    NUM_BATTLES,
    OPEN,
    SEAT_NAMES,
    VOID,
    Length,
    Phase,
)
from warcards.games.cards_of_war.params import (
    LONG_GAME_ROUND_CAP,
    ROUND_MOVE_CAP,
    STALL_LIMIT,
)

if TYPE_CHECKING:
    from warcards.games.cards_of_war.game import CardsOfWarGame
    from warcards.games.cards_of_war.state import CardsOfWarState


class Words:
    """The seats as one seat reads them: itself is "you" (None: a spectator, who reads every seat's name)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat

    def who(self, seat: int) -> str:
        return "you" if seat == self.seat else SEAT_NAMES[seat]

    def whose(self, seat: int) -> str:
        return "your" if seat == self.seat else f"{SEAT_NAMES[seat]}'s"

    def verb(self, seat: int, plain: str, third: str | None = None) -> str:
        """`seat` and the verb agreeing with it ("you deploy", "player 1 deploys")."""
        if seat == self.seat:
            return f"you {plain}"
        return f"{SEAT_NAMES[seat]} {third or plain + 's'}"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _name(state: CardsOfWarState, card: int) -> str:
    return state.table.names[card % state.num_kinds]


def deck_facts(game: CardsOfWarGame) -> dict[str, dict[str, object]]:
    """Every physical card of the game's deck(s) for a client (`GameSpec.card_facts`; two decks: ids `G07/0`,
    `G07/1`): name, theatre, type letters with their meanings, score, the types it KILLs, REINFORCE and
    RECON (THE CARDS; SPECIAL ABILITIES)."""
    table = game.table
    legend = table.legend
    facts: dict[str, dict[str, object]] = {}
    for card, card_id in enumerate(game.card_ids):
        kind = card % table.n
        types = table.type_letters(table.typemask[kind])
        kills = table.type_letters(table.killmask[kind]) if table.killmask[kind] else ""
        parts = [f"{THEATRES[table.theatre[kind]].capitalize()}, type {types}, score {table.score[kind]}"]
        if kills:
            parts.append(f"KILL {kills}")
        if table.reinforce[kind]:
            parts.append("REINFORCE")
        if table.recon[kind]:
            parts.append("RECON")
        facts[card_id] = {
            "name": table.names[kind], "theatre": THEATRES[table.theatre[kind]], "types": types,
            "type_words": [meaning for bit, meaning in enumerate(legend.values()) if table.typemask[kind] >> bit & 1],
            "score": table.score[kind], "kill": kills, "reinforce": table.reinforce[kind],
            "recon": table.recon[kind], "text": ", ".join(parts),
        }
    return facts


# ----- the log -------------------------------------------------------------------------------------------
def log_lines(
    state: CardsOfWarState, action: int, after: CardsOfWarState, seat: int | None, seen: SeenAction
) -> list[LogLine]:
    """The lines `seat` reads for legal `action` taken in `state` (leading to `after`): the draw or the
    deployment in player's words, then what it brought — a reshuffle (R10), a battle won (WINNING A BATTLE), a
    stalled round settled (R11), the round's result, the game's end. `seen` is what the seat sees of the
    action (`views.hidden_action_text`, decided once by the engine): a hidden draw is worded from it."""
    words = Words(seat)
    if state.to_act == CHANCE:
        lines = _draw_lines(state, action, after, words, seen.action is None)
        probe = state  # read only: a stalled round is settled on a copy
        move = False
    else:
        lines, probe = _move_lines(state, action, after, words)
        move = True
    reshuffles = _reshuffle_lines(state, action, after, words)
    if len(after.round_results) > len(state.round_results):
        # The discards a round leaves are most often shuffled in as the next round's hands are dealt.
        ending = _round_end_lines(state, probe, after, words, move)
        return lines + ending[:-1] + reshuffles + ending[-1:]
    return lines + reshuffles


def _draw_lines(state: CardsOfWarState, card: int, after: CardsOfWarState, words: Words, hidden: bool) -> list[LogLine]:
    """A card drawn: named to its drawer (and to all in the first-player draw, R1), else (`hidden`, as
    `views.hidden_action_text` decided) "draws a card"."""
    name = _name(state, card)
    if state.phase == Phase.FIRST_DRAW:
        drawer = state.drawer
        score = state.table.score[card % state.num_kinds]
        lines = [LogLine(_sentence(f"{words.verb(drawer, 'draw')} {name} ({_plural(score, 'point')}) for the "
                                   "first turn"), "chance", CHANCE)]
        if drawer == 1:
            lines.extend(_first_draw_result(state, card, after, words))
        return lines
    drawer = state.drawer if state.phase == Phase.DEAL else state.mover
    why = {Phase.DEAL: "deal", Phase.REINFORCE_DRAW: "REINFORCE", Phase.REFILL: "refill"}[state.phase]
    text = f"{SEAT_NAMES[drawer]} draws a card" if hidden else f"you draw {name}"
    return [LogLine(_sentence(f"{text} ({why})"), "chance", CHANCE)]


def _first_draw_result(state: CardsOfWarState, card: int, after: CardsOfWarState, words: Words) -> list[LogLine]:
    """SETUP: who goes first after the second card of the first-player draw (R1)."""
    score = state.table.score
    n = state.num_kinds
    a, b = score[state.first_draw[0] % n], score[card % n]
    if a == b:
        if after.phase == Phase.FIRST_DRAW:
            text = f"a tie at {_plural(a, 'point')}: both cards are set aside and both draw again (R1)"
        else:
            text = f"a tie at {_plural(a, 'point')} and no cards left to draw: {words.verb(0, 'go', 'goes')} first (R1)"
    else:
        first = 0 if a > b else 1
        text = f"{words.verb(first, 'go', 'goes')} first, {max(a, b)} points to {min(a, b)} (SETUP)"
    lines = [LogLine(_sentence(text), "summary", None)]
    if after.phase != Phase.FIRST_DRAW:
        lines.append(_round_start(after, words))
    return lines


def _round_start(after: CardsOfWarState, words: Words) -> LogLine:
    first = after.first_player
    return LogLine(f"Round {after.round_number} begins: {words.verb(first, 'deploy')} first", "summary", None)


def _move_lines(
    state: CardsOfWarState, action: int, after: CardsOfWarState, words: Words
) -> tuple[list[LogLine], CardsOfWarState]:
    """A seat's move, and a copy of `state` with its card placed by the rules (for the battle it won)."""
    p = state.mover
    layout = state.layout
    probe = state._copy()
    discarded = ""
    if action == layout.pass_turn:
        probe.idle_moves += 1
        text = f"{words.verb(p, 'pass', 'passes')}: no card in hand and none to draw (R11)"
        return [LogLine(_sentence(text), "move", p)], probe
    if action >= layout.top_discard:
        b = action - layout.top_discard
        deck = state.deck_of[p]
        card = state.discards[deck][-1]
        rules._deploy_top_discard(probe, p, b)
        what = f"{_name(state, card)} from the discard pile"
        verb = words.verb(p, "deploy")
        tag = " (Alternative Reinforce)"
        if state.reinforce_card >= 0:
            discarded = _sentence(f"{words.whose(p)} newly drawn {_name(state, state.reinforce_card)} is discarded "
                                  "instead (R9)")
    else:
        joint = action >= layout.joint
        index = action - layout.joint if joint else action
        card = index // NUM_BATTLES + state.deck_offset[p]
        b = index % NUM_BATTLES
        rules.place(probe, p, card, b)
        what = _name(state, card)
        verb = words.verb(p, "deploy")
        tag = " (the first card of a joint deployment)" if joint else {
            Phase.JOINT_SECOND: f" (joint deployment with {state.table.names[state.joint_first_kind]})"
            if state.joint_first_kind >= 0 else "",
            Phase.REINFORCE: " (REINFORCE)",
        }.get(state.phase, "")
    text = f"{verb} {what} to the {BATTLE_NAMES[b]} battle{tag}"
    text += _placement_effects(state, probe, p, card, b, words)
    kind = card % state.num_kinds
    if state.table.reinforce[kind] and after.mover == p and after.phase in (Phase.REINFORCE_DRAW, Phase.REINFORCE):
        text += f"; REINFORCE: {words.verb(p, 'deploy')} again"
    elif after.phase == Phase.JOINT_SECOND:
        text += f"; now {words.who(p)} {'deploy' if p == words.seat else 'deploys'} its partner"
    lines = [LogLine(_sentence(text), "move", p), *_recon_lines(state, probe, p, words)]
    if discarded:
        lines.append(LogLine(discarded, "summary", None))
    won = probe.battle_winner[b]
    if won >= 0 and state.battle_winner[b] == OPEN:
        totals = _totals_before_win(state, probe, p, b)
        lines.append(LogLine(_sentence(
            f"the {BATTLE_NAMES[b]} battle goes to {words.who(won)}, {totals[won]} to {totals[1 - won]}"
        ), "summary", None))
    return lines, probe


def _totals_before_win(state: CardsOfWarState, probe: CardsOfWarState, p: int, b: int) -> list[int]:
    """Each seat's points in battle `b` once the card landed, before the loser's were discarded: the winner's
    are kept (WINNING A BATTLE); the loser's are the totals before the move less the points a KILL took."""
    q = 1 - p
    lost = 0
    if probe.kills[p] > state.kills[p]:
        lost = _killed_points(state, probe, p, b)
    totals = [0, 0]
    totals[p] = probe.battle_totals[p * NUM_BATTLES + b]
    totals[q] = state.battle_totals[q * NUM_BATTLES + b] - lost
    return totals


def _killed_points(state: CardsOfWarState, probe: CardsOfWarState, p: int, b: int) -> int:
    """The points the card KILL took from the opponent's total in battle `b` (none off theatre, R15)."""
    killed = state.battle_piles[(1 - p) * NUM_BATTLES + b][-1] % state.num_kinds
    if state.theatres_of_war and state.table.theatre[killed] != probe.battle_theatre[b]:
        return 0
    return state.table.score[killed]


def _placement_effects(
    state: CardsOfWarState, probe: CardsOfWarState, p: int, card: int, b: int, words: Words
) -> str:
    """The card's effects in the order it resolves (R3): the theatre it fixes, the card it kills, its points and
    the battle's standing (the RECON answer has a line of its own: `_recon_lines`)."""
    q = 1 - p
    kind = card % state.num_kinds
    table = state.table
    parts: list[str] = []
    if probe.battle_theatre[b] != state.battle_theatre[b]:
        parts.append(f"it sets the battle's theatre: {THEATRES[probe.battle_theatre[b]].capitalize()} (Theatres of War)")
    lost = 0
    if probe.kills[p] > state.kills[p]:
        killed = state.battle_piles[q * NUM_BATTLES + b][-1]
        lost = _killed_points(state, probe, p, b)
        parts.append(f"it kills {words.whose(q)} {_name(state, killed)} ({'-' + str(lost) if lost else 'no'} points)")
    scored = probe.battle_totals[p * NUM_BATTLES + b] - state.battle_totals[p * NUM_BATTLES + b]
    if probe.battle_winner[b] != p:
        if not scored and table.score[kind] and state.theatres_of_war:
            parts.append(f"no points off theatre ({THEATRES[probe.battle_theatre[b]].capitalize()} battle)")
        if scored or lost:
            mine = probe.battle_totals[p * NUM_BATTLES + b]
            theirs = probe.battle_totals[q * NUM_BATTLES + b]
            parts.append(f"{BATTLE_NAMES[b]} stands at {words.who(p)} {mine}, {words.who(q)} {theirs}")
    return "".join(f"; {part}" for part in parts)


def _recon_lines(state: CardsOfWarState, probe: CardsOfWarState, p: int, words: Words) -> list[LogLine]:
    """RECON: the opponent's answer, spoken at the table (R8), on a line of its own."""
    if len(probe.recon_answers) == len(state.recon_answers):
        return []
    q = 1 - p
    _, _, *counts = probe.recon_answers[-1]
    held = ", ".join(f"{count} {THEATRES[t].capitalize()}" for t, count in enumerate(counts))
    text = f"RECON: {words.who(q)} {'hold' if q == words.seat else 'holds'} {held} (R8)"
    return [LogLine(text, "summary", None)]


def _reshuffle_lines(state: CardsOfWarState, action: int, after: CardsOfWarState, words: Words) -> list[LogLine]:
    """PLAYING A ROUND: a draw pile run down to one card is shuffled in with the discards (R10)."""
    if state.phase == Phase.FIRST_DRAW:
        return []
    lines = []
    for deck in range(state.num_decks):
        drawn = 1 if state.to_act == CHANCE and action // state.num_kinds == deck else 0
        added = len(after.draw_piles[deck]) - len(state.draw_piles[deck]) + drawn
        if added > 0:
            pile = "the discard pile" if state.num_decks == 1 else f"{words.whose(deck)} discard pile"
            lines.append(LogLine(_sentence(f"{pile} ({_plural(added, 'card')}) is shuffled into a new draw pile "
                                           "(R10)"), "summary", None))
    return lines


def _round_end_lines(
    state: CardsOfWarState, probe: CardsOfWarState, after: CardsOfWarState, words: Words, move: bool
) -> list[LogLine]:
    """WINNING A ROUND: a stalled round's battles settled by points (R11), the round's winner, the rounds won,
    Tactical advantage or Strategic exhaustion, then the game's end or the next round's first player."""
    lines: list[LogLine] = []
    final = probe
    if OPEN in probe.battle_winner:
        final = probe._copy()
        rules.stalemate(final)
        moves = state.moves + (1 if move else 0)
        if probe.idle_moves >= STALL_LIMIT:
            why = f"no card has scored for {STALL_LIMIT} moves"
        elif moves >= ROUND_MOVE_CAP:
            why = f"the round has lasted {ROUND_MOVE_CAP} moves (R22)"
        else:
            why = "neither player has a card to deploy or draw"
        lines.append(LogLine(f"The round stalls: {why}; each open battle goes to the higher total (R11)",
                             "summary", None))
        for b in range(NUM_BATTLES):
            if probe.battle_winner[b] != OPEN:
                continue
            totals = probe.battle_totals[b], probe.battle_totals[NUM_BATTLES + b]
            if final.battle_winner[b] == VOID:
                text = f"the {BATTLE_NAMES[b]} battle is void, {totals[0]} to {totals[1]}"
            else:
                won = final.battle_winner[b]
                text = f"the {BATTLE_NAMES[b]} battle goes to {words.who(won)}, {totals[won]} to {totals[1 - won]}"
            lines.append(LogLine(_sentence(text), "summary", None))
    wins = final.battle_winner.count(0), final.battle_winner.count(1)
    winner = after.round_results[-1]
    number = state.round_number
    if winner == NO_SEAT:
        text = f"Round {number} is drawn, {_plural(wins[0], 'battle')} each"
    else:
        text = f"Round {number} goes to {words.who(winner)}, {_plural(wins[winner], 'battle')} to {wins[1 - winner]}"
    voids = final.battle_winner.count(VOID)
    if voids:
        text += f" ({voids} void)"
    lines.append(LogLine(text, "summary", None))
    rounds = after.rounds_won
    lines.append(LogLine(f"Rounds won: {words.who(0)} {rounds[0]}, {words.who(1)} {rounds[1]}", "summary", None))
    for seat in (0, 1):
        if after.base_hand_limits[seat] < state.base_hand_limits[seat]:
            lines.append(LogLine(_sentence(f"{words.whose(seat)} hand size drops to {after.base_hand_limits[seat]} for "
                                           "good (Strategic exhaustion)"), "summary", None))
        tactical = after.game.numbers.tactical_hand_size
        if after.phase != Phase.OVER and after.tactical_advantage and after.hand_limits[seat] == tactical:
            lines.append(LogLine(_sentence(f"{words.verb(seat, 'play')} the next round with a {tactical}-card "
                                           "hand (Tactical advantage)"), "summary", None))
    if after.phase == Phase.OVER:
        lines.append(LogLine(f"Game over: {end_reason(after, words)}", "summary", None))
    else:
        lines.append(_round_start(after, words))
    return lines


# ----- the result ---------------------------------------------------------------------------------------------
def end_reason(state: CardsOfWarState, words: Words) -> str:
    """Who won the finished game and why, citing WINNING THE GAME or the ruling, as `words`' seat reads it."""
    w = state.winner
    won = state.rounds_won
    count = f"{_plural(max(won), 'round')} to {min(won)}"
    if w >= 0:
        loser = 1 - w
        exhausted = state.game.numbers.exhausted_hand
        if state.strategic_exhaustion and state.base_hand_limits[loser] <= exhausted:
            return (f"{words.whose(loser)} hand is down to {exhausted} cards: {words.verb(w, 'win')} "
                    "(Strategic exhaustion, R14)")
        if state.length == Length.SHORT:
            return f"{words.verb(w, 'win')} the one round of the short game (WINNING THE GAME)"
        if state.length == Length.NORMAL:
            rounds = state.game.numbers.normal_rounds
            shown = "three" if rounds == 3 else str(rounds)
            return f"{words.verb(w, 'win')} {count} (WINNING THE GAME: the most of {shown} rounds; R12)"
        lead = state.game.numbers.long_game_lead
        if abs(won[0] - won[1]) >= lead:
            return f"{words.verb(w, 'win')} {count}, a lead of {lead} (WINNING THE GAME: the long game)"
        return f"{words.verb(w, 'win')} {count}: more rounds after {LONG_GAME_ROUND_CAP} rounds (R22)"
    if state.length == Length.SHORT:
        return "the one round of the short game is drawn: a drawn game (R11)"
    if state.length == Length.NORMAL:
        return f"{won[0]} rounds to {won[1]} after three rounds: a drawn game (R12)"
    return f"{won[0]} rounds to {won[1]} after {LONG_GAME_ROUND_CAP} rounds: a drawn game (R22)"


def result(state: CardsOfWarState) -> GameResult:
    """The winner (both seats on a drawn game), the rounds each won, and the reason (`end_reason`)."""
    w = state.winner
    winners = (w,) if w >= 0 else (0, 1)
    scores = tuple(f"{_plural(count, 'round')} won" for count in state.rounds_won)
    return GameResult(winners=winners, scores=scores, reason=_sentence(end_reason(state, Words(None))))


# ----- move labels ------------------------------------------------------------------------------------------
def action_label(state: CardsOfWarState, action: int) -> str:
    """The notation (`action_to_string`, which names the deployed card already) with the drawn card's name at a
    chance node, the reason for a pass, and what a legal deployment does to its battle ("deploy A07 (Air
    Superiority) left (left 0 → 4 vs 3)", "… (kills Spy; right 2 → 4 vs 0)", "… (wins left 9–3)")."""
    text = state.action_to_string(action)
    if state.to_act == CHANCE:
        return f"{text} ({_name(state, action)})"
    if action == state.layout.pass_turn:
        return f"{text} (no card to deploy)"
    if action in state.legal_actions():
        return f"{text} ({_deploy_effect(state, action)})"
    return text


def _deploy_effect(state: CardsOfWarState, action: int) -> str:
    """What deploying by legal `action` does to its battle, read off a copy with the card placed by the rules:
    the card it kills and the battle's points before and after, or the battle won. Only what the table shows
    (the battles' cards and points) and the mover's own card go in; a RECON answer does not."""
    p = state.mover
    q = 1 - p
    layout = state.layout
    probe = state._copy()
    if action >= layout.top_discard:
        b = action - layout.top_discard
        rules._deploy_top_discard(probe, p, b)
    else:
        index = action - layout.joint if action >= layout.joint else action
        b = index % NUM_BATTLES
        rules.place(probe, p, index // NUM_BATTLES + state.deck_offset[p], b)
    parts = []
    if probe.kills[p] > state.kills[p]:
        parts.append(f"kills {_name(state, state.battle_piles[q * NUM_BATTLES + b][-1])}")
    before = state.battle_totals[p * NUM_BATTLES + b]
    if probe.battle_winner[b] == p and state.battle_winner[b] == OPEN:
        totals = _totals_before_win(state, probe, p, b)
        parts.append(f"wins {BATTLE_NAMES[b]} {totals[p]}–{totals[q]}")
    else:
        mine = probe.battle_totals[p * NUM_BATTLES + b]
        parts.append(f"{BATTLE_NAMES[b]} {before} → {mine} vs {probe.battle_totals[q * NUM_BATTLES + b]}")
    return "; ".join(parts)
