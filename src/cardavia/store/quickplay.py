"""The quick-play seats: each seat a player was given at a table formed by quick play, and
how it ended (played to the end, or left for good). A player's completion rate is read from
them (docs/players.md, "Leaving"); they outlive the room they were played in.

>>> from cardavia.store.db import GameStore, new_token
>>> store = GameStore("sqlite://")
>>> player = store.players.create(new_token())
>>> store.quick.completion(player.id)
Completion(finished=0, abandoned=0)
>>> store.quick.seat(player.id, room_code="ABCD2345", seat="S", family="classic")
>>> store.quick.completion(player.id).rate is None
True
>>> store.quick.abandon(room_code="ABCD2345", seat="S"), store.quick.end(room_code="ABCD2345")
(1, 0)
>>> store.quick.completion(player.id)
Completion(finished=0, abandoned=1)
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from sqlalchemy import (
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    String,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardavia.store.base import Base, now, unavailable

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
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id", ondelete="CASCADE"))
    room_code: Mapped[str] = mapped_column(String(8), index=True)
    """The room the table was formed as (not a foreign key: the seat outlives the room)."""
    seat: Mapped[str] = mapped_column(String(1))
    family: Mapped[str] = mapped_column(String(16))
    """The rules family (``classic`` or ``coinche``)."""
    outcome: Mapped[str] = mapped_column(String(12), default=PLAYING)
    """One of :data:`OUTCOMES`."""
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


@dataclass(frozen=True, slots=True)
class Completion:
    """How a player's quick-play games ended: played to the end, or left for good."""

    finished: int
    abandoned: int

    @property
    def rate(self) -> float | None:
        """The share of their ended games they played to the end (``None``: none ended)."""
        ended = self.finished + self.abandoned
        return None if ended == 0 else self.finished / ended


class QuickSeatStore:
    """The quick-play seats in the store's database (each method one short transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def seat(self, player_id: str, *, room_code: str, seat: str, family: str) -> None:
        """Note that quick play gave ``player_id`` the seat ``seat`` of the table formed as
        room ``room_code`` (its game under way)."""
        row = {
            "player_id": player_id,
            "room_code": room_code,
            "seat": seat,
            "family": family,
            "outcome": PLAYING,
            "joined_at": now(),
        }
        with unavailable(), self.engine.begin() as connection:
            connection.execute(insert(QuickSeatRow), row)

    def abandon(self, *, room_code: str, seat: str) -> int:
        """The player of ``seat`` at the quick-play table ``room_code`` left it for good
        while its game was played: their seat is abandoned (a loss for them alone). Answers
        how many seats were (0: none still played there)."""
        return self._end(ABANDONED, room_code, seat)

    def end(self, *, room_code: str) -> int:
        """The game of the quick-play table ``room_code`` is over: each of its seats still
        played is finished (an away player never gone for good included; an abandoned seat
        stays abandoned). Answers how many were."""
        return self._end(FINISHED, room_code, None)

    def _end(self, outcome: str, room_code: str, seat: str | None) -> int:
        where = [QuickSeatRow.room_code == room_code, QuickSeatRow.outcome == PLAYING]
        if seat is not None:
            where.append(QuickSeatRow.seat == seat)
        with unavailable(), self.engine.begin() as connection:
            result = connection.execute(
                update(QuickSeatRow).where(*where).values(outcome=outcome, ended_at=now())
            )
        return int(result.rowcount or 0)

    def completion(self, player_id: str) -> Completion:
        """How the player's quick-play games ended (those still played are not counted)."""
        return self.completion_of([player_id])

    def completion_of(self, player_ids: Collection[str]) -> Completion:
        """How the quick-play games of all these players ended, summed (the players seen
        joining from one client: its record, docs/players.md, "Quick play")."""
        if not player_ids:
            return Completion(0, 0)
        with unavailable(), Session(self.engine) as session:
            counts = dict(
                session.execute(
                    select(QuickSeatRow.outcome, func.count())
                    .where(QuickSeatRow.player_id.in_(sorted(set(player_ids))))
                    .group_by(QuickSeatRow.outcome)
                ).all()
            )
        return Completion(counts.get(FINISHED, 0), counts.get(ABANDONED, 0))


__all__ = [
    "ABANDONED",
    "FINISHED",
    "OUTCOMES",
    "PLAYING",
    "Completion",
    "QuickSeatRow",
    "QuickSeatStore",
]
