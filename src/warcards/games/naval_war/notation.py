"""Naval War action numbering and notation (docs/notation/naval-war.md).

Player actions: one `ActionLayout` (`action_layout`, the state's and game's `layout`), a fixed space for the card
table; seats are numbered up to 9 whatever the player count:

| block | action | text |
|---|---|---|
| draw | draw instead of launching air strikes | `draw` |
| smoke, dd, sweep | play Smoke / a Destroyer Squadron / a Minesweeper | `smoke`, `dd`, `sweep` |
| addship | play an Additional Ship (in the opening) | `addship` |
| skip | a carrier does not strike | `skip` |
| give_none | a fleet-mate with no salvo returns nothing | `give none` |
| discard + kind | discard a card of that kind | `discard SALVO16x2` |
| fire + salvo | fire a salvo (its target follows) | `fire SALVO16x2` |
| at + target | the target of the salvo being fired | `at NELSON`, `at 2/1` |
| at_dd + seat | a seat's Destroyer Squadron as that target | `at dd 3` |
| repair + card | repair: remove that salvo (and its Additional Damage) | `repair SALVO16x2-1` |
| swap + salvo*9 + mate | give a salvo to a fleet-mate in exchange | `swap SALVO14x1 with 2` |
| give + salvo | the mate's salvo given back | `give SALVO14x1` |
| mine + mine*9 + seat | lay a minefield before a task force | `MINE2 at 1` |
| sub + target, torpedo + target | submarine / torpedo boat attack | `sub at NELSON`, `torpedo at NELSON` |
| adddmg + kind*108 + card | Additional Damage on a salvo | `ADDDMG1 on SALVO16x2-1` |
| strike + target, kamikaze + target | a carrier's air strike | `strike NELSON`, `kamikaze NELSON` |
| dd_target + seat | the task force a Destroyer Squadron attacks | `dd target 2` |
| dd_sink + target | a ship the Destroyer Squadron sinks | `dd sink NELSON` |

A target is a ship id (0..53), or, with night actions, 54 + seat*16 + slot for the slot-th face-down ship of
that seat's task force (in the order the ships joined it), written `SEAT/N` (N from 1).

Chance outcomes: a second `ActionLayout` (`chance_layout`, the game's `chance_layout`): block `ship`, a ship id
(a ship dealt or drawn from the harbor, `ship NELSON`); block `card`, a play-card kind (the next card drawn,
`draw SALVO16x2`); block `die`, a die face (`roll 5`).
"""


from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Final

from warcards.engine.actions import ActionLayout
from warcards.engine.api import CHANCE
from warcards.engine.errors import InvalidActionError
from warcards.engine.text import quote
from warcards.games.naval_war.cards import CardTable

if TYPE_CHECKING:
    from warcards.games.naval_war.state import NavalWarState

SEATS: Final = 9
"""Seats are numbered up to 9 in the action space whatever the player count."""
SLOTS = 16
"""Face-down ships (night actions) are targeted by seat and slot: the k-th face-down ship of a task force."""
SIMPLE_ACTIONS = ("draw", "smoke", "dd", "sweep", "addship", "skip", "give_none")
"""The one-action blocks at the start of the player actions, in order."""


def num_targets(table: CardTable) -> int:
    """Targets: a ship by id (0..ships-1), or a face-down ship by seat and slot (ships + seat*SLOTS + slot)."""
    return table.num_ships + SEATS * SLOTS


@cache
def action_layout(table: CardTable) -> ActionLayout:
    """The player actions of a card table (the module docstring's table)."""
    nt = num_targets(table)
    nsk = len(table.salvo_kinds)
    return ActionLayout.build(
        *((name, 1) for name in SIMPLE_ACTIONS),
        ("discard", table.num_kinds),
        ("fire", nsk),
        ("at", nt),
        ("at_dd", SEATS),
        ("repair", table.num_cards),
        ("swap", nsk * SEATS),
        ("give", nsk),
        ("mine", len(table.mine_kinds) * SEATS),
        ("sub", nt),
        ("torpedo", nt),
        ("adddmg", len(table.adddmg_kinds) * table.num_cards),
        ("strike", nt),
        ("kamikaze", nt),
        ("dd_target", SEATS),
        ("dd_sink", nt),
    )


@cache
def chance_layout(table: CardTable) -> ActionLayout:
    """The chance outcomes of a card table: a ship, a play-card kind drawn, a die face."""
    return ActionLayout.build(("ship", table.num_ships), ("card", table.num_kinds), ("die", 6))


# ----- text ----------------------------------------------------------------------------------------------
def action_text(table: CardTable, action: int) -> str:
    """The notation of player action `action` (context-free)."""
    t = table
    layout = action_layout(table)
    a = action
    if not 0 <= a < layout.size:
        raise InvalidActionError(f"{a} is not a naval-war action: actions are 0..{layout.size - 1}")
    if a < layout.discard:
        return SIMPLE_ACTIONS[a].replace("_", " ")
    block, index = layout.decode(a)
    if block == "discard":
        return f"discard {t.kind_codes[index]}"
    if block == "fire":
        return f"fire {t.kind_codes[t.salvo_kinds[index]]}"
    if block == "at":
        return f"at {target_text(table, index)}"
    if block == "at_dd":
        return f"at dd {index}"
    if block == "repair":
        return f"repair {t.card_ids[index]}"
    if block == "swap":
        si, j = divmod(index, SEATS)
        return f"swap {t.kind_codes[t.salvo_kinds[si]]} with {j}"
    if block == "give":
        return f"give {t.kind_codes[t.salvo_kinds[index]]}"
    if block == "mine":
        mi, j = divmod(index, SEATS)
        return f"{t.kind_codes[t.mine_kinds[mi]]} at {j}"
    if block == "sub":
        return f"sub at {target_text(table, index)}"
    if block == "torpedo":
        return f"torpedo at {target_text(table, index)}"
    if block == "adddmg":
        ai, c = divmod(index, t.num_cards)
        return f"{t.kind_codes[t.adddmg_kinds[ai]]} on {t.card_ids[c]}"
    if block == "strike":
        return f"strike {target_text(table, index)}"
    if block == "kamikaze":
        return f"kamikaze {target_text(table, index)}"
    if block == "dd_target":
        return f"dd target {index}"
    return f"dd sink {target_text(table, index)}"


def target_text(table: CardTable, target: int) -> str:
    """A target: a ship id, or `SEAT/N` for the N-th face-down ship of a task force (night actions)."""
    if target < table.num_ships:
        return table.ship_ids[target]
    seat, slot = divmod(target - table.num_ships, SLOTS)
    return f"{seat}/{slot + 1}"


def outcome_text(table: CardTable, outcome: int) -> str:
    """The notation of chance outcome `outcome`."""
    chance = chance_layout(table)
    o = outcome
    if not 0 <= o < chance.size:
        raise InvalidActionError(f"{o} is not a naval-war chance outcome: outcomes are 0..{chance.size - 1}")
    if o < chance.card:
        return f"ship {table.ship_ids[o]}"
    if o < chance.die:
        return f"draw {table.kind_codes[o - chance.card]}"
    return f"roll {o - chance.die + 1}"


@cache
def _action_by_text(table: CardTable) -> dict[str, int]:
    return {normalize(action_text(table, a)): a for a in range(action_layout(table).size)}


@cache
def _outcome_by_text(table: CardTable) -> dict[str, int]:
    return {normalize(outcome_text(table, o)): o for o in range(chance_layout(table).size)}


def texts_that_clash(table: CardTable) -> str | None:
    """The first text that two actions (or two chance outcomes) share, or None: ids that read alike in the
    notation (docs/notation/naval-war.md) would make the text of one parse as the other."""
    for count, text_of in ((action_layout(table).size, action_text), (chance_layout(table).size, outcome_text)):
        seen: set[str] = set()
        for action in range(count):
            key = normalize(text_of(table, action))
            if key in seen:
                return key
            seen.add(key)
    return None


def parse(table: CardTable, text: str, chance: bool) -> int:
    """The action (or chance outcome when `chance`) for `text`, or `InvalidActionError`.

    Bare numbers are the engine's (`State.parse_action`). A chance outcome written at a player's turn,
    or a player's action written at a chance node, is refused with a message saying so. Linear in the
    length of `text` (`normalize`, then one dictionary look-up per table)."""
    key = normalize(text)
    actions = _action_by_text(table)
    outcomes = _outcome_by_text(table)
    found = (outcomes if chance else actions).get(key)
    if found is not None:
        return found
    if chance and key in actions:
        raise InvalidActionError(f"{quote(text)} is a player's action, but the game is dealing, drawing or "
                                 f"rolling now (a chance node); chance outcomes are: {_CHANCE_FORMS}")
    if not chance and key in outcomes:
        raise InvalidActionError(f"{quote(text)} is a chance outcome: dealing a ship, drawing a card or "
                                 f"rolling a die is the game's event, not a player's move")
    if chance:
        raise InvalidActionError(f"{quote(text)} is not a naval-war chance outcome (a chance node); forms "
                                 f"are: {_CHANCE_FORMS} (see docs/notation/naval-war.md)")
    raise InvalidActionError(f"{quote(text)} is not naval-war notation here; forms are: {_PLAYER_FORMS} "
                             f"(see docs/notation/naval-war.md)")


def action_to_string(state: NavalWarState, action: int) -> str:
    """The notation of `action` at `state`: a chance outcome at a chance node, a player's action elsewhere."""
    if state.to_act == CHANCE and 0 <= action < state.game.chance_layout.size:
        return outcome_text(state.table, action)
    return action_text(state.table, action)


def parse_action(state: NavalWarState, text: str) -> int:
    """The action (chance outcome at a chance node) written `text` at `state`, or `InvalidActionError`."""
    return parse(state.table, text, state.to_act == CHANCE)


_CHANCE_FORMS = "ship SHIP, draw KIND, roll N"
_PLAYER_FORMS = (
    "draw, discard KIND, fire KIND, at SHIP, at dd SEAT, repair CARD, smoke, dd, sweep, swap KIND with SEAT, "
    "give KIND, give none, MINE1 at SEAT, sub at SHIP, torpedo at SHIP, ADDDMG1 on CARD, addship, strike SHIP, "
    "kamikaze SHIP, skip, dd target SEAT, dd sink SHIP"
)


def normalize(text: str) -> str:
    """Case-, underscore- and spacing-insensitive form of an action text (linear: `str.split`)."""
    return " ".join(text.replace("_", " ").lower().split())
