"""``friendships`` and ``friend_links`` (issue 40): who asked whom to be friends and since when
they are, and each player's friend link (its code made the first time it is asked for). A
player's rows go with them when they are erased (their columns name ``players.id``).

Revision ID: 0012_friends
Revises: 0011_game_versions
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_friends"
down_revision: str | None = "0011_game_versions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``friendships`` and ``friend_links``."""
    op.create_table(
        "friendships",
        sa.Column(
            "asker_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "asked_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_friendships_asked_id", "friendships", ["asked_id"])
    op.create_table(
        "friend_links",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop ``friend_links`` and ``friendships``."""
    op.drop_table("friend_links")
    op.drop_index("ix_friendships_asked_id", "friendships")
    op.drop_table("friendships")
