"""Operations: liveness and readiness, the Prometheus metrics, the version, and the act latency this process
measured (docs/server.md, "Operating it")."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel

from warcards import __version__
from warcards.server import protocol as p
from warcards.server.lobby import Health, Stats, Version
from warcards.server.routes import ServerDep

router = APIRouter()


class Ready(BaseModel):
    status: Literal["ready", "not ready"]
    reason: str | None = None
    """Why not: starting, the database unreachable, or draining for a restart."""


@router.get("/health")
async def health(server: ServerDep) -> Health:
    """The process answers; `tables`: how many tables it holds in memory."""
    return Health(status="ok", tables=len(server.hubs))


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers (nothing else is checked: restart it only when this fails)."""
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"model": Ready}})
async def readyz(server: ServerDep, response: Response) -> Ready:
    """Readiness: 200 when the migrations ran, the database answers `SELECT 1` and the process is not
    draining for a restart; else 503 with the reason (send it no new work)."""
    reason = await server.not_ready()
    if reason is not None:
        response.status_code = 503
        return Ready(status="not ready", reason=reason)
    return Ready(status="ready")


@router.get(
    "/metrics", response_class=Response,
    responses={200: {"content": {CONTENT_TYPE_LATEST.split(";")[0]: {"schema": {"type": "string"}}}}},
)
async def metrics(server: ServerDep) -> Response:
    """This process's Prometheus metrics, in the text format (docs/server.md lists them)."""
    return Response(content=server.metrics.text(), media_type=CONTENT_TYPE_LATEST)


@router.get("/stats")
async def stats(server: ServerDep) -> Stats:
    times = sorted(server.metrics.latencies)

    def at(fraction: float) -> float | None:
        return round(times[min(len(times) - 1, int(fraction * len(times)))] * 1000, 3) if times else None

    return Stats(tables=len(server.hubs), acts=server.metrics.latencies.total, p50_ms=at(0.5), p99_ms=at(0.99))


@router.get("/version")
async def version() -> Version:
    return Version(warcards=__version__, protocol=p.PROTOCOL)
