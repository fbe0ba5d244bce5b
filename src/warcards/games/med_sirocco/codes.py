"""Med Sirocco's named codes: phases, chance kinds, procedure stages, public event kinds, refusal reasons.

Plain int constants (the state holds ints; hot code compares them), each group documented here; nothing else
in the package writes these numbers out.
"""

from __future__ import annotations

# Phases (who acts and on what).
PH_CHANCE, PH_OP_CHOOSE, PH_TYPE, PH_TURN, PH_BUILD, PH_ADMIRAL = 0, 1, 2, 3, 4, 5
PH_TARGET, PH_SIROCCO_TARGET, PH_HELD, PH_LOST_CARD, PH_LOST_SEAT, PH_SUPPLY, PH_SHARE, PH_END = (
    6, 7, 8, 9, 10, 11, 12, 13)
PHASE_NAMES = ("chance", "choose-operation", "declare-type", "turn", "play", "admiral", "target", "sirocco-target",
               "held-sirocco", "lost-card", "lost-seat", "supply", "share", "end")
# Chance kinds.
CK_DRAW, CK_OP, CK_SIROCCO, CK_EXPLOSION, CK_EXPL_PICK, CK_LOST_PICK, CK_ROLL = 0, 1, 2, 3, 4, 5, 6
# Stages of the procedure.
ST_START_OP, ST_ROUND_START, ST_TURNS, ST_INTEL, ST_ROUND_END, ST_RESOLVE, ST_SUPPLY, ST_SHARE, ST_DONE = range(9)
STAGE_NAMES = ("start-operation", "round-start", "turns", "intelligence", "round-end", "resolve", "supply", "share",
               "over")

# Public events kept for the views (code, a, b); `views.EVENT_TEXT` writes them out.
EV_OP, EV_ROLL_SIROCCO, EV_ROLL_EXPL, EV_ROLL_CARD, EV_CANCEL, EV_SIROCCO_PASS, EV_SIROCCO_GONE = range(7)
EV_DESTROY, EV_SUNK, EV_INVALID, EV_TOTALS, EV_WIN, EV_DRAW, EV_NO_COMBAT, EV_PICKUP, EV_SHARE = range(7, 16)

# Reasons a card may not be played now (codes; `reason_text` writes them out).
R_OK, R_SIDE, R_RESTRICT, R_YEAR, R_ONE_FORCE, R_SHALLOWS, R_BONUS_HOST, R_RAID_TYPE, R_RAID_SURFACE = range(9)
R_TWIN, R_INTEL_ROUND, R_INTEL_FORCE, R_ADMIRAL_FORCE, R_FOG_NONE, R_BOMB_NONE, R_NIGHT = range(9, 16)
R_SHALLOWS_ROUND, R_LOST, R_INTEL_SIDE, R_RAID_ROUND = range(16, 20)

# A Supply card waiting to pick up (2.41) is coded as its index among the cards under the Operation, or as
# SUPPLY_IN_PLAY + its entry number when it is still in play.
SUPPLY_IN_PLAY = 1000
# The first year of the game (2.2: cards are playable in 1940–1943); a year's bit is 1 << (year - FIRST_YEAR).
FIRST_YEAR = 1940
