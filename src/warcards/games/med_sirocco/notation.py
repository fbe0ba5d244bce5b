"""Med Sirocco action numbering and notation (docs/notation/med-sirocco.md).

Player actions: `play A12`, `discard A12`, `discard all`, `done`, `pass`, `use sirocco`, `select O12`,
`seat 2`, `type air|surface|sub|combined`, `admiral combined|two`. Chance outcomes: `draw A12` (a card
from a pile or a hand) and `roll 5` (a die).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from warcards.engine.actions import ActionLayout
from warcards.engine.errors import InvalidActionError
from warcards.engine.text import quote
from warcards.games.med_sirocco.codes import Phase

if TYPE_CHECKING:
    from warcards.games.med_sirocco.state import MedSiroccoState

N_PILE: Final = 121  # A01–A59, X01–X55, S01–S07
N_CARDS: Final = 165  # plus O01–O44
N_SEATS: Final = 6  # the most players (1.0)
TYPE_WORDS = ("air", "surface", "sub", "combined")
TYPE_MASKS = (1, 2, 4, 7)

LAYOUT = ActionLayout.build(
    ("play", N_PILE),  # play <card>
    ("discard", N_PILE),  # discard <card>
    ("select", N_CARDS),  # select <card>: an Operation, a target, a Supply pick-up, a prize
    ("seat", N_SEATS),  # seat <n>
    ("type", len(TYPE_WORDS)),  # type air|surface|sub|combined
    ("admiral_combined", 1),
    ("admiral_two", 1),
    ("discard_all", 1),
    ("done", 1),
    ("pass_play", 1),
    ("use_sirocco", 1),
)
"""The player actions (docs/notation/med-sirocco.md)."""
CHANCE_LAYOUT = ActionLayout.build(("draw", N_CARDS), ("roll", 6))
"""The chance outcomes: `draw <card>` (from a pile or a hand), `roll <k>` (a die showing k)."""

# The offsets, read in the hot paths.
PLAY = LAYOUT.play
DISCARD = LAYOUT.discard
SELECT = LAYOUT.select
SEAT = LAYOUT.seat
TYPE = LAYOUT.type
ADMIRAL_A = LAYOUT.admiral_combined
ADMIRAL_B = LAYOUT.admiral_two
DISCARD_ALL = LAYOUT.discard_all
DONE = LAYOUT.done
PASS = LAYOUT.pass_play
USE = LAYOUT.use_sirocco
NUM_ACTIONS = LAYOUT.size
DIE = CHANCE_LAYOUT.roll  # chance outcome DIE + k - 1 is a die showing k
NUM_CHANCE = CHANCE_LAYOUT.size

def action_text(action: int, ids: tuple[str, ...], chance: bool) -> str:
    """The notation of an action (or of a chance outcome when `chance`)."""
    if chance:
        if 0 <= action < N_CARDS:
            return f"draw {ids[action]}"
        if DIE <= action < NUM_CHANCE:
            return f"roll {action - DIE + 1}"
        raise ValueError(f"{action} is not a chance outcome of med-sirocco")
    if PLAY <= action < DISCARD:
        return f"play {ids[action]}"
    if DISCARD <= action < SELECT:
        return f"discard {ids[action - DISCARD]}"
    if SELECT <= action < SEAT:
        return f"select {ids[action - SELECT]}"
    if SEAT <= action < TYPE:
        return f"seat {action - SEAT}"
    if TYPE <= action < ADMIRAL_A:
        return f"type {TYPE_WORDS[action - TYPE]}"
    fixed = {ADMIRAL_A: "admiral combined", ADMIRAL_B: "admiral two", DISCARD_ALL: "discard all", DONE: "done",
             PASS: "pass", USE: "use sirocco"}
    if action in fixed:
        return fixed[action]
    raise ValueError(f"{action} is not an action of med-sirocco")


FORMS = ("play <card>, discard <card>, discard all, done, pass, use sirocco, select <card>, seat <n>, "
         "type air|surface|sub|combined, admiral combined|two")
CHANCE_FORMS = "draw <card>, roll <1-6>"
CHANCE_VERBS = ("draw", "roll")
PLAYER_VERBS = ("play", "discard", "done", "pass", "use", "select", "seat", "type", "admiral")
FIXED = {"admiral combined": ADMIRAL_A, "admiral two": ADMIRAL_B, "discard all": DISCARD_ALL, "done": DONE,
         "pass": PASS, "use sirocco": USE}


def parse_text(text: str, index: dict[str, int], chance: bool) -> int:
    """The action (or chance outcome when `chance`) written as `text`, or `InvalidActionError`.

    Bare numbers are the engine's (`State.parse_action`). A chance word (`draw`, `roll`) at a player's
    decision and a player's word at a chance node are refused: a draw or a die is the game's event (1.4).
    Linear in the length of `text` (one `split`, then dictionary look-ups)."""
    words = text.lower().split()
    verb = words[0] if words else ""

    def card(word: str, limit: int) -> int:
        key = word.upper()
        if key not in index or index[key] >= limit:
            raise InvalidActionError(f"{quote(word)} is not a card number here (A01–A59, X01–X55, S01–S07"
                                     f"{', O01–O44' if limit > N_PILE else ''})")
        return index[key]

    if chance:
        if len(words) == 2 and verb == "draw":
            return card(words[1], N_CARDS)
        if len(words) == 2 and verb == "roll" and words[1] in ("1", "2", "3", "4", "5", "6"):
            return DIE + int(words[1]) - 1
        if verb in PLAYER_VERBS:
            raise InvalidActionError(f"{quote(text)} is a player's move, but a card is being drawn or a die "
                                     f"rolled (a chance node); chance outcomes are: {CHANCE_FORMS}")
        raise InvalidActionError(f"{quote(text)} is not a med-sirocco chance outcome; forms: {CHANCE_FORMS}")
    if verb in CHANCE_VERBS:
        raise InvalidActionError(f"{quote(text)} is a chance outcome: drawing a card or rolling a die is the "
                                 f"game's event, not a player's move; a player's forms: {FORMS}")
    phrase = " ".join(words)
    if phrase in FIXED:
        return FIXED[phrase]
    if len(words) == 2:
        arg = words[1]
        if verb == "play":
            return PLAY + card(arg, N_PILE)
        if verb == "discard":
            return DISCARD + card(arg, N_PILE)
        if verb == "select":
            return SELECT + card(arg, N_CARDS)
        if verb == "seat" and arg in ("0", "1", "2", "3", "4", "5"):
            return SEAT + int(arg)
        if verb == "type" and arg in TYPE_WORDS:
            return TYPE + TYPE_WORDS.index(arg)
    raise InvalidActionError(f"{quote(text)} is not med-sirocco notation; forms: {FORMS}")


def action_to_string(state: MedSiroccoState, action: int) -> str:
    """The notation of `action` at `state` (a chance outcome at a chance node; either kind is written out)."""
    chance = state.phase == Phase.CHANCE
    try:
        return action_text(action, state.table.ids, chance)
    except ValueError:
        return action_text(action, state.table.ids, not chance)


def parse_action(state: MedSiroccoState, text: str) -> int:
    """The action (or chance outcome at a chance node) written as `text` at `state`, or `InvalidActionError`."""
    return parse_text(text, state.table.index, state.phase == Phase.CHANCE)
