"""The Naval War board for `warcards play` (`render`) and its prompt line (`status`), from a seat's view
(`observe(seat)`) or a spectator's (`public_view()`, seat None).

The board fits an 80-column terminal: the round, dealer and piles; one line per task force, wrapped when long
(the seat and its points, the ships as "name gun damage/Hit Number", then its Smoke, Destroyer Squadron,
minefields, hand when not of the usual size, and the points of its Deep Six pile); whose move it is and what
is being resolved; the hand by card name. Measured over random games: at most 14 lines for two to five
players, 19 for six to nine, 26 for nine in fleets at night (ships that joined make task forces long)."""

from __future__ import annotations

from typing import Any

from warcards.games.naval_war.log import PHASE_WORDS, card_name_of, ship_hits_of, ship_name_of

WIDTH = 80
"""The terminal's width: no line of the board is longer."""
STATUS_WIDTH = 60
"""The prompt line's width (GameSpec.status)."""
_INDENT = " " * 9


def _wrap(head: str, items: list[str], sep: str = " · ") -> list[str]:
    """`head` then `items` joined by `sep`, wrapped between items at `WIDTH` columns, continuation lines
    indented (an item longer than a line is cut, which no name of the printed decks is)."""
    return _wrap_pieces(head, [(sep, item) for item in items])


def _wrap_pieces(head: str, pieces: list[tuple[str, str]]) -> list[str]:
    """`head` then each (separator, text) piece, the first piece's separator dropped, wrapped as `_wrap`."""
    lines: list[str] = []
    line = head
    for i, (sep, text) in enumerate(pieces):
        piece = text if i == 0 else sep + text
        if len(line) + len(piece) > WIDTH and line.strip():
            lines.append(line.rstrip())
            line = _INDENT + text
        else:
            line += piece
    lines.append(line.rstrip())
    return [text[:WIDTH] for text in lines]


def _seat(i: int, seat: int | None) -> str:
    return "you" if i == seat else f"P{i}"


def _ship(ship: dict[str, Any], own: bool) -> str:
    """A ship as the board shows it: "Hood 15\" 2/5" (your ships with their gun), "Akagi CV 0/3 rests 2"."""
    gun = ship["gun"]
    text = ship_name_of(ship["id"])
    if own:
        text += " CV" if gun == "carrier" else f' {gun}"'
    text += f" {ship['damage']}/{ship['hits']}"
    if ship["resting"]:
        text += f" rests {ship['resting']}"
    return text


def _usual_hand(o: dict[str, Any]) -> int:
    """The hand size most players hold now (the board names only the hands that differ)."""
    counts: list[int] = [force["hand_count"] for force in o["task_forces"] if force["alive"]] or [0]
    return max(sorted(set(counts), reverse=True), key=counts.count)


def _force(force: dict[str, Any], o: dict[str, Any], seat: int | None, usual: int) -> list[str]:
    """One task force: its ships, then its Smoke, Destroyer Squadron, minefields, hand (when its size is not
    the usual one) and Deep Six."""
    i = force["seat"]
    own = i == seat
    team = o["teams"][i]
    head = f"{'You' if own else f'P{i}'}{'/' + 'ABCD'[team] if team >= 0 else ''} {o['scores'][i]}"
    items = [_ship(s, own) for s in force["ships"] if s["id"] is not None and not s["face_down"]]
    down = [s for s in force["ships"] if s["face_down"]]
    if own and down:
        items += ["face down: " + _ship(down[0], own), *(_ship(s, own) for s in down[1:])]
    elif down:
        items.append(f"{len(down)} face down")
    if not force["alive"]:
        items.append("out for the round")
    flags = []
    if force["smoke"]:
        flags.append("Smoke")
    dd = force["destroyer_squadron"]
    if dd:
        flags.append(f"Destroyer Squadron {dd['hits']}/4")
    if force["mine_hits"]:
        flags.append(f"mines {force['mine_hits']} by {_seat(force['last_minefield'], seat)}")
    if not own and force["alive"] and force["hand_count"] != usual:
        flags.append(f"{force['hand_count']} card{'s' * (force['hand_count'] != 1)}")
    if force["known_in_hand"] and not own:
        flags.append("holds " + ", ".join(card_name_of(c) for c in force["known_in_hand"]))
    if force["deep_six"]:
        points = [ship_hits_of(s) for s in force["deep_six"]]
        sank = sum(p for p in points if p is not None)
        flags.append(f"sank {sank}" if None not in points else f"sank {len(points)} ships")
    pieces = [(", ", item) for item in items or ["no ships"]] + [(" · ", flag) for flag in flags]
    return _wrap_pieces(f"{head:<8} ", pieces)


def _resolving(o: dict[str, Any], seat: int | None) -> str:
    """What the phase is resolving, in words ("the Submarine at Hood", "air strikes: Akagi at Hood")."""
    phase = o["phase"]
    if phase == "red" and o["pending"]:
        return f"{PHASE_WORDS[phase]}: {card_name_of(o['pending'])}"
    if phase == "aim" and o["aiming"]:
        return f"aim the {card_name_of(o['aiming'])}"
    if phase == "give" and o["swap_card"]:
        return f"give a salvo back for the {card_name_of(o['swap_card'])}"
    if phase in ("dd-target", "dd-sink") or (phase == "roll" and o["roll"] == "destroyer-squadron"):
        if o["dd_target"] >= 0:
            left = f", {o['dd_left']} to sink" if phase == "dd-sink" else ""
            return f"Destroyer Squadron against {_seat(o['dd_target'], seat)}{left}"
        return PHASE_WORDS[phase]
    if phase == "roll" and o["roll"] in ("submarine", "torpedo-boat") and o["pending_target"]:
        what = "Submarine" if o["roll"] == "submarine" else "Torpedo Boat"
        return f"the die for the {what} at {ship_name_of(o['pending_target'])}"
    if phase in ("air-strike", "roll") and o["strikes"]:
        named = [f"{ship_name_of(s['carrier'])} at {ship_name_of(s['target'])}" for s in o["strikes"] if not s["rolled"]]
        return "air strikes: " + ", ".join(named) if named else PHASE_WORDS[phase]
    return PHASE_WORDS.get(phase, str(phase))


def _actor(o: dict[str, Any], seat: int | None) -> str:
    """Whose move it is: the seat to act, else (dealing, drawing, rolling) the seat whose turn it is."""
    current = o["current_player"]
    if current >= 0:
        return "your move" if current == seat else f"P{current}"
    return "your turn" if o["turn"] == seat else f"P{o['turn']}'s turn"


def _winners(o: dict[str, Any], seat: int | None) -> str:
    returns = o["returns"]
    winners = [i for i, r in enumerate(returns) if r > 0]
    names = " and ".join(_seat(i, seat) for i in winners)
    verb = "win" if len(winners) > 1 or seat in winners else "wins"
    best = max(o["scores"][i] for i in winners)
    return f"Game over: {names} {verb} ({best} points)"


def _fleet_points(o: dict[str, Any]) -> list[str]:
    """Each fleet's points, its members' sum (Fleet play, R33)."""
    totals: dict[int, int] = {}
    for team, score in zip(o["teams"], o["scores"], strict=True):
        totals[team] = totals.get(team, 0) + score
    return [f"fleet {'ABCD'[team]} {total}" for team, total in sorted(totals.items())]


def render(observation: dict[str, Any], seat: int | None) -> str:
    """The board as `seat` (None: a spectator) sees it, every line at most 80 columns."""
    o = observation
    usual = _usual_hand(o)
    discard = f"discard {len(o['discard'])}" + (f" (+{o['unseen_discards']} unseen)" if o["unseen_discards"] else "")
    lines = _wrap(f"Round {o['round']} · target {o['target']} · ", [
        f"dealer {_seat(o['dealer'], seat)}", f"pile {o['deck_size']}", f"harbor {o['harbor_size']}", discard,
        f"hands {usual}"])
    for force in o["task_forces"]:
        lines += _force(force, o, seat, usual)
    lines.append(_winners(o, seat) if "returns" in o else f"{_actor(o, seat)}: {_resolving(o, seat)}"[:WIDTH])
    if o["teams"][0] >= 0:
        lines += _wrap("Fleet points: ", _fleet_points(o))
    if "hand" in o:
        lines += _wrap("Your hand: ", [card_name_of(c) for c in o["hand"]] or ["empty"], ", ")
    return "\n".join(lines)


_SHORT_PHASES = {
    "deal-ships": "deal", "deal-cards": "deal", "refill": "refill", "opening": "Opening", "choice": "draw or strike",
    "draw": "draw", "play": "play a card", "red": "red card", "roll": "die", "additional-ship": "Additional Ship",
    "air-strike": "air strikes", "dd-target": "DD attack", "dd-sink": "DD sinks", "give": "give back",
    "end": "over", "aim": "aim",
}
"""Each phase in a word or two, for the prompt line (DD: Destroyer Squadron, as in the notation)."""


def status(observation: dict[str, Any], seat: int | None) -> str:
    """One prompt line of at most 60 characters: the round, whose move and the phase, the points."""
    o = observation
    if "returns" in o:
        head = _winners(o, seat)
    else:
        head = f"R{o['round']} {_actor(o, seat)}: {_SHORT_PHASES.get(o['phase'], o['phase'])}"
    scores = o["scores"]
    full = f"{head} · " + " ".join(f"{_seat(i, seat)} {s}" for i, s in enumerate(scores))
    if len(full) <= STATUS_WIDTH:
        return full
    lead = max(range(len(scores)), key=scores.__getitem__)
    short = f"{head} · lead {_seat(lead, seat)} {scores[lead]}"
    if seat is not None and lead != seat:
        short += f", you {scores[seat]}"
    return short if len(short) <= STATUS_WIDTH else short[: STATUS_WIDTH - 1] + "…"
