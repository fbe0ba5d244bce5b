"""Med Sirocco's named codes: phases, chance kinds, procedure stages, public event kinds, refusal reasons.

Plain ints (the state holds ints; hot code compares them): the classes name and document them, one spelling
each (`Phase.TURN`); nothing else in the package writes these numbers out.
"""

from __future__ import annotations

from warcards.engine.codes import constants


@constants
class Phase:
    """Who acts and on what (`MedSiroccoState.phase`): plain ints, since the rules compare them on every
    action; `PHASE_NAMES` gives each its name."""

    CHANCE = 0
    """A card is drawn or a die rolled (`MedSiroccoState.chance_kind` says which)."""
    OP_CHOOSE = 1
    """5.0: the 1st player keeps one of the two Operations drawn."""
    TYPE = 2
    """3.1: the 1st player declares a Convoy's engagement type."""
    TURN = 3
    """1.4 C: a player starts his play (play, discard or pass)."""
    BUILD = 4
    """1.4 C: a player adds cards to his play or ends it (`done`)."""
    ADMIRAL = 5
    """2.46: the Admiral's player chooses option A or B."""
    TARGET = 6
    """S04 Fog, S06 Bomb alley: the player chooses the card targeted."""
    SIROCCO_TARGET = 7
    """2.44: the Sirocco's roller chooses the player cancelled."""
    HELD = 8
    """2.44: the holder of a passed Sirocco uses or discards it."""
    LOST_CARD = 9
    """S02: Lost's player chooses the cards he gives."""
    LOST_SEAT = 10
    """S02: Lost's player chooses the players he exchanges with."""
    SUPPLY = 11
    """2.41: a Supply card's player picks up a ship card or passes."""
    SHARE = 12
    """5.0: the winner names the receiver of the next prize card."""
    END = 13
    """The game (or the series) is over."""


@constants
class ChanceKind:
    """What a chance node draws or rolls (`MedSiroccoState.chance_kind`; -1 when none is pending)."""

    DRAW = 0
    """1.3, 1.5, 3.2: a card from the Force pile into the hand of `draw_queue[0]`."""
    OPERATION = 1
    """1.4 B, 5.0: an Operation from the Operations pile."""
    SIROCCO = 2
    """2.44: the Sirocco's die."""
    EXPLOSION = 3
    """S03: one of the Explosion's two dice."""
    EXPLOSION_PICK = 4
    """S03 on a 7: which of its player's own Force cards is sunk."""
    LOST_PICK = 5
    """S02: the card taken at random from the chosen player's hand."""
    ROLL = 6
    """3.1: a die for a card's `?` value (`roll_queue`)."""


@constants
class Stage:
    """Where the procedure is (`MedSiroccoState.stage`), run on by `rules.advance`."""

    START_OPERATION = 0
    ROUND_START = 1
    TURNS = 2
    INTELLIGENCE = 3
    ROUND_END = 4
    RESOLVE = 5
    SUPPLY = 6
    SHARE = 7
    DONE = 8


PLAY_PHASES = (Phase.TURN, Phase.BUILD)
"""The two phases of a player's play (1.4 C), tested together on most decisions (one constant tuple)."""
PHASE_NAMES = ("chance", "choose-operation", "declare-type", "turn", "play", "admiral", "target", "sirocco-target",
               "held-sirocco", "lost-card", "lost-seat", "supply", "share", "end")
"""Each phase's name in positions and observations, indexed by `Phase`."""
STAGE_NAMES = ("start-operation", "round-start", "turns", "intelligence", "round-end", "resolve", "supply", "share",
               "over")
"""Each stage's name in positions, indexed by `Stage`."""

# Public events kept for the views (code, a, b); `views.event_text` writes them out.
EV_OP, EV_ROLL_SIROCCO, EV_ROLL_EXPL, EV_ROLL_CARD, EV_CANCEL, EV_SIROCCO_PASS, EV_SIROCCO_GONE = range(7)
EV_DESTROY, EV_SUNK, EV_INVALID, EV_TOTALS, EV_WIN, EV_DRAW, EV_NO_COMBAT, EV_PICKUP, EV_SHARE = range(7, 16)

# Why a card may not be played now (`reason_text` writes them out): NO_REFUSAL when it may be, else the refusal,
# named NO_<what stops it> (not to be read as the rulings R<n> of RULES.md).
NO_REFUSAL, NO_SIDE, NO_RESTRICT, NO_YEAR, NO_ONE_FORCE, NO_SHALLOWS = range(6)
NO_BONUS_HOST, NO_RAID_TYPE, NO_RAID_SURFACE = range(6, 9)
NO_TWIN, NO_INTEL_ROUND, NO_INTEL_FORCE, NO_ADMIRAL_FORCE, NO_FOG_NONE, NO_BOMB_NONE, NO_NIGHT = range(9, 16)
NO_SHALLOWS_ROUND, NO_LOST, NO_INTEL_SIDE, NO_RAID_ROUND = range(16, 20)

# A Supply card waiting to pick up (2.41) is coded as its index among the cards under the Operation, or as
# SUPPLY_IN_PLAY + its entry number when it is still in play.
SUPPLY_IN_PLAY = 1000
# The first year of the game (2.2: cards are playable in 1940–1943); a year's bit is 1 << (year - FIRST_YEAR).
FIRST_YEAR = 1940
