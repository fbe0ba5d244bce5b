"""Med Sirocco as a player reads it (docs/contributing/log.md): the game log of each step as one seat saw it
(`log_lines`), move labels with card names (`action_label`), the result with its reason (`result`).

The log puts in words what `views.hidden_action_text` lets each seat see (the engine decides it once per seat
and hands it to `log_lines` as `seen`). A step's public consequences come
from the Operation's event list (`MedSiroccoState.log`, `codes.EV_*`) and from comparing the state before and
after the step (cards turned over, cards captured, VP). Captured cards are named as they are taken, when every
player sees them leave the table (R29).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warcards.engine.api import CHANCE, GameResult, LogLine, SeenAction
from warcards.games.med_sirocco import cards as deck
from warcards.games.med_sirocco import codes, rules
from warcards.games.med_sirocco.cards import (
    E_FOG,
    E_INTEL,
    K_BONUS,
    K_FORCE,
    K_OPERATION,
    K_SPECIAL,
    NEUTRAL,
    TYPE_NAMES,
)
from warcards.games.med_sirocco.codes import ChanceKind, Phase
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
    TYPE_WORDS,
    USE,
)
from warcards.games.med_sirocco.rules.play_checks import face_down_round

if TYPE_CHECKING:
    from warcards.games.med_sirocco.cards import CardTable
    from warcards.games.med_sirocco.game import MedSiroccoGame
    from warcards.games.med_sirocco.state import MedSiroccoState

SIDE_NAMES = ("Allies", "Axis")
VALUE_NAMES = ("air", "surface", "sub")
_THIRD_PERSON = {"pass": "passes", "have": "has", "do": "does"}


class Voice:
    """Seats as one reader reads them: the reader is "you", the others their seat names."""

    def __init__(self, game: MedSiroccoGame, seat: int | None) -> None:
        self.names = game.seat_names()
        self.seat = seat

    def who(self, p: int) -> str:
        return "you" if p == self.seat else self.names[p]

    def whose(self, p: int) -> str:
        return "your" if p == self.seat else f"{self.names[p]}'s"

    def does(self, p: int, verb: str, rest: str = "") -> str:
        """`p` with `verb` agreed ("you play", "player 1 plays"), then `rest`."""
        if p == self.seat:
            said = f"you {verb}"
        else:
            first, _, tail = verb.partition(" ")
            third = _THIRD_PERSON.get(first, first + "s")
            said = f"{self.names[p]} {third}{' ' + tail if tail else ''}"
        return f"{said} {rest}" if rest else said


def card_name(table: CardTable, c: int) -> str:
    """A card as a player names it: its number and name ("X04 Roma")."""
    return table.label(c)


def card_values(table: CardTable, c: int) -> str:
    """A Force card's air/surface/sub values ('?' a die), a Bonus card's "+a/s/u", an Operation's year, kind
    and VP; empty for the other kinds."""
    kind = table.kind[c]
    if kind == K_FORCE:
        return "/".join("?" * table.dice[c][i] if table.dice[c][i] else str(table.fixed[c][i]) for i in range(3))
    if kind == K_BONUS:
        return "+" + "/".join(str(v) for v in table.fixed[c])
    if kind == K_OPERATION:
        return f"{table.op_year[c]} {'Battle' if table.op_battle[c] else 'Convoy'}, {table.vp[c]} VP"
    return ""


def card_label(table: CardTable, c: int) -> str:
    """A card's name with its values ("X04 Roma 2/5/0", "O12 Lustre (1941 Convoy, 3 VP)")."""
    values = card_values(table, c)
    if not values:
        return card_name(table, c)
    if table.kind[c] == K_OPERATION:
        return f"{card_name(table, c)} ({values})"
    return f"{card_name(table, c)} {values}"


EFFECT_WORDS = {
    deck.E_SUPPLY: "Supply: with or without a Force card; if your side wins, pick up one of its ships (2.41)",
    deck.E_RAID: "with or without an Allied surface card: the others may play only Allied cards (2.42)",
    deck.E_FUEL: "with or without an Axis surface card: the others may play only Axis cards (2.43)",
    deck.E_SIROCCO: "with a Force card: a die, 1-3 cancels a player's play, 4-6 passes it on (2.44)",
    deck.E_INTEL: "instead of a Force card: play again after the others; a draw loses (2.45)",
    deck.E_ADMIRAL: "with a Force card: make the Engagement combined, or play two Force cards (2.46)",
    deck.E_EXPLOSION: "Storm: destroys one round's Force card and its Bonus and Supply cards (2.47)",
    deck.E_LOST: "Storm, at any point: exchange 2 cards of your hand for 1 of each of two other players (R1)",
    E_FOG: "Storm: cancels one Bonus card in play (R8)",
    deck.E_NIGHT: "Storm, face down in a Battle's 2nd round: you may change sides (R11)",
    deck.E_BOMB: "Storm: doubles a Force card's Air value (2.48)",
    deck.E_SHALLOWS: "Storm, at the end of your round: discard all submarine cards; none may follow (R10)",
}
"""A Supply, Special or Storm card's effect in a few words, citing its rule (2.41-2.48)."""
_KIND_NAMES = {code: name for name, code in deck.KIND_CODE.items()}
_LOAD_NAMES = {code: name for name, code in deck.LOAD_CODE.items()}
_VALUE_BITS = ((deck.AIR, "air"), (deck.SURFACE, "surface"), (deck.SUB, "sub"))


def deck_facts(game: MedSiroccoGame) -> dict[str, dict[str, Any]]:
    """Every card's facts for a client (`GameSpec.card_facts`): name, kind, side and nation (2.2), the
    air/surface/sub values ('?' a die, 3.4), the years and VP of a Force card (2.2, 1.1), what a Bonus card
    plays on (2.3), a Special or Storm card's effect (2.4), an Operation's year, kind, VP and load (2.1)."""
    facts: dict[str, dict[str, Any]] = {}
    table = game.table
    for c, card_id in enumerate(table.ids):
        kind = table.kind[c]
        entry: dict[str, Any] = {"name": table.names[c], "kind": _KIND_NAMES[kind]}
        if kind == K_OPERATION:
            battle = table.op_battle[c]
            entry.update(operation="battle" if battle else "convoy", year=table.op_year[c], vp=table.vp[c],
                         load=_LOAD_NAMES[table.op_load[c]], air_bonus=table.op_air_bonus[c])
            text = f"{table.op_year[c]} {'Battle' if battle else 'Convoy'}, {table.vp[c]} VP, {entry['load']} load"
            if battle:
                entry["battle_type"] = TYPE_NAMES[table.op_type[c]]
                text += f", {TYPE_NAMES[table.op_type[c]]} engagement"
            if table.op_air_bonus[c]:
                text += ", +1 Air"
            entry["text"] = text
            facts[card_id] = entry
            continue
        side = table.side[c]
        entry.update(side="allies" if side == deck.ALLIES else "axis" if side == deck.AXIS else None,
                     nation=None if table.nation[c] == "none" else table.nation[c])
        values = {name: "?" * table.dice[c][i] if table.dice[c][i] else str(table.fixed[c][i])
                  for i, (_, name) in enumerate(_VALUE_BITS)}
        if kind == K_FORCE:
            years = [year for i, year in enumerate(deck.YEARS) if table.years[c] >> i & 1]
            span = str(years[0]) if len(years) == 1 else f"{years[0]}-{str(years[-1])[2:]}"
            entry.update(values=values, frame=TYPE_NAMES[table.frame[c]], years=years, vp=table.vp[c])
            entry["text"] = (f"air {values['air']}, surface {values['surface']}, sub {values['sub']} · "
                             f"{span} · {table.vp[c]} VP · {table.nation[c].capitalize()}")
            if table.victim[c] >= 0:
                entry["destiny"] = table.ids[table.victim[c]]
                entry["text"] += f" · Destiny: {table.names[table.victim[c]]} (3.3)"
        elif kind == K_BONUS:
            on = table.plays_on[c]
            target = ("any Axis Force card" if on == deck.ON_AXIS else "any Allied Force card" if on == deck.ON_ALLIES
                      else f"a Force card of the {table.nation[c].capitalize()} flag" if on == deck.ON_NATION
                      else "a Force card of its side")
            entry.update(values=values, plays_on=target, solo=table.solo[c])
            entry["text"] = f"Bonus +{values['air']}/{values['surface']}/{values['sub']} on {target} (2.3)"
        else:
            entry["text"] = EFFECT_WORDS.get(table.effect[c], _KIND_NAMES[kind].capitalize())
        facts[card_id] = entry
    return facts


def _cards(table: CardTable, cards: list[int]) -> str:
    return ", ".join(card_name(table, c) for c in cards)


def _vp(table: CardTable, cards: list[int]) -> int:
    return sum(table.vp[c] for c in cards)


# ----- the log ----------------------------------------------------------------------------------------------------
def log_lines(
    before: MedSiroccoState, action: int, after: MedSiroccoState, seat: int | None, seen: SeenAction
) -> list[LogLine]:
    """The lines `seat` (None: a spectator) reads for legal `action` taken at `before`, leading to `after`
    (`seen`: what the seat sees of the action, `views.hidden_action_text` decided once by the engine):
    the move as the seat saw it, its public consequences (dice, cards turned over, destroyed, sunk,
    captured, VP won), then any summary (a round, the Operation's outcome, its end, the game's end)."""
    g = before.game
    v = Voice(g, seat)
    actor = before.current_player()
    lines: list[LogLine] = []
    move = _move_text(before, action, after, v, seen.action is None)
    if move:
        lines.append(LogLine(move, "chance" if actor == CHANCE else "move", actor))
    events = _new_events(before, after)
    # 3.2 then 3.4: the face-down cards are turned over before the outcome (and the Explosions it rolls).
    turn_over = next((i for i, (code, _, _) in enumerate(events) if code in AFTER_THE_REVEAL), len(events))
    lines += _event_lines(before, after, v, events, events[:turn_over])
    lines += _reveal_lines(before, after, v, events)
    lines += _event_lines(before, after, v, events, events[turn_over:])
    lines += _capture_lines(before, after, v, events)
    lines += _summaries(before, after, v)
    return lines


def _new_events(before: MedSiroccoState, after: MedSiroccoState) -> list[tuple[int, int, int]]:
    """The public events the step added: an Operation turned over moves the old list to `previous_log`."""
    if before.operation < 0 <= after.operation:
        return after.previous_log[len(before.log):] + after.log
    return after.log[len(before.log):]


def _move_text(before: MedSiroccoState, action: int, after: MedSiroccoState, v: Voice, hidden: bool) -> str | None:
    """The step's own line (`hidden`: the seat does not see the action in full), or None when its public
    event says it all (a die, an Operation turned over, a Sirocco's victim, a Supply pick-up)."""
    table = before.table
    if before.phase == Phase.CHANCE:
        return _chance_text(before, action, after, v, hidden)
    p = before.to_act
    ph = before.phase
    if ph in (Phase.TURN, Phase.BUILD):
        return _play_text(before, action, after, v, hidden)
    if ph == Phase.TYPE:
        return v.does(p, "declare", f"a{'n' if action - TYPE == 0 else ''} {TYPE_WORDS[action - TYPE]} engagement "
                                    "(3.1)")
    if ph == Phase.OP_CHOOSE:
        kept = action - SELECT
        out = [c for c in before.operation_choice if c != kept]
        rest = f"; {_cards(table, out)} leaves the game (5.0)" if out else ""
        return v.does(p, "keep", f"{card_name(table, kept)}{rest}")
    if ph == Phase.ADMIRAL:
        if action == ADMIRAL_A:
            return f"{v.whose(p)} Admiral makes the engagement combined for all (2.46 A)"
        return f"{v.whose(p)} Admiral allows two Force cards in this play (2.46 B)"
    if ph == Phase.TARGET:
        target = card_name(table, action - SELECT)
        if before.target_effect == E_FOG:
            return f"{v.whose(p)} Fog discards {target} (S04)"
        return f"{v.whose(p)} Bomb alley doubles the air value of {target} (S06)"
    if ph == Phase.HELD:
        if action == USE:
            return v.does(p, "use", "the Sirocco passed on (2.44)")
        return v.does(p, "discard", "the Sirocco passed on (2.44)")
    if ph == Phase.LOST_CARD:
        if hidden:
            return v.does(p, "choose", "a card to exchange (Lost, S02)")
        return v.does(p, "choose", f"{card_name(table, action - SELECT)} to give away (Lost, S02)")
    if ph == Phase.LOST_SEAT:
        return v.does(p, "exchange", f"a card with {v.who(action - SEAT)} (Lost, S02)")
    if ph == Phase.SUPPLY and action == PASS:
        return v.does(p, "pick", "up nothing with the Supply card (2.41)")
    if ph == Phase.SHARE:
        c = before.share_pool[0]
        q = action - SEAT
        if q == p:
            return v.does(p, "keep", f"{card_name(table, c)}: +{table.vp[c]} VP (5.0)")
        return v.does(p, "give", f"{card_name(table, c)} to {v.who(q)}: +{table.vp[c]} VP (5.0)")
    return None


def _chance_text(before: MedSiroccoState, action: int, after: MedSiroccoState, v: Voice,
                 hidden: bool) -> str | None:
    table = before.table
    ck = before.chance_kind
    if ck == ChanceKind.DRAW:
        drawer = before.draw_queue[0]
        if hidden or after.game_number != before.game_number:
            # At the end of a game of a series the last refill is dealt anew with the rest (1.2, 1.3).
            return v.does(drawer, "draw", "a card")
        return v.does(drawer, "draw", card_label(table, action))
    if ck == ChanceKind.OPERATION:
        if hidden:
            return v.does(before.first_player, "draw", "an Operation to choose from (5.0)")
        if after.operation_choice or (after.phase == Phase.OP_CHOOSE):
            return v.does(before.first_player, "draw", f"{card_label(table, action)} to choose from (5.0)")
        return None
    if ck == ChanceKind.LOST_PICK:
        taker, giver = before.lost_player, before.lost_seats[before.lost_step]
        given = before.lost_cards[before.lost_step]
        if hidden:
            return f"{v.who(taker)} and {v.who(giver)} exchange a card (Lost, S02)"
        return (f"{v.does(taker, 'take')} {card_name(table, action)} at random from {v.who(giver)} and "
                f"{'give' if taker == v.seat else 'gives'} {v.who(giver)} {card_name(table, given)} (Lost, S02)")
    if ck == ChanceKind.EXPLOSION:
        face = action - DIE + 1
        p = before.entry_player[before.explosion_entry]
        if before.explosion_left == 2:
            return v.does(p, "roll", f"{face} for the Explosion (S03)")
        total = before.explosion_sum + face
        n = before.num_players
        if total == 7:
            where = f"7: {v.who(p)} {'lose' if p == v.seat else 'loses'} one of {'your' if p == v.seat else 'his'} own"
        else:
            q = (p - 1) % n if total < 7 else (p + 1) % n
            where = f"{'below' if total < 7 else 'above'} 7: {v.who(q)} {'lose' if q == v.seat else 'loses'} one"
        return v.does(p, "roll", f"{face} for the Explosion: {total} in all ({where} of this round's Force cards,"
                                 " S03)")
    if ck == ChanceKind.ROLL:
        code = before.roll_queue[-1]
        e, value = divmod(code, 3)
        c = before.entry_card[e]
        return (f"die for {v.whose(before.entry_player[e])} {card_name(table, c)} ({VALUE_NAMES[value]}): "
                f"{action - DIE + 1}")
    if ck == ChanceKind.SIROCCO:
        face = action - DIE + 1
        what = "1-3: a player is cancelled" if face <= 3 else "4-6: it passes to the left"
        return v.does(before.to_act, "roll", f"{face} for the Sirocco ({what}, 2.44)")
    return None


def _play_text(before: MedSiroccoState, action: int, after: MedSiroccoState, v: Voice, hidden: bool) -> str:
    """1.4 C: a card played, a discard, the end of a play, a pass."""
    g = before.game
    table = before.table
    p = before.to_act
    if action < DISCARD:
        if hidden:
            return v.does(p, "play", "a card face down (3.2)")
        c = action - PLAY
        e = len(before.entry_card)
        if after.entry_face_down[e]:
            return v.does(p, "play", f"{card_label(table, c)} face down (3.2)")
        host = after.entry_host[e]
        on = f" on {card_name(table, after.entry_card[host])}" if host >= 0 else ""
        side = g.played_side[c]
        for_side = f" for the {SIDE_NAMES[side]}" if side in (0, 1) and table.kind[c] != K_BONUS else ""
        return v.does(p, "play", f"{card_label(table, c)}{on}{for_side}")
    if action < SELECT:
        return v.does(p, "discard", card_name(table, action - DISCARD))
    if action == DISCARD_ALL:
        hand = before.hands[p]
        sit = "sit" if p == v.seat else "sits"
        sits = f" and {sit} out the rest of the Battle (3.2)" if after.sat_out >> p & 1 and not before.sat_out >> p & 1 else ""
        out = f" {_cards(table, hand)}" if hand else ""
        return v.does(p, "discard", f"the whole hand ({len(hand)} cards):{out}{sits}" if hand else f"nothing{sits}")
    if action == PASS:
        if before.turn_mode == 1:
            return v.does(p, "decline", "the Intelligence extra play (2.45)")
        return v.does(p, "pass")
    if action == DONE:
        return v.does(p, "end", "the play")
    return v.does(p, "act")


AFTER_THE_REVEAL = frozenset({codes.EV_INVALID, codes.EV_SUNK, codes.EV_DESTROY, codes.EV_TOTALS, codes.EV_WIN,
                              codes.EV_DRAW, codes.EV_NO_COMBAT})
"""The events a step adds once a Battle's face-down cards are turned over (3.2): their lines follow the reveal's."""


def _event_lines(before: MedSiroccoState, after: MedSiroccoState, v: Voice,
                 events: list[tuple[int, int, int]], said: list[tuple[int, int, int]]) -> list[LogLine]:
    """The public events `said` (of the step's `events`) in words (rolls are said elsewhere)."""
    table = before.table
    actor = before.current_player()
    # 5.0: the Operation given out by the winner's `seat` move is said by the move line, VP and all.
    given = before.share_pool[0] if before.phase == Phase.SHARE else -1
    out: list[LogLine] = []
    for code, a, b in said:
        if code == codes.EV_WIN and b == given:
            continue
        if code == codes.EV_OP:
            n = after.operations_done + 1
            kind = "Battle" if after.is_battle else "Battle, played as a Convoy (6.3)," if table.op_battle[b] else "Convoy"
            fixed = f", type {TYPE_NAMES.get(after.operation_type, '?')} (6.4)" if after.is_battle and after.historicity else ""
            out.append(LogLine(f"Operation {n}/{after.operations_total}: {v.does(a, 'turn')} over "
                               f"{card_name(table, b)}, a {table.op_year[b]} {kind} worth {table.vp[b]} VP{fixed}",
                               "summary", None))
        elif code == codes.EV_CANCEL:
            out.append(LogLine(f"{v.whose(a)} Sirocco cancels {v.who(b)}: "
                               f"{'your' if b == v.seat else 'their'} cards in this Engagement are discarded "
                               "(2.44)", "move", actor))
        elif code == codes.EV_SIROCCO_PASS:
            out.append(LogLine(f"the Sirocco passes from {v.who(a)} to {v.who(b)} (2.44)", "move", actor))
        elif code == codes.EV_SIROCCO_GONE:
            out.append(LogLine(f"{v.whose(a)} Sirocco is discarded: {v.who(b)} "
                               f"{'have' if b == v.seat else 'has'} no turn to come (2.44)", "move", actor))
        elif code == codes.EV_DESTROY:
            out.append(LogLine(f"{v.does(a, 'destroy')} {card_name(table, b)} and "
                               f"{'capture' if a == v.seat else 'captures'} it: +{table.vp[b]} VP", "summary", None))
        elif code == codes.EV_SUNK:
            out.append(LogLine(f"{v.whose(a)} {card_name(table, b)} is sunk by the Explosion, out of the game (S03)",
                               "move", actor))
        elif code == codes.EV_TOTALS:
            out.append(LogLine(_outcome_text(before, after, v, a, b, events), "summary", None))
        elif code == codes.EV_WIN:
            out.append(LogLine(f"{v.does(a, 'win')} {card_name(table, b)}: +{table.vp[b]} VP", "summary", None))
        elif code == codes.EV_PICKUP:
            out.append(LogLine(v.does(a, "pick", f"up {card_name(table, b)} with a Supply card (2.41)"), "move",
                               actor))
    return out


def _outcome_text(before: MedSiroccoState, after: MedSiroccoState, v: Voice, allies: int, axis: int,
                  events: list[tuple[int, int, int]]) -> str:
    """3.4: the side totals and what they decide."""
    table = before.table
    head = f"Operation {before.operations_done + 1}/{before.operations_total}, {card_name(table, before.operation)},"
    seen = [code for code, _, _ in events]
    if codes.EV_NO_COMBAT in seen:
        return f"{head} no combat (Allies {allies}, Axis {axis}): the Operation is discarded, nobody scores (3.4)"
    if codes.EV_DRAW in seen:
        return (f"{head} a tie, {allies} to {axis}: the cards in play go under the Operation and the Engagement "
                f"is replayed, {v.who(after.first_player)} first (3.4)")
    side = after.winning_side
    scores = (allies, axis) if side == 0 else (axis, allies)
    why = ", the Intelligence player's side losing the tie (2.45)" if allies == axis else ""
    owner = "yours" if after.winner == v.seat else f"{v.names[after.winner]}'s"
    return (f"{head} goes to the {SIDE_NAMES[side]}, {scores[0]} to {scores[1]}{why}; the trick is {owner} "
            "(highest card, 3.4)")


def _reveal_lines(before: MedSiroccoState, after: MedSiroccoState, v: Voice,
                  events: list[tuple[int, int, int]]) -> list[LogLine]:
    """3.2: the face-down cards of a Battle's 2nd round turned over, player by player, and those found
    invalid (discarded)."""
    table = before.table
    # The Engagement ended or was replayed in the step: it went through the reveal (a Battle's 2nd round ends
    # only there), so every face-down card in play was turned over, but those of a player just cancelled.
    reset = before.operation != after.operation or len(after.entry_card) < len(before.entry_card)
    cancelled = {b for code, _, b in events if code == codes.EV_CANCEL}
    shown: dict[int, list[int]] = {}
    for e in range(len(before.entry_card)):
        if not (before.entry_face_down[e] and before.entry_alive[e]) or before.entry_player[e] in cancelled:
            continue
        if reset or not after.entry_face_down[e]:
            shown.setdefault(before.entry_player[e], []).append(before.entry_card[e])
    lines = []
    for p, cards in shown.items():
        text = v.does(p, "turn", f"over {_cards(table, cards)}")
        invalid = [c for c in cards if (codes.EV_INVALID, p, c) in events]
        if invalid:
            text += f"; not valid, discarded: {', '.join(table.ids[c] for c in invalid)}"
        lines.append(LogLine(f"{text} (3.2)", "move", None))
    return lines


def _capture_lines(before: MedSiroccoState, after: MedSiroccoState, v: Voice,
                   events: list[tuple[int, int, int]]) -> list[LogLine]:
    """Cards captured in the step that no event named (3.4 the losing side's cards, 5.0 forced gifts, S03 a
    destroyed card's Supply card): each player's, with their VP."""
    if after.game_number != before.game_number:
        return []
    table = before.table
    named = {b for code, _, b in events if code == codes.EV_DESTROY}
    gift = before.share_pool[0] if before.phase == Phase.SHARE else -1
    out = []
    for p in range(before.num_players):
        new = [c for c in after.captured[p][len(before.captured[p]):] if c not in named and c != gift]
        if new:
            out.append(LogLine(f"{v.does(p, 'capture')} {_cards(table, new)}: +{_vp(table, new)} VP (3.4)", "summary", None))
    return out


def _summaries(before: MedSiroccoState, after: MedSiroccoState, v: Voice) -> list[LogLine]:
    """The round, Operation, game and series ends the step brought."""
    out: list[LogLine] = []
    same_op = before.operation == after.operation >= 0
    if same_op and after.round_index == before.round_index + 1:
        down = ", played face down (3.2)" if after.is_battle else ""
        out.append(LogLine(f"round {after.round_index + 1} of {after.rounds} begins{down}", "summary", None))
    if before.operation >= 0 > after.operation:
        out.append(LogLine(_scoreboard(after, v), "summary", None))
    if before.game_number != after.game_number and not after.is_terminal():
        ended = rules.victory_points(before)
        this_game = ", ".join(f"{v.who(p)} {ended[p]}" for p in range(after.num_players))
        totals = ", ".join(f"{v.who(p)} {after.series_vp[p]}" for p in range(after.num_players))
        out.append(LogLine(f"game {before.game_number} of the series is over, VP: {this_game}; series VP: {totals};"
                           f" nobody has {after.game.numbers.series_target} yet, {v.who(after.dealer)} deals game {after.game_number}"
                           " (1.2)", "summary", None))
    if after.is_terminal() and not before.is_terminal():
        res = result(after)
        scores = ", ".join(f"{v.who(p)} {s}" for p, s in enumerate(res.scores))
        out.append(LogLine(f"game over: {res.reason}; final {scores}", "summary", None))
    return out


def _scoreboard(after: MedSiroccoState, v: Voice) -> str:
    """The end of an Operation: each player's Operations won, their VP, and captured cards by count (3.4
    "must remain hidden"), then the reader's own VP."""
    table = after.table
    won = "; ".join(f"{v.who(p)} {len(after.won[p])} ({_vp(table, after.won[p])} VP), {len(after.captured[p])} captured"
                    for p in range(after.num_players))
    mine = f"; you have {rules.victory_points(after)[v.seat]} VP in all" if v.seat is not None else ""
    return f"end of Operation {after.operations_done}/{after.operations_total}; Operations won (their VP): {won}{mine}"


# ----- move labels and the result ------------------------------------------------------------------------------
def action_label(state: MedSiroccoState, action: int) -> str:
    """The notation of `action`, then the names it stands for ("play X04 (Roma 2/5/0)", "seat 2 (give O12
    Lustre to player 2)")."""
    table = state.table
    text = state.action_to_string(action)
    names = state.game.seat_names()
    if state.phase == Phase.CHANCE:
        if 0 <= action < N_CARDS:
            return f"{text} ({_bare(table, action)})"
        return text
    if PLAY <= action < DISCARD and face_down_round(state) and state.turn_mode == 0:
        c = action - PLAY
        doomed = _thrown_away(state, state.to_act, c)
        warning = f"; thrown away at the reveal: {doomed}" if doomed else ""
        return f"{text} ({_bare(table, c)}, face down{warning})"
    if PLAY <= action < SELECT:
        return f"{text} ({_bare(table, (action - PLAY) % DISCARD)})"
    if state.phase == Phase.HELD:
        if action == USE:
            return f"{text} (roll for the Sirocco passed to you: 1-3 cancels a player's play, 4-6 passes it on, 2.44)"
        return f"{text} (discard the Sirocco passed to you, 2.44)"
    if action == PASS and state.phase == Phase.SUPPLY:
        return f"{text} (pick up no ship, 2.41)"
    if action == PASS:
        return f"{text} (play no card)"
    if action == DISCARD_ALL:
        return f"{text} (your whole hand, playing no card)"
    if action == DONE:
        return f"{text} (end your play)"
    if TYPE <= action < TYPE + len(TYPE_WORDS):
        word = TYPE_WORDS[action - TYPE]
        counted = "air, surface and sub values all count" if word == "combined" else f"only {word} values count"
        return f"{text} ({counted}, 3.1)"
    if SELECT <= action < SEAT:
        return f"{text} ({_bare(table, action - SELECT)})"
    if SEAT <= action < TYPE:
        q = action - SEAT
        if state.phase == Phase.SHARE and state.share_pool:
            return f"{text} (give {card_name(table, state.share_pool[0])} to {names[q]})"
        if state.phase == Phase.SIROCCO_TARGET:
            return f"{text} (cancel {names[q]})"
        return f"{text} ({names[q]})"
    if action == ADMIRAL_A:
        return f"{text} (2.46 A: combined for all)"
    if action == ADMIRAL_B:
        return f"{text} (2.46 B: two Force cards)"
    return text


def _thrown_away(state: MedSiroccoState, p: int, c: int) -> str:
    """Why card `c`, played face down by `p` now, will be discarded when it is turned over (3.2), as far as `p`
    can tell: a card of the other side (3.1, unless sides may change: 6.1 or Night action), a Force card out
    of the Operation's years (3.1), an Intelligence card (2.45: 1st round only); "" when none of these."""
    g = state.game
    table = state.table
    kind, side, years, _ = g.card_facts[c]
    mine = state.seat_side[p]
    if side != NEUTRAL and mine >= 0 and side != mine and not (state.change_sides and state.num_players > 2):
        return f"not a card of your side, the {SIDE_NAMES[mine]} (3.1)"
    if kind == K_FORCE and not years & state.year_bit:
        return f"not playable in {state.year}, the Operation's year (3.1)"
    if kind == K_SPECIAL and table.effect[c] == E_INTEL:
        return "Intelligence is played in a Battle's 1st round only (2.45)"
    return ""


def _bare(table: CardTable, c: int) -> str:
    """A card's name and values without its number (the notation beside it has the number)."""
    if table.kind[c] == K_OPERATION:
        return f"{table.names[c]}: {card_values(table, c)}"
    return card_label(table, c).split(" ", 1)[1]


def result(state: MedSiroccoState) -> GameResult:
    """1.2: most VP wins, ties to the most Operations won, a full tie shared (R22); series play totals (75 VP)."""
    names = state.game.seat_names()
    n = state.num_players
    if state.series:
        vp, ops = list(state.series_vp), list(state.series_ops)
        unit = "VP in the series"
    else:
        vp, ops = rules.victory_points(state), [len(w) for w in state.won]
        unit = "VP"
    best = max(zip(vp, ops, strict=True))
    winners = tuple(p for p in range(n) if (vp[p], ops[p]) == best)
    top_vp = [p for p in range(n) if vp[p] == best[0]]
    who = " and ".join(names[p] for p in winners)
    where = f"first to {state.game.numbers.series_target} VP at the end of a game, series play" if state.series else \
        f"most VP after {state.operations_total} Operations"
    if len(winners) > 1:
        reason = (f"{who} share the win: {best[0]} {unit} and {best[1]} Operations each, no further tie-break "
                  "(1.2, R22)")
    elif len(top_vp) > 1:
        reason = (f"{who} wins: {best[0]} {unit}, tied with {', '.join(names[p] for p in top_vp if p not in winners)},"
                  f" but more Operations won ({best[1]}; 1.2)")
    else:
        reason = f"{who} wins with {best[0]} {unit} ({where}, 1.2)"
    scores = tuple(f"{vp[p]} {unit} ({ops[p]} Operations)" for p in range(n))
    return GameResult(winners=winners, scores=scores, reason=reason)
