"""profiles: OpenSkill ratings of rated games of 3 to 6 players, the players of rated
public tables, every settlement of a rated game, each finished game's points lost, and
each player's recent accuracy per ruleset.

Revision ID: 0011_profiles
Revises: 0010_lobby
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_profiles"
down_revision = "0010_lobby"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Columns without a default or with a constant one: added in place everywhere.
    op.add_column("players", sa.Column("skill_mu", sa.Float(), nullable=True))
    op.add_column("players", sa.Column("skill_sigma", sa.Float(), nullable=True))
    op.add_column("players", sa.Column("skill_games", sa.Integer(), nullable=False,
                                       server_default="0"))
    op.create_table(
        "rated_seats",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_rated_seats_player_id_players"),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_rated_seats"),
    )
    op.create_index("ix_rated_seats_player_id", "rated_seats", ["player_id"])
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("deviation_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("deviation_after", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_rating_history_player_id_players"),
        sa.PrimaryKeyConstraint("game_id", "player_id", name="pk_rating_history"),
    )
    op.create_index("ix_rating_history_player_id_rated_at", "rating_history",
                    ["player_id", "rated_at"])
    op.create_table(
        "game_accuracy",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("points_lost", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE",
                                name="fk_game_accuracy_game_id_games"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_game_accuracy_player_id_players"),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_accuracy"),
    )
    op.create_index("ix_game_accuracy_player_id_finished_at", "game_accuracy",
                    ["player_id", "finished_at"])
    op.create_index("ix_game_accuracy_ruleset_player_id", "game_accuracy",
                    ["ruleset", "player_id"])
    op.create_table(
        "player_accuracy",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("points_lost", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_player_accuracy_player_id_players"),
        sa.PrimaryKeyConstraint("player_id", "ruleset", name="pk_player_accuracy"),
    )
    op.create_index("ix_player_accuracy_ruleset_points_lost", "player_accuracy",
                    ["ruleset", "points_lost"])


def downgrade() -> None:
    op.drop_index("ix_player_accuracy_ruleset_points_lost", table_name="player_accuracy")
    op.drop_table("player_accuracy")
    op.drop_index("ix_game_accuracy_ruleset_player_id", table_name="game_accuracy")
    op.drop_index("ix_game_accuracy_player_id_finished_at", table_name="game_accuracy")
    op.drop_table("game_accuracy")
    op.drop_index("ix_rating_history_player_id_rated_at", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_rated_seats_player_id", table_name="rated_seats")
    op.drop_table("rated_seats")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("skill_games")
        batch.drop_column("skill_sigma")
        batch.drop_column("skill_mu")
