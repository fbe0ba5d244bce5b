#!/usr/bin/env bash
# The whole test suite: installs warcards with its test and optional extras, then lint, types and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[test,stats,rl,ray,bench,server,tune]"
python3 -m ruff check src tests
python3 -m mypy
python3 -m pytest -n 2 --dist loadgroup "$@"
