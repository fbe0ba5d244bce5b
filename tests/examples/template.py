"""The template game `examples/minimal_game`, loaded from its folder without installing it.

`load_minimal_game()` imports the folder as the package `minimal_game` (as `pip install` would name it) and
leaves `sys.path` alone; the registry then finds it as it finds an installed game.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "examples" / "minimal_game"
"""The template game's folder."""
PACKAGE = "minimal_game"
"""The package name the template game's modules import each other by."""


def load_minimal_game() -> ModuleType:
    """The template game's package, imported from `TEMPLATE` once (submodules import through it)."""
    loaded = sys.modules.get(PACKAGE)
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(
        PACKAGE, TEMPLATE / "__init__.py", submodule_search_locations=[str(TEMPLATE)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[PACKAGE]
        raise
    return module
