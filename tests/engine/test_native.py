"""The compiled core's choice (`warcards.native`, docs/contributing/speed.md "The compiled core"): which modules
are compiled, and that a build older than its sources, or `WARCARDS_PURE=1`, runs every module from its source —
checked in a copy of the source tree holding a fake extension module that would fail to import."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import warcards
from warcards import native

SOURCE = Path(warcards.__file__).resolve().parent
FAKE = "warcards/games/naval_war/codes.py"
"""The module the copied tree gets a fake (unloadable) extension module for."""
PROBE = "import warcards, warcards.games.naval_war.codes as codes; print(codes.__file__)"


def test_the_compiled_modules_are_the_engine_contract_and_each_games_codes_state_and_rules() -> None:
    paths = native.modules()
    assert paths[0] == "warcards/engine/api.py"
    for game in native.GAMES:
        assert f"warcards/games/{game}/state.py" in paths and f"warcards/games/{game}/codes.py" in paths
        assert any(p.startswith(f"warcards/games/{game}/rules") for p in paths)
    assert all((SOURCE.parent / path).is_file() for path in paths)
    assert native.module_name("warcards/games/naval_war/rules/__init__.py") == "warcards.games.naval_war.rules"


def test_in_use_says_whether_the_compiled_modules_run() -> None:
    import warcards.engine.api as api

    assert native.in_use() == api.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


@pytest.fixture
def copied_tree(tmp_path: Path) -> Path:
    """A copy of src/warcards (sources only) with a fake extension module beside naval_war/codes.py."""
    shutil.copytree(SOURCE, tmp_path / "warcards", ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", "compiled.json"))
    fake = tmp_path / FAKE.replace(".py", importlib.machinery.EXTENSION_SUFFIXES[0])
    fake.write_bytes(b"not a shared object")
    return tmp_path


def _probe(root: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root), **environment}
    env.pop("WARCARDS_PURE", None) if "WARCARDS_PURE" not in environment else None
    return subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=120,
                          check=False)


def test_a_build_older_than_a_source_runs_the_sources_and_says_so(copied_tree: Path) -> None:
    (copied_tree / "warcards" / "compiled.json").write_text(json.dumps({FAKE: "0" * 64}))  # another source's hash
    done = _probe(copied_tree)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("codes.py")  # the fake extension module was not loaded
    assert "older than their sources" in done.stderr and FAKE in done.stderr and "scripts/compile.py" in done.stderr


def test_a_build_without_its_record_runs_the_sources(copied_tree: Path) -> None:
    done = _probe(copied_tree)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("codes.py") and "older than their sources" in done.stderr


def test_warcards_pure_runs_the_sources_without_a_word(copied_tree: Path) -> None:
    source = copied_tree / FAKE
    (copied_tree / "warcards" / "compiled.json").write_text(json.dumps({FAKE: native.source_hash(source)}))
    done = _probe(copied_tree, WARCARDS_PURE="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("codes.py") and done.stderr == ""


def test_a_current_build_is_used(copied_tree: Path) -> None:
    """The record matches the source: Python imports the extension module (here the fake, which fails)."""
    source = copied_tree / FAKE
    (copied_tree / "warcards" / "compiled.json").write_text(json.dumps({FAKE: native.source_hash(source)}))
    done = _probe(copied_tree)
    assert done.returncode != 0 and "ImportError" in done.stderr and "older than" not in done.stderr


def test_compile_without_mypy_says_what_to_install_and_keeps_the_build(copied_tree: Path) -> None:
    """`scripts/compile.py` where mypyc cannot be imported (a stand-in package that refuses): one line naming
    the extra to install, no traceback, and the build in place (its record and extension modules) untouched."""
    root = copied_tree.parent / "checkout"
    shutil.copytree(copied_tree, root / "src")
    (root / "scripts").mkdir()
    shutil.copy(SOURCE.parents[1] / "scripts" / "compile.py", root / "scripts" / "compile.py")
    record = root / "src" / "warcards" / "compiled.json"
    record.write_text("{}")
    refusing = copied_tree.parent / "refusing" / "mypyc"
    refusing.mkdir(parents=True)
    (refusing / "__init__.py").write_text("raise ImportError('no mypyc here')\n")
    env = {**os.environ, "PYTHONPATH": str(refusing.parent)}
    done = subprocess.run([sys.executable, str(root / "scripts" / "compile.py")], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert '".[compile]"' in done.stderr
    assert record.exists() and (root / "src" / FAKE.replace(".py", importlib.machinery.EXTENSION_SUFFIXES[0])).exists()


@pytest.mark.skipif(os.environ.get("WARCARDS_EXPECT_COMPILED") != "1", reason="the compiled leg of scripts/test.sh only")
def test_the_compiled_leg_runs_the_compiled_core() -> None:
    """scripts/test.sh's second run is against the build: were it stale or missing, it would test Python twice."""
    assert native.in_use() and not native.stale(), native.stale()
