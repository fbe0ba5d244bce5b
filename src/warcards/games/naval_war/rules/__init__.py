"""Naval War rules: legal actions, chance outcomes, transitions and refusals, one function per rule step.

Section names follow the printed-rules summary (shared reference naval-war.md): Setup, Opening, Turn,
Red cards, Normal cards, Air strikes, Sinking, Round end, Scoring a round, Variations, Fleet play. The
modules follow those sections: `targets` (who may be attacked), `turn` (the Opening, the Turn and the normal
cards), `red` (red cards), `air` (air strikes), `sinking`, `round` (the deal, round end and scoring); this
module holds the entry points the state binds as its engine hooks (each hook is the function of the same
name, without the underscore) and the per-phase tables behind them. Rulings on the text's gaps
are in RULES.md; the code cites them by id ("R12").
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from itertools import compress, repeat
from operator import getitem
from typing import TYPE_CHECKING

from warcards.engine.api import (
    CHANCE,
    COUNTED_MARGIN,
    COUNTED_MAX,
    not_a_chance_node,
    pick_counted,
    pick_uniform,
    pick_weighted,
)
from warcards.games.naval_war.codes import (
    DECK,
    DRAW_PHASES,
    HAND,
    PHASE_NAMES,
    PLAY,
    Phase,
    Roll,
)
from warcards.games.naval_war.notation import action_text
from warcards.games.naval_war.rules.air import next_strike, strike_actions, strike_choice
from warcards.games.naval_war.rules.red import additional_ship_arrives, after_red, red_drawn, red_play
from warcards.games.naval_war.rules.round import deal_seat, deal_ship, draw_kinds, end_round, start_round
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
    """Sorted legal actions at a decision node: the phase's function in `LEGAL_ACTIONS`."""
    return LEGAL_ACTIONS[state.phase](state)


def legal_list(state: NavalWarState) -> list[int]:
    """The engine's list for `legal_actions`, by phase alone (`LEGAL_LISTS`): no `current_player()`."""
    return LEGAL_LISTS[state.phase](state)


def legal_now(state: NavalWarState) -> list[int]:
    """The legal list `apply_action` tests against: at a die roll or a ship dealt read off the state, uncopied
    (the die's faces, the harbor pile kept in id order); elsewhere the phase's list (`LEGAL_LISTS`)."""
    phase = state.phase
    if state.to_act == CHANCE:
        if phase == Phase.ROLL:
            return state.game.die_numbers
        if phase == Phase.DEAL_SHIP or phase == Phase.SHIP:
            return state.harbor
    return LEGAL_LISTS[phase](state)


def outcome_numbers(state: NavalWarState, outcomes: list[tuple[int, float]]) -> list[int] | None:
    """Nothing to cache: `legal_now` reads a chance node's outcomes off the state more cheaply."""
    return None


def sample_outcome(state: NavalWarState, u: float) -> int:
    """The engine's `sample_outcome` without the (outcome, probability) pairs: a play card's kind read off
    the draw pile's kinds by position (`pick_counted`; `apply_chance` reads it inline at every draw), or, for a
    `u` on the edge of two positions, by `pick_weighted` over the chances `chance_outcomes` lists (the same
    floats in the same order); a ship or a die face by `pick_uniform`: the same outcome for every `u`."""
    phase = state.phase
    game = state.game
    if phase in DRAW_PHASES:
        kind = pick_counted(state.draw_kinds, u)
        if kind is not None:
            return game.first_draw_outcome + kind
        counts = state.deck_count
        chances = game.draw_chances[state.deck_size].__getitem__
        return pick_weighted(list(compress(game.draw_outcomes, counts)), map(chances, filter(None, counts)), u)
    if phase == Phase.ROLL:
        return pick_uniform(game.die_numbers, u)
    return pick_uniform(state.harbor, u)


def apply_chance(state: NavalWarState, u: float) -> int:
    """The engine's `_apply(_sample_outcome(u))` in one go: a play card's kind read off the draw pile's kinds
    by position (as `sample_outcome` does) and `draw_card` told that position; a die face or a ship picked as
    `sample_outcome` picks it and its phase's transition called directly; a `u` on the edge of two positions
    of the pile by those two functions' way. Away from a chance node it refuses (`ValueError`)."""
    if state.to_act != CHANCE:
        raise not_a_chance_node()
    phase = state.phase
    if phase not in DRAW_PHASES:
        outcome = pick_uniform(state.game.die_numbers if phase == Phase.ROLL else state.harbor, u)
        TRANSITIONS[phase](state, outcome)
    else:
        kinds = state.draw_kinds
        n = len(kinds)
        x = u * n
        j = int(x) if 0.0 <= u < 1.0 and n <= COUNTED_MAX else -1
        if j >= 0 and COUNTED_MARGIN < x - j < 1.0 - COUNTED_MARGIN:
            k = kinds[j]
            draw_card(state, k, j)
            outcome = state.game.first_draw_outcome + k
        else:
            outcome = sample_outcome(state, u)
            TRANSITIONS[phase](state, outcome)
    if state.round_over and state.phase != Phase.END:
        end_round(state)
    return outcome


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
    elimination left one side afloat."""
    TRANSITIONS[state.phase](state, action)
    if state.round_over and state.phase != Phase.END:
        end_round(state)


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


def _on_draw(state: NavalWarState, outcome: int) -> None:
    """A play card drawn (chance block `card`: its kind): `draw_card` at the kind's first entry in the pile."""
    k = outcome - state.game.first_draw_outcome
    draw_card(state, k, bisect_left(state.draw_kinds, k))


def draw_card(state: NavalWarState, k: int, at: int) -> None:
    """A play card of kind `k` drawn, `at` an entry of the pile's kinds that holds `k` (any one: they are
    sorted): the turn's draw (Turn), dealt, or refilled in the opening. `apply_chance` calls it with the entry
    it read the kind off.

    The copy drawn is the lowest-numbered copy of kind `k` in the draw pile (the pile is unordered), found by
    the list's own search from the kind's first card (a kind's copies are numbered consecutively, and the pile
    holds one since the outcome is legal)."""
    cpos = state.card_position
    c = cpos.index(DECK, state.game.kind_first_card[k])
    state.deck_count[k] -= 1
    state.deck_size -= 1
    del state.draw_kinds[at]
    ph = state.phase
    if ph == Phase.DRAW:
        p = state.turn_player
        # A red card drawn is played at once and is the turn (Turn; Red cards).
        if state.table.kind_red[k]:
            cpos[c] = PLAY
            state.pending = c
            red_drawn(state, c)
            return
        cpos[c] = HAND + p
        state.hands[p].append(c)
        state.phase, state.to_act = Phase.PLAY, p
        return
    if ph == Phase.DEAL_CARD:
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


def illegal_reason(state: NavalWarState, action: int) -> str:
    """A sentence saying why `action` is not legal now, citing the rule section."""
    layout = state.layout
    ph = state.phase
    p = state.to_act
    text = action_text(state.table, action)
    who = f"player {p}"
    if ph == Phase.PLAY:
        if action < layout.fire and action >= layout.discard:
            return f"Turn: {who} holds no {text.split()[1]} card to discard; discard a card from your hand"
        if layout.fire <= action < layout.at:
            return (f"Normal cards, Salvo: '{text}' is not allowed: a salvo needs the card in hand, one of your "
                    "ships with that gun size, and an enemy target")
        if layout.at <= action < layout.repair:
            return f"Normal cards, Salvo: '{text}' comes after 'fire KIND'; first choose the salvo to fire"
        if layout.repair <= action < layout.swap:
            return "Normal cards, Repair: you need a Repair card and the salvo must lie under one of your ships"
        if action == layout.sweep:
            return "Normal cards, Minesweeper: you need the card and a minefield before your task force (R25)"
        if layout.swap <= action < layout.give:
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


TRANSITIONS: tuple[Callable[[NavalWarState, int], None], ...] = (
    deal_ship,  # Phase.DEAL_SHIP
    _on_draw,  # Phase.DEAL_CARD
    _on_draw,  # Phase.REFILL
    red_play,  # Phase.OPEN
    strike_choice,  # Phase.CHOICE
    _on_draw,  # Phase.DRAW
    play,  # Phase.PLAY
    red_play,  # Phase.RED
    _on_roll,  # Phase.ROLL
    additional_ship_arrives,  # Phase.SHIP
    strike_choice,  # Phase.STRIKE
    _on_dd_target,  # Phase.DD_TARGET
    _on_dd_sink,  # Phase.DD_SINK
    give,  # Phase.GIVE
    _on_end,  # Phase.END
    aim,  # Phase.AIM
)
"""The transition of each phase, indexed by phase number (`apply` calls it)."""

LEGAL_ACTIONS: tuple[Callable[[NavalWarState], list[int]], ...] = (
    _no_actions,  # Phase.DEAL_SHIP
    _no_actions,  # Phase.DEAL_CARD
    _no_actions,  # Phase.REFILL
    _opening_actions,  # Phase.OPEN
    strike_actions,  # Phase.CHOICE
    _no_actions,  # Phase.DRAW
    play_actions,  # Phase.PLAY
    _red_actions,  # Phase.RED
    _no_actions,  # Phase.ROLL
    _no_actions,  # Phase.SHIP
    strike_actions,  # Phase.STRIKE
    _dd_target_actions,  # Phase.DD_TARGET
    _dd_sink_actions,  # Phase.DD_SINK
    give_actions,  # Phase.GIVE
    _no_actions,  # Phase.END
    aim_actions,  # Phase.AIM
)
"""The legal actions of each phase, indexed by phase number (`legal_actions` calls it)."""

CHANCE_OUTCOMES: tuple[Callable[[NavalWarState], list[tuple[int, float]]], ...] = (
    _ship_outcomes,  # Phase.DEAL_SHIP
    _draw_outcomes,  # Phase.DEAL_CARD
    _draw_outcomes,  # Phase.REFILL
    _no_outcomes,  # Phase.OPEN
    _no_outcomes,  # Phase.CHOICE
    _draw_outcomes,  # Phase.DRAW
    _no_outcomes,  # Phase.PLAY
    _no_outcomes,  # Phase.RED
    _die_outcomes,  # Phase.ROLL
    _ship_outcomes,  # Phase.SHIP
    _no_outcomes,  # Phase.STRIKE
    _no_outcomes,  # Phase.DD_TARGET
    _no_outcomes,  # Phase.DD_SINK
    _no_outcomes,  # Phase.GIVE
    _no_outcomes,  # Phase.END
    _no_outcomes,  # Phase.AIM
)
"""The chance outcomes of each chance phase, indexed by phase number (`chance_outcomes` calls it)."""

_CHANCE_NUMBERS: dict[int, Callable[[NavalWarState], list[int]]] = {
    Phase.DEAL_SHIP: _ship_numbers, Phase.SHIP: _ship_numbers, Phase.DEAL_CARD: _draw_numbers, Phase.REFILL: _draw_numbers,
    Phase.DRAW: _draw_numbers, Phase.ROLL: _die_numbers,
}

LEGAL_LISTS: tuple[Callable[[NavalWarState], list[int]], ...] = tuple(
    _CHANCE_NUMBERS.get(phase, legal) for phase, legal in enumerate(LEGAL_ACTIONS)
)
"""The engine's legal list of each phase, indexed by phase number: the player actions of a decision phase
(`LEGAL_ACTIONS`), the chance outcomes' numbers of a chance phase, nothing at the end — so `legal_list`
needs no `current_player()` first (a chance phase is never a decision, the battery checks)."""

__all__ = [
    "CHANCE_OUTCOMES",
    "LEGAL_ACTIONS",
    "LEGAL_LISTS",
    "TRANSITIONS",
    "apply",
    "apply_chance",
    "chance_outcomes",
    "deal_seat",
    "draw_card",
    "draw_kinds",
    "end_round",
    "illegal_reason",
    "legal_actions",
    "legal_list",
    "legal_now",
    "opening_continue",
    "outcome_numbers",
    "red_targets",
    "sample_outcome",
    "start_round",
    "start_turn",
    "strike_carriers",
    "strike_targets",
]
