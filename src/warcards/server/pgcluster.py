"""A throwaway PostgreSQL server for the tests and the server benchmark (docs/server.md, "Tests").

`initdb` in a temporary folder, `pg_ctl start` on a free loopback port, and on exit `pg_ctl stop -m
immediate` and the folder removed. It needs Debian's `postgresql` package (or `initdb` on the PATH);
`.ci/run` installs it when it is missing. As root, the server binaries run as the `postgres` user (they refuse
to run as root).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server binaries on this machine."""


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server binaries (Debian's /usr/lib/postgresql/N/bin), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def _as_postgres_user() -> list[str]:
    """initdb and postgres refuse to run as root: run them as the `postgres` user then."""
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", "postgres", "--"]


@contextmanager
def throwaway_postgres(fsync: bool = True) -> Iterator[str]:
    """A PostgreSQL server of its own; yields its URL (`postgresql://warcards@127.0.0.1:PORT/postgres`).

    `fsync=False` trades durability against power loss for speed (the tests); the benchmark keeps it on."""
    bindir = postgres_bin()
    if bindir is None:
        raise PostgresUnavailable(
            "PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin or on PATH); "
            "on Debian: apt-get install postgresql"
        )
    folder = Path(tempfile.mkdtemp(prefix="warcards-pg-"))
    data = folder / "data"
    prefix = _as_postgres_user()
    if prefix:
        shutil.chown(folder, "postgres", "postgres")
    port = free_port()
    subprocess.run(
        [*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "warcards", "-A", "trust"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    options = f"-h 127.0.0.1 -p {port} -k {folder}"
    if not fsync:
        options += " -c fsync=off -c full_page_writes=off"
    start = [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start"]
    try:
        subprocess.run(start, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        yield f"postgresql://warcards@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        shutil.rmtree(folder, ignore_errors=True)
