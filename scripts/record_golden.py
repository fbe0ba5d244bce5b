"""Record the golden seeded games of every game (issue 22), or check them with `--check`.

Writes `tests/golden/data/<game-id>.json` (see `tests/golden/golden.py` for what a record holds and the
random policy's order of draws). With `--check`, records afresh and prints the first difference from the
stored file for each game (game, option set, seed, state index, and which digest: the position, the zones
or a seat's view); the exit status is 1 when anything differs or is missing.

    python3 scripts/record_golden.py [--check] [--game GAME ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.golden import golden

import warcards


def check(game_id: str, records: list[golden.Record], data_dir: Path) -> list[str]:
    """The problems of a game's stored records against fresh ones: missing or extra cases, then the first
    difference of each differing case."""
    try:
        stored = golden.load_records(game_id, data_dir)
    except (FileNotFoundError, ValueError) as error:
        return [str(error)]
    problems: list[str] = []
    fresh = {golden.record_key(r["options"], r["seed"], r["agents"]): r for r in records}
    for key in fresh.keys() - stored.keys():
        problems.append(f"{game_id}: no stored record for {key}")
    for key in stored.keys() - fresh.keys():
        problems.append(f"{game_id}: stored record {key} is no longer played")
    for key, record in fresh.items():
        if key in stored:
            difference = golden.first_difference(stored[key], record)
            if difference:
                problems.append(difference)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--check", action="store_true", help="compare with the stored files instead of writing"
    )
    parser.add_argument(
        "--game", action="append", choices=warcards.games(), help="only this game (repeatable)"
    )
    parser.add_argument("--data", type=Path, default=golden.DATA_DIR, help="the data folder")
    args = parser.parse_args()
    failed = False
    for game_id in args.game or warcards.games():
        started = time.perf_counter()
        records = golden.record_game(game_id)
        seconds = time.perf_counter() - started
        if args.check:
            problems = check(game_id, records, args.data)
            for problem in problems[:1]:
                print(problem)
            if len(problems) > 1:
                print(f"{game_id}: and {len(problems) - 1} more differing cases")
            failed = failed or bool(problems)
            verdict = "differ" if problems else "identical"
            print(f"{game_id}: {len(records)} games {verdict} ({seconds:.1f} s)")
        else:
            path = golden.data_path(game_id, args.data)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(golden.dump_records(game_id, records))
            print(
                f"{game_id}: {len(records)} games -> {path} ({path.stat().st_size / 1e3:.0f} kB, {seconds:.1f} s)"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
