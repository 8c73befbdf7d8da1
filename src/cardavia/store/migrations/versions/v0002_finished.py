"""``games.finished``: whether a game is over (a finished game is kept, an abandoned one
purged). Added by hand before migrations, by the same ``ALTER TABLE``: a database that
already has the column keeps it.

Revision ID: 0002_finished
Revises: 0001_tables
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_finished"
down_revision: str | None = "0001_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``games.finished`` (false for the games already there), unless it is there."""
    columns = {column["name"] for column in sa.inspect(op.get_bind()).get_columns("games")}
    if "finished" not in columns:
        op.add_column(
            "games",
            sa.Column("finished", sa.Boolean(), nullable=False, server_default=sa.false()),
        )


def downgrade() -> None:
    """Drop ``games.finished``."""
    with op.batch_alter_table("games") as games:
        games.drop_column("finished")
