"""The players' performance from tournament deals (each closed tournament's change of it, for
the profile's chart) and the weekly leagues: each season's divisions and groups, their
members' points, places and movements (docs/tournaments.md, "Performance", "Leagues")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from cardavia.store.base import Base


class PerformanceChangeRow(Base):
    """A player's performance in a rules family after a closed tournament."""

    __tablename__ = "performance_changes"
    __table_args__ = (
        UniqueConstraint(
            "player_id", "family", "tournament_id", name="uq_performance_changes_tournament"
        ),
        Index("ix_performance_changes_player", "player_id", "family", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id", ondelete="CASCADE"))
    family: Mapped[str] = mapped_column(String(16))
    tournament_id: Mapped[str] = mapped_column(String(40))
    value: Mapped[float] = mapped_column(Float)
    """The performance after that tournament, over the rolling window."""
    deals: Mapped[int] = mapped_column(Integer)
    """How many deals the window held."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeasonRow(Base):
    """A league season: seven days."""

    __tablename__ = "league_seasons"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    """The ISO week, ``2026-W49``."""
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MemberRow(Base):
    """A player in a season's division and group."""

    __tablename__ = "league_members"
    __table_args__ = (
        Index("ix_league_members_group", "season_id", "division", "group_number", "points"),
        Index("ix_league_members_player", "player_id"),
    )

    season_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("league_seasons.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    division: Mapped[int] = mapped_column(Integer)
    """1 is the top division."""
    group_number: Mapped[int] = mapped_column(Integer)
    """The group of about thirty within the division."""
    points: Mapped[float] = mapped_column(Float)
    tournaments: Mapped[int] = mapped_column(Integer)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The place in the group at the season's end."""
    movement: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """``up``, ``down`` or ``stay``, at the season's end."""


class LeagueStore:
    """The performance history and the leagues in the store's database (the store's
    ``leagues``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine


__all__ = ["LeagueStore", "MemberRow", "PerformanceChangeRow", "SeasonRow"]
