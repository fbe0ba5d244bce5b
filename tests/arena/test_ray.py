"""The Ray backend plays the same tournament as the process pool, game for game."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from warcards.arena import TournamentSpec, make_backend, run_tournament

from ..bots.toygame import ToyGame, toy_heuristic, toy_search

ray = pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_ray_results_equal_the_process_pool_results(tmp_path: Path) -> None:
    from warcards.arena.ray_backend import RayBackend

    spec = TournamentSpec(
        "toy-tricks",
        ("search", "heuristic", "random"),
        12,
        seed=21,
        factory=functools.partial(ToyGame, 3),
        builders={"heuristic": toy_heuristic, "search": toy_search},
    )
    pooled = run_tournament(spec, make_backend("process", 2)).records
    # the toy game lives in the test tree, so Ray's workers get the repository on their path
    backend = RayBackend(2, runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}})
    try:
        out = tmp_path / "ray.jsonl"
        on_ray = run_tournament(spec, backend, out).records
    finally:
        ray.shutdown()
    assert on_ray == pooled
    assert len(out.read_text().splitlines()) == 12
