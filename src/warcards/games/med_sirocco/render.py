"""One seat's Med Sirocco view as text for `warcards play` (`render`, at most 76 columns so that it fits an 80-column
terminal framed; 14 lines at two and three players, 15 at most at four), and the prompt's status line (`status`,
at most 60 characters).

Both read only the observation (a seat's `observe`, or the spectator's `public_view` with seat None). Card
names come from the stand-in deck, the one `warcards play` deals.
"""

from __future__ import annotations

import textwrap
from functools import cache
from typing import Any

from warcards.games.med_sirocco.cards import K_BONUS, K_FORCE, K_OPERATION, CardTable, load_cards

WIDTH = 76
"""The board's width: an 80-column terminal less a frame of two columns each side (`warcards play` boxes it)."""
STATUS_WIDTH = 60
_CELL = (WIDTH - 8) // 2  # a hand card's column: two to a line after "Hand: ", two spaces between

# What the player to act is doing, by `codes.PHASE_NAMES` (the board's second line and the status line).
PHASE_WORDS = {
    "chance": "a draw or a die roll",
    "choose-operation": "{who} to keep one of two Operations (5.0)",
    "declare-type": "{who} to declare the engagement type",
    "turn": "{who} to play or discard",
    "play": "{who} to add a card or end the play",
    "admiral": "{who} to choose the Admiral's option",
    "target": "{who} to choose the target",
    "sirocco-target": "{who} to choose whom the Sirocco cancels",
    "held-sirocco": "{who} to use or discard the Sirocco passed on",
    "lost-card": "{who} to choose cards to exchange",
    "lost-seat": "{who} to choose whom to exchange with",
    "supply": "{who} to pick up a ship with Supply",
    "share": "{who} to share out the prizes (5.0)",
    "end": "game over",
}
_SHORT_PHASE = {"turn": "to play", "play": "playing", "declare-type": "declares type",
                "choose-operation": "chooses Op", "chance": "drawing", "end": "game over"}


@cache
def _table() -> CardTable:
    return load_cards(None)


def _name(cid: str, width: int = 40) -> str:
    """A card's number and name, the name cut to `width` characters."""
    d = _table()
    c = d.index.get(cid)
    if c is None:
        return cid
    name = d.names[c]
    return f"{cid} {name if len(name) <= width else name[: width - 1] + '…'}"


def _values(cid: str) -> str:
    """A Force card's air/surface/sub values ('?' a die), a Bonus card's '+a/s/u', an Operation's facts."""
    d = _table()
    c = d.index.get(cid)
    if c is None:
        return ""
    if d.kind[c] == K_FORCE:
        return "/".join("?" * d.dice[c][i] if d.dice[c][i] else str(d.fixed[c][i]) for i in range(3))
    if d.kind[c] == K_BONUS:
        return "+" + "/".join(str(v) for v in d.fixed[c])
    if d.kind[c] == K_OPERATION:
        return f"{d.op_year[c]} {'Battle' if d.op_battle[c] else 'Convoy'}, {d.vp[c]} VP"
    return ""


def _hand_card(cid: str) -> str:
    """A hand card in its column: number, name, values, years ('41-'43) and VP of a Force card."""
    d = _table()
    c = d.index.get(cid)
    if c is None:
        return cid
    tail = ""
    if d.kind[c] == K_FORCE:
        years = [40 + i for i in range(4) if d.years[c] >> i & 1]
        span = f"'{years[0]}" if len(years) == 1 else f"'{years[0]}-'{years[-1]}"
        tail = f" {_values(cid)} {span} {d.vp[c]}VP"
    elif d.kind[c] == K_BONUS:
        tail = f" {_values(cid)}"
    return _name(cid, _CELL - len(cid) - 1 - len(tail)) + tail


def _seat(o: dict[str, Any], p: int, seat: int | None) -> str:
    return "you" if p == seat else f"player {p}"


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False)


def _operation_lines(o: dict[str, Any], seat: int | None) -> list[str]:
    """The Operation with its facts, type and round; then the 1st player and who acts on what."""
    head = f"Op {o['operations_done'] + 1}/{o['operations_total']}"
    if o.get("series_vp") is not None:
        head = f"Game {o['game_number']}, {head}"
    choice = o.get("operation_choice")
    if o["operation"]:
        etype = o["engagement_type"] or "type not declared"
        first = f"{head}: {_name(o['operation'], 28)} ({_values(o['operation'])}), {etype}, round {o['round']}/{o['rounds']}"
    elif o["phase"] == "choose-operation" and isinstance(choice, list):
        first = f"{head}: keep {' or '.join(_name(c, 24) for c in choice)}"
    elif o["phase"] == "choose-operation":
        first = f"{head}: {_seat(o, o['first_player'], seat)} chooses between {choice} Operations (5.0)"
    elif o["phase"] == "end":
        first = f"Game over after {o['operations_total']} Operations"
    else:
        first = f"{head}: not yet turned over"
    if "final_vp" in o:
        return [first, *_wrap("Final VP: " + ", ".join(f"{_seat(o, p, seat)} {v}" for p, v in enumerate(o["final_vp"])))]
    who = o["current_player"]
    doing = PHASE_WORDS.get(o["phase"], o["phase"]).format(who=_seat(o, who, seat) if who is not None else "")
    return [*_wrap(first), *_wrap("; ".join([f"1st player: {_seat(o, o['first_player'], seat)}", doing,
                                             *_notes(o, seat)]))]


def _notes(o: dict[str, Any], seat: int | None) -> list[str]:
    """What is in force in this Engagement beyond the cards in play."""
    notes = []
    if o["restriction"]:
        notes.append(f"only {o['restriction'].capitalize()} cards may be played (2.42, 2.43)")
    if o["admiral_combined"]:
        notes.append("an Admiral made the engagement combined (2.46)")
    if o["bomb_alley_on"]:
        notes.append(f"Bomb alley doubles {_name(o['bomb_alley_on'], 20)}")
    if o["shallows"]:
        notes.append("Shallows: no submarines this round (S07)")
    if o["sirocco_holder"] is not None:
        notes.append(f"the Sirocco is passed to {_seat(o, o['sirocco_holder'], seat)} (2.44)")
    if o.get("series_vp") is not None:
        notes.append("series VP: " + ", ".join(f"{_seat(o, p, seat)} {v}" for p, v in enumerate(o["series_vp"])))
    return notes


_ROW = "{who:<8} {side:<6} {won:<7} {capt:>5} {hand:>4}  "
"""A player's row before the cards in play: seat, side, Operations won (their VP), captured cards, hand."""
_PLAY_AT = len(_ROW.format(who="", side="", won="", capt="", hand=""))


def _player_rows(o: dict[str, Any], seat: int | None) -> list[str]:
    """The column heads, then one row per player ending with his cards in play (wrapped under them)."""
    mine = f"your VP: {o['my_vp']} in all" if "my_vp" in o else ""
    head = _ROW.format(who="", side="Side", won="Won(VP)", capt="Capt.", hand="Hand") + "In play"
    rows = [f"{head}{mine:>{WIDTH - len(head)}}"]
    for p in range(o["players"]):
        flags = " (cancelled)" if o["cancelled"][p] else " (sits out)" if o["sat_out"][p] else ""
        row = _ROW.format(who=_seat(o, p, seat), side=(o["sides"][p] or "-").capitalize(),
                          won=f"{len(o['won'][p])} ({o['won_vp'][p]})", capt=o["captured_counts"][p],
                          hand=f"{o['hand_sizes'][p]}/{o['hand_limits'][p]}")
        cards = ", ".join(_in_play(o, p)) + flags
        wrapped = textwrap.wrap(cards or "-", WIDTH - _PLAY_AT, break_on_hyphens=False)
        rows.append(row + wrapped[0])
        rows += [" " * _PLAY_AT + more for more in wrapped[1:]]
    return rows


def _in_play(o: dict[str, Any], p: int) -> list[str]:
    """A player's cards in play: face up with their values (a Bonus card with the card it is on), his own
    face-down cards by number, others' face-down cards counted."""
    mine = [pl for pl in o["plays"] if pl["seat"] == p]
    cards = []
    for pl in mine:
        if pl["card"] is not None and not pl["face_down"]:
            shown = f"{_name(pl['card'], 12)} {_values(pl['card'])}".rstrip()
            cards.append(shown + (f" on {pl['on']}" if pl["on"] else ""))
    own_down = [pl["card"] for pl in mine if pl["card"] is not None and pl["face_down"]]
    if own_down:
        cards.append("face down " + " ".join(own_down))
    hidden = sum(1 for pl in mine if pl["card"] is None)
    if hidden:
        cards.append(f"{hidden} face down")
    return cards


def _hand(o: dict[str, Any]) -> list[str]:
    """The seat's hand, two cards to a line after the label."""
    cells = [_hand_card(cid) for cid in o["hand"]]
    if not cells:
        return ["Hand: empty"]
    lines = []
    for i in range(0, len(cells), 2):
        label = "Hand: " if i == 0 else " " * 6
        lines.append(label + "  ".join(f"{cell:<{_CELL}}" for cell in cells[i : i + 2]).rstrip())
    return lines


def render(observation: dict[str, Any], seat: int | None) -> str:
    """The seat's view as text (seat None: the spectator's public view): the Operation and its phase, each
    player's Operations won (with their VP), captured cards and hand size, the cards in play, then the
    seat's own VP and hand."""
    o = observation
    lines = [*_operation_lines(o, seat), *_player_rows(o, seat)]
    if o["share_pool"]:
        lines += _wrap("Prizes to share (5.0), next first: "
                       + ", ".join(_name(cid, 16) for cid in o["share_pool"]))
    if o["under_operation"]:
        lines += _wrap("Under the Operation (a tie, 3.4): " + ", ".join(o["under_operation"]))
    if "hand" in o:
        lines += _hand(o)
    return "\n".join(line[:WIDTH] for line in lines)


def status(observation: dict[str, Any], seat: int | None) -> str:
    """The prompt line (at most 60 characters): the Operation, who acts and how, the VP."""
    o = observation
    who = o["current_player"]
    phase = _SHORT_PHASE.get(o["phase"], o["phase"].replace("-", " "))
    actor = f"{_seat(o, who, seat)} {phase}" if who is not None else phase
    text = f"Op {o['operations_done'] + 1}/{o['operations_total']} | {actor}"
    if "final_vp" in o:
        vp = "/".join(str(v) for v in o["final_vp"])
        return f"Game over | final VP {vp}"[:STATUS_WIDTH]
    if "my_vp" in o:
        text += f" | you {o['my_vp']} VP"
    ops = "/".join(str(v) for v in o["won_vp"])
    longer = f"{text} | Ops VP {ops}"
    return longer if len(longer) <= STATUS_WIDTH else text[:STATUS_WIDTH]
