"""lobby: public tables, listed in the lobby until their open seats are taken.

Revision ID: 0010_lobby
Revises: 0009_quickmatch
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_lobby"
down_revision = "0009_quickmatch"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Columns with a constant default: added in place on every database (no copy of
    # the table, so the SQL can be written without one, too).
    op.add_column("games", sa.Column("public", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.add_column("games", sa.Column("open_seats", sa.Integer, nullable=False,
                                     server_default="0"))
    op.create_index("ix_games_public_status_updated_at", "games",
                    ["public", "status", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_games_public_status_updated_at", table_name="games")
    # In place too: a copy of ``games`` would take its moves with it (their foreign
    # key deletes on cascade).
    op.drop_column("games", "open_seats")
    op.drop_column("games", "public")
