"""Prometheus metrics of one `warcards serve` process (`GET /metrics`, docs/server.md, "Metrics").

Each `Server` has its own registry, so several applications in one process (the tests) keep apart. Counters
and the latency histogram are updated where things happen (the hubs, the connections); the gauges of what
the process holds now (tables, connections, queued messages) are computed when the metrics are read.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from pydantic import BaseModel

from warcards.server import protocol as p

if TYPE_CHECKING:
    from warcards.server.hub import TableHub

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: the act→ack latency histogram's buckets (the aim is a p99 under 50 ms)."""

RECENT_ACTS = 10_000
"""How many act latencies `GET /stats` keeps for its p50/p99 (the histogram counts them all)."""


class ObservedLatencies(deque[float]):
    """The newest act latencies (`TableHub.latencies`, read by `GET /stats`); each one appended is also
    observed by the act→ack histogram."""

    def __init__(self, histogram: Histogram) -> None:
        super().__init__(maxlen=RECENT_ACTS)
        self.histogram = histogram
        self.total = 0
        """Every act timed, not only the newest kept."""

    def append(self, seconds: float) -> None:
        super().append(seconds)
        self.total += 1
        self.histogram.observe(seconds)


class Metrics:
    """The process's counters and histogram, and the collector of its gauges."""

    def __init__(self, hubs: Callable[[], Iterable[TableHub]] = tuple, draining: Callable[[], bool] = bool) -> None:
        self.registry = CollectorRegistry()
        self.events = Counter(
            "warcards_events", "Events this process committed (acts, chance, resignations, timeouts).",
            registry=self.registry,
        )
        self.refusals = Counter(
            "warcards_refusals", "`refused` and `error` frames sent to clients, by code.", ["code"],
            registry=self.registry,
        )
        self.evictions = Counter(
            "warcards_tables_evicted", "Tables let go from memory: finished (nobody holds them) or idle.",
            ["reason"], registry=self.registry,
        )
        self.rebuilds = Counter(
            "warcards_tables_rebuilt", "Tables rebuilt from their log into memory (a restart, or asked for again).",
            registry=self.registry,
        )
        latency = Histogram(
            "warcards_act_latency_seconds", "From an act's receipt to its ack queued (commit and broadcasts included).",
            buckets=LATENCY_BUCKETS, registry=self.registry,
        )
        self.latencies = ObservedLatencies(latency)
        self.registry.register(HeldCollector(hubs, draining))

    def committed(self, events: int) -> None:
        self.events.inc(events)

    def refused(self, code: str) -> None:
        self.refusals.labels(code=code).inc()

    def sent(self, message: BaseModel) -> None:
        """A frame queued for a client: `refused` and `error` frames are counted by their code."""
        if isinstance(message, p.Refused | p.Error):
            self.refused(message.code)

    def text(self) -> bytes:
        """The metrics in Prometheus's text format."""
        return generate_latest(self.registry)


class HeldCollector(Collector):
    """The gauges of what the process holds, computed at each scrape."""

    def __init__(self, hubs: Callable[[], Iterable[TableHub]], draining: Callable[[], bool]) -> None:
        self.hubs = hubs
        self.draining = draining

    def collect(self) -> Iterator[Metric]:
        hubs = list(self.hubs())
        tables = GaugeMetricFamily(
            "warcards_tables_held", "Tables held in memory (hubs), by status.", labels=["status"]
        )
        statuses = {"open": 0, "playing": 0, "finished": 0}
        kinds = {"seat": 0, "spectator": 0, "stand_in": 0}
        queued = deepest = 0
        for hub in hubs:
            statuses[hub.status] = statuses.get(hub.status, 0) + 1
            for connection in list(hub.connections):
                kind = "spectator" if connection.seat is None else "stand_in" if connection.stand_in else "seat"
                kinds[kind] += 1
                depth = connection.outbox.qsize()
                queued += depth
                deepest = max(deepest, depth)
        for status, count in statuses.items():
            tables.add_metric([status], count)
        yield tables
        connections = GaugeMetricFamily(
            "warcards_connections", "WebSocket connections attached to a table, by kind.", labels=["kind"]
        )
        for kind, count in kinds.items():
            connections.add_metric([kind], count)
        yield connections
        yield GaugeMetricFamily(
            "warcards_outbox_messages", "Messages queued for all connections, not yet sent.", value=queued
        )
        yield GaugeMetricFamily(
            "warcards_outbox_max_messages", "The longest queue of one connection.", value=deepest
        )
        yield GaugeMetricFamily(
            "warcards_draining", "1 while the process drains for a restart.", value=int(self.draining())
        )


NO_METRICS = Metrics()
"""What a hub built outside a `Server` counts into (nothing reads it)."""
