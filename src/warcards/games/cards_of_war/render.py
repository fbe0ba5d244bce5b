"""A plain-text table of a seat's observation for `warcards play`."""

from __future__ import annotations

from typing import Any

from warcards.games.cards_of_war.cards import THEATRES, CardTable, table_by_digest

THEATRE_SHORT = {"air": "Air", "sea": "Sea", "ground": "Ground", "intel": "Intel"}
LEGEND = ("card: name [Theatre] types+score, xL kills type L, * REINFORCE, @ RECON — "
          "e.g. Pillbox [Ground] F2 xI")


def describe(table: CardTable, ident: str) -> str:
    """One card as `G01 Pillbox [Ground] F2 xI`."""
    kind = table.ids.index(ident.split("/")[0])
    text = f"{ident} {table.names[kind]} [{THEATRE_SHORT[THEATRES[table.theatre[kind]]]}] "
    text += f"{table.type_letters(table.typemask[kind])}{table.score[kind]}"
    if table.killmask[kind]:
        text += f" x{table.type_letters(table.killmask[kind])}"
    if table.reinforce[kind]:
        text += " *"
    if table.recon[kind]:
        text += " @"
    return text


def render(observation: dict[str, Any], seat: int) -> str:
    """The battles (both piles, totals, theatre, winner), the piles, RECON answers and the seat's hand."""
    obs = observation
    table = table_by_digest(obs["deck_digest"])
    opp = 1 - seat
    lines = [
        f"Cards of War — round {obs['round']}, rounds won: you {obs['rounds_won'][seat]}, "
        f"opponent {obs['rounds_won'][opp]}   (deck: {obs['deck']})",
    ]
    for battle in obs["battles"]:
        theatre = f" [{THEATRE_SHORT[battle['theatre']]}]" if battle["theatre"] else ""
        winner = battle["winner"]
        state = "" if winner is None else " — void" if winner == "void" else (
            " — WON by you (face down)" if winner == seat else " — won by opponent")
        lines.append(f"{battle['name'].upper()}{theatre}{state}")
        for who, index in (("  opponent", opp), ("  you     ", seat)):
            pile = battle["piles"][index]
            shown = ", ".join(table.names[table.ids.index(c.split("/")[0])] for c in pile[:-1])
            top = describe(table, pile[-1]) if pile else "-"
            under = f"   (under: {shown})" if shown else ""
            lines.append(f"{who} {battle['totals'][index]:>2}/15  top: {top}{under}")
    draw = "/".join(str(x) for x in obs["draw_pile"])
    tops = ["-" if not pile else describe(table, pile[-1]) for pile in obs["discard"]]
    lines.append(f"draw pile: {draw}   discard top: {'; '.join(tops)}   opponent hand: {obs['hand_counts'][opp]}")
    for answer in obs["recon"][-3:]:
        who = "you" if answer["of"] == seat else "opponent"
        counts = ", ".join(f"{v} {THEATRE_SHORT[k]}" for k, v in answer["counts"].items())
        lines.append(f"RECON (round {answer['round']}): {who} held {counts}")
    if obs["pending_reinforce"] or obs["reinforce_card"]:
        drawn = f" (drew {describe(table, obs['reinforce_card'])})" if obs["reinforce_card"] else ""
        lines.append(f"REINFORCE: deploy again{drawn}")
    if obs["joint_first"]:
        lines.append(f"Joint deployment: now deploy the partner of {obs['joint_first']}")
    lines.append(f"your hand ({len(obs['hand'])}/{obs['hand_limits'][seat]}):")
    lines.extend(f"  {describe(table, card)}" for card in obs["hand"])
    lines.append(LEGEND)
    if obs["winner"] is not None:
        lines.append("GAME OVER: " + ("you win" if obs["winner"] == seat else "the opponent wins"))
    return "\n".join(lines)
