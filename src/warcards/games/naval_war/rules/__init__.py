"""Naval War rules: legal actions, chance outcomes, transitions and refusals, one function per rule step.

Section names follow the printed-rules summary (shared reference naval-war.md): Setup, Opening, Turn,
Red cards, Normal cards, Air strikes, Sinking, Round end, Scoring a round, Variations, Fleet play. The
modules follow those sections: `targets` (who may be attacked), `turn` (the Opening, the Turn and the normal
cards), `red` (red cards), `air` (air strikes), `sinking`, `round` (the deal, round end and scoring); this
module holds the entry points the state calls and the transition of each phase. Rulings on the text's gaps
are in RULES.md; the code cites them by id ("R12").
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from itertools import compress, repeat
from operator import getitem
from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE
from warcards.games.naval_war.codes import (
    DECK,
    HAND,
    PH_AIM,
    PH_CHOICE,
    PH_DD_SINK,
    PH_DD_TARGET,
    PH_DEAL_CARD,
    PH_DEAL_SHIP,
    PH_DRAW,
    PH_END,
    PH_GIVE,
    PH_OPEN,
    PH_PLAY,
    PH_RED,
    PH_REFILL,
    PH_ROLL,
    PH_SHIP,
    PH_STRIKE,
    PHASE_NAMES,
    PLAY,
    ROLL_DD,
    ROLL_SUB,
    ROLL_TORPEDO,
)
from warcards.games.naval_war.notation import action_text
from warcards.games.naval_war.rules.air import next_strike, strike_actions, strike_choice
from warcards.games.naval_war.rules.red import additional_ship_arrives, after_red, red_drawn, red_play
from warcards.games.naval_war.rules.round import deal_seat, deal_ship, end_round, start_round
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
    """Sorted legal actions at a decision node (the state's `_legal_actions` reads `LEGAL_ACTIONS` itself)."""
    return LEGAL_ACTIONS[state.phase](state)


def _red_actions(state: NavalWarState) -> list[int]:
    """Red cards: the targets of the red card drawn (`red_targets` lists them sorted)."""
    return red_targets(state, state.to_act, state.table.card_kind[state.pending])


def _opening_actions(state: NavalWarState) -> list[int]:
    """Opening: the targets of every red card in the opener's hand."""
    p = state.to_act
    kinds = sorted({state.table.card_kind[c] for c in state.hands[p] if state.table.kind_red[state.table.card_kind[c]]})
    out: list[int] = []
    for k in kinds:
        out.extend(red_targets(state, p, k))
    return sorted(out)


def _dd_target_actions(state: NavalWarState) -> list[int]:
    """Destroyer Squadron: the task forces it may attack."""
    dd_target = state.layout.dd_target
    return [dd_target + j for j in dd_targets(state, state.to_act)]


def _dd_sink_actions(state: NavalWarState) -> list[int]:
    """Destroyer Squadron: the ships of the target task force it may sink."""
    return sorted(map(state.layout.dd_sink.__add__, dd_sinkable(state, state.dd_target)))  # no generator object


def _no_actions(state: NavalWarState) -> list[int]:
    """A chance phase or the end: no player action."""
    return []


def chance_outcomes(state: NavalWarState) -> list[tuple[int, float]]:
    """Chance: a die (1/6 each), a play card by kind (copies/size), or a ship from the harbor (uniform)."""
    return CHANCE_OUTCOMES[state.phase](state)


def _no_outcomes(state: NavalWarState) -> list[tuple[int, float]]:
    """A decision phase or the end: no chance outcome."""
    return []


def _die_outcomes(state: NavalWarState) -> list[tuple[int, float]]:
    """A die: 1/6 each face."""
    return list(state.game.die_outcomes)


def _draw_outcomes(state: NavalWarState) -> list[tuple[int, float]]:
    """A play card drawn: (kind outcome, copies / size) for each kind left, the chances looked up in the game's
    table (`NavalWarGame.draw_chances`), without a Python-level loop."""
    game = state.game
    counts = state.deck_count
    chances = repeat(game.draw_chances[state.deck_size])
    return list(zip(compress(game.draw_outcomes, counts), map(getitem, chances, filter(None, counts)), strict=True))


def _ship_outcomes(state: NavalWarState) -> list[tuple[int, float]]:
    """A ship from the harbor pile (kept in id order), uniform."""
    harbor = state.harbor
    return list(zip(harbor, repeat(1 / len(harbor))))


def _die_numbers(state: NavalWarState) -> list[int]:
    """A die's faces: the chance outcomes' numbers (a fresh list)."""
    return list(state.game.die_numbers)


def _draw_numbers(state: NavalWarState) -> list[int]:
    """The kinds left in the draw pile: the chance outcomes' numbers (a fresh list)."""
    return list(compress(state.game.draw_outcomes, state.deck_count))


def _ship_numbers(state: NavalWarState) -> list[int]:
    """The ships in the harbor pile, in id order: the chance outcomes' numbers (a fresh list)."""
    return state.harbor[:]


def apply(state: NavalWarState, action: int) -> None:
    """Apply a legal action or chance outcome: the phase's transition, then the round end if someone's
    elimination left one side afloat (the state's `_apply` does the same with `TRANSITIONS` itself)."""
    TRANSITIONS[state.phase](state, action)
    if state.round_over and state.phase != PH_END:
        end_round(state)


def _on_dd_target(state: NavalWarState, a: int) -> None:
    """Destroyer Squadron: the task force named; the die follows."""
    state.dd_target = a - state.layout.dd_target
    state.roll_kind = ROLL_DD
    state.phase, state.to_act = PH_ROLL, CHANCE


def _on_dd_sink(state: NavalWarState, a: int) -> None:
    """Destroyer Squadron: the ship picked (by id, or by slot when face down)."""
    dd_sink(state, ship_at(state, a - state.layout.dd_sink))


def _on_end(state: NavalWarState, a: int) -> None:
    """The game is over: never called (no action is legal)."""
    raise AssertionError("no action applies after the end")


def _on_draw(state: NavalWarState, outcome: int) -> None:
    """A play card drawn (chance block `card`: its kind): `draw_card` at the kind's first entry in the pile."""
    k = outcome - state.game.first_draw_outcome
    draw_card(state, k, bisect_left(state.draw_kinds, k))


def draw_card(state: NavalWarState, k: int, at: int) -> None:
    """A play card of kind `k` drawn, `at` an entry of the pile's kinds that holds `k` (any one: they are
    sorted): the turn's draw (Turn), dealt, or refilled in the opening. The state's `_apply_chance` calls it
    with the entry it read the kind off.

    The copy drawn is the lowest-numbered copy of kind `k` in the draw pile (the pile is unordered), found by
    the list's own search from the kind's first card (a kind's copies are numbered consecutively, and the pile
    holds one since the outcome is legal)."""
    cpos = state.card_position
    c = cpos.index(DECK, state.game.kind_first_card[k])
    state.deck_count[k] -= 1
    state.deck_size -= 1
    del state.draw_kinds[at]
    ph = state.phase
    if ph == PH_DRAW:
        p = state.turn_player
        # A red card drawn is played at once and is the turn (Turn; Red cards).
        if state.table.kind_red[k]:
            cpos[c] = PLAY
            state.pending = c
            red_drawn(state, c)
            return
        cpos[c] = HAND + p
        state.hands[p].append(c)
        state.phase, state.to_act = PH_PLAY, p
        return
    if ph == PH_DEAL_CARD:
        j = deal_seat(state)
        cpos[c] = HAND + j
        state.hands[j].append(c)
        state.deal_left -= 1
        if state.deal_left == 0:
            begin_opening(state)
        return
    p = state.turn_player
    cpos[c] = HAND + p
    state.hands[p].append(c)
    opening_continue(state)


def _on_roll(state: NavalWarState, outcome: int) -> None:
    """A die: Submarine sinks on 5–6, Torpedo Boat on 6, a Destroyer Squadron sinks r ships, an air strike
    sinks on 1 (1–2 as Kamikaze). The outcome is a die face (chance block `die`: face - 1)."""
    r = outcome - state.game.chance_layout.die + 1
    kind = state.roll_kind
    p = state.turn_player
    if kind in (ROLL_SUB, ROLL_TORPEDO):
        if r >= (5 if kind == ROLL_SUB else 6):
            sink(state, state.pending_target, p)
        after_red(state)
    elif kind == ROLL_DD:
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
    if ph == PH_PLAY:
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
    if ph in (PH_CHOICE, PH_STRIKE):
        return (f"Air strikes: '{text}' is not allowed: name a target for your next carrier (an enemy ship not "
                "under Smoke and not a screened carrier), 'skip' it, or 'draw' before any target is named")
    if ph in (PH_RED, PH_OPEN):
        card = state.table.card_ids[state.pending] if ph == PH_RED else "a red card in your hand"
        return (f"Red cards: '{text}' is not a legal play of {card} now (Submarines pass Smoke, Torpedo Boats and "
                "minefields do not; carriers are screened; one minefield per task force in the Opening; "
                "Additional Damage only on a salvo under an enemy ship)")
    if ph == PH_AIM:
        return (f"Normal cards, Salvo: '{text}' is not a target for {state.table.card_ids[state.aiming]}: fire at an enemy ship "
                "not under Smoke and not a screened carrier (never your own ship or a fleet-mate's), or an enemy "
                "Destroyer Squadron")
    if ph == PH_DD_TARGET:
        return "Destroyer Squadron: name a living enemy task force not under Smoke (R7)"
    if ph == PH_DD_SINK:
        return "Destroyer Squadron: pick a ship of the target task force; carriers only when nothing else is left"
    if ph == PH_GIVE:
        return "Fleet play: give back one salvo from your hand other than the one received, or 'give none'"
    return f"'{text}' is not legal in phase {PHASE_NAMES[ph]}"


TRANSITIONS: tuple[Callable[[NavalWarState, int], None], ...] = (
    deal_ship,  # PH_DEAL_SHIP
    _on_draw,  # PH_DEAL_CARD
    _on_draw,  # PH_REFILL
    red_play,  # PH_OPEN
    strike_choice,  # PH_CHOICE
    _on_draw,  # PH_DRAW
    play,  # PH_PLAY
    red_play,  # PH_RED
    _on_roll,  # PH_ROLL
    additional_ship_arrives,  # PH_SHIP
    strike_choice,  # PH_STRIKE
    _on_dd_target,  # PH_DD_TARGET
    _on_dd_sink,  # PH_DD_SINK
    give,  # PH_GIVE
    _on_end,  # PH_END
    aim,  # PH_AIM
)
"""The transition of each phase, indexed by phase number (the state's `_apply` calls it)."""

LEGAL_ACTIONS: tuple[Callable[[NavalWarState], list[int]], ...] = (
    _no_actions,  # PH_DEAL_SHIP
    _no_actions,  # PH_DEAL_CARD
    _no_actions,  # PH_REFILL
    _opening_actions,  # PH_OPEN
    strike_actions,  # PH_CHOICE
    _no_actions,  # PH_DRAW
    play_actions,  # PH_PLAY
    _red_actions,  # PH_RED
    _no_actions,  # PH_ROLL
    _no_actions,  # PH_SHIP
    strike_actions,  # PH_STRIKE
    _dd_target_actions,  # PH_DD_TARGET
    _dd_sink_actions,  # PH_DD_SINK
    give_actions,  # PH_GIVE
    _no_actions,  # PH_END
    aim_actions,  # PH_AIM
)
"""The legal actions of each phase, indexed by phase number (the state's `_legal_actions` calls it)."""

CHANCE_OUTCOMES: tuple[Callable[[NavalWarState], list[tuple[int, float]]], ...] = (
    _ship_outcomes,  # PH_DEAL_SHIP
    _draw_outcomes,  # PH_DEAL_CARD
    _draw_outcomes,  # PH_REFILL
    _no_outcomes,  # PH_OPEN
    _no_outcomes,  # PH_CHOICE
    _draw_outcomes,  # PH_DRAW
    _no_outcomes,  # PH_PLAY
    _no_outcomes,  # PH_RED
    _die_outcomes,  # PH_ROLL
    _ship_outcomes,  # PH_SHIP
    _no_outcomes,  # PH_STRIKE
    _no_outcomes,  # PH_DD_TARGET
    _no_outcomes,  # PH_DD_SINK
    _no_outcomes,  # PH_GIVE
    _no_outcomes,  # PH_END
    _no_outcomes,  # PH_AIM
)
"""The chance outcomes of each chance phase, indexed by phase number (the state's `_chance_outcomes`
calls it)."""

_CHANCE_NUMBERS: dict[int, Callable[[NavalWarState], list[int]]] = {
    PH_DEAL_SHIP: _ship_numbers, PH_SHIP: _ship_numbers, PH_DEAL_CARD: _draw_numbers, PH_REFILL: _draw_numbers,
    PH_DRAW: _draw_numbers, PH_ROLL: _die_numbers,
}

LEGAL_LISTS: tuple[Callable[[NavalWarState], list[int]], ...] = tuple(
    _CHANCE_NUMBERS.get(phase, legal) for phase, legal in enumerate(LEGAL_ACTIONS)
)
"""The engine's legal list of each phase, indexed by phase number: the player actions of a decision phase
(`LEGAL_ACTIONS`), the chance outcomes' numbers of a chance phase, nothing at the end — so the state's
`_legal_list` needs no `current_player()` first (a chance phase is never a decision, the battery checks)."""

__all__ = [
    "CHANCE_OUTCOMES",
    "LEGAL_ACTIONS",
    "LEGAL_LISTS",
    "TRANSITIONS",
    "apply",
    "chance_outcomes",
    "deal_seat",
    "draw_card",
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
