"""Players: accounts and their sign-in sessions, the account holding a seat, rated tables, and ratings with
the change each rated game made (docs/server.md, "Players and accounts"; issue 33).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text(), nullable=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("notify_turns", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("unsubscribe_hash", sa.String(64), nullable=True),
        sa.Column("failed_signins", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("locked_until", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("sessions_by_account", "sessions", ["account_id"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
        batch.create_foreign_key("seats_account", "accounts", ["account_id"], ["id"])
    op.create_index("seats_by_account", "seats", ["account_id"])
    # A plain ADD COLUMN (SQLite's batch mode would rebuild `tables`, which seats and events reference).
    op.add_column("tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("group", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("group", sa.String(16), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("rating_changes_by_account", "rating_changes", ["account_id", "at"])


def downgrade() -> None:
    op.drop_index("rating_changes_by_account", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_column("tables", "rated")
    op.drop_index("seats_by_account", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("seats_account", type_="foreignkey")
        batch.drop_column("account_id")
    op.drop_index("sessions_by_account", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
