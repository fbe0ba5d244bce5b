"""The Ray backend: games in chunks from the same `ChunkQueue` as the process pool, run as Ray tasks.

`RayBackend(jobs, address)` joins the cluster at `address` (e.g. "ray://head:10001" or "auto"), or
starts a local Ray with `jobs` CPUs when there is none. Results are identical to the process pool's for
the same spec, because every game's seeds come from the schedule, not from the worker.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from warcards.arena.tournament import (
    IN_FLIGHT_PER_JOB,
    ChunkQueue,
    GameTask,
    TournamentRecord,
    TournamentSpec,
    play_chunk,
)


class RayBackend:
    """Runs `play_chunk` as Ray remote tasks (one CPU each)."""

    def __init__(
        self, jobs: int, address: str | None = None, runtime_env: dict[str, Any] | None = None
    ) -> None:
        self.jobs = jobs
        self.address = address
        self.runtime_env = runtime_env

    def _ensure_ray(self) -> Any:
        try:
            import ray
        except ModuleNotFoundError:
            raise ValueError('--backend ray needs Ray: pip install -e ".[ray]"') from None
        if not ray.is_initialized():
            if self.address is not None:
                ray.init(address=self.address, runtime_env=self.runtime_env, log_to_driver=False)
            else:
                ray.init(
                    num_cpus=self.jobs,
                    include_dashboard=False,
                    runtime_env=self.runtime_env,
                    log_to_driver=False,
                )
        return ray

    def run(self, spec: TournamentSpec, tasks: Sequence[GameTask]) -> Iterator[list[TournamentRecord]]:
        ray = self._ensure_ray()
        remote = ray.remote(num_cpus=1)(_play_chunk_dumped)
        spec_ref = ray.put(spec)
        queue = ChunkQueue(tasks)
        pending: list[Any] = []
        try:
            while queue or pending:
                while queue and len(pending) < IN_FLIGHT_PER_JOB * self.jobs:
                    pending.append(remote.remote(spec_ref, queue.take()))
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    dumped, seconds = ray.get(ref)
                    queue.timed(len(dumped), seconds)
                    yield [TournamentRecord.model_validate(data) for data in dumped]
        finally:
            for ref in pending:
                ray.cancel(ref)


def _play_chunk_dumped(spec: TournamentSpec, tasks: list[GameTask]) -> tuple[list[dict[str, Any]], float]:
    """Play a chunk on a Ray worker; plain dicts travel back (no pydantic classes in the object store),
    with the seconds the chunk took."""
    records, seconds = play_chunk(spec, tasks)
    return [record.model_dump() for record in records], seconds
