"""The rate limits one server process shares across connections: token buckets keyed by a table's seat and
by a client's address (docs/server.md, "Limits"), and the tables each address made (its quota)."""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field

PRUNE_EVERY = 4096
"""Buckets kept before the full ones (nobody used them lately) are let go."""


@dataclass
class Bucket:
    tokens: float
    last: float


@dataclass
class Buckets:
    """One token bucket per key (`rate` tokens a second, at most `burst`), shared by every connection with
    that key. A key whose bucket is full again is forgotten, so the map stays as small as the active keys."""

    rate: float
    burst: float
    buckets: dict[Hashable, Bucket] = field(default_factory=dict)

    def take(self, key: Hashable, now: float | None = None) -> bool:
        """Take one token for `key`: False (and nothing taken) when its bucket is empty."""
        now = time.monotonic() if now is None else now
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= PRUNE_EVERY:
                self.prune(now)
            bucket = self.buckets[key] = Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.last) * self.rate)
        bucket.last = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def refund(self, key: Hashable) -> None:
        """Give back a token taken for `key` (an accepted act is not flooding)."""
        bucket = self.buckets.get(key)
        if bucket is not None:
            bucket.tokens = min(self.burst, bucket.tokens + 1)

    def prune(self, now: float) -> None:
        full = [key for key, b in self.buckets.items() if b.tokens + (now - b.last) * self.rate >= self.burst]
        for key in full:
            del self.buckets[key]


@dataclass
class TableQuota:
    """The tables each client address made in this process, for its quota of unfinished tables."""

    made: dict[str, set[str]] = field(default_factory=dict)
    creating: Counter[str] = field(default_factory=Counter)
    """Tables being made now, per address (counted against the quotas before they exist)."""

    def pending(self, address: str | None = None) -> int:
        """Tables being made now by `address` (None: by anyone)."""
        return self.creating.total() if address is None else self.creating[address]

    @contextlib.contextmanager
    def reserving(self, address: str) -> Iterator[None]:
        self.creating[address] += 1
        try:
            yield
        finally:
            self.creating[address] -= 1
            if not self.creating[address]:
                del self.creating[address]

    def tables_of(self, address: str) -> set[str]:
        return self.made.get(address, set())

    def add(self, address: str, table_id: str) -> None:
        self.made.setdefault(address, set()).add(table_id)

    def prune(self, unfinished: Callable[[set[str]], set[str]]) -> None:
        """Keep only the unfinished tables of every address (`unfinished` picks them)."""
        for address in list(self.made):
            self.finished(address, self.made[address] - unfinished(self.made[address]))

    def finished(self, address: str, table_ids: set[str]) -> None:
        """Forget `table_ids` of `address` (they ended); an address with none left is forgotten."""
        left = self.made.get(address, set()) - table_ids
        if left:
            self.made[address] = left
        else:
            self.made.pop(address, None)
