"""Table chat: whether a table has chat, its messages (stored with the table's events) and each seat's
mutes (docs/server.md, "Chat and rematches"; issue 33).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite's batch mode would rebuild `tables`, which seats and events reference).
    op.add_column("tables", sa.Column("chat", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.create_table(
        "chat_messages",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "chat_mutes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("muted_seat", sa.Integer(), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_table("chat_messages")
    op.drop_column("tables", "chat")
