"""Several `warcards serve` processes on one PostgreSQL (issue 32, findings 5 to 7): two first starts at once
on an empty database both migrate it; a NOTIFY that arrives while a process is still loading the table does
not leave that process's copy behind."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from warcards.server.app import check_database
from warcards.server.db import Store

from .conftest import SRC, fresh_postgres_database

FIRST_STARTS = 5

MIGRATE_ON_GO = """
import sys, time
from pathlib import Path
import pytest
from sqlalchemy import text

from warcards.server.app import check_database
from warcards.server.db import Store
go = Path(sys.argv[2])
Path(sys.argv[3]).touch()
while not go.exists():
    time.sleep(0.005)
check_database(sys.argv[1])
"""
"""A first start: imports done, it says so (its ready file) and waits for the go file, so that all open and
migrate the database at once."""


def test_two_first_starts_on_an_empty_postgres_both_succeed(postgres_url: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    database = fresh_postgres_database(postgres_url, "first_starts")
    go = tmp_path / "go"
    starts = [
        subprocess.Popen([sys.executable, "-c", MIGRATE_ON_GO, database, str(go), str(tmp_path / f"ready{n}")],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for n in range(FIRST_STARTS)
    ]
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("ready*"))) < FIRST_STARTS and time.monotonic() < deadline:
        time.sleep(0.01)
    go.touch()
    outputs = [start.communicate(timeout=120)[0].decode(errors="replace") for start in starts]
    assert [start.returncode for start in starts] == [0] * FIRST_STARTS, "\n".join(outputs)
    check_database(database)


def test_a_failed_migration_does_not_blame_the_url(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'newer.sqlite3'}"
    check_database(database)
    store = Store(database)
    with store.session() as session:  # a schema of a revision this version does not know (a newer one)
        session.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    store.close()
    with pytest.raises(ValueError) as raised:
        check_database(database)
    assert "answered, but bringing its schema to this version failed" in str(raised.value)
    assert "9999" in str(raised.value) and "SQLAlchemy URL such as" not in str(raised.value)
