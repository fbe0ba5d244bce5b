"""Turn notices: one row per (table, seat, turn event) queued for an opted-in account, its sending claimed by
one server process, its outcome and the hash of its unsubscribe token (docs/server.md, "Correspondence games
and notices"; issue 33).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notices",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("event_no", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("next_try", sa.Float(), nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.Float(), nullable=True),
        sa.Column("unsubscribe_hash", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
    )
    op.create_index("notices_due", "notices", ["status", "next_try"])
    op.create_index("notices_by_unsubscribe_hash", "notices", ["unsubscribe_hash"])
    op.create_index("notices_by_account", "notices", ["account_id"])
    op.create_index("accounts_by_unsubscribe_hash", "accounts", ["unsubscribe_hash"])


def downgrade() -> None:
    op.drop_index("accounts_by_unsubscribe_hash", "accounts")
    op.drop_index("notices_by_account", "notices")
    op.drop_index("notices_by_unsubscribe_hash", "notices")
    op.drop_index("notices_due", "notices")
    op.drop_table("notices")
