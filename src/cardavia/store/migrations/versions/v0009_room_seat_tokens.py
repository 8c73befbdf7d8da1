"""``player_rooms.token_hash``: the SHA-256 of the seat token a person took a room's seat
with, so that the record follows the seat they hold now — moved when they sit elsewhere or
are swapped, gone when they are removed or leave before the first deal — rather than the
seat they first took (issue 35: a deletion after a swap renamed someone else). A row made
before this revision has none and keeps its seat as taken.

Revision ID: 0009_room_seat_tokens
Revises: 0008_tournaments
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_room_seat_tokens"
down_revision: str | None = "0008_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``player_rooms.token_hash`` (empty for the seats already taken)."""
    op.add_column("player_rooms", sa.Column("token_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop ``player_rooms.token_hash``."""
    with op.batch_alter_table("player_rooms") as seats:
        seats.drop_column("token_hash")
