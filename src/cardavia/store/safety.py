"""Safety among strangers: the players one has blocked (never seated with them again by quick
play) and the display names reported (hidden from others until changed) (docs/players.md,
"Safety").

>>> from cardavia.store.db import GameStore, new_token
>>> store = GameStore("sqlite://")
>>> one, two = store.players.create(new_token()), store.players.create(new_token())
>>> store.safety.block(one.id, two.id)
>>> store.safety.kept_apart(two.id) == {one.id}, store.safety.kept_apart(one.id) == {two.id}
(True, True)
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Engine, ForeignKey, String, insert, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardavia.store.base import Base, now, unavailable


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


class SafetyStore:
    """Blocks and reports in the store's database (each method one short transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def block(self, player_id: str, blocked_id: str) -> None:
        """``player_id`` blocks ``blocked_id`` (again: nothing changes)."""
        row = {"player_id": player_id, "blocked_id": blocked_id, "created_at": now()}
        try:
            with unavailable(), self.engine.begin() as connection:
                connection.execute(insert(BlockRow), row)
        except IntegrityError:
            pass  # blocked already (or no such player: nothing to keep apart)

    def kept_apart(self, player_id: str) -> frozenset[str]:
        """The players quick play never seats with ``player_id``: those they blocked and
        those who blocked them."""
        with unavailable(), Session(self.engine) as session:
            rows = session.execute(
                select(BlockRow.player_id, BlockRow.blocked_id).where(
                    or_(BlockRow.player_id == player_id, BlockRow.blocked_id == player_id)
                )
            ).all()
        return frozenset(one if one != player_id else two for one, two in rows)


__all__ = ["BlockRow", "NameReportRow", "SafetyStore"]
