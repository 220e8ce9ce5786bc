"""Players and the daily challenge: ``settings`` (the server's secret for the daily
seeds), ``players`` and their browsers' keys (``player_keys``), each player's ranked
attempt at a day's challenge (``daily_entries``) and each day's par (``daily_pars``).

Revision ID: 0007_daily
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_daily"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "settings",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_settings"),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.Text(), nullable=True),
        sa.Column("name_key", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
    )
    op.create_table(
        "player_keys",
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_player_keys_player_id_players"),
        sa.PrimaryKeyConstraint("key_hash", name="pk_player_keys"),
    )
    op.create_index("ix_player_keys_player_id", "player_keys", ["player_id"])
    op.create_table(
        "daily_entries",
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("points_lost", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_daily_entries_player_id_players"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE",
                                name="fk_daily_entries_game_id_games"),
        sa.PrimaryKeyConstraint("ruleset", "day", "player_id", name="pk_daily_entries"),
        sa.UniqueConstraint("game_id", name="uq_daily_entries_game_id"),
    )
    op.create_index("ix_daily_entries_player_id", "daily_entries", ["player_id"])
    op.create_table(
        "daily_pars",
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("par", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("ruleset", "day", name="pk_daily_pars"),
    )


def downgrade() -> None:
    op.drop_table("daily_pars")
    op.drop_index("ix_daily_entries_player_id", table_name="daily_entries")
    op.drop_table("daily_entries")
    op.drop_index("ix_player_keys_player_id", table_name="player_keys")
    op.drop_table("player_keys")
    op.drop_table("players")
    op.drop_table("settings")
