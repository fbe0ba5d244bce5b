"""Naval War state codes: where a card or ship is, the phases of play, what a die roll resolves, sentinels."""

from __future__ import annotations

from typing import Final

from warcards.engine.codes import constants
from warcards.games.naval_war.cards import MAX_SHIPS

# Play-card positions (`NavalWarState.card_position`): a code, or a code plus a seat, ship or card number.
DECK: Final = 0
DISCARD: Final = 1
UNSEEN: Final = 2
BOX: Final = 3
PLAY: Final = 4
HAND: Final = 10
MINES: Final = 20
SMOKE: Final = 30
DDC: Final = 40
ON_DD: Final = 50
ON_SHIP: Final = 100
ON_SALVO: Final = ON_SHIP + MAX_SHIPS  # 1000: ON_SHIP + ship stays below it
# Ship positions (`NavalWarState.ship_position`; HARBOR and BOX share the play-card codes 0 and 3).
HARBOR: Final = 0
FLEET: Final = 10
DEEP: Final = 20

NONE: Final = -1
"""No card, ship, seat or target (an empty slot: no Smoke played, no red card pending, no last minefield)."""

# A kind's play after the draw when it depends on the state (`NavalWarGame.kind_plays`; other plays are actions).
PLAY_SWEEP: Final = -2
"""Minesweeper: `sweep`, while a minefield lies before the player's task force."""
PLAY_REPAIR: Final = -3
"""Repair: `repair SALVO` for each salvo under the player's ships."""


@constants
class Phase:
    """The phases of play (`NavalWarState.phase`), plain ints so that the rules compare them cheaply."""

    DEAL_SHIP: Final = 0
    """Setup: a ship is dealt (chance)."""
    DEAL_CARD: Final = 1
    """Setup: a play card is dealt (chance)."""
    REFILL: Final = 2
    """Opening: a card refills the opener's hand (chance)."""
    OPEN: Final = 3
    """Opening: the opener plays one of his red cards."""
    CHOICE: Final = 4
    """Turn: draw, or name the first air strike."""
    DRAW: Final = 5
    """Turn: the card drawn (chance)."""
    PLAY: Final = 6
    """Turn: play or discard a card after the draw."""
    RED: Final = 7
    """Red cards: the target of the red card drawn."""
    ROLL: Final = 8
    """A die roll (chance): submarine, torpedo boat, Destroyer Squadron or air strike."""
    SHIP: Final = 9
    """Red cards: the Additional Ship drawn from the harbor (chance)."""
    STRIKE: Final = 10
    """Air strikes: the target of the next carrier."""
    DD_TARGET: Final = 11
    """Destroyer Squadron: the task force it attacks."""
    DD_SINK: Final = 12
    """Destroyer Squadron: the next ship it sinks."""
    GIVE: Final = 13
    """Fleet play: the mate returns a salvo."""
    END: Final = 14
    """The game is over."""
    AIM: Final = 15
    """Normal cards, Salvo: the target of the salvo being fired."""


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
"""The name of each phase in `position()["phase"]`, indexed by phase number."""


@constants
class Roll:
    """What a die roll resolves (`NavalWarState.roll_kind`)."""

    SUB: Final = 0
    """A Submarine: sinks on 5–6."""
    TORPEDO: Final = 1
    """A Torpedo Boat: sinks on 6."""
    DD: Final = 2
    """A Destroyer Squadron: sinks that many ships."""
    STRIKE: Final = 3
    """An air strike: sinks on 1 (1–2 as Kamikaze)."""


DRAW_PHASES = frozenset({Phase.DEAL_CARD, Phase.REFILL, Phase.DRAW})
"""The chance phases that draw a play card (the others deal a ship, draw an Additional Ship or roll the die)."""
