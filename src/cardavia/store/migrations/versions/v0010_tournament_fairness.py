"""Tournaments fair to everyone who plays (issue 35): a deleted player's tournament results
stay in the field and the closed standings, under an id that names nobody — so
``tournament_entries.player_id`` and ``tournament_deals.player_id`` no longer refer to
``players`` — and each deal played keeps the client it was started from
(``tournament_deals.client``: the address or IPv6 /64 the limits count by), for the
fair-play screen's accounts of one client.

Revision ID: 0010_tournament_fairness
Revises: 0009_room_seat_tokens
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_tournament_fairness"
down_revision: str | None = "0009_room_seat_tokens"
branch_labels = None
depends_on = None

TABLES = ("tournament_entries", "tournament_deals")
NAMING = {"fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s"}
"""How SQLite's unnamed foreign keys are named while a table is copied (batch mode)."""


def _player_keys(table: str) -> list[str]:
    """The names of ``table``'s foreign keys to ``players`` (PostgreSQL names them)."""
    keys = sa.inspect(op.get_bind()).get_foreign_keys(table)
    return [str(key["name"]) for key in keys if key["referred_table"] == "players"]


def upgrade() -> None:
    """Drop the foreign keys of the tournaments' rows to ``players``; add
    ``tournament_deals.client``."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table in TABLES:
        if sqlite:
            with op.batch_alter_table(table, naming_convention=NAMING, recreate="always") as rows:
                rows.drop_constraint(f"fk_{table}_player_id_players", type_="foreignkey")
        else:
            for name in _player_keys(table):
                op.drop_constraint(name, table, type_="foreignkey")
    op.add_column("tournament_deals", sa.Column("client", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop ``tournament_deals.client``; the rows of former players go, and the foreign keys
    to ``players`` come back."""
    with op.batch_alter_table("tournament_deals") as rows:
        rows.drop_column("client")
    for table in TABLES:
        op.execute(f"DELETE FROM {table} WHERE player_id NOT IN (SELECT id FROM players)")
        with op.batch_alter_table(table, naming_convention=NAMING) as rows:
            rows.create_foreign_key(
                f"fk_{table}_player_id_players",
                "players",
                ["player_id"],
                ["id"],
                ondelete="CASCADE",
            )
