"""Named numbers for the games' hot code: `@constants` on a class of int codes (a game's `Phase`)."""

from __future__ import annotations

import types
from typing import TypeVar, cast

T = TypeVar("T")


def constants(cls: type[T]) -> type[T]:
    """The class's upper-case attributes (its named numbers: `Phase.PLAY`), held by a module object instead.

    One spelling for each code, `Phase.PLAY`, at the cost of a module global: Python 3.11 specialises an
    attribute read on a module (`LOAD_ATTR_MODULE`) but not one on a class, which cost Med Sirocco and Race to
    Messina 1.1–1.6k instructions an action (issue 36; `scripts/speed/instructions.sh`). The class stays the
    documentation and the type checker's view; only the runtime object changes. No instances, no methods."""
    held = types.ModuleType(cls.__qualname__, cls.__doc__)
    held.__dict__.update({name: value for name, value in vars(cls).items() if name.isupper()})
    return cast("type[T]", held)
