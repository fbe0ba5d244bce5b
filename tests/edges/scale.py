"""How hard the edge tests try: `WARCARDS_EDGE_SCALE` (default 1) multiplies every property's example count.

The suite runs at scale 1; the audit that counts inputs tried per area runs the same tests at a larger
scale (docs/contributing/edges.md)."""

from __future__ import annotations

import os

SCALE = max(1, int(os.environ.get("WARCARDS_EDGE_SCALE", "1") or "1"))


def examples(count: int) -> int:
    """`count` examples at scale 1, `count * SCALE` in an audit."""
    return count * SCALE
