"""The compiled core: the hot modules mypyc compiles, and whether Python runs the compiled ones.

`python3 scripts/compile.py` compiles `modules()` (the engine's contract and each game's codes, state and
rules) with mypyc into extension modules beside their sources; Python imports an extension module
before a `.py` of the same name (docs/contributing/speed.md, "The compiled core"). Nothing needs the build:
the extension modules are the same sources compiled, so without one every module runs as Python with the
same results (the golden records are checked both ways).

The build writes `compiled.json` beside this file: the hash of every source it compiled. `choose_modules`
(run by `warcards/__init__` before any of these modules is imported) compares it with the sources; when one
has changed since the build, every module runs from its source — an edited rule is never shadowed by an old
build — and says so once on stderr. `WARCARDS_PURE=1` runs the sources without a word.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE_ROOT = Path(__file__).resolve().parent
"""src/warcards; the paths of `modules()` are relative to its parent."""
MANIFEST = PACKAGE_ROOT / "compiled.json"
"""What the last build compiled: {source path: sha256 of the source}."""
PURE = "WARCARDS_PURE"
"""The environment variable that runs every module from its source (`1`), compiled or not."""
GAMES = ("cards_of_war", "med_sirocco", "naval_war", "race_to_messina")


def modules() -> list[str]:
    """The sources the build compiles, relative to src: `engine/api.py`, and each game's `codes.py`,
    `state.py` and rules (`rules.py`, or every module of a `rules/` package). Not `params.py`: its frozen
    dataclass, compiled, would not unpickle (process pools send games, and a game holds its parameters)."""
    found = ["warcards/engine/api.py"]
    for game in GAMES:
        found += [f"warcards/games/{game}/{room}.py" for room in ("codes", "state")]
        rules = PACKAGE_ROOT / "games" / game / "rules"
        found += sorted(f"warcards/games/{game}/rules/{p.name}" for p in rules.glob("*.py")) if rules.is_dir() else [
            f"warcards/games/{game}/rules.py"]
    return found


def module_name(path: str) -> str:
    """`warcards/games/x/rules/__init__.py` -> `warcards.games.x.rules`."""
    return path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")


def source_hash(path: Path) -> str:
    """The sha256 of a source file, as the build record keeps it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest(paths: Sequence[str]) -> None:
    """Record the hash of each compiled source (the build's last step)."""
    src = PACKAGE_ROOT.parent
    MANIFEST.write_text(json.dumps({path: source_hash(src / path) for path in paths}, indent=1, sort_keys=True) + "\n")


def built() -> list[str]:
    """The compiled modules present beside their sources (extension modules), by source path."""
    src = PACKAGE_ROOT.parent
    present = []
    for path in modules():
        source = src / path
        stem = source.with_suffix("")
        if any(stem.with_name(stem.name + suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES):
            present.append(path)
    return present


def stale() -> list[str]:
    """The compiled sources changed since the build (or present without a record of it)."""
    present = built()
    if not present:
        return []
    try:
        recorded = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return present
    src = PACKAGE_ROOT.parent
    return [path for path in present if recorded.get(path) != source_hash(src / path)]


class SourcesFirst:
    """A meta-path finder that loads the compiled modules' `.py` sources instead of their extension modules."""

    def __init__(self, names: dict[str, Path]) -> None:
        self.names = names

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> ModuleSpec | None:
        source = self.names.get(name)
        if source is None:
            return None
        folders = [str(source.parent)] if source.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(name, source, submodule_search_locations=folders)


def in_use() -> bool:
    """Whether the compiled modules run (a build present, current, and `WARCARDS_PURE` not set)."""
    return not any(isinstance(finder, SourcesFirst) for finder in sys.meta_path) and bool(built())


def choose_modules() -> None:
    """Run every module from its source when asked (`WARCARDS_PURE=1`) or when the build is stale."""
    if any(isinstance(finder, SourcesFirst) for finder in sys.meta_path):
        return
    changed = [] if os.environ.get(PURE) == "1" else stale()
    if os.environ.get(PURE) != "1" and not changed:
        return
    if changed:
        print(f"warcards: the compiled modules are older than their sources ({', '.join(changed[:3])}"
              f"{', ...' if len(changed) > 3 else ''}): running every module as Python; "
              "rebuild with `python3 scripts/compile.py`", file=sys.stderr)
    src = PACKAGE_ROOT.parent
    sys.meta_path.insert(0, SourcesFirst({module_name(path): src / path for path in modules()}))
