"""Shared fixtures of the RL adapter tests."""

from __future__ import annotations

import warnings

import pytest


@pytest.fixture(autouse=True)
def _quiet_library_advice() -> None:
    """The libraries' checkers warn about style choices we make on purpose (dict observations with a mask,
    no window rendering); their assertions still run and fail the tests."""
    warnings.filterwarnings("ignore", category=UserWarning, module=r"(pettingzoo|gymnasium)\..*")
