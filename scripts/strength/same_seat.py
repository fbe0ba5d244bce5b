"""Same-deal, same-seat comparison of the agents in a tournament's JSONL results, on the win shares or on
a per-seat field of the final position (replayed from the record's actions).

    python3 scripts/strength/same_seat.py RESULTS.jsonl                # win shares (as `warcards tournament`)
    python3 scripts/strength/same_seat.py RESULTS.jsonl --field pt     # Race to Messina: Progress Tokens at the end

Where one seat wins every game (Race to Messina's Sicily: the Axis), the win shares cannot separate two
bots; the Progress Tokens each seat reached can (`warcards.arena.duplicate_comparisons(score=...)`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

from warcards.arena import duplicate_comparisons, read_records
from warcards.match import MatchRecord, replay


def final_field(field: str) -> Callable[[MatchRecord], Sequence[float]]:
    """The per-seat list `field` of the replayed final position, as floats."""

    def score(record: MatchRecord) -> Sequence[float]:
        value = replay(record).position()[field]
        if not isinstance(value, list) or len(value) != len(record.returns):
            raise SystemExit(f"position field {field!r} is not a per-seat list: {value!r}")
        return [float(v) for v in value]

    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", type=Path)
    parser.add_argument("--field", help="a per-seat field of the final position (default: win shares)")
    args = parser.parse_args()
    records = read_records(args.results)
    score = final_field(args.field) if args.field else None
    for c in duplicate_comparisons(records, score=score):
        print(
            f"{c.agent} vs {c.other}: {c.deals} deals, {c.mean:+.3f} [{c.low:+.3f}, {c.high:+.3f}] {c.significant}"
        )


if __name__ == "__main__":
    main()
