"""The first schema: games (record plus query columns) and results of finished games.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("options_key", sa.String(255), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("dice_mode", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_status_updated_at", "games", ["status", "updated_at"])
    op.create_index("ix_games_ruleset_options_key", "games", ["ruleset", "options_key"])
    op.create_table(
        "results",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player", sa.Text(), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("upper_bonus", sa.Integer(), nullable=False),
        sa.Column("yahtzee_points", sa.Integer(), nullable=False),
        sa.Column("yahtzee_bonuses", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"],
            name="fk_results_game_id_games", ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_results"),
    )
    op.create_index("ix_results_player", "results", ["player"])


def downgrade() -> None:
    op.drop_index("ix_results_player", table_name="results")
    op.drop_table("results")
    op.drop_index("ix_games_ruleset_options_key", table_name="games")
    op.drop_index("ix_games_status_updated_at", table_name="games")
    op.drop_table("games")
