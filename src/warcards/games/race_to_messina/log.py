"""Race to Messina as a player reads it: names, the game log per seat, move labels, the result, the public view.

The engine's zone ids (`table:axis:british`) stay in the notation and the observation; everything a person
reads (the board, the game log, move labels, the end screen) names them as the rule text does: "Axis set
against the British". `render.py` reads only an observation and uses the names defined here.

`log_lines(before, action, after, seat)` tells one step as `seat` (None: a spectator) saw it. What each seat
may read follows `views.py`: a draw names its card to the drawer only; a Deployment choice is hidden from
the others, card and count alike, until every seat is done (R31), so another seat reads only that the
deployer is done; the hand seen by Recon and the card kept from Supply are the actor's alone (R33);
discards, activations, reveals and Resolution are public (R42).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, GameResult, LogLine, SeenAction
from warcards.games.race_to_messina import rules
from warcards.games.race_to_messina.cards import (
    ALLY,
    AXIS,
    DISCARD,
    GAIN_PT,
    PROGRESS,
    RECON,
    SUPPLY,
    CardTable,
    force_total,
    mask_names,
)
from warcards.games.race_to_messina.codes import (
    DRAW,
    EV_ACTIVATE,
    EV_DEPLOYED,
    EV_DISCARD,
    EV_HAND,
    EV_KEEP,
    EV_PASS,
    EV_PT,
    EV_RECON,
    EV_REVEAL,
    EV_SUPPLY_EMPTY,
    EV_TARGET,
    NO_SEAT,
    PT_HAND,
    PT_HUBE,
    PT_PROGRESS,
    PT_TURN,
    Phase,
)
from warcards.games.race_to_messina.notation import K_ACTIVATE, K_DEPLOY, K_DEPLOY_SECOND, K_DONE, decode
from warcards.games.race_to_messina.params import RACE_TURN_LIMIT, Variant

if TYPE_CHECKING:
    from warcards.games.race_to_messina.game import RaceToMessinaGame
    from warcards.games.race_to_messina.state import RaceToMessinaState

SEAT_TITLES = {"allies": "Allies", "axis": "Axis", "british": "British", "americans": "Americans"}
"""Each seat id as a player reads it."""

PLURAL = {"allies": True, "axis": False, "british": True, "americans": True}
"""Whether a seat's name takes a plural verb ("the Allies draw", "the Axis draws")."""

PHASE_WORDS = {
    "logistics": "Logistics",
    "strategy": "Strategy",
    "deployment": "Deployment",
    "action": "Action",
    "recovery": "Recovery",
    "over": "game over",
}
"""Each phase name of the observation as a player reads it (the rule text's six phases; Resolution is a step
between Action and Recovery)."""

_IRREGULAR = {"is": "are", "has": "have"}


def seat_title(name: str) -> str:
    """`axis` -> `Axis`."""
    return SEAT_TITLES.get(name, name.capitalize())


def verb(name: str | None, base: str) -> str:
    """The verb agreeing with seat `name` (None: "you"): `verb("axis", "draw")` is `draws`."""
    if name is None or PLURAL.get(name, False):
        return _IRREGULAR.get(base, base)
    if base in _IRREGULAR:
        return base
    if base.endswith(("s", "sh", "ch", "x")):
        return base + "es"
    return base + "s"


def group_name(variant: Variant, group: int) -> str:
    """A table as players call it: the owner's name, or in Sicily "Axis set against the British"."""
    owner = variant.seats[variant.group_owner[group]]
    if len(variant.seat_groups[variant.group_owner[group]]) < 2:
        return seat_title(owner)
    facing = variant.seats[variant.group_owner[variant.group_opponent[group]]]
    return f"{seat_title(owner)} set against the {seat_title(facing)}"


def zone_name(variant: Variant, zone: str) -> str:
    """A table zone id (`table:axis:british`) by its name (`Axis set against the British`)."""
    return group_name(variant, variant.group_zone.index(zone))


def deck_name(variant: Variant, family: int) -> str:
    """`the Allies deck`, or `the deck` in the Race (one mixed deck)."""
    suffix = variant.family_zone[family]
    return f"the {seat_title(suffix)} deck" if suffix else "the deck"


def ability_text(table: CardTable, card: int) -> str:
    """A card's ability or modifier in a few words ("DT Defense", "Supply", "+2F Defense/Terrain"), or ''."""
    ability = table.ability[card]
    if ability == DISCARD:
        return "DT " + "/".join(mask_names(table.targets[card]))
    if ability in (SUPPLY, RECON, PROGRESS):
        return {SUPPLY: "Supply", RECON: "Recon", PROGRESS: "Progress"}[ability]
    if ability == GAIN_PT:
        return "gain 1 PT"
    if table.mod_bonus[card]:
        return f"+{table.mod_bonus[card]}F to " + "/".join(mask_names(table.mod_mask[card]))
    return ""


def card_facts(table: CardTable, card: int) -> str:
    """`3F Infantry, DT Defense` — force, traits, AA/AB and ability, as a move label adds them."""
    parts = [f"{table.force[card]}F " + "/".join(table.trait_names(card))]
    restriction = table.models[card].restriction
    if restriction:
        parts.append({"american": "AA", "british": "AB"}[restriction])
    ability = ability_text(table, card)
    if ability:
        parts.append(ability)
    immune = mask_names(table.immune[card])
    if immune:
        parts.append("immune to " + "/".join(immune))
    return ", ".join(parts)


def deck_facts(game: RaceToMessinaGame) -> dict[str, dict[str, object]]:
    """Every card's facts for a client (`GameSpec.card_facts`): name, faction, Force, traits, the AA/AB mark,
    the ability or modifier in words, immunities and the printed notes; `text` is `card_facts`' line."""
    table = game.table
    facts: dict[str, dict[str, object]] = {}
    for card, card_id in enumerate(table.ids):
        model = table.models[card]
        facts[card_id] = {
            "name": table.names[card],
            "text": card_facts(table, card),
            "faction": "axis" if table.faction[card] == AXIS else "allies",
            "force": table.force[card],
            "traits": table.trait_names(card),
            "restriction": {"american": "AA", "british": "AB"}.get(model.restriction, ""),
            "ability": ability_text(table, card),
            "immune_to": mask_names(table.immune[card]),
            "italian": model.italian,
            "printed": model.text,
        }
    return facts


def name_list(table: CardTable, cards: list[int] | tuple[int, ...]) -> str:
    """Card names joined for a log line, or `no card`."""
    return ", ".join(table.names[c] for c in cards) if cards else "no card"


def count(n: int, noun: str) -> str:
    """`1 card`, `3 cards`."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def end_reason(variant: Variant, pt: list[int], winner: str) -> str:
    """Why the game ended as it did, citing the rule text or the ruling: `pt` per seat at the end, `winner`
    a seat id or `draw` (R3, R4, R7, R37)."""
    seats = variant.seats
    goals = variant.pt_goal
    reached = [seat for seat in range(len(seats)) if pt[seat] >= goals[seat]]
    title = [seat_title(name) for name in seats]
    if variant.name == "invasion":
        if pt[0] >= goals[0]:
            if winner == seats[0]:
                return f"Allies reach {goals[0]} PT with the Axis at 15 or less: Messina is taken (R3, R4)"
            return f"Allies reach {goals[0]} PT while the Axis holds 16 or more (R4)"
        return f"Axis reaches {goals[1]} PT: evacuation complete (R3)"
    if variant.name == "race":
        if not reached:
            if winner == "draw":
                return f"turn {RACE_TURN_LIMIT} ends with equal PT and no one at 10: a draw (R37)"
            return f"turn {RACE_TURN_LIMIT} ends with no one at 10 PT: more PT wins (R37)"
        if len(reached) == 1:
            return f"{title[reached[0]]} reach {goals[reached[0]]} PT first and take Messina (R3)"
        if winner == "draw":
            return "both reach 10 PT in the same turn with equal PT: a draw (R7)"
        return "both reach 10 PT in the same turn: more PT wins (R7)"
    axis = variant.axis_seat
    if len(reached) == 1:
        if reached[0] == axis:
            return f"Axis reaches {goals[axis]} PT: evacuation complete (R3)"
        who = title[reached[0]]
        return f"{who} reach {goals[reached[0]]} PT: " + (
            "Monty gets there first (R3)" if seats[reached[0]] == "british" else "Patton gets there first (R3)")
    if axis not in reached:
        return f"both Allies at {goals[0]} PT in the same turn: ties go to the Axis (R4)"
    arrived = " and ".join(title[seat] for seat in reached if seat != axis)
    return f"{arrived} at 10 PT as the Axis reaches {goals[axis]}: ties go to the Axis (R4)"


PT_WORDS = {PT_HAND: "for winning the hand", PT_PROGRESS: "from Progress", PT_HUBE: "from Hube",
            PT_TURN: "at the end of the turn"}
"""Why PT were gained (`codes.PT_*`), as a log line says it."""

ABILITY_WORDS = {SUPPLY: "Supply: draw a card", RECON: "Recon", PROGRESS: "Progress: +1 PT if this hand is won",
                 GAIN_PT: "gain 1 PT"}
"""What activating a card without a target does, as a log line or a move label says it."""


def _who(state: RaceToMessinaState, actor: int, seat: int | None, base: str) -> str:
    """`you draw` for the viewer's own seat, `Axis draws` for another."""
    if actor == seat:
        return f"you {verb(None, base)}"
    name = state.variant.seats[actor]
    return f"{seat_title(name)} {verb(name, base)}"


def _side_total(state: RaceToMessinaState, group: int, faction: int) -> int:
    """A table's total as Resolution counts it: the Race counts one faction's side of a table."""
    if state.variant.name == "race":
        return rules.side_total(state, group, faction)
    return force_total(state.table, state.on_table[group])


def _total_text(state: RaceToMessinaState, group: int) -> str:
    """`41F`, or in the Race `attack 30F, defence 12F`."""
    if state.variant.name == "race":
        return f"attack {_side_total(state, group, ALLY)}F, defence {_side_total(state, group, AXIS)}F"
    return f"{_side_total(state, group, ALLY)}F"


def _side_name(state: RaceToMessinaState, group: int, faction: int) -> str:
    """`Allies`, `Axis set against the British`, or in the Race `Americans defence`."""
    name = group_name(state.variant, group)
    if state.variant.name == "race":
        return f"{name} {_SIDE[faction]}"
    return name


_SIDE = {ALLY: "attack", AXIS: "defence"}
"""The Race's two sides of a table: its Ally cards attack, its Axis cards defend."""


# ----- the game log ---------------------------------------------------------------------------------------------
def log_lines(
    state: RaceToMessinaState, action: int, after: RaceToMessinaState, seat: int | None, seen: SeenAction
) -> list[LogLine]:
    """The lines `seat` (None: a spectator) reads for `action` taken at `state`, leading to `after` (module
    docstring): the move, what it set off, a reshuffled deck, the turn's end and the game's end. `seen` is what
    the seat sees of the action (`views.hidden_action_text`, decided once by the engine): a hidden draw or
    Deployment choice is worded from it."""
    actor = state.current_player()
    hidden = seen.action is None
    lines = [_draw_line(state, action, seat, hidden)] if actor == CHANCE else _move_lines(state, action, seat, actor, hidden)
    lines += _event_lines(state, after, seat)
    if after.turn != state.turn or (after.phase == Phase.OVER and state.phase == Phase.RECOVERY):
        lines.append(LogLine(f"end of turn {state.turn}: " + _pt_text(after), "summary", None))
    if after.turn != state.turn:
        lines.append(LogLine(f"turn {after.turn} begins: Logistics fills the hands", "summary", None))
    lines += _reshuffle_lines(state, after)
    if after.phase == Phase.OVER:
        ending = result(after)
        winners = " and ".join(seat_title(state.variant.seats[s]) for s in ending.winners)
        outcome = "a draw" if after.winner == DRAW else f"{winners} {verb(state.variant.seats[ending.winners[0]], 'win')}"
        lines.append(LogLine(f"game over: {outcome} — {ending.reason}", "summary", None))
    return lines


def _pt_text(state: RaceToMessinaState) -> str:
    """`Allies 2/10 PT, Axis 5/20 PT`."""
    v = state.variant
    return ", ".join(f"{seat_title(name)} {state.progress_tokens[i]}/{v.pt_goal[i]} PT" for i, name in enumerate(v.seats))


def _draw_line(state: RaceToMessinaState, card: int, seat: int | None, hidden: bool) -> LogLine:
    """A draw: the drawer reads the card's name, every other seat (`hidden`) that a card was drawn."""
    drawer = rules.drawing_seat(state)
    where = " (Supply)" if state.phase == Phase.ACTION else " (replacement)" if state.phase == Phase.STRATEGY else ""
    what = "a card" if hidden else state.table.names[card]
    return LogLine(f"{_who(state, drawer, seat, 'draw')} {what}{where}", "chance", CHANCE)


def _move_lines(state: RaceToMessinaState, action: int, seat: int | None, actor: int, hidden: bool) -> list[LogLine]:
    """The lines of a Deployment choice or a `done` (moves that leave no event in the state's log); the
    other moves are told from their events (`_event_lines`). Another seat's Deployment choice is hidden
    (R31): not a line."""
    v = state.variant
    t = state.table
    kind, card, _ = decode(t, action)
    if kind in (K_DEPLOY, K_DEPLOY_SECOND):
        if hidden:
            return []
        where = ""
        if len(v.seat_groups[actor]) > 1:
            group = v.seat_groups[actor][kind - K_DEPLOY]
            where = f" to the {group_name(v, group)}"
        return [LogLine(f"you deploy {t.names[card]} face down{where}", "move", actor)]
    if kind != K_DONE:
        return []
    if state.phase == Phase.STRATEGY:
        n = state.discarded
        if n:
            text = f"{_who(state, actor, seat, 'is')} done discarding: {count(n, 'replacement')} to draw"
        else:
            text = f"{_who(state, actor, seat, 'discard')} nothing"
    elif state.phase == Phase.DEPLOYMENT:
        if seat != actor:
            text = f"{_who(state, actor, seat, 'has')} deployed face down (hidden until all are done, R31)"
        else:
            groups = v.seat_groups[actor]
            if len(groups) == 1:
                chosen = name_list(t, sorted(state.deploying[groups[0]]))
            else:
                chosen = "; ".join(f"against the {seat_title(v.seats[v.group_owner[v.group_opponent[g]]])}: "
                                   f"{name_list(t, sorted(state.deploying[g]))}" for g in groups)
            text = f"you are done deploying ({chosen})"
    else:
        kept = state.hands[actor]
        shown = name_list(t, kept) if seat == actor or not kept else count(len(kept), "card")
        text = f"{_who(state, actor, seat, 'keep')} {shown}"
    return [LogLine(text, "move", actor)]


def _new_events(state: RaceToMessinaState, after: RaceToMessinaState) -> list[tuple[int, ...]]:
    """The events this step added to the turn's log; a step that began a new turn lost its end-of-turn PT
    from the log (`rules.start_turn` clears it), so that event is rebuilt from the PT."""
    if after.turn == state.turn:
        return after.log[len(state.log):]
    axis = state.variant.axis_seat
    if axis == NO_SEAT:
        return []
    return [(EV_PT, axis, after.progress_tokens[axis] - state.progress_tokens[axis], PT_TURN)]


def _event_lines(state: RaceToMessinaState, after: RaceToMessinaState, seat: int | None) -> list[LogLine]:
    """The events the step added to the turn's log (`codes.EV_*`), each as `seat` may read it."""
    v = state.variant
    t = state.table
    pt = state.progress_tokens[:]
    lines: list[LogLine] = []
    for event in _new_events(state, after):
        kind = event[0]
        if kind == EV_DISCARD:
            lines.append(LogLine(f"{_who(state, event[1], seat, 'discard')} {t.names[event[2]]}", "move", event[1]))
        elif kind == EV_ACTIVATE:
            card = event[2]
            lines.append(LogLine(f"{_who(state, event[1], seat, 'activate')} {t.names[card]} "
                                 f"({_ability_words(state, card)})", "move", event[1]))
        elif kind == EV_TARGET:
            lines.append(_target_line(state, after, event, seat))
        elif kind == EV_RECON:
            lines.append(_recon_line(state, event, seat))
        elif kind == EV_KEEP:
            shown = t.names[event[2]] if seat == event[1] else "the drawn card"
            lines.append(LogLine(f"{_who(state, event[1], seat, 'keep')} {shown} in hand", "move", event[1]))
        elif kind == EV_REVEAL:
            group = state.supply_group
            lines.append(LogLine(f"{_who(state, event[1], seat, 'reveal')} {t.names[event[2]]} from Supply: "
                                 f"{group_name(v, group)} {_total_text(after, group)}", "move", event[1]))
        elif kind == EV_SUPPLY_EMPTY:
            lines.append(LogLine(f"Supply finds no card: {deck_name(v, v.seat_family[event[1]])} and its discard "
                                 "pile are empty (R36)", "summary", None))
        elif kind == EV_PASS:
            against = ""
            if len(v.seat_groups[event[1]]) > 1:
                facing = seat_title(v.seats[v.group_owner[v.group_opponent[event[2]]]])
                against = f" with {'your' if seat == event[1] else 'its'} set against the {facing}"
            lines.append(LogLine(f"{_who(state, event[1], seat, 'pass')}{against} (final for this Action phase)",
                                 "move", event[1]))
        elif kind == EV_DEPLOYED:
            group = event[1]
            cards = after.on_table[group]
            lines.append(LogLine(f"revealed, {group_name(v, group)}: {count(len(cards), 'card')}, "
                                 f"{_total_text(after, group)} — {name_list(t, cards)}", "summary", None))
        elif kind == EV_HAND:
            lines.append(LogLine(_hand_text(state, event), "summary", None))
        elif kind == EV_PT and event[2]:
            pt[event[1]] += event[2]
            name = v.seats[event[1]]
            lines.append(LogLine(f"{seat_title(name)} {verb(name, 'gain')} {event[2]} PT {PT_WORDS[event[3]]}: "
                                 f"{pt[event[1]]}/{v.pt_goal[event[1]]} PT", "summary", None))
    return lines


def _target_line(state: RaceToMessinaState, after: RaceToMessinaState, event: tuple[int, ...],
                 seat: int | None) -> LogLine:
    """`Axis activates Antitank Guns on your Sherman Tanks: discarded, Allies 41F → 35F`."""
    v = state.variant
    t = state.table
    actor, source, target = event[1], event[2], event[3]
    group = next(g for g, cards in enumerate(state.on_table) if target in cards)
    owner = v.group_owner[group]
    whose = "your " if owner == seat else ""
    faction = t.faction[target]
    side = _side_name(state, group, faction)
    return LogLine(f"{_who(state, actor, seat, 'activate')} {t.names[source]} on {whose}{t.names[target]}: "
                   f"discarded, {side} {_side_total(state, group, faction)}F → {_side_total(after, group, faction)}F",
                   "move", actor)


def _recon_line(state: RaceToMessinaState, event: tuple[int, ...], seat: int | None) -> LogLine:
    """The hand seen by Recon: named to the actor only (R33)."""
    actor, other, mask = event[1], event[2], event[3]
    t = state.table
    if seat == actor:
        seen = [c for c in range(t.size) if mask >> c & 1]
        return LogLine(f"you see the {seat_title(state.variant.seats[other])} hand: {name_list(t, seen)}", "move", actor)
    whose = "your hand" if seat == other else f"the {seat_title(state.variant.seats[other])} hand"
    return LogLine(f"{_who(state, actor, seat, 'look')} at {whose}", "move", actor)


def _hand_text(state: RaceToMessinaState, event: tuple[int, ...]) -> str:
    """A hand's Resolution: `Allies 41F vs Axis 38F: Allies win the hand` (ties to the Axis, R6)."""
    v = state.variant
    attacker, ally, defender, axis, won = event[1:6]
    head = f"Resolution: {_side_name(state, attacker, ALLY)} {ally}F vs {_side_name(state, defender, AXIS)} {axis}F: "
    name = v.seats[v.group_owner[attacker]]
    if won:
        return head + f"{seat_title(name)} {verb(name, 'win')} the hand"
    if v.name == "race":
        return head + "no one wins it (the attack must be greater, R6)"
    tie = " (a tie goes to the Axis, R6)" if ally == axis else ""
    return head + f"the Axis holds{tie}"


def _reshuffle_lines(state: RaceToMessinaState, after: RaceToMessinaState) -> list[LogLine]:
    """"If a deck ever runs out, shuffle the discard and draw from it" (R27): a pile that emptied became a deck."""
    lines: list[LogLine] = []
    for family in range(len(state.decks)):
        if state.discards[family] and not after.discards[family] and after.decks[family]:
            lines.append(LogLine(f"{deck_name(state.variant, family)} ran out: its discard pile is shuffled into a "
                                 f"new deck of {count(len(after.decks[family]), 'card')} (R27)", "summary", None))
    return lines


# ----- the result -----------------------------------------------------------------------------------------------
def result(state: RaceToMessinaState) -> GameResult:
    """The winner (both seats of a drawn Race), each seat's PT and the rule that decided it."""
    v = state.variant
    winners = tuple(range(v.num_players)) if state.winner == DRAW else (state.winner,)
    name = "draw" if state.winner == DRAW else v.seats[state.winner]
    return GameResult(
        winners=winners,
        scores=tuple(f"{points} PT" for points in state.progress_tokens),
        reason=end_reason(v, state.progress_tokens, name),
    )


# ----- move labels ----------------------------------------------------------------------------------------------
def action_label(state: RaceToMessinaState, action: int) -> str:
    """The notation (`notation.action_to_string`), then what a player wants to know about the move: the
    card's force, traits and ability; what a target costs its table; what `done`, `keep`, `reveal` and `pass`
    do now."""
    text = state.action_to_string(action)
    if state.to_act == CHANCE:
        return text
    v = state.variant
    t = state.table
    _, card, target = decode(t, action)
    if target >= 0:
        group = v.group_opponent[v.slots[state.active_slot]]
        faction = t.faction[target]
        before = _side_total(state, group, faction)
        rest = [c for c in state.on_table[group] if c != target and (v.name != "race" or t.faction[c] == faction)]
        return f"{text} ({before}F → {force_total(t, rest)}F)"
    kind = decode(t, action)[0]
    if card >= 0 and kind == K_ACTIVATE:
        return f"{text} ({_ability_words(state, card)})"
    if card >= 0 and kind in (K_DEPLOY, K_DEPLOY_SECOND) and state.to_act >= 0:
        groups = v.seat_groups[state.to_act]
        group = groups[1 if kind == K_DEPLOY_SECOND and len(groups) > 1 else 0]
        pending = list(state.deploying[group])
        after = force_total(t, [*pending, card])
        return f"{text} ({card_facts(t, card)}; face down there: {force_total(t, pending)}F → {after}F)"
    if card >= 0:
        return f"{text} ({card_facts(t, card)})"
    return f"{text} ({_single_note(state, action)})"


def _ability_words(state: RaceToMessinaState, card: int) -> str:
    """What activating a card without a target does: `Supply: draw a card`, `Recon: see the Axis hand`."""
    if state.table.ability[card] == RECON:
        v = state.variant
        other = v.group_owner[v.group_opponent[v.slots[state.active_slot]]]
        return f"Recon: see the {seat_title(v.seats[other])} hand"
    return ABILITY_WORDS.get(state.table.ability[card], "no ability")


def _single_note(state: RaceToMessinaState, action: int) -> str:
    layout = state.layout
    if action == layout.keep:
        return "the drawn card goes to your hand"
    if action == layout.reveal:
        return "the drawn card joins your table face up"
    if action == layout.pass_:
        return "final for this Action phase, R1"
    if state.phase == Phase.STRATEGY:
        return f"draw {count(state.discarded, 'replacement')}" if state.discarded else "keep this hand"
    seat = state.to_act
    if state.phase == Phase.DEPLOYMENT:
        chosen = sum(len(state.deploying[g]) for g in state.variant.seat_groups[seat])
        return f"deploy {count(chosen, 'card')}" if chosen else "deploy nothing"
    return f"keep {count(len(state.hands[seat]), 'card')}"
