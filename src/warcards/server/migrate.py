"""Running the Alembic migrations of `warcards/server/migrations` on a database (no alembic.ini needed)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).parent / "migrations"

MIGRATION_LOCK = 0x7761_7263_6172_6473 & (2**63 - 1)
"""The PostgreSQL advisory lock key the migrations run under ("warcards" in ASCII): processes starting at
once on one database migrate it one after the other, each seeing what the one before committed."""


def config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema of `engine`'s database to `revision` (creating it on an empty database). On
    PostgreSQL the transaction first takes the migration lock (`pg_advisory_xact_lock`, released when it
    commits), so two processes' first starts do not both create the tables."""
    cfg = config()
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)
