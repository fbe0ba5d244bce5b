"""Ratings: which events a stand-in bot played (a rated game in which one played is not rated), and the
leaderboard's index (docs/server.md, "Ratings"; issue 33).

Revision ID: 0006
Revises: 0004
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite's batch mode would rebuild `events`, the largest table).
    op.add_column("events", sa.Column("by_stand_in", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ratings_by_game", "ratings", ["game", "group"])


def downgrade() -> None:
    op.drop_index("ratings_by_game", "ratings")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("by_stand_in")
