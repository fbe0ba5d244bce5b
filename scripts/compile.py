"""Compile the compiled core with mypyc, beside its sources (docs/contributing/speed.md, "The compiled core").

    python3 scripts/compile.py           # build (about a minute a game on one core); needs mypy and a C compiler
    python3 scripts/compile.py --clean   # remove the extension modules and the build record: pure Python again

The modules are `warcards.native.modules()`. Python imports an extension module before the `.py` beside it;
`warcards.native` runs the sources instead when one of them changed since this build (or `WARCARDS_PURE=1`).
The build's C files go to `build/mypyc/` (ignored by git).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def _native_module() -> ModuleType:
    """`warcards/native.py` loaded by its path: importing the `warcards` package would load the modules this
    script is about to replace."""
    spec = importlib.util.spec_from_file_location("warcards_native_build", SRC / "warcards" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


native: Any = _native_module()

MYPY_FLAGS = ["--config-file", str(ROOT / "pyproject.toml")]
"""mypyc type-checks the modules with the project's own mypy settings (`strict = true`)."""


def clean() -> list[Path]:
    """Remove every extension module of the compiled core (and mypyc's shared library) and the build record."""
    removed = []
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for path in [*SRC.glob("*__mypyc*"), *(SRC / "warcards").rglob("*")]:
        if path.is_file() and path.name.endswith(suffixes):
            path.unlink()
            removed.append(path)
    if native.MANIFEST.exists():
        native.MANIFEST.unlink()
        removed.append(native.MANIFEST)
    return removed


def build() -> None:
    """mypyc over `native.modules()`, extension modules written in place, then the build record."""
    from mypyc.build import mypycify
    from setuptools import setup

    paths = native.modules()
    os.chdir(SRC)
    extensions = mypycify(
        [*MYPY_FLAGS, *paths], opt_level="3", separate=False, multi_file=False,
        target_dir=str(ROOT / "build" / "mypyc"), group_name="warcards_core",
    )
    setup(name="warcards-core", script_args=["build_ext", "--inplace", "--build-temp", str(ROOT / "build" / "temp")],
          ext_modules=extensions)
    native.write_manifest(paths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules: every module runs as Python")
    args = parser.parse_args()
    if not args.clean:
        try:  # before anything is removed: without mypy the build in place stays
            import mypyc.build  # noqa: F401
        except ImportError:
            raise SystemExit('scripts/compile.py needs mypy, which brings mypyc: python3 -m pip install -e ".[compile]"'
                             ) from None
    removed = clean()
    if args.clean:
        print(f"removed {len(removed)} files: the compiled core is gone; every module runs as Python")
        return
    build()
    print(f"compiled {len(native.modules())} modules (warcards.native.modules()); `WARCARDS_PURE=1` runs the sources")


if __name__ == "__main__":
    main()
