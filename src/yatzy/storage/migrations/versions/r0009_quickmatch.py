"""quick match and ratings: each player's Glicko-2 rating (``players``), the quick-match
requests (``match_tickets``) and the rated games (``rated_games``).

Revision ID: 0009_quickmatch
Revises: 0008_leases
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_quickmatch"
down_revision = "0008_leases"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("rating", sa.Float(), nullable=True))
        batch.add_column(sa.Column("rating_deviation", sa.Float(), nullable=True))
        batch.add_column(sa.Column("rating_volatility", sa.Float(), nullable=True))
        batch.add_column(sa.Column("rated_games", sa.Integer(), nullable=False,
                                   server_default="0"))
    op.create_table(
        "match_tickets",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("waiting_player", sa.String(32), nullable=True),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("matched_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_match_tickets_player_id_players"),
        sa.PrimaryKeyConstraint("id", name="pk_match_tickets"),
        sa.UniqueConstraint("waiting_player", name="uq_match_tickets_waiting_player"),
    )
    op.create_index("ix_match_tickets_status_ruleset", "match_tickets", ["status", "ruleset"])
    op.create_index("ix_match_tickets_game_id", "match_tickets", ["game_id"])
    op.create_index("ix_match_tickets_player_id", "match_tickets", ["player_id"])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("game_id", name="pk_rated_games"),
    )


def downgrade() -> None:
    op.drop_table("rated_games")
    op.drop_index("ix_match_tickets_player_id", table_name="match_tickets")
    op.drop_index("ix_match_tickets_game_id", table_name="match_tickets")
    op.drop_index("ix_match_tickets_status_ruleset", table_name="match_tickets")
    op.drop_table("match_tickets")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("rated_games")
        batch.drop_column("rating_volatility")
        batch.drop_column("rating_deviation")
        batch.drop_column("rating")
