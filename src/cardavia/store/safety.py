"""Safety among strangers: the players one has blocked (never seated with them again by quick
play) and the display names reported (hidden from others until changed) (docs/players.md,
"Safety").
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from cardavia.store.base import Base


class BlockRow(Base):
    """A player (``player_id``) who blocked another (``blocked_id``)."""

    __tablename__ = "player_blocks"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NameReportRow(Base):
    """A display name a player reported: the name as it was when reported."""

    __tablename__ = "name_reports"

    reporter_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


__all__ = ["BlockRow", "NameReportRow"]
