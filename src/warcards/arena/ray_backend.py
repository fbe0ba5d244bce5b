"""The Ray backend: the same chunks of games as the process pool, run as Ray tasks.

`RayBackend(jobs, address)` joins the cluster at `address` (e.g. "ray://head:10001" or "auto"), or
starts a local Ray with `jobs` CPUs when there is none. Results are identical to the process pool's for
the same spec, because every game's seeds come from the schedule, not from the worker.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from warcards.arena.tournament import GameTask, TournamentRecord, TournamentSpec, play_chunk


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

    def run(self, spec: TournamentSpec, chunks: list[list[GameTask]]) -> Iterator[list[TournamentRecord]]:
        ray = self._ensure_ray()
        remote = ray.remote(num_cpus=1)(_play_chunk_dumped)
        spec_ref = ray.put(spec)
        pending = [remote.remote(spec_ref, chunk) for chunk in chunks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield [TournamentRecord.model_validate(data) for data in ray.get(ref)]


def _play_chunk_dumped(spec: TournamentSpec, tasks: list[GameTask]) -> list[dict[str, Any]]:
    """Play a chunk on a Ray worker; plain dicts travel back (no pydantic classes in the object store)."""
    return [record.model_dump() for record in play_chunk(spec, tasks)]
