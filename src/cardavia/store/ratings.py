"""The players' ratings: one skill estimate per rules family (a mean and an uncertainty, the
Weng-Lin model of ``openskill``), and each change of it, deal by deal, for the profile's
chart (docs/players.md, "Ratings").

>>> from cardavia.store.db import GameStore, new_token
>>> store = GameStore("sqlite://")
>>> player = store.players.create(new_token())
>>> store.ratings.current(player.id, "classic") is None
True
>>> change = RatingChange(player.id, 26.5, 8.0)
>>> store.ratings.record([change], family="classic", room_code="ABCDE", game_id="g", deal=1)
True
>>> store.ratings.record([change], family="classic", room_code="ABCDE", game_id="g", deal=1)
False
>>> store.ratings.current(player.id, "classic").deals
1
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from sqlalchemy import (
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardavia.store.base import Base, now, unavailable, utc
from cardavia.store.players import PlayerRoomRow, PlayerRow

HISTORY_LIMIT: Final = 200
"""The most changes a player's history answers (the latest)."""


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


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player's rating after a rated deal: what :meth:`RatingStore.record` writes."""

    player_id: str
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class StoredChange:
    """One rated deal's change as kept: the rating after it, the deal (its game's id and
    number, the room it was played in) and when."""

    family: str
    mu: float
    sigma: float
    room_code: str
    game_id: str
    deal: int
    at: datetime


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

    def of_players(self, player_ids: Collection[str], family: str) -> dict[str, StoredRating]:
        """The ratings in ``family`` of those of ``player_ids`` who have one."""
        with unavailable(), Session(self.engine) as session:
            rows = session.scalars(
                select(RatingRow).where(
                    RatingRow.player_id.in_(list(player_ids)), RatingRow.family == family
                )
            ).all()
            return {
                row.player_id: StoredRating(row.mu, row.sigma, row.deals, utc(row.updated_at))
                for row in rows
            }

    def of_player(self, player_id: str) -> dict[str, StoredRating]:
        """The player's rating in each family they were rated in."""
        with unavailable(), Session(self.engine) as session:
            rows = session.scalars(select(RatingRow).where(RatingRow.player_id == player_id))
            return {
                row.family: StoredRating(row.mu, row.sigma, row.deals, utc(row.updated_at))
                for row in rows
            }

    def history(
        self, player_id: str, family: str | None = None, *, limit: int = HISTORY_LIMIT
    ) -> list[StoredChange]:
        """The player's latest ``limit`` changes (in ``family``; ``None``: every family),
        oldest first."""
        query = select(RatingChangeRow).where(RatingChangeRow.player_id == player_id)
        if family is not None:
            query = query.where(RatingChangeRow.family == family)
        with unavailable(), Session(self.engine) as session:
            rows = session.scalars(query.order_by(RatingChangeRow.id.desc()).limit(limit)).all()
            return [
                StoredChange(
                    row.family, row.mu, row.sigma, row.room_code, row.game_id, row.deal, utc(row.at)
                )
                for row in reversed(rows)
            ]

    def record(
        self,
        changes: Sequence[RatingChange],
        *,
        family: str,
        room_code: str,
        game_id: str,
        deal: int,
    ) -> bool:
        """Write a rated deal's changes, all or none, in one transaction: each change a row
        of ``rating_changes`` and the player's rating replaced. ``False`` (nothing written):
        the deal was counted already — the unique (player, game, deal) refused the rows,
        whoever wrote them first (another process that saw the same deal end). A player
        deleted meanwhile is left out."""
        if not changes:
            return False
        moment = now()
        try:
            with unavailable(), self.engine.begin() as connection:
                ids = [change.player_id for change in changes]
                alive = set(
                    connection.scalars(select(PlayerRow.id).where(PlayerRow.id.in_(ids))).all()
                )
                kept = [change for change in changes if change.player_id in alive]
                if not kept:
                    return False
                connection.execute(
                    insert(RatingChangeRow),
                    [
                        {
                            "player_id": change.player_id,
                            "family": family,
                            "room_code": room_code,
                            "game_id": game_id,
                            "deal": deal,
                            "mu": change.mu,
                            "sigma": change.sigma,
                            "at": moment,
                        }
                        for change in kept
                    ],
                )
                for change in kept:
                    _replace_rating(connection, change, family, moment)
        except IntegrityError:
            return False
        return True

    def kept_about(self, player_id: str) -> dict[str, list[dict[str, object]]]:
        """The player's ratings and every change of them, for the export."""
        ratings = self.of_player(player_id)
        changes = self.history(player_id, limit=1_000_000)
        return {
            "ratings": [
                {
                    "family": family,
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "deals": rating.deals,
                    "updated_at": rating.updated_at.isoformat(),
                }
                for family, rating in sorted(ratings.items())
            ],
            "rating_changes": [
                {
                    "family": change.family,
                    "room": change.room_code,
                    "game": change.game_id,
                    "deal": change.deal,
                    "mu": change.mu,
                    "sigma": change.sigma,
                    "at": change.at.isoformat(),
                }
                for change in changes
            ],
        }

    def room_players(self, room_code: str) -> dict[str, str]:
        """Who holds each seat of the room ``room_code`` (``player_rooms``): the seat's name
        (``N``, ``E``, ``S``, ``W``) and its player, the latest to take it."""
        with unavailable(), Session(self.engine) as session:
            rows = session.execute(
                select(PlayerRoomRow.seat, PlayerRoomRow.player_id)
                .where(PlayerRoomRow.room_code == room_code)
                .order_by(PlayerRoomRow.created_at)
            ).all()
        return {str(seat): str(player) for seat, player in rows}


def _replace_rating(
    connection: Connection, change: RatingChange, family: str, at: datetime
) -> None:
    """In ``connection``'s transaction: the player's rating in ``family`` becomes
    ``change``'s, one more deal counted (made at the first)."""
    key = (RatingRow.player_id == change.player_id) & (RatingRow.family == family)
    values = {"mu": change.mu, "sigma": change.sigma, "updated_at": at}
    done = connection.execute(
        update(RatingRow).where(key).values(deals=RatingRow.deals + 1, **values)
    )
    if done.rowcount == 0:
        connection.execute(
            insert(RatingRow),
            {"player_id": change.player_id, "family": family, "deals": 1, **values},
        )


__all__ = [
    "HISTORY_LIMIT",
    "RatingChange",
    "RatingChangeRow",
    "RatingRow",
    "RatingStore",
    "StoredChange",
    "StoredRating",
]
