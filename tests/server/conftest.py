"""Fixtures of the server tests: free loopback ports, a throwaway PostgreSQL cluster, a real `warcards
serve` process, and a small protocol client."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

# Starlette 1.x asks for `httpx2` under its TestClient at import; httpx (pinned in the server extra) works.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import fastapi.testclient  # noqa: F401

from warcards.server.pgcluster import free_port, postgres_bin, throwaway_postgres

SRC = str(Path(__file__).resolve().parents[2] / "src")
STARTUP_SECONDS = 60.0
TEST_SERVER_FLAGS = ("--allow-bot-tables", "--max-tables-per-address", "0")
"""The tests make bot-only tables and many tables from one address (127.0.0.1); the rate limits keep their
defaults."""


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server of its own (initdb in a temporary folder, a free loopback port), stopped after."""
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin or on PATH)")
    with throwaway_postgres(fsync=False) as url:
        yield url


def fresh_postgres_database(url: str, name: str) -> str:
    """A new empty database on the test cluster (each test gets its own)."""
    import psycopg

    with psycopg.connect(url.replace("postgresql://", "postgresql://", 1), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each persistence test runs against SQLite and against a real PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    base = request.getfixturevalue("postgres_url")
    return fresh_postgres_database(base, f"t{abs(hash(request.node.nodeid)) % 10**12}")


class ServerProcess:
    """`warcards serve` in a child process on a free loopback port."""

    def __init__(self, database: str, folder: Path, *args: str) -> None:
        self.database = database
        self.folder = folder
        self.args = args
        """More `warcards serve` flags."""
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.starts += 1
        log = (self.folder / f"server-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "warcards", "serve", "--port", str(self.port), "--database", self.database,
                *TEST_SERVER_FLAGS, *self.args,
            ],
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.http}/health", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.log()[-2000:]}")

    def log(self) -> str:
        return (self.folder / f"server-{self.starts}.log").read_text(errors="replace")

    def kill(self) -> None:
        """kill -9 the server and its bot process (its whole process group)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)

    def get_json(self, path: str) -> Any:
        answer = httpx.get(f"{self.http}{path}", timeout=30)
        assert answer.status_code < 300, answer.text
        return answer.json()

    def post(self, path: str, body: dict[str, Any]) -> Any:
        answer = httpx.post(f"{self.http}{path}", json=body, timeout=30)
        assert answer.status_code < 300, answer.text
        return answer.json()


@contextlib.contextmanager
def sqlite_server_in(folder: Path) -> Iterator[ServerProcess]:
    """A real server on an SQLite database in `folder`, started and stopped."""
    server = ServerProcess(f"sqlite:///{folder / 'server.sqlite3'}", folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One real server on SQLite for the session (its tables are independent)."""
    with sqlite_server_in(tmp_path_factory.mktemp("server")) as server:
        yield server


def frames(messages: list[str]) -> list[dict[str, Any]]:
    return [json.loads(message) for message in messages]
