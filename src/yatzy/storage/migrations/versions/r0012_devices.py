"""devices: link codes, passkeys and their challenges (a player on several devices).

Revision ID: 0012_devices
Revises: 0010_lobby
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_devices"
down_revision = "0010_lobby"
branch_labels = None
depends_on = None


def _time(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "link_codes",
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        _time("created_at"),
        _time("expires_at"),
        _time("used_at", nullable=True),
        sa.PrimaryKeyConstraint("code_hash", name="pk_link_codes"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_link_codes_player_id_players"),
    )
    op.create_index("ix_link_codes_player_id", "link_codes", ["player_id"])
    op.create_index("ix_link_codes_expires_at", "link_codes", ["expires_at"])
    op.create_table(
        "link_failures",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("subject", sa.String(64), nullable=False),
        _time("failed_at"),
        sa.PrimaryKeyConstraint("id", name="pk_link_failures"),
    )
    op.create_index("ix_link_failures_subject_failed_at", "link_failures",
                    ["subject", "failed_at"])
    op.create_index("ix_link_failures_failed_at", "link_failures", ["failed_at"])
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(1400), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.JSON, nullable=False),
        _time("created_at"),
        _time("last_used_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_passkeys"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_passkeys_player_id_players"),
    )
    op.create_index("ix_passkeys_player_id", "passkeys", ["player_id"])
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        _time("created_at"),
        _time("expires_at"),
        sa.PrimaryKeyConstraint("id", name="pk_webauthn_challenges"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_webauthn_challenges_player_id_players"),
    )
    op.create_index("ix_webauthn_challenges_expires_at", "webauthn_challenges",
                    ["expires_at"])


def downgrade() -> None:
    op.drop_table("webauthn_challenges")
    op.drop_table("passkeys")
    op.drop_table("link_failures")
    op.drop_table("link_codes")
