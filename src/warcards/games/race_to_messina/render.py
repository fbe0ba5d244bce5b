"""Plain-text table of a Race to Messina observation for `warcards play`: PT track, table, hand, log."""

from __future__ import annotations

from typing import Any

from warcards.games.race_to_messina.cards import card_table
from warcards.games.race_to_messina.params import VARIANT_TABLE


def _card(card_id: str) -> str:
    table = card_table()
    card = table.by_key[card_id.lower()]
    model = table.models[card]
    traits = "/".join(model.traits)
    text = f" — {model.text}" if model.text and model.text != "-" else ""
    mark = {"american": ", AA", "british": ", AB"}.get(model.restriction, "")
    return f"{card_id} {model.name} ({model.force}F {traits}{mark}){text}"


def render(observation: dict[str, Any], seat: int) -> str:
    """The seat's view as lines of text (no hidden information: it only reads the observation)."""
    obs = observation
    variant = VARIANT_TABLE[obs["variant"]]
    lines: list[str] = []
    lines.append(f"Race to Messina — {variant.name} — turn {obs['turn']} — {obs['phase']} phase "
                 f"— you are {obs['seat_name']}")
    goals = ", ".join(f"{name} {obs['pt'][name]}/{variant.pt_goal[i]}" for i, name in enumerate(variant.seats))
    lines.append(f"PT track: {goals}")
    lines.append("Decks: " + ", ".join(f"{zone} {n}" for zone, n in obs["decks"].items())
                 + " | hands: " + ", ".join(f"{name} {n}" for name, n in obs["hand_sizes"].items()))
    lines.append("")
    for zone, cards in obs["table"].items():
        totals = obs["totals"][zone]
        total_text = ", ".join(f"{side} {value}" for side, value in totals.items())
        faces = obs["groups"][zone]["faces"]
        marker = "  <- to act" if obs.get("slot") == zone else ""
        passed = "  (passed)" if zone in obs.get("passed", []) else ""
        lines.append(f"{zone} ({total_text}) faces {faces}{marker}{passed}")
        for entry in cards:
            used = " *activated*" if entry["activated"] else ""
            lines.append(f"    {_card(entry['id'])}{used}")
    if obs["progress"]:
        lines.append("Progress activated: " + ", ".join(f"{z} {n}" for z, n in obs["progress"].items()))
    lines.append("")
    lines.append(f"Your hand ({len(obs['hand'])}):")
    for card_id in obs["hand"]:
        lines.append(f"    {_card(card_id)}")
    for zone, cards in obs["deploying"].items():
        if cards:
            lines.append(f"Deploying ({zone}, hidden until all are done): " + ", ".join(cards))
    if obs["supply"] and obs["supply"]["card"]:
        lines.append(f"Supply drew: {_card(obs['supply']['card'])} — 'keep' or 'reveal'")
    for name, cards in obs["known_hands"].items():
        if cards:
            lines.append(f"Known in the {name} hand (Recon): " + ", ".join(cards))
    if obs["log"]:
        lines.append("")
        lines.append("Log (this turn):")
        lines.extend(f"  {line}" for line in obs["log"][-10:])
    if obs["winner"]:
        lines.append("")
        lines.append("Game over: " + ("a draw" if obs["winner"] == "draw" else f"{obs['winner']} win"))
    return "\n".join(lines)
