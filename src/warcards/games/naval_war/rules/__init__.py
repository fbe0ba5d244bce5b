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
from typing import TYPE_CHECKING, Any

from warcards.engine.api import (
    CHANCE,
    COUNTED_MARGIN,
    COUNTED_MAX,
    Chance,
    Counted,
    Uniform,
    not_a_chance_node,
    pick_uniform,
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
from warcards.games.naval_war.rules.round import (
    deal_seat,
    deal_ship,
    draw_kinds,
    draw_pile,
    end_round,
    start_round,
)
from warcards.games.naval_war.rules.sinking import sink
from warcards.games.naval_war.rules.targets import (
    dd_sinkable,
    dd_targets,
    forget_fleets,
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
    from warcards.games.naval_war.game import NavalWarGame
    from warcards.games.naval_war.state import NavalWarState


def legal_actions(state: NavalWarState) -> list[int]:
    """Sorted legal actions at a decision node: the phase's function in `LEGAL_ACTIONS`."""
    return LEGAL_ACTIONS[state.phase](state)


class DrawPile(Counted):
    """The draw pile's `Counted` description, with `chance_outcomes()` gathered in C from pairs made once per pile
    size (`NavalWarGame.draw_pairs`) at the keys the state keeps for the kinds present (`draw_keys`), and the
    legal list copied from the kinds present it keeps (`draw_kinds`), instead of by counting the pile's runs in
    Python (`Counted.counts`): the same pairs, the same floats (`(1.0 / n) * copies`)."""

    __slots__ = ("game", "keys", "kinds")

    def __init__(self, pile: list[int], kinds: list[int], keys: list[int], game: NavalWarGame) -> None:
        self.pile = pile  # `Counted.__init__`, inline: made at every draw of the OpenSpiel-shaped loop
        self.kinds = kinds
        self.keys = keys
        self.game = game

    def pairs(self) -> list[tuple[int, float]]:
        return self.pairs_and_numbers()[0]

    def numbers(self) -> list[int]:
        return self.kinds[:]

    def pairs_and_numbers(self) -> tuple[list[tuple[int, float]], list[int]]:
        size = len(self.pile)  # both in one call: `chance_outcomes()` asks at every draw
        table = self.game.draw_pair_tables.get(size)
        if table is None:
            table = self.game.draw_pairs(size)
        # The tuples made once, gathered by key, the rows typed `Any` (as `Uniform.pairs_and_numbers` does).
        rows: list[Any] = table
        return [rows[key] for key in self.keys], self.kinds[:]

    def __reduce__(self) -> tuple[type[Chance], tuple[object, ...]]:
        """Pickled as the constructor and its fields (`Uniform.__reduce__`)."""
        return (DrawPile, (self.pile, self.kinds, self.keys, self.game))


def chance(state: NavalWarState) -> Chance:
    """How this chance node draws: a play card by kind from the draw pile (`Counted`: one entry per card, each
    entry the outcome that draws its kind; `DrawPile`, made once and kept in `draw_chance`: it reads the state's
    draw pile lists, which the draws change in place, so only their replacement clears it), a die face
    (`Uniform`: the game's `die_chance`, made once), or a ship from the harbor pile (`Uniform`, kept in id
    order)."""
    phase = state.phase
    if phase in DRAW_PHASES:
        pile = state.draw_chance
        if pile is None:
            pile = state.draw_chance = DrawPile(state.draw_pile, state.draw_kinds, state.draw_keys, state.game)
        return pile
    if phase == Phase.ROLL:
        return state.game.die_chance
    return Uniform(state.harbor)


def apply_chance(state: NavalWarState, u: float) -> int:
    """The engine's `_apply(_chance().pick(u))` in one go: a play card read off the draw pile by position (as
    `Counted.pick` reads it) and `draw_card` told that position, so it need not search the pile; a die face or
    a ship picked as `Uniform.pick` picks it and its phase's transition called directly; a `u` on the edge of
    two positions of the pile by `Counted.pick`. Away from a chance node it refuses (`ValueError`)."""
    if state.to_act != CHANCE:
        raise not_a_chance_node()
    phase = state.phase
    if phase not in DRAW_PHASES:
        outcome = pick_uniform(state.game.die_numbers if phase == Phase.ROLL else state.harbor, u)
        TRANSITIONS[phase](state, outcome)
    else:
        pile = state.draw_pile
        n = len(pile)
        x = u * n
        j = int(x) if 0.0 <= u < 1.0 and n <= COUNTED_MAX else -1
        if j >= 0 and COUNTED_MARGIN < x - j < 1.0 - COUNTED_MARGIN:
            outcome = pile[j]
            draw_card(state, outcome, j)
        else:
            outcome = Counted(pile).pick(u)
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


def draw_card(state: NavalWarState, outcome: int, at: int = -1) -> None:
    """A play card drawn (chance block `card`: its kind), `at` an entry of the draw pile that holds `outcome` (any
    one: they are sorted; -1: the first, found by a binary search): the turn's draw (Turn), dealt, or refilled
    in the opening. The transition of the draw phases; `apply_chance` calls it with the entry it read the kind
    off.

    The copy drawn is the lowest-numbered copy of its kind in the draw pile (the pile is unordered), found by
    the list's own search from the kind's first card (a kind's copies are numbered consecutively, and the pile
    holds one since the outcome is legal)."""
    k = outcome - state.game.first_draw_outcome
    if at < 0:
        at = bisect_left(state.draw_pile, outcome)
    cpos = state.card_position
    c = cpos.index(DECK, state.game.kind_first_card[k])
    counts = state.deck_count
    left = counts[k] = counts[k] - 1
    kinds = state.draw_kinds
    i = bisect_left(kinds, outcome)
    if left:
        state.draw_keys[i] -= 1
    else:
        del kinds[i]
        del state.draw_keys[i]
    state.deck_size -= 1
    del state.draw_pile[at]
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
    draw_card,  # Phase.DEAL_CARD
    draw_card,  # Phase.REFILL
    red_play,  # Phase.OPEN
    strike_choice,  # Phase.CHOICE
    draw_card,  # Phase.DRAW
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

__all__ = [
    "LEGAL_ACTIONS",
    "TRANSITIONS",
    "apply",
    "apply_chance",
    "chance",
    "deal_seat",
    "draw_card",
    "draw_kinds",
    "draw_pile",
    "end_round",
    "forget_fleets",
    "illegal_reason",
    "legal_actions",
    "opening_continue",
    "red_targets",
    "start_round",
    "start_turn",
    "strike_carriers",
    "strike_targets",
]
