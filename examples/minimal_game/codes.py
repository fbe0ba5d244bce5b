"""The Minimal Game's named numbers: phases and sentinels (no magic numbers elsewhere)."""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Phase(IntEnum):
    """Where the game is in its turn (README.md, rules 2-6)."""

    DEAL = 0
    """Rule 2: the hands are dealt, one chance node per card."""
    PLAY = 1
    """Rules 3-4: the seats play to the trick in turn."""
    DRAW = 2
    """Rule 5: every seat draws a card, the trick's winner first (one chance node per card)."""
    OVER = 3
    """Rule 6: every hand is empty."""


PHASE_NAMES: tuple[str, ...] = tuple(phase.name.lower() for phase in Phase)
"""Each phase as the views and setups write it: `deal`, `play`, `draw`, `over`."""

NO_CARD: Final = -1
"""In `MinimalState.trick`: the seat has not played to the current trick yet."""
FACE_DOWN: Final = -2
"""In `MinimalState.trick`: the seat discarded face down (the card is in its `face_down` pile)."""
