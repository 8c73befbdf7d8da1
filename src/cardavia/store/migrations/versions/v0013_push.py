"""``push_subscriptions`` and ``push_sent`` (issue 40): the browsers a player asked to be told
in while the site is closed (each one's push service's endpoint, the browser's key and
secret, its page's language), and the messages pushed once only (a tournament's reminder).
A player's rows go with them when they are erased (their columns name ``players.id``).

Revision ID: 0013_push
Revises: 0012_friends
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_push"
down_revision: str | None = "0012_friends"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``push_subscriptions`` and ``push_sent``."""
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(1000), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(50), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_player_id", "push_subscriptions", ["player_id"])
    op.create_table(
        "push_sent",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("topic", sa.String(80), primary_key=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop ``push_sent`` and ``push_subscriptions``."""
    op.drop_table("push_sent")
    op.drop_index("ix_push_subscriptions_player_id", "push_subscriptions")
    op.drop_table("push_subscriptions")
