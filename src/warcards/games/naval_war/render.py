"""A plain-text table of a Naval War observation for `warcards play`."""

from __future__ import annotations

from typing import Any


def render(observation: dict[str, Any], seat: int) -> str:
    """Scores, piles, every task force (ships with damage/Hit Number and the salvos under them, minefields,
    Smoke, Destroyer Squadrons, Deep Six), what is being resolved, and the seat's hand."""
    o = observation
    lines = [
        f"Naval War — round {o['round']} (target {o['target']}), dealer {o['dealer']}, turn of player "
        f"{o['turn']}, phase {o['phase']}",
        "scores: " + "  ".join(f"P{i}={s}" for i, s in enumerate(o["scores"]))
        + (f"   (last round {o['last_round']})" if o["round"] > 1 else ""),
        f"draw pile {o['deck_size']}  harbor {o['harbor_size']}  discard {len(o['discard'])}"
        f"  unseen discards {o['unseen_discards']}",
    ]
    for force in o["task_forces"]:
        i = force["seat"]
        mark = "you" if i == seat else f"{force['hand_count']} cards"
        team = o["teams"][i]
        head = f"P{i}{' fleet ' + 'ABCD'[team] if team >= 0 else ''} ({mark})"
        if not force["alive"]:
            head += " — eliminated"
        extras = []
        if force["mines"]:
            extras.append(f"mines {force['mine_hits']} (last by P{force['last_minefield']})")
        if force["smoke"]:
            extras.append("SMOKE")
        dd = force["destroyer_squadron"]
        if dd:
            extras.append(f"DD in centre ({dd['hits']}/4 hits)")
        if force["deep_six"]:
            extras.append("deep six: " + ", ".join(force["deep_six"]))
        lines.append(head + ("  " + "; ".join(extras) if extras else ""))
        for slot, ship in enumerate(s for s in force["ships"] if s["id"] is None):
            lines.append(f"    {i}/{slot + 1:<14} face down  damage {ship['damage']}")
        for ship in force["ships"]:
            if ship["id"] is None:
                continue
            salvos = " ".join(
                s["card"] + ("+" + "+".join(s["additional"]) if s["additional"] else "") for s in ship["salvos"]
            )
            rest = f" resting {ship['resting']}" if ship["resting"] else ""
            rest += " (face down)" if ship["face_down"] else ""
            lines.append(
                f"    {ship['id']:<16} {ship['gun']:>7}  damage {ship['damage']}/{ship['hits']}{rest}  {salvos}"
            )
    if o["pending"]:
        lines.append(f"resolving {o['pending']}" + (f" at {o['pending_target']}" if o["pending_target"] else ""))
    if o["strikes"]:
        lines.append("air strikes: " + ", ".join(
            f"{s['carrier']}->{s['target']}{' (kamikaze)' if s['kamikaze'] else ''}" for s in o["strikes"]))
    if o["phase"] in ("dd-target", "dd-sink"):
        lines.append(f"destroyer squadron attack: target P{o['dd_target']}, {o['dd_left']} ship(s) to sink")
    lines.append("your hand: " + (", ".join(o["hand"]) or "(empty)"))
    if "returns" in o:
        lines.append(f"game over: returns {o['returns']}")
    return "\n".join(lines)
