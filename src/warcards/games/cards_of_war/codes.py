"""Cards of War codes: the phases of play, the game lengths, the battles and the named sentinels.

Section names are the rule text's headings; "R<n>" cites a ruling in RULES.md.
"""

from __future__ import annotations

from typing import Final

from warcards.engine.codes import constants


@constants
class Phase:
    """Where the game stands (plain ints: the rules compare them on every action); `PHASE_NAMES` gives each
    its name in the position and the observation."""

    FIRST_DRAW: Final = 0
    """SETUP: each seat draws a card to see who goes first (a chance node; R1)."""
    DEAL: Final = 1
    """SETUP / between rounds: hands are dealt or topped up, first player first (chance nodes)."""
    DEPLOY: Final = 2
    """PLAYING A ROUND: the mover deploys a card (or starts a joint deployment, or passes with no card)."""
    JOINT_SECOND: Final = 3
    """Joint deployment: the mover deploys the partner of the card just deployed (R15, R16)."""
    REINFORCE_DRAW: Final = 4
    """SPECIAL ABILITIES 2: the mover draws the REINFORCE card (a chance node; R7)."""
    REINFORCE: Final = 5
    """SPECIAL ABILITIES 2: the mover deploys again (Alternative Reinforce: the drawn card or the top discard)."""
    REFILL: Final = 6
    """PLAYING A ROUND: the mover refills the hand at the end of the turn (chance nodes; R7, R20)."""
    OVER: Final = 7
    """WINNING THE GAME: the game has ended."""


PHASE_NAMES = ("first_draw", "deal", "deploy", "joint", "reinforce_draw", "reinforce", "refill", "over")
"""The name of each `Phase`, as the position and the observation show it."""

PHASE_WORDS = {
    "first_draw": "drawing for the first turn",
    "deal": "dealing",
    "deploy": "deploy",
    "joint": "deploy the joint partner",
    "reinforce_draw": "REINFORCE draw",
    "reinforce": "REINFORCE: deploy again",
    "refill": "refilling the hand",
    "over": "game over",
}
"""Each phase (by its `PHASE_NAMES` name) in a player's words, as the board and the prompt line show it."""

SEAT_NAMES = ("player 0", "player 1")
"""The seats' names (`Game.seat_names`), as the log, the board and the result name them."""


class Length:
    """WINNING THE GAME: the game lengths, in the order of `params.LENGTHS`."""

    SHORT: Final = 0
    """One round."""
    NORMAL: Final = 1
    """Best of three rounds (R12)."""
    LONG: Final = 2
    """Until a lead of three rounds, cut off after `LONG_GAME_ROUND_CAP` rounds (R22)."""


BATTLE_NAMES = ("left", "centre", "right")
"""PLAYING A ROUND: the three battles, in battle order."""
NUM_BATTLES: Final = 3
"""How many battles a round has; a deployment action is `kind * NUM_BATTLES + battle`."""
ALL_BATTLES_OPEN: Final = 7
"""The `open_battles` bitmask of a fresh round: bit b set while battle b is unresolved."""

OPEN: Final = -1
"""`battle_winner` of a battle nobody has won yet."""
VOID: Final = 2
"""`battle_winner` of a battle nobody won: a stalled round's tie (R11)."""
NO_SEAT: Final = -1
"""No seat: no game winner (yet, or a drawn long game), no round winner (a drawn round)."""
NO_CARD: Final = -1
"""No card: no REINFORCE card drawn, no first card of a joint deployment, no first-draw card."""
NO_BATTLE: Final = -1
"""No battle: a joint deployment's first card not yet placed."""
NO_THEATRE: Final = -1
"""Theatres of War: a battle whose theatre no card has fixed yet (R15)."""
