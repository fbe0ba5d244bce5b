"""A seat's observation as a player reads it: the board for `warcards play` (at most 76 columns — 80 in the
terminal's panel — and 14 lines, so that it fits an 80x24 terminal with the prompt and a short move list) and
the one-line `status`."""

from __future__ import annotations

from typing import Any

from warcards.games.cards_of_war.cards import THEATRES, CardTable, table_by_digest
from warcards.games.cards_of_war.codes import PHASE_WORDS, SEAT_NAMES

WIDTH = 76
"""The board's widest line: 80 columns less the border and padding of the terminal's panel around it."""
HEIGHT = 14
"""The board's most lines."""
STATUS_WIDTH = 60
"""The prompt line's most characters."""
LABEL_WIDTH = 15
"""The battle column: `centre [Ground]`."""
CELL_WIDTH = 30
"""Each seat's column in a battle row."""
HAND_COLUMNS = 2
LEGEND = "types+score, xL kills type L, * REINFORCE, @ RECON"
LENGTH_WORDS = {"short": " of 1", "normal": " of 3", "long": " (long game)"}


def fit(text: str, width: int) -> str:
    """`text` cut to `width` characters, an ellipsis marking the cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _kind(table: CardTable, ident: str) -> int:
    return table.ids.index(ident.split("/")[0])


def stats(table: CardTable, kind: int) -> str:
    """A card's type letters and score, KILL letters and marks: `F2 xI`, `B3 *`, `E2 @`."""
    text = f"{table.type_letters(table.typemask[kind])}{table.score[kind]}"
    if table.killmask[kind]:
        text += f" x{table.type_letters(table.killmask[kind])}"
    if table.reinforce[kind]:
        text += " *"
    if table.recon[kind]:
        text += " @"
    return text


def card_text(table: CardTable, ident: str) -> str:
    """A card by name and stats, as a battle shows it: `Pillbox F2 xI`."""
    kind = _kind(table, ident)
    return f"{table.names[kind]} {stats(table, kind)}"


def describe(table: CardTable, ident: str) -> str:
    """One card with its id and theatre, as the hand shows it: `G01 Pillbox [Ground] F2 xI`."""
    kind = _kind(table, ident)
    return f"{ident} {table.names[kind]} [{THEATRES[table.theatre[kind]].capitalize()}] {stats(table, kind)}"


def _names(seat: int) -> tuple[str, str]:
    """(how `seat` is named to itself, the opponent's name)."""
    return "you", SEAT_NAMES[1 - seat]


def _turn(obs: dict[str, Any], seat: int) -> str:
    """Whose turn and what they do, in words: "your turn: deploy", "player 1: REINFORCE: deploy again"."""
    phase = obs["phase"]
    if phase == "over":
        winner = obs["winner"]
        if winner is None:
            return "game over: a drawn game"
        return "game over: " + ("you win" if winner == seat else f"{SEAT_NAMES[winner]} wins")
    if obs["to_move"] == "chance":
        return PHASE_WORDS[phase]
    mover = obs["player"]
    if phase == "deploy":
        return "your turn: deploy" if mover == seat else f"{SEAT_NAMES[mover]} to deploy"
    return f"{'you' if mover == seat else SEAT_NAMES[mover]}: {PHASE_WORDS[phase]}"


def _cell(table: CardTable, battle: dict[str, Any], index: int) -> str:
    """A seat's side of a battle: its points, its top card and how many cards lie under it."""
    winner = battle["winner"]
    total = battle["totals"][index]
    if winner == "void":
        return "void"
    if winner is not None:
        if winner != index:
            return " - lost"
        return f"{total:>2} WON (face down)" if battle["piles"][index] else " - WON"
    pile = battle["piles"][index]
    if not pile:
        return f"{total:>2} -"
    under = f" +{len(pile) - 1}" if len(pile) > 1 else ""
    return fit(f"{total:>2} {card_text(table, pile[-1])}", CELL_WIDTH - 1 - len(under)) + under


def _under(table: CardTable, obs: dict[str, Any], seat: int) -> str | None:
    """The card under each open pile's top (what a KILL of the top uncovers), or None when there is none."""
    parts = []
    for battle in obs["battles"]:
        if battle["winner"] is not None:
            continue
        sides = []
        for index in (seat, 1 - seat):
            pile = battle["piles"][index]
            if len(pile) > 1:
                who = "you" if index == seat else SEAT_NAMES[index]
                sides.append(f"{who} {table.names[_kind(table, pile[-2])]}")
        if sides:
            parts.append(f"{battle['name']}: {', '.join(sides)}")
    text = "under:"
    for index, part in enumerate(parts):
        more = index + 1 < len(parts)
        if len(text) + 1 + len(part) + (3 if more else 0) > WIDTH:
            return text + " …"
        text += f" {part}" + (";" if more else "")
    return text if parts else None


def _piles(obs: dict[str, Any], seat: int) -> str:
    """The draw and discard piles (two decks: each seat's own) and the deck's name, the longest form that
    fits."""
    table = table_by_digest(obs["deck_digest"])

    def pile(deck: int, top: bool) -> str:
        cards = obs["discard"][deck]
        shown = f" (top {table.names[_kind(table, cards[-1])]})" if top and cards else ""
        return f"draw {obs['draw_pile'][deck]}, discard {len(cards)}{shown}"

    deck = f" · {obs['deck']}"
    for top, named in ((True, True), (False, True), (True, False), (False, False)):
        if len(obs["draw_pile"]) == 1:
            text = pile(0, top)
        else:
            text = f"your piles: {pile(seat, top)} · {SEAT_NAMES[1 - seat]}'s: {pile(1 - seat, top)}"
        text += deck if named else ""
        if len(text) <= WIDTH:
            return text
    return fit(text, WIDTH)


def _recon(obs: dict[str, Any], seat: int) -> str | None:
    """The last RECON answer (R8), or None."""
    if not obs["recon"]:
        return None
    answer = obs["recon"][-1]
    who = "you" if answer["of"] == seat else SEAT_NAMES[answer["of"]]
    counts = ", ".join(f"{v} {k.capitalize()}" for k, v in answer["counts"].items())
    return fit(f"last RECON (round {answer['round']}): {who} held {counts}", WIDTH)


def _ability(table: CardTable, obs: dict[str, Any], seat: int) -> str | None:
    """The REINFORCE deployment or joint partner owed now, or None."""
    mover = obs["player"]
    who = "you" if mover == seat else SEAT_NAMES[mover]
    if obs["phase"] in ("reinforce", "reinforce_draw"):
        drawn = f" (you drew {table.names[_kind(table, obs['reinforce_card'])]})" if obs["reinforce_card"] else ""
        return fit(f"REINFORCE: {who} deploy{'' if mover == seat else 's'} again{drawn}", WIDTH)
    if obs["joint_first"]:
        partner = table.names[_kind(table, obs["joint_first"])]
        return fit(f"Joint deployment: {who} deploy{'' if mover == seat else 's'} the partner of {partner}", WIDTH)
    return None


def render(observation: dict[str, Any], seat: int) -> str:
    """The board as `seat` sees it: the round and rounds won, the three battles (points, theatre, top card,
    winner), the piles, the last RECON answer, an ability owed, and the seat's hand."""
    obs = observation
    table = table_by_digest(obs["deck_digest"])
    you, opp = _names(seat)
    won = obs["rounds_won"]
    header = (f"round {obs['round']}{LENGTH_WORDS.get(obs['options'].get('length'), '')} · "
              f"rounds: {you} {won[seat]}, {opp} {won[1 - seat]} · {_turn(obs, seat)}")
    for title in ("Cards of War · ", ""):
        if len(title) + len(header) <= WIDTH:
            header = title + header
            break
    counts = obs["hand_counts"]
    mine, theirs = f"you ({counts[seat]} in hand)", f"{opp} ({counts[1 - seat]} in hand)"
    lines = [fit(header, WIDTH), f"{'battle':<{LABEL_WIDTH}} {mine:<{CELL_WIDTH}}{theirs}"]
    for battle in obs["battles"]:
        theatre = f" [{battle['theatre'].capitalize()}]" if battle["theatre"] else ""
        label = f"{battle['name']}{theatre}"
        row = f"{label:<{LABEL_WIDTH}} {_cell(table, battle, seat):<{CELL_WIDTH}}{_cell(table, battle, 1 - seat)}"
        lines.append(row.rstrip())
    extras = [line for line in (_piles(obs, seat), _recon(obs, seat), _ability(table, obs, seat)) if line]
    hand = [describe(table, card) for card in obs["hand"]]
    rows = -(-len(hand) // HAND_COLUMNS)
    hand_lines = [f"your hand ({len(hand)}/{obs['hand_limits'][seat]}; {LEGEND}):"]
    column = (WIDTH - 2) // HAND_COLUMNS
    for number in range(rows):
        cells = [fit(text, column - 1) for text in hand[number * HAND_COLUMNS:(number + 1) * HAND_COLUMNS]]
        hand_lines.append(("  " + "".join(f"{cell:<{column}}" for cell in cells)).rstrip())
    under = _under(table, obs, seat)
    if under and len(lines) + 1 + len(extras) + len(hand_lines) <= HEIGHT:
        lines.append(under)
    lines.extend(extras)
    lines.extend(hand_lines)
    return "\n".join(lines)


def status(observation: dict[str, Any], seat: int) -> str:
    """The prompt line (at most 60 characters): the round, whose turn and what they do, the rounds won."""
    obs = observation
    won = obs["rounds_won"]
    you, opp = _names(seat)
    head = f"Round {obs['round']} · {_turn(obs, seat)}"
    for score in (f"rounds: {you} {won[seat]}, {opp} {won[1 - seat]}", f"rounds {won[seat]}–{won[1 - seat]}"):
        if len(head) + 3 + len(score) <= STATUS_WIDTH:
            return f"{head} · {score}"
    return fit(head, STATUS_WIDTH)
