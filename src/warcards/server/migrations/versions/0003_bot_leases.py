"""Bot leases: which server process plays a table's bots (and stand-ins), until when (docs/server.md, "Bots
outlive their process").

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("bot_owner", sa.String(32), nullable=True))
        batch.add_column(sa.Column("bot_lease_until", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("bot_lease_until")
        batch.drop_column("bot_owner")
