"""Where the wall time goes: a py-spy raw profile's samples summed by function (self and inclusive) and by line.

    py-spy record -r 2000 -f raw -o X.raw -- python3 scripts/speed/osloop_clock.py GAME '{"players": 4}' 400 1
    python3 scripts/speed/pyspy_self_time.py X.raw [ROWS]

A sampling profiler distorts the hot path far less than cProfile's per-call hooks (docs/contributing/speed.md).
"""

from __future__ import annotations

import sys
from collections import Counter


def frame_name(frame: str) -> str:
    """`function (path/file.py:line)` -> `function file.py`."""
    function, _, where = frame.partition(" (")
    return f"{function} {where.rsplit('/', 1)[-1].split(':')[0].rstrip(')')}"


def main() -> None:
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    total = 0
    with open(sys.argv[1], encoding="utf-8") as raw:
        for line in raw:
            stack, _, count = line.rstrip().rpartition(" ")
            if not count.isdigit():
                continue
            n, frames = int(count), stack.split(";")
            total += n
            own[frame_name(frames[-1])] += n
            lines[frames[-1]] += n
            for name in {frame_name(frame) for frame in frames}:
                inclusive[name] += n
    for title, counter in (("self, by function", own), ("inclusive", inclusive), ("self, by line", lines)):
        print(f"--- {title} ({total} samples)")
        for name, n in counter.most_common(rows):
            print(f"{100 * n / total:5.1f}% {name}")


if __name__ == "__main__":
    main()
