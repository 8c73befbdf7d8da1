"""Quick play: the seats players were given at tables formed among strangers (the completion
rate), their ratings and each change of them, the players they blocked and the names they
reported; a reported name is hidden (``players.hidden_name``) until it is changed. And each
game a room deals is linked to its players (``player_games.room_code``), not only the room's
latest.

Revision ID: 0007_quick_play
Revises: 0006_passkeys
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_quick_play"
down_revision: str | None = "0006_passkeys"
branch_labels = None
depends_on = None


def _player(name: str = "player_id", *, primary_key: bool = False) -> sa.Column[str]:
    return sa.Column(
        name,
        sa.String(32),
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=False,
    )


def upgrade() -> None:
    """Create quick_seats, ratings, rating_changes, player_blocks and name_reports; add
    players.hidden_name and player_games.room_code."""
    op.add_column("players", sa.Column("hidden_name", sa.String(64), nullable=True))
    op.add_column("player_games", sa.Column("room_code", sa.String(8), nullable=True))
    op.create_table(
        "quick_seats",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player(),
        sa.Column("room_code", sa.String(8), nullable=False),
        sa.Column("seat", sa.String(1), nullable=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("outcome", sa.String(12), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_quick_seats_room_code", "quick_seats", ["room_code"])
    op.create_index("ix_quick_seats_player_joined", "quick_seats", ["player_id", "joined_at"])
    op.create_table(
        "ratings",
        _player(primary_key=True),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player(),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("room_code", sa.String(8), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("player_id", "game_id", "deal", name="uq_rating_changes_deal"),
    )
    op.create_index(
        "ix_rating_changes_player_family", "rating_changes", ["player_id", "family", "id"]
    )
    op.create_table(
        "player_blocks",
        _player(primary_key=True),
        _player("blocked_id", primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_blocks_blocked_id", "player_blocks", ["blocked_id"])
    op.create_table(
        "name_reports",
        _player("reporter_id", primary_key=True),
        _player(primary_key=True),
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_name_reports_player_id", "name_reports", ["player_id"])


def downgrade() -> None:
    """Drop the quick play's tables and players.hidden_name."""
    for name in ("name_reports", "player_blocks", "rating_changes", "ratings", "quick_seats"):
        op.drop_table(name)
    with op.batch_alter_table("player_games") as batch:
        batch.drop_column("room_code")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("hidden_name")
