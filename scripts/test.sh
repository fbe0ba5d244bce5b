#!/usr/bin/env bash
# The whole test suite: installs warcards with its test and optional extras, then lint, types and the tests
# as Python; then (the whole suite only, no arguments) builds the compiled core (scripts/compile.py, mypyc) and
# runs the engine, the games, their golden records, the edges, the bots, the RL adapters and the arena (process
# pools send games) again against it
# (docs/contributing/speed.md, "The compiled core").
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[test,stats,rl,ray,bench,server,tune]"
python3 -m ruff check src tests
python3 -m mypy
WARCARDS_PURE=1 python3 -m pytest -n 2 --dist loadgroup "$@"
if [ $# -eq 0 ]; then
    python3 scripts/compile.py >/dev/null
    WARCARDS_EXPECT_COMPILED=1 python3 -m pytest -n 2 --dist loadgroup tests/engine tests/games tests/golden tests/edges tests/bots \
        tests/rl tests/arena
fi
