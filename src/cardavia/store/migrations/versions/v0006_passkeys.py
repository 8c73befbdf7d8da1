"""Passkeys: each WebAuthn credential a player added (its public key and last sign count),
and the ceremonies under way (the challenge a browser must sign, used once).

Revision ID: 0006_passkeys
Revises: 0005_players
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_passkeys"
down_revision: str | None = "0005_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create passkeys and passkey_ceremonies."""
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(1400), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_passkeys_player_id", "passkeys", ["player_id"])
    op.create_table(
        "passkey_ceremonies",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("challenge", sa.LargeBinary(), nullable=False),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_passkey_ceremonies_created_at", "passkey_ceremonies", ["created_at"])


def downgrade() -> None:
    """Drop the passkeys' tables."""
    op.drop_table("passkey_ceremonies")
    op.drop_table("passkeys")
