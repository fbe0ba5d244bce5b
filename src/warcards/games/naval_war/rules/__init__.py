"""Naval War rules: legal actions, chance outcomes, transitions and refusals, one function per rule step.

Section names follow the printed-rules summary (shared reference naval-war.md): Setup, Opening, Turn,
Red cards, Normal cards, Air strikes, Sinking, Round end, Scoring a round, Variations, Fleet play. The
modules follow those sections: `targets` (who may be attacked), `turn` (the Opening, the Turn and the normal
cards), `red` (red cards), `air` (air strikes), `sinking`, `round` (the deal, round end and scoring); this
module holds the entry points the state calls and the transition of each phase. Rulings on the text's gaps
are in RULES.md; the code cites them by id ("R12").
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE
from warcards.games.naval_war.codes import HAND, PHASE_NAMES, PLAY, Phase, Roll
from warcards.games.naval_war.notation import action_text
from warcards.games.naval_war.rules.air import next_strike, strike_actions, strike_choice
from warcards.games.naval_war.rules.red import additional_ship_arrives, after_red, red_drawn, red_play
from warcards.games.naval_war.rules.round import deal_seat, deal_ship, end_round, start_round, take_from_deck
from warcards.games.naval_war.rules.sinking import sink
from warcards.games.naval_war.rules.targets import (
    dd_sinkable,
    dd_targets,
    red_targets,
    ship_at,
    strike_carriers,
    strike_targets,
)
from warcards.games.naval_war.rules.turn import (
    aim,
    aim_actions,
    begin_opening,
    dd_continue,
    dd_sink,
    give,
    give_actions,
    opening_continue,
    play,
    play_actions,
    start_turn,
)

if TYPE_CHECKING:
    from warcards.games.naval_war.state import NavalWarState


def legal_actions(state: NavalWarState) -> list[int]:
    """Sorted legal actions at a decision node (the state's `_legal_actions`)."""
    ph = state.phase
    p = state.to_act
    layout = state.layout
    if ph == Phase.PLAY:
        return play_actions(state, p)
    if ph == Phase.AIM:
        return aim_actions(state, p)
    if ph in (Phase.CHOICE, Phase.STRIKE):
        return strike_actions(state, p)
    if ph == Phase.RED:
        return sorted(red_targets(state, p, state.table.card_kind[state.pending]))
    if ph == Phase.OPEN:
        kinds = sorted({state.table.card_kind[c] for c in state.hands[p] if state.table.kind_red[state.table.card_kind[c]]})
        out: list[int] = []
        for k in kinds:
            out.extend(red_targets(state, p, k))
        return sorted(out)
    if ph == Phase.DD_TARGET:
        return [layout.dd_target + j for j in dd_targets(state, p)]
    if ph == Phase.DD_SINK:
        return sorted(layout.dd_sink + s for s in dd_sinkable(state, state.dd_target))
    if ph == Phase.GIVE:
        return give_actions(state, p)
    return []


def chance_outcomes(state: NavalWarState) -> list[tuple[int, float]]:
    """Chance: a die (1/6 each), a play card by kind (copies/size), or a ship from the harbor (uniform)."""
    ph = state.phase
    if ph == Phase.ROLL:
        return list(state.game.die_outcomes)
    if ph in (Phase.DRAW, Phase.REFILL, Phase.DEAL_CARD):
        inv = 1.0 / state.deck_size
        return [(a, c * inv) for a, c in zip(state.game.draw_outcomes, state.deck_count, strict=True) if c]
    # A ship from the harbor pile (kept in id order).
    harbor = state.harbor
    return list(zip(harbor, repeat(1 / len(harbor))))


def apply(state: NavalWarState, action: int) -> None:
    """Apply a legal action or chance outcome (the state's `_apply`): the phase's handler, then the round
    end if someone's elimination left one side afloat."""
    state._outcomes = None
    _HANDLERS[state.phase](state, action)
    if state.round_over and state.phase != Phase.END:
        end_round(state)


def _on_roll(state: NavalWarState, a: int) -> None:
    """A die face (chance block `die`: face - 1)."""
    _roll(state, a - state.game.chance_layout.die + 1)


def _on_draw(state: NavalWarState, a: int) -> None:
    """A play-card kind drawn (chance block `card`: the kind)."""
    _draw(state, a - state.game.chance_layout.card)


def _on_dd_target(state: NavalWarState, a: int) -> None:
    """Destroyer Squadron: the task force named; the die follows."""
    state.dd_target = a - state.layout.dd_target
    state.roll_kind = Roll.DD
    state.phase, state.to_act = Phase.ROLL, CHANCE


def _on_dd_sink(state: NavalWarState, a: int) -> None:
    """Destroyer Squadron: the ship picked (by id, or by slot when face down)."""
    dd_sink(state, ship_at(state, a - state.layout.dd_sink))


def _on_end(state: NavalWarState, a: int) -> None:
    """The game is over: never called (no action is legal)."""
    raise AssertionError("no action applies after the end")


def _draw(state: NavalWarState, k: int) -> None:
    """A play card of kind `k` drawn: dealt, refilled in the opening, or the turn's draw (Turn)."""
    c = take_from_deck(state, k)
    ph = state.phase
    if ph == Phase.DEAL_CARD:
        j = deal_seat(state)
        state.card_position[c] = HAND + j
        state.hands[j].append(c)
        state.deal_left -= 1
        if state.deal_left == 0:
            begin_opening(state)
        return
    p = state.turn_player
    if ph == Phase.REFILL:
        state.card_position[c] = HAND + p
        state.hands[p].append(c)
        opening_continue(state)
        return
    # Turn: a red card drawn is played at once and is the turn (Turn; Red cards).
    if state.table.kind_red[k]:
        state.card_position[c] = PLAY
        state.pending = c
        red_drawn(state, c)
        return
    state.card_position[c] = HAND + p
    state.hands[p].append(c)
    state.phase, state.to_act = Phase.PLAY, p


def _roll(state: NavalWarState, r: int) -> None:
    """A die: Submarine sinks on 5–6, Torpedo Boat on 6, a Destroyer Squadron sinks r ships, an air strike
    sinks on 1 (1–2 as Kamikaze)."""
    kind = state.roll_kind
    p = state.turn_player
    if kind in (Roll.SUB, Roll.TORPEDO):
        if r >= (5 if kind == Roll.SUB else 6):
            sink(state, state.pending_target, p)
        after_red(state)
    elif kind == Roll.DD:
        state.dd_left = r
        dd_continue(state)
    else:
        base = 3 * state.strike_index
        carrier, target, kami = state.strikes[base], state.strikes[base + 1], state.strikes[base + 2]
        if r == 1 or (kami and r == 2):
            sink(state, target, p)
            if kami:
                state.kamikaze_wait[carrier] = r + 2
        elif kami:
            state.kamikaze_wait[carrier] = 2
        state.strike_index += 1
        if not state.round_over:
            next_strike(state)


def illegal_reason(state: NavalWarState, a: int) -> str:
    """A sentence saying why `a` is not legal now, citing the rule section."""
    layout = state.layout
    ph = state.phase
    p = state.to_act
    text = action_text(state.table, a)
    who = f"player {p}"
    if ph == Phase.PLAY:
        if a < layout.fire and a >= layout.discard:
            return f"Turn: {who} holds no {text.split()[1]} card to discard; discard a card from your hand"
        if layout.fire <= a < layout.at:
            return (f"Normal cards, Salvo: '{text}' is not allowed: a salvo needs the card in hand, one of your "
                    "ships with that gun size, and an enemy target")
        if layout.at <= a < layout.repair:
            return f"Normal cards, Salvo: '{text}' comes after 'fire KIND'; first choose the salvo to fire"
        if layout.repair <= a < layout.swap:
            return "Normal cards, Repair: you need a Repair card and the salvo must lie under one of your ships"
        if a == layout.sweep:
            return "Normal cards, Minesweeper: you need the card and a minefield before your task force (R25)"
        if layout.swap <= a < layout.give:
            return "Fleet play: you may swap a salvo in your hand only with a living fleet-mate"
        return f"Turn: '{text}' is not a play of a card in your hand now; play or discard one card"
    if ph in (Phase.CHOICE, Phase.STRIKE):
        return (f"Air strikes: '{text}' is not allowed: name a target for your next carrier (an enemy ship not "
                "under Smoke and not a screened carrier), 'skip' it, or 'draw' before any target is named")
    if ph in (Phase.RED, Phase.OPEN):
        card = state.table.card_ids[state.pending] if ph == Phase.RED else "a red card in your hand"
        return (f"Red cards: '{text}' is not a legal play of {card} now (Submarines pass Smoke, Torpedo Boats and "
                "minefields do not; carriers are screened; one minefield per task force in the Opening; "
                "Additional Damage only on a salvo under an enemy ship)")
    if ph == Phase.AIM:
        return (f"Normal cards, Salvo: '{text}' is not a target for {state.table.card_ids[state.aiming]}: fire at an enemy ship "
                "not under Smoke and not a screened carrier (never your own ship or a fleet-mate's), or an enemy "
                "Destroyer Squadron")
    if ph == Phase.DD_TARGET:
        return "Destroyer Squadron: name a living enemy task force not under Smoke (R7)"
    if ph == Phase.DD_SINK:
        return "Destroyer Squadron: pick a ship of the target task force; carriers only when nothing else is left"
    if ph == Phase.GIVE:
        return "Fleet play: give back one salvo from your hand other than the one received, or 'give none'"
    return f"'{text}' is not legal in phase {PHASE_NAMES[ph]}"


_HANDLERS = {
    Phase.DEAL_SHIP: deal_ship,
    Phase.DEAL_CARD: _on_draw,
    Phase.REFILL: _on_draw,
    Phase.OPEN: red_play,
    Phase.CHOICE: strike_choice,
    Phase.DRAW: _on_draw,
    Phase.PLAY: play,
    Phase.RED: red_play,
    Phase.ROLL: _on_roll,
    Phase.SHIP: additional_ship_arrives,
    Phase.STRIKE: strike_choice,
    Phase.DD_TARGET: _on_dd_target,
    Phase.DD_SINK: _on_dd_sink,
    Phase.GIVE: give,
    Phase.END: _on_end,
    Phase.AIM: aim,
}
"""The transition of each phase (indexed by phase number)."""

__all__ = [
    "apply",
    "chance_outcomes",
    "deal_seat",
    "end_round",
    "illegal_reason",
    "legal_actions",
    "opening_continue",
    "red_targets",
    "start_round",
    "start_turn",
    "strike_carriers",
    "strike_targets",
]
