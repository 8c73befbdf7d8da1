"""The players' ratings: one skill estimate per rules family (a mean and an uncertainty, the
Weng-Lin model of ``openskill``), and each change of it, deal by deal, for the profile's
chart (docs/players.md, "Ratings").

>>> from cardavia.store.db import GameStore, new_token
>>> store = GameStore("sqlite://")
>>> player = store.players.create(new_token())
>>> store.ratings.current(player.id, "classic") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
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
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardavia.store.base import Base, unavailable, utc


class RatingRow(Base):
    """A player's rating in one rules family."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    family: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    deals: Mapped[int] = mapped_column(Integer, default=0)
    """How many rated deals made it (provisional below a threshold)."""
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """One rated deal's change of a player's rating: the rating after it."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        Index("ix_rating_changes_player_family", "player_id", "family", "id"),
        UniqueConstraint("player_id", "game_id", "deal", name="uq_rating_changes_deal"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id", ondelete="CASCADE"))
    family: Mapped[str] = mapped_column(String(16))
    room_code: Mapped[str] = mapped_column(String(8))
    game_id: Mapped[str] = mapped_column(String(32))
    deal: Mapped[int] = mapped_column(Integer)
    """The deal's number in its game (from 1): a deal changes a player's rating once, however
    many processes saw it end."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class StoredRating:
    """A player's rating in a family as kept: the model's mean and uncertainty, how many
    rated deals made it, and when it last changed."""

    mu: float
    sigma: float
    deals: int
    updated_at: datetime


class RatingStore:
    """The ratings in the store's database (each method one short transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def current(self, player_id: str, family: str) -> StoredRating | None:
        """The player's rating in ``family`` (``None``: never rated there)."""
        with unavailable(), Session(self.engine) as session:
            row = session.get(RatingRow, (player_id, family))
            if row is None:
                return None
            return StoredRating(row.mu, row.sigma, row.deals, utc(row.updated_at))


__all__ = ["RatingChangeRow", "RatingRow", "RatingStore", "StoredRating"]
