"""The players: a guest made on their first game with what they keep (name, language, the
table's settings), the browsers signed in as them (each session known by the hash of a
random token kept in a cookie), and the games and room seats they took.

Revision ID: 0005_players
Revises: 0004_seat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_players"
down_revision: str | None = "0004_seat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create players, player_sessions, player_games and player_rooms."""
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("lang", sa.String(8), nullable=True),
        sa.Column("settings", sa.Text(), nullable=False, server_default="{}"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "player_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("passkey_id", sa.String(1400), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_sessions_player_id", "player_sessions", ["player_id"])
    op.create_table(
        "player_games",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.String(1), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_games_game_id", "player_games", ["game_id"])
    op.create_table(
        "player_rooms",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "room_code",
            sa.String(8),
            sa.ForeignKey("rooms.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.String(1), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_rooms_room_code", "player_rooms", ["room_code"])


def downgrade() -> None:
    """Drop the players' tables."""
    op.drop_table("player_rooms")
    op.drop_table("player_games")
    op.drop_table("player_sessions")
    op.drop_table("players")
