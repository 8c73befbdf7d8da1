"""The tables as the first versions of the site made them: games, their appended events,
rooms. A database made before migrations may already hold some of them (the site created
whatever was missing at each start): only those absent are created.

Revision ID: 0001_tables
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_tables"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create games, game_events and rooms, those that are not there yet."""
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" not in present:
        op.create_table(
            "games",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("rules", sa.String(32), nullable=False),
            sa.Column("level", sa.String(32), nullable=False),
            sa.Column("lang", sa.String(8), nullable=False),
            sa.Column("token_hash", sa.String(64), nullable=False),
            sa.Column("record", sa.Text(), nullable=False),
            sa.Column("revision", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index("ix_games_updated_at", "games", ["updated_at"])
    if "game_events" not in present:
        op.create_table(
            "game_events",
            sa.Column(
                "game_id",
                sa.String(32),
                sa.ForeignKey("games.id", ondelete="CASCADE"),
                primary_key=True,
            ),
            sa.Column("seq", sa.Integer(), primary_key=True),
            sa.Column("event", sa.Text(), nullable=False),
        )
    if "rooms" not in present:
        op.create_table(
            "rooms",
            sa.Column("code", sa.String(8), primary_key=True),
            sa.Column("game_id", sa.String(32), nullable=True),
            sa.Column("client", sa.String(64), nullable=False),
            sa.Column("state", sa.Text(), nullable=False),
            sa.Column("revision", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("human_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index("ix_rooms_client", "rooms", ["client"])
        op.create_index("ix_rooms_human_at", "rooms", ["human_at"])


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_table("rooms")
    op.drop_table("game_events")
    op.drop_table("games")
