"""Game packages, one per game, each with the same rooms (see `warcards.engine.registry`).

Importing a game package binds `warcards.games` to this package, which would hide the contract's
`warcards.games()` function; so this package is itself callable and returns the registered game ids.
"""

from __future__ import annotations

import sys
import types

from warcards.engine.registry import games


class _CallablePackage(types.ModuleType):
    """This package's class: calling it lists the registered games, as `warcards.games()` does."""

    def __call__(self) -> list[str]:
        return games()


sys.modules[__name__].__class__ = _CallablePackage
