"""Operations: liveness, the version, and the act latency this process measured."""

from __future__ import annotations

from fastapi import APIRouter

from warcards import __version__
from warcards.server import protocol as p
from warcards.server.hub import LATENCIES
from warcards.server.lobby import Health, Stats, Version
from warcards.server.routes import ServerDep

router = APIRouter()


@router.get("/health")
async def health(server: ServerDep) -> Health:
    return Health(status="ok", tables=len(server.hubs))


@router.get("/stats")
async def stats(server: ServerDep) -> Stats:
    times = sorted(LATENCIES)

    def at(fraction: float) -> float | None:
        return round(times[min(len(times) - 1, int(fraction * len(times)))] * 1000, 3) if times else None

    return Stats(tables=len(server.hubs), acts=len(times), p50_ms=at(0.5), p99_ms=at(0.99))


@router.get("/version")
async def version() -> Version:
    return Version(warcards=__version__, protocol=p.PROTOCOL)
