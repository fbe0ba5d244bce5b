"""The two narrow errors of the engine contract.

`InvalidActionError` is raised for text (or an integer) that is not an action of the game at all;
`IllegalActionError` for a real action that the rules do not allow now. Both are `ValueError`s and their
messages say why and cite the rule section, so a human or a client can correct the move.
"""

from __future__ import annotations


class WarcardsError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidActionError(WarcardsError):
    """The text or number is not an action of this game (bad notation, out of the action space)."""


class IllegalActionError(WarcardsError):
    """The action exists in the game but is not legal in the current state."""


class OptionError(WarcardsError):
    """A `load_game` option is unknown or has a value outside its allowed set."""


class CardDataError(WarcardsError):
    """A card data file is missing, malformed, or breaks the game's schema."""


class GameTextError(WarcardsError):
    """A game ships no guide or rulings file, or has no ruling of the name asked for."""


class SetupError(WarcardsError):
    """A scenario setup describes an impossible position (a lost or duplicated card, a bad field)."""


class SeatError(WarcardsError):
    """A seat argument is not a seat of this game: seats are the integers 0..players-1 (never a bool)."""


class SnapshotError(WarcardsError):
    """A position snapshot cannot be read: not this game or options, a bad field, a lost or duplicated card."""
