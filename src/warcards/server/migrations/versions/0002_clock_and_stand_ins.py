"""The chess clock and stand-ins that survive a restart: each event's banks after it; a seat's stand-in.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("stand_in_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("stand_in_event", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("stand_in_event")
        batch.drop_column("stand_in_hash")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("clock")
