"""games.seed as text: a game's seed may be a secret seed (64 hexadecimal digits), too
long for a number; numeric seeds are kept as their decimal text.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _games(seed_type: sa.types.TypeEngine[Any]) -> sa.Table:
    """The games table as this migration finds it (SQLite rebuilds a table to change a
    column's type; given the table, Alembic need not read it back, so the SQL can also be
    written out offline)."""
    return sa.Table(
        "games", sa.MetaData(),
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("options_key", sa.String(255), nullable=False),
        sa.Column("seed", seed_type, nullable=True),
        sa.Column("dice_mode", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False, server_default="1"),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.Index("ix_games_status_updated_at", "status", "updated_at"),
        sa.Index("ix_games_ruleset_options_key", "ruleset", "options_key"),
    )


def upgrade() -> None:
    with op.batch_alter_table("games", copy_from=_games(sa.BigInteger())) as batch:
        batch.alter_column("seed", existing_type=sa.BigInteger(), type_=sa.String(64),
                           existing_nullable=True, postgresql_using="seed::text")


def downgrade() -> None:
    # A secret seed has no numeric form: it is dropped (the record keeps it).
    op.execute("UPDATE games SET seed = NULL WHERE length(seed) > 16")
    with op.batch_alter_table("games", copy_from=_games(sa.String(64))) as batch:
        batch.alter_column("seed", existing_type=sa.String(64), type_=sa.BigInteger(),
                           existing_nullable=True, postgresql_using="seed::bigint")
