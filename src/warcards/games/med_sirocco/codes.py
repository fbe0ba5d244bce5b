"""Med Sirocco's named codes: phases, chance kinds, procedure stages, public event kinds, refusal reasons.

Plain ints (the state holds ints; hot code compares them): the classes name and document them, one spelling
each (`Phase.TURN`); nothing else in the package writes these numbers out.
"""

from __future__ import annotations

from typing import Final

from warcards.engine.codes import constants


@constants
class Phase:
    """Who acts and on what (`MedSiroccoState.phase`): plain ints, since the rules compare them on every
    action; `PHASE_NAMES` gives each its name."""

    CHANCE: Final = 0
    """A card is drawn or a die rolled (`MedSiroccoState.chance_kind` says which)."""
    OP_CHOOSE: Final = 1
    """5.0: the 1st player keeps one of the two Operations drawn."""
    TYPE: Final = 2
    """3.1: the 1st player declares a Convoy's engagement type."""
    TURN: Final = 3
    """1.4 C: a player starts his play (play, discard or pass)."""
    BUILD: Final = 4
    """1.4 C: a player adds cards to his play or ends it (`done`)."""
    ADMIRAL: Final = 5
    """2.46: the Admiral's player chooses option A or B."""
    TARGET: Final = 6
    """S04 Fog, S06 Bomb alley: the player chooses the card targeted."""
    SIROCCO_TARGET: Final = 7
    """2.44: the Sirocco's roller chooses the player cancelled."""
    HELD: Final = 8
    """2.44: the holder of a passed Sirocco uses or discards it."""
    LOST_CARD: Final = 9
    """S02: Lost's player chooses the cards he gives."""
    LOST_SEAT: Final = 10
    """S02: Lost's player chooses the players he exchanges with."""
    SUPPLY: Final = 11
    """2.41: a Supply card's player picks up a ship card or passes."""
    SHARE: Final = 12
    """5.0: the winner names the receiver of the next prize card."""
    END: Final = 13
    """The game (or the series) is over."""


@constants
class ChanceKind:
    """What a chance node draws or rolls (`MedSiroccoState.chance_kind`; -1 when none is pending)."""

    DRAW: Final = 0
    """1.3, 1.5, 3.2: a card from the Force pile into the hand of `draw_queue[0]`."""
    OPERATION: Final = 1
    """1.4 B, 5.0: an Operation from the Operations pile."""
    SIROCCO: Final = 2
    """2.44: the Sirocco's die."""
    EXPLOSION: Final = 3
    """S03: one of the Explosion's two dice."""
    EXPLOSION_PICK: Final = 4
    """S03 on a 7: which of its player's own Force cards is sunk."""
    LOST_PICK: Final = 5
    """S02: the card taken at random from the chosen player's hand."""
    ROLL: Final = 6
    """3.1: a die for a card's `?` value (`roll_queue`)."""


@constants
class Stage:
    """Where the procedure is (`MedSiroccoState.stage`), run on by `rules.advance`."""

    START_OPERATION: Final = 0
    ROUND_START: Final = 1
    TURNS: Final = 2
    INTELLIGENCE: Final = 3
    ROUND_END: Final = 4
    RESOLVE: Final = 5
    SUPPLY: Final = 6
    SHARE: Final = 7
    DONE: Final = 8


PLAY_PHASES = (Phase.TURN, Phase.BUILD)
"""The two phases of a player's play (1.4 C), tested together on most decisions (one constant tuple)."""
PHASE_NAMES = ("chance", "choose-operation", "declare-type", "turn", "play", "admiral", "target", "sirocco-target",
               "held-sirocco", "lost-card", "lost-seat", "supply", "share", "end")
"""Each phase's name in positions and observations, indexed by `Phase`."""
STAGE_NAMES = ("start-operation", "round-start", "turns", "intelligence", "round-end", "resolve", "supply", "share",
               "over")
"""Each stage's name in positions, indexed by `Stage`."""

# Public events kept for the views (code, a, b); `views.event_text` writes them out.
EV_OP: Final = 0
EV_ROLL_SIROCCO: Final = 1
EV_ROLL_EXPL: Final = 2
EV_ROLL_CARD: Final = 3
EV_CANCEL: Final = 4
EV_SIROCCO_PASS: Final = 5
EV_SIROCCO_GONE: Final = 6
EV_DESTROY: Final = 7
EV_SUNK: Final = 8
EV_INVALID: Final = 9
EV_TOTALS: Final = 10
EV_WIN: Final = 11
EV_DRAW: Final = 12
EV_NO_COMBAT: Final = 13
EV_PICKUP: Final = 14
EV_SHARE: Final = 15

# Why a card may not be played now (`reason_text` writes them out): NO_REFUSAL when it may be, else the refusal,
# named NO_<what stops it> (not to be read as the rulings R<n> of RULES.md).
NO_REFUSAL: Final = 0
NO_SIDE: Final = 1
NO_RESTRICT: Final = 2
NO_YEAR: Final = 3
NO_ONE_FORCE: Final = 4
NO_SHALLOWS: Final = 5
NO_BONUS_HOST: Final = 6
NO_RAID_TYPE: Final = 7
NO_RAID_SURFACE: Final = 8
NO_TWIN: Final = 9
NO_INTEL_ROUND: Final = 10
NO_INTEL_FORCE: Final = 11
NO_ADMIRAL_FORCE: Final = 12
NO_FOG_NONE: Final = 13
NO_BOMB_NONE: Final = 14
NO_NIGHT: Final = 15
NO_SHALLOWS_ROUND: Final = 16
NO_LOST: Final = 17
NO_INTEL_SIDE: Final = 18
NO_RAID_ROUND: Final = 19

# A Supply card waiting to pick up (2.41) is coded as its index among the cards under the Operation, or as
# SUPPLY_IN_PLAY + its entry number when it is still in play.
SUPPLY_IN_PLAY: Final = 1000
# The first year of the game (2.2: cards are playable in 1940–1943); a year's bit is 1 << (year - FIRST_YEAR).
FIRST_YEAR: Final = 1940
