"""Race to Messina codes: the phases of a turn, the kinds of log event, and the named sentinels.

The six phases of a turn (rule text): Logistics, Strategy, Deployment, Action, Resolution, Recovery.
Resolution is a step between Action and Recovery (`rules.resolution`), never a phase a seat acts in.
"""

from __future__ import annotations

from typing import Final

from warcards.engine.codes import constants


@constants
class Phase:
    """The phase of the turn a state is in (`RaceToMessinaState.phase`): plain ints, since the rules compare
    them on every action; `PHASE_NAMES` gives each its name."""

    LOGISTICS: Final = 0
    """Logistics: "Each player fills their hand" (one chance node per card drawn)."""
    STRATEGY: Final = 1
    """Strategy: each seat discards up to its limit, then draws as many (R26)."""
    DEPLOYMENT: Final = 2
    """Deployment: each seat chooses its cards face down; all are revealed together (R31)."""
    ACTION: Final = 3
    """Action: the slots activate their cards in turn until every slot has passed (R1, R24)."""
    RECOVERY: Final = 4
    """Recovery: "You must discard down to 2 cards or less" (R28)."""
    OVER: Final = 5
    """The game has ended (`RaceToMessinaState.winner`)."""


PHASE_NAMES = ("logistics", "strategy", "deployment", "action", "recovery", "over")
"""Each phase's name in positions, observations and setups, indexed by `Phase`."""

PHASE_TITLES = ("Logistics", "Strategy", "Deployment", "Action", "Recovery", "Over")
"""Each phase's name as messages cite the rule text, indexed by `Phase`."""


# Log events: (kind, ...ints). Rendered per viewer by views.py.
EV_DISCARD: Final = 0  # seat, card
EV_DRAWN: Final = 1  # seat, count (Strategy replacements)
EV_DEPLOYED: Final = 2  # group, count
EV_ACTIVATE: Final = 3  # seat, card
EV_TARGET: Final = 4  # seat, card, target
EV_RECON: Final = 5  # seat, looked-at seat, bitmask of that hand (private to seat)
EV_SUPPLY: Final = 6  # seat, card (the card is private to seat)
EV_KEEP: Final = 7  # seat, card (private)
EV_REVEAL: Final = 8  # seat, card
EV_PT: Final = 9  # seat, amount, reason (a PT_* code)
EV_HAND: Final = 10  # attacking group, its Ally total, defending group, its Axis total, 1 if the attacker won
EV_SUPPLY_EMPTY: Final = 11  # seat
EV_PASS: Final = 12  # seat, group

PRIVATE_EVENTS = (EV_RECON, EV_SUPPLY, EV_KEEP)
"""Events whose last field only the acting seat may read (the hand seen, the card drawn or kept)."""

# Why PT were gained (the reason field of EV_PT).
PT_HAND: Final = 0
PT_PROGRESS: Final = 1
PT_HUBE: Final = 2
PT_TURN: Final = 3

PT_REASONS = ("won the hand", "Progress", "Hube", "end of turn")
"""Each PT_* reason as the log reads it."""

NO_WINNER: Final = -1
"""`RaceToMessinaState.winner` while the game is being played."""

DRAW: Final = -2
"""`RaceToMessinaState.winner` of a drawn Race (R37, equal PT at the same check)."""

NO_CARD: Final = -1
"""No card: no Supply card waiting, a redacted private card in a sampled log, no target of an action."""

NO_GROUP: Final = -1
"""No group: no Supply activation under way."""

NO_SEAT: Final = -1
"""No seat: the Race has no Axis seat; nobody acts once the game is over."""

HIDDEN: Final = -1
"""A private event field another seat may not read, in a determinized state's log (views.determinize)."""
