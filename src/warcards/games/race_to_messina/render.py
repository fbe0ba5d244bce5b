"""The Race to Messina board for `warcards play`, and its one-line status for the prompt.

The board fits an 80x24 terminal beside the prompt and a short move list: every line at most 80 columns, 14
lines or fewer in Invasion and Race and in most Sicily positions (Sicily's four full tables in the Action
phase, with a hand and Progress marks, can reach 17). It reads only an observation (or the public view), names tables as players do ("Axis set
against the British") and writes each card as its id, name and force ("A18 Engineers 3F"); the game log
(the terminal's, from `State.log_lines`) tells what happened. A game with a card file of its own (the `cards`
option) names its cards in every view by `deck_digest`, and the board reads names and forces from that table.
"""

from __future__ import annotations

import textwrap
from typing import Any

from warcards.games.race_to_messina.cards import CardTable, table_by_digest
from warcards.games.race_to_messina.log import PHASE_WORDS, end_reason, seat_title, zone_name
from warcards.games.race_to_messina.params import Variant, variant_with

WIDTH = 80
"""The terminal's width: no board line is longer."""

HEIGHT = 14
"""The board's height in the common positions; the deck and discard sizes are shown only within it."""

STATUS_WIDTH = 60
"""The prompt's status line: at most this many characters."""


def _card(table: CardTable, card_id: str, activated: bool = False) -> str:
    """`A18 Engineers 3F`, with `*` once activated this Action phase."""
    card = table.by_key[card_id.lower()]
    return f"{card_id} {table.names[card]} {table.force[card]}F" + ("*" if activated else "")


def _pack(head: str, items: list[str], sep: str = ",", indent: int = 2) -> list[str]:
    """`head` then `items` separated by `sep`, wrapped at `WIDTH`; continuation lines are indented."""
    pieces = [item + sep for item in items[:-1]] + items[-1:]
    lines: list[str] = []
    line = head
    fresh = True
    for piece in pieces:
        if line.strip() and len(line) + (0 if fresh else 1) + len(piece) > WIDTH:
            lines.append(line.rstrip())
            line = " " * indent + piece
        else:
            line = line + piece if fresh else f"{line} {piece}"
        fresh = False
    lines.append(line)
    return lines


def _counts(word: str, sizes: dict[str, Any]) -> str:
    """`decks Allies 20, Axis 18`; the Race's one deck: `deck 40`."""
    parts = [(zone.split(":", 1)[1], n if isinstance(n, int) else len(n)) for zone, n in sizes.items() if ":" in zone]
    if not parts:
        return f"{word} " + ", ".join(str(n if isinstance(n, int) else len(n)) for n in sizes.values())
    return f"{word}s " + ", ".join(f"{seat_title(name)} {n}" for name, n in parts)


def _totals(variant: Variant, obs: dict[str, Any], zone: str) -> str:
    totals = obs["totals"][zone]
    if variant.name == "race":
        return f"attack {totals['ally']}F, defence {totals['axis']}F"
    return f"{totals['total']}F"


def _marks(obs: dict[str, Any], zone: str) -> str:
    marks = []
    if obs.get("slot") == zone:
        marks.append("to act")
    if zone in obs.get("passed", []):
        marks.append("passed")
    if obs.get("progress", {}).get(zone):
        marks.append(f"Progress {obs['progress'][zone]}")
    return f" [{', '.join(marks)}]" if marks else ""


def _tables(variant: Variant, table: CardTable, obs: dict[str, Any]) -> list[str]:
    """Each battle's totals, then each table's cards (Race: each table holds both an attack and a defence)."""
    lines: list[str] = []
    for zone in variant.group_zone:
        name = zone_name(variant, zone)
        cards = [_card(table, entry["id"], entry["activated"]) for entry in obs["table"][zone]]
        lines += _pack(f"{name} {_totals(variant, obs, zone)}{_marks(obs, zone)}: ", cards or ["no card"])
    return lines


def _deploying(variant: Variant, table: CardTable, obs: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for zone, cards in obs.get("deploying", {}).items():
        if not cards:
            continue
        where = ""
        if len(obs["deploying"]) > 1:
            where = " to the " + zone_name(variant, zone.replace("deploying:", "table:"))
        lines += _pack(f"Deploying face down{where}: ", [_card(table, c) for c in cards])
    return lines


def _header(variant: Variant, obs: dict[str, Any]) -> list[str]:
    who = obs["current_player"]
    phase = PHASE_WORDS[obs["phase"]]
    turn = f"turn {obs['turn']}, {phase}"
    if who in variant.seats:
        turn += " · " + ("you to act" if obs.get("seat_name") == who else f"{seat_title(who)} to act")
    elif who == "chance":
        turn += " · drawing"
    you = f"you: {seat_title(obs['seat_name'])}" if "seat_name" in obs else "spectator"
    first = f"Race to Messina, {variant.name.capitalize()} · {turn} · {you}"
    seats = " · ".join(f"{seat_title(name)} {obs['pt'][name]}/{variant.pt_goal[i]} PT, hand {obs['hand_sizes'][name]}"
                       for i, name in enumerate(variant.seats))
    return [first, seats]



def render(observation: dict[str, Any], seat: int) -> str:
    """The seat's board (or a spectator's, from `public_view`): turn and phase, PT and hand sizes, the
    tables with their totals, the hand (the Supply card marked), the hidden deployment and Recon
    knowledge; the deck and discard sizes when the board has room. It only reads the observation, so it shows nothing the
    seat may not know."""
    obs = observation
    variant = variant_with(obs["variant"], obs.get("params"))
    table = table_by_digest(obs.get("deck_digest"))
    lines = _header(variant, obs)
    if obs["phase"] == "action" or any(obs["table"].values()):
        lines += _tables(variant, table, obs)
    lines += _deploying(variant, table, obs)
    if obs.get("hand") or ("hand" in obs and obs["phase"] != "action"):
        supply = (obs.get("supply") or {}).get("card")
        hand = [_card(table, c) + (" (Supply: 'keep' or 'reveal')" if c == supply else "") for c in obs["hand"]]
        lines += _pack(f"Your hand ({len(obs['hand'])}): ", hand or ["empty"])
    for name, cards in obs.get("known_hands", {}).items():
        lines += _pack(f"Recon, {seat_title(name)} hand: ", [_card(table, c) for c in cards])
    if obs["winner"]:
        lines += textwrap.wrap("Game over: " + _end_text(variant, obs), WIDTH, subsequent_indent="  ")
    if len(lines) < HEIGHT:
        lines.insert(2, f"{_counts('deck', obs['decks'])} · {_counts('discard', obs['discards'])}")
    return "\n".join(lines)


def _end_text(variant: Variant, obs: dict[str, Any]) -> str:
    winner = obs["winner"]
    pt = [obs["pt"][name] for name in variant.seats]
    head = "a draw" if winner == "draw" else f"{seat_title(winner)} win" + ("s" if winner == "axis" else "")
    return f"{head} — {end_reason(variant, pt, winner)}"


def status(observation: dict[str, Any], seat: int) -> str:
    """One prompt line of at most 60 characters: turn, phase, who is to act and the PT."""
    obs = observation
    variant = variant_with(obs["variant"], obs.get("params"))
    who = obs["current_player"]
    if obs["winner"]:
        outcome = "draw" if obs["winner"] == "draw" else f"{seat_title(obs['winner'])} won"
        head = f"T{obs['turn']} over, {outcome}"
    else:
        actor = "you" if obs.get("seat_name") == who else "drawing" if who == "chance" else seat_title(who)
        head = f"T{obs['turn']} {PHASE_WORDS[obs['phase']]}: {actor}"
    for short in (False, True):
        scores = " ".join(f"{seat_title(name)[:2] if short else seat_title(name)} {obs['pt'][name]}/{variant.pt_goal[i]}"
                          for i, name in enumerate(variant.seats))
        text = f"{head} | PT {scores}"
        if len(text) <= STATUS_WIDTH:
            return text
    return text[:STATUS_WIDTH]


__all__ = ["render", "status"]
