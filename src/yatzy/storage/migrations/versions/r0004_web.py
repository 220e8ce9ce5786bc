"""For the web app: games.settings (table settings that are not rules: hints on or off)
and seat_keys (which browsers' player keys sit in which seats: "my games", "my best").

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("settings", sa.JSON(), nullable=True))
    op.create_table(
        "seat_keys",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name="fk_seat_keys_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", "key_hash", name="pk_seat_keys"),
    )
    op.create_index("ix_seat_keys_key_hash", "seat_keys", ["key_hash"])


def downgrade() -> None:
    op.drop_index("ix_seat_keys_key_hash", table_name="seat_keys")
    op.drop_table("seat_keys")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("settings")
