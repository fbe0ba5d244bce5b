"""Naval War state codes: where a card or ship is, the phases of play, what a die roll resolves, sentinels."""

from __future__ import annotations

from warcards.engine.codes import constants
from warcards.games.naval_war.cards import MAX_SHIPS

# Play-card positions (`NavalWarState.card_position`): a code, or a code plus a seat, ship or card number.
DECK, DISCARD, UNSEEN, BOX, PLAY = 0, 1, 2, 3, 4
HAND, MINES, SMOKE, DDC, ON_DD = 10, 20, 30, 40, 50
ON_SHIP = 100
ON_SALVO = ON_SHIP + MAX_SHIPS  # 1000: ON_SHIP + ship stays below it
# Ship positions (`NavalWarState.ship_position`; HARBOR and BOX share the play-card codes 0 and 3).
HARBOR = 0
FLEET, DEEP = 10, 20

NONE = -1
"""No card, ship, seat or target (an empty slot: no Smoke played, no red card pending, no last minefield)."""

# A kind's play after the draw when it depends on the state (`NavalWarGame.kind_plays`; other plays are actions).
PLAY_SWEEP = -2
"""Minesweeper: `sweep`, while a minefield lies before the player's task force."""
PLAY_REPAIR = -3
"""Repair: `repair SALVO` for each salvo under the player's ships."""


@constants
class Phase:
    """The phases of play (`NavalWarState.phase`), plain ints so that the rules compare them cheaply."""

    DEAL_SHIP = 0
    """Setup: a ship is dealt (chance)."""
    DEAL_CARD = 1
    """Setup: a play card is dealt (chance)."""
    REFILL = 2
    """Opening: a card refills the opener's hand (chance)."""
    OPEN = 3
    """Opening: the opener plays one of his red cards."""
    CHOICE = 4
    """Turn: draw, or name the first air strike."""
    DRAW = 5
    """Turn: the card drawn (chance)."""
    PLAY = 6
    """Turn: play or discard a card after the draw."""
    RED = 7
    """Red cards: the target of the red card drawn."""
    ROLL = 8
    """A die roll (chance): submarine, torpedo boat, Destroyer Squadron or air strike."""
    SHIP = 9
    """Red cards: the Additional Ship drawn from the harbor (chance)."""
    STRIKE = 10
    """Air strikes: the target of the next carrier."""
    DD_TARGET = 11
    """Destroyer Squadron: the task force it attacks."""
    DD_SINK = 12
    """Destroyer Squadron: the next ship it sinks."""
    GIVE = 13
    """Fleet play: the mate returns a salvo."""
    END = 14
    """The game is over."""
    AIM = 15
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

    SUB = 0
    """A Submarine: sinks on 5–6."""
    TORPEDO = 1
    """A Torpedo Boat: sinks on 6."""
    DD = 2
    """A Destroyer Squadron: sinks that many ships."""
    STRIKE = 3
    """An air strike: sinks on 1 (1–2 as Kamikaze)."""


DRAW_PHASES = frozenset({Phase.DEAL_CARD, Phase.REFILL, Phase.DRAW})
"""The chance phases that draw a play card (the others deal a ship, draw an Additional Ship or roll the die)."""
