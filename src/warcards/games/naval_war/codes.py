"""Naval War state codes: where a card is, the phases of play, what a die roll resolves."""

from __future__ import annotations

# Play-card positions.
DECK, DISCARD, UNSEEN, BOX, PLAY = 0, 1, 2, 3, 4
HAND, MINES, SMOKE, DDC, ON_DD = 10, 20, 30, 40, 50
ON_SHIP = 100
ON_SALVO = 1000
# Ship positions (HARBOR and BOX share the play-card codes 0 and 3).
HARBOR = 0
FLEET, DEEP = 10, 20

# Phases.
(
    PH_DEAL_SHIP,
    PH_DEAL_CARD,
    PH_REFILL,
    PH_OPEN,
    PH_CHOICE,
    PH_DRAW,
    PH_PLAY,
    PH_RED,
    PH_ROLL,
    PH_SHIP,
    PH_STRIKE,
    PH_DD_TARGET,
    PH_DD_SINK,
    PH_GIVE,
    PH_END,
    PH_AIM,
) = range(16)
PHASE_NAMES = (
    "deal-ships",
    "deal-cards",
    "refill",
    "opening",
    "choice",
    "draw",
    "play",
    "red",
    "roll",
    "additional-ship",
    "air-strike",
    "dd-target",
    "dd-sink",
    "give",
    "end",
    "aim",
)
# What a die roll resolves.
R_SUB, R_TORPEDO, R_DD, R_STRIKE = range(4)
