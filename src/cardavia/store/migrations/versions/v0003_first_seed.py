"""``games.first_seed``: the secret seed the first deal was dealt from (docs/fair-deals.md;
empty for the games made before deals were seeded). Added by hand before migrations, by the
same ``ALTER TABLE``: a database that already has the column keeps it.

Revision ID: 0003_first_seed
Revises: 0002_finished
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_first_seed"
down_revision: str | None = "0002_finished"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``games.first_seed`` (empty for the games already there), unless it is there."""
    columns = {column["name"] for column in sa.inspect(op.get_bind()).get_columns("games")}
    if "first_seed" not in columns:
        op.add_column("games", sa.Column("first_seed", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop ``games.first_seed``."""
    with op.batch_alter_table("games") as games:
        games.drop_column("first_seed")
