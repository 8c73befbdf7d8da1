"""``games.seat``: the seat a single-player game's token plays (empty for a room's game).
The games made before seats could be chosen were played from South: the column's default
says so for them. Added by hand before migrations, by the same ``ALTER TABLE``: a database
that already has the column keeps it.

Revision ID: 0004_seat
Revises: 0003_first_seed
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_seat"
down_revision: str | None = "0003_first_seed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``games.seat`` (South for the games already there), unless it is there."""
    columns = {column["name"] for column in sa.inspect(op.get_bind()).get_columns("games")}
    if "seat" not in columns:
        op.add_column("games", sa.Column("seat", sa.String(1), nullable=True, server_default="S"))


def downgrade() -> None:
    """Drop ``games.seat``."""
    with op.batch_alter_table("games") as games:
        games.drop_column("seat")
