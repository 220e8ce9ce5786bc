"""games.version: a write counter for optimistic concurrency (an undo lowers steps).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
    # Before undo existed every write added one action: steps + 1 writes so far.
    op.execute("UPDATE games SET version = steps + 1")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("version")
