"""The quick-play seats: each seat a player was given at a table formed by quick play, and
how it ended (played to the end, or left for good). A player's completion rate is read from
them (docs/players.md, "Leaving"); they outlive the room they were played in.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from cardavia.store.base import Base

PLAYING: Final = "playing"
"""A seat whose game is still being played."""
FINISHED: Final = "finished"
"""A seat played to the end of its game (or whose player was away, never gone for good)."""
ABANDONED: Final = "abandoned"
"""A seat its player left for good once the game had started: a loss for that player."""
OUTCOMES: Final = (PLAYING, FINISHED, ABANDONED)


class QuickSeatRow(Base):
    """A seat a player was given at a quick-play table."""

    __tablename__ = "quick_seats"
    __table_args__ = (Index("ix_quick_seats_player_joined", "player_id", "joined_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE")
    )
    room_code: Mapped[str] = mapped_column(String(8), index=True)
    """The room the table was formed as (not a foreign key: the seat outlives the room)."""
    seat: Mapped[str] = mapped_column(String(1))
    family: Mapped[str] = mapped_column(String(16))
    """The rules family (``classic`` or ``coinche``)."""
    outcome: Mapped[str] = mapped_column(String(12), default=PLAYING)
    """One of :data:`OUTCOMES`."""
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


__all__ = ["ABANDONED", "FINISHED", "OUTCOMES", "PLAYING", "QuickSeatRow"]
