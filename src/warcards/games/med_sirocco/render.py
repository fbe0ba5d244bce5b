"""A plain-text table of one seat's Med Sirocco view, for `warcards play`."""

from __future__ import annotations

from functools import cache
from typing import Any

from warcards.games.med_sirocco.cards import Deck, load_deck


@cache
def _deck() -> Deck:
    return load_deck(None)


def _card(cid: str | None) -> str:
    if cid is None:
        return "(face down)"
    d = _deck()
    c = d.index.get(cid)
    if c is None:
        return cid
    name = d.names[c]
    kind = d.kind[c]
    if kind == 0:
        vals = "/".join(_v(d.fixed[c][i], d.dice[c][i]) for i in range(3))
        years = ",".join(f"'{40 + i}" for i in range(4) if d.years[c] >> i & 1)
        victim = f" -> {d.ids[d.victim[c]]}" if d.victim[c] >= 0 else ""
        return f"{cid} {name} ({vals} {years} {d.vp[c]}VP{victim})"
    if kind == 1:
        vals = "/".join(str(d.fixed[c][i]) for i in range(3))
        return f"{cid} {name} (bonus +{vals})"
    if kind == 5:
        return f"{cid} {name} ('{d.op_year[c] - 1900} {'battle' if d.op_battle[c] else 'convoy'} {d.vp[c]}VP)"
    return f"{cid} {name}"


def _v(fixed: int, dice: int) -> str:
    return "?" * dice if dice else str(fixed)


def render(observation: dict[str, Any], seat: int) -> str:
    """The seat's view as text: the Operation, the cards in play, scores and the seat's hand."""
    o = observation
    n = o["players"]
    lines = [
        f"Operation {o['operations_done'] + 1}/{o['operations_total']}: {_card(o['operation'])}"
        if o["operation"] else f"Operation {o['operations_done'] + 1}/{o['operations_total']} (not yet turned over)",
        f"  {o['kind'] or ''} {o['engagement_type'] or ''}  round {o['round']}/{o['rounds']}  "
        f"first player: {o['first_player']}  phase: {o['phase']}",
    ]
    if o["restriction"]:
        lines.append(f"  only {o['restriction']} cards may be played (Raid on La Spezia / Romanian Fuel)")
    if o["bomb_alley_on"]:
        lines.append(f"  Bomb alley on {o['bomb_alley_on']}")
    if o["sirocco_holder"] is not None:
        lines.append(f"  the Sirocco is held by player {o['sirocco_holder']}")
    if o.get("log"):
        lines.append("Events: " + "; ".join(o["log"][-12:]))
    lines.append("In play:")
    for p in range(n):
        mine = [pl for pl in o["plays"] if pl["seat"] == p]
        side = o["sides"][p] or "-"
        flag = " (cancelled)" if o["cancelled"][p] else ""
        cards = "; ".join(_card(pl["card"]) + (f" on {pl['on']}" if pl["on"] else "") for pl in mine)
        lines.append(f"  player {p} ({side}){flag}: {cards}")
    if o["under_operation"]:
        lines.append("  under the Operation: " + ", ".join(o["under_operation"]))
    if o["share_pool"]:
        lines.append("  prize cards to share (5.0), the next one first: " + ", ".join(o["share_pool"]))
    lines.append("Scores:")
    for p in range(n):
        me = " (you)" if p == seat else ""
        lines.append(f"  player {p}{me}: Operations {', '.join(o['won'][p]) or '-'} ({o['won_vp'][p]} VP), "
                     f"{o['captured_counts'][p]} cards sunk, hand {o['hand_sizes'][p]}/{o['hand_limits'][p]}")
    lines.append(f"Your hand ({o['my_vp']} VP so far):")
    for cid in o["hand"]:
        lines.append(f"  {_card(cid)}")
    if "final_vp" in o:
        lines.append("Final VP: " + ", ".join(f"player {p}: {v}" for p, v in enumerate(o["final_vp"])))
    return "\n".join(lines)
