"""Alembic environment: the migrations run on the connection `warcards.server.migrate` hands over."""

from __future__ import annotations

from alembic import context

from warcards.server.db import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
