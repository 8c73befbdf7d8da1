"""Duplicate tournaments: each tournament (its deals' seeds committed before it opens, kept
secret until it closes), the players who entered it, every deal each of them played (one
attempt per deal) and the computer players' own result on each deal (the par); the players'
performance from tournament deals, and the weekly leagues' seasons and members.

Revision ID: 0008_tournaments
Revises: 0007_quick_play
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_tournaments"
down_revision: str | None = "0007_quick_play"
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


def _tournament(*, primary_key: bool = False) -> sa.Column[str]:
    return sa.Column(
        "tournament_id",
        sa.String(40),
        sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=False,
    )


def _when(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """Create tournaments, tournament_entries, tournament_deals, tournament_pars,
    performance_changes, league_seasons and league_members."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("preset", sa.String(16), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("version", sa.String(32), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        _when("opens_at"),
        _when("closes_at"),
        sa.Column("seeds", sa.Text(), nullable=False),
        sa.Column("commitments", sa.Text(), nullable=False),
        _when("created_at"),
        _when("closed_at", nullable=True),
    )
    op.create_index("ix_tournaments_closes_at", "tournaments", ["closes_at"])
    op.create_index("ix_tournaments_opens_at", "tournaments", ["opens_at"])
    op.create_table(
        "tournament_entries",
        _tournament(primary_key=True),
        _player(primary_key=True),
        _when("started_at"),
        _when("finished_at", nullable=True),
        sa.Column("ranked", sa.Boolean(), nullable=True),
        sa.Column("percent", sa.Float(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
    )
    op.create_index("ix_tournament_entries_place", "tournament_entries", ["tournament_id", "place"])
    op.create_index("ix_tournament_entries_player", "tournament_entries", ["player_id"])
    op.create_table(
        "tournament_deals",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _tournament(),
        sa.Column("number", sa.Integer(), nullable=False),
        _player(),
        sa.Column("game_id", sa.String(32), nullable=False),
        _when("started_at"),
        _when("finished_at", nullable=True),
        sa.Column("margin", sa.Integer(), nullable=True),
        sa.Column("score_us", sa.Integer(), nullable=True),
        sa.Column("score_them", sa.Integer(), nullable=True),
        sa.Column("contract", sa.String(48), nullable=True),
        sa.Column("matchpoints", sa.Float(), nullable=True),
        sa.Column("performance", sa.Float(), nullable=True),
        sa.UniqueConstraint("tournament_id", "number", "player_id", name="uq_tournament_deal"),
    )
    op.create_index(
        "ix_tournament_deals_field", "tournament_deals", ["tournament_id", "number", "margin"]
    )
    op.create_index("ix_tournament_deals_player", "tournament_deals", ["player_id", "id"])
    op.create_index("ix_tournament_deals_game", "tournament_deals", ["game_id"])
    op.create_table(
        "tournament_pars",
        _tournament(primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("margin", sa.Integer(), nullable=False),
        sa.Column("contract", sa.String(48), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        _when("computed_at"),
    )
    op.create_table(
        "performance_changes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player(),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("tournament_id", sa.String(40), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        _when("at"),
        sa.UniqueConstraint(
            "player_id", "family", "tournament_id", name="uq_performance_changes_tournament"
        ),
    )
    op.create_index(
        "ix_performance_changes_player", "performance_changes", ["player_id", "family", "id"]
    )
    op.create_table(
        "league_seasons",
        sa.Column("id", sa.String(16), primary_key=True),
        _when("starts_at"),
        _when("ends_at"),
        _when("closed_at", nullable=True),
    )
    op.create_table(
        "league_members",
        sa.Column(
            "season_id",
            sa.String(16),
            sa.ForeignKey("league_seasons.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        _player(primary_key=True),
        sa.Column("division", sa.Integer(), nullable=False),
        sa.Column("group_number", sa.Integer(), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
        sa.Column("tournaments", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("movement", sa.String(8), nullable=True),
    )
    op.create_index(
        "ix_league_members_group",
        "league_members",
        ["season_id", "division", "group_number", "points"],
    )
    op.create_index("ix_league_members_player", "league_members", ["player_id"])


def downgrade() -> None:
    """Drop the tournaments' and the leagues' tables."""
    for name in (
        "league_members",
        "league_seasons",
        "performance_changes",
        "tournament_pars",
        "tournament_deals",
        "tournament_entries",
        "tournaments",
    ):
        op.drop_table(name)
