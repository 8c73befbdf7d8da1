"""``games.version``: the version of the computer players a game was played with (issue 39),
so that a game keeps its players when a level gets a new version — a tournament made before
the change keeps the former version at its tables, a game in play its own — and its replays
and analyses know who played. A game saved before this revision was played by its level's
version of then (every level's was ``<level>-2026-12``), written in; a level registered by a
test has none (its level's current version is read then).

Revision ID: 0011_game_versions
Revises: 0010_tournament_fairness
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_game_versions"
down_revision: str | None = "0010_tournament_fairness"
branch_labels = None
depends_on = None

LEVELS_THEN = ("beginner", "club", "strong", "expert")
"""The levels whose version was ``<level>-2026-12`` until this revision."""


def upgrade() -> None:
    """Add ``games.version``, written in for the games of the levels of then."""
    op.add_column("games", sa.Column("version", sa.String(32), nullable=True))
    games = sa.table("games", sa.column("level", sa.String), sa.column("version", sa.String))
    op.execute(
        games.update()
        .where(games.c.level.in_(LEVELS_THEN))
        .values(version=games.c.level + "-2026-12")
    )


def downgrade() -> None:
    """Drop ``games.version``."""
    with op.batch_alter_table("games") as rows:
        rows.drop_column("version")
