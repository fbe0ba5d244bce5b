"""`warcards serve` refuses a database it cannot use with one clear line (exit 2), hiding any password."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from warcards.cli.main import app

from .conftest import ServerProcess


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nonsense://x", "nonsense"),
        ("hello", "Could not parse"),
        ("postgresql://nobody:secret@127.0.0.1:1/db", "127.0.0.1"),
    ],
)
def test_a_database_that_cannot_be_used_is_one_clear_error(url: str, words: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "8123", "--database", url])
    assert result.exit_code == 2
    assert "cannot be used" in result.output and words in result.output
    assert "secret" not in result.output
    assert "Traceback" not in result.output


def test_a_sqlite_file_in_a_missing_folder_is_created(tmp_path: Path) -> None:
    from warcards.server.app import check_database

    check_database(f"sqlite:///{tmp_path / 'new' / 'folder' / 'db.sqlite3'}")
    assert (tmp_path / "new" / "folder" / "db.sqlite3").exists()


def test_serve_prints_the_address_to_open(sqlite_server: ServerProcess) -> None:
    assert f"warcards is serving at {sqlite_server.http}/ — open it in a browser" in sqlite_server.log()
