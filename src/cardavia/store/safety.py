"""Safety among strangers: the players one has blocked (never seated with them again by quick
play) and the display names reported (hidden from others until changed) (docs/players.md,
"Safety").

>>> from cardavia.store.db import GameStore, new_token
>>> store = GameStore("sqlite://")
>>> one, two = store.players.create(new_token()), store.players.create(new_token())
>>> store.safety.block(one.id, two.id)
>>> store.safety.kept_apart(two.id) == {one.id}, store.safety.kept_apart(one.id) == {two.id}
(True, True)
>>> [b.id == two.id for b in store.safety.blocked_by(one.id)], store.safety.blocked_by(two.id)
([True], [])
>>> store.safety.unblock(one.id, two.id), store.safety.kept_apart(one.id)
(True, frozenset())
>>> _ = store.players.update(two.id, {"name": "Rude"})
>>> store.safety.report(one.id, two.id, "Rude")
>>> store.safety.hidden_name(two.id), store.safety.is_hidden(two.id, "Rude")
('Rude', True)
>>> _ = store.players.update(two.id, {"name": "Kind"})
>>> store.safety.is_hidden(two.id, "Kind"), store.safety.is_hidden(two.id, "Rude")
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    DateTime,
    Engine,
    ForeignKey,
    String,
    column,
    delete,
    insert,
    or_,
    select,
    table,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardavia.store.base import Base, now, unavailable, utc

_PLAYERS = table(
    "players", column("id", String), column("name", String), column("hidden_name", String)
)
"""The players' table as far as safety reads it (their names, the one hidden)."""
_SEATS = table(
    "player_rooms",
    column("player_id", String),
    column("room_code", String),
    column("seat", String),
    column("created_at", DateTime),
)
"""The room seats players took: who sits behind a seat of a room."""


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


@dataclass(frozen=True, slots=True)
class Blocked:
    """A player someone blocked: their id (never shown to anyone: the site makes a key of
    it for its blocker), their name now (``None``: none, or hidden), since when."""

    id: str
    name: str | None
    hidden: bool
    since: datetime


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

    def unblock(self, player_id: str, blocked_id: str) -> bool:
        """``player_id`` no longer blocks ``blocked_id``: whether they did."""
        with unavailable(), self.engine.begin() as connection:
            result = connection.execute(
                delete(BlockRow).where(
                    BlockRow.player_id == player_id, BlockRow.blocked_id == blocked_id
                )
            )
        return bool(getattr(result, "rowcount", 0))

    def blocked_by(self, player_id: str) -> list[Blocked]:
        """The players ``player_id`` blocked, the latest first, each by their name now (a
        hidden one: ``None``, ``hidden``)."""
        with unavailable(), Session(self.engine) as session:
            rows = session.execute(
                select(
                    BlockRow.blocked_id,
                    _PLAYERS.c.name,
                    _PLAYERS.c.hidden_name,
                    BlockRow.created_at,
                )
                .join(_PLAYERS, _PLAYERS.c.id == BlockRow.blocked_id)
                .where(BlockRow.player_id == player_id)
                .order_by(BlockRow.created_at.desc())
            ).all()
        found = []
        for blocked, name, hidden_name, at in rows:
            hidden = name is not None and name == hidden_name
            found.append(Blocked(blocked, None if hidden else name, hidden, utc(at)))
        return found

    def report(self, reporter_id: str, player_id: str, name: str) -> None:
        """``reporter_id`` reported ``player_id``'s display name ``name``: it is hidden from
        the others wherever that player shows it, until they change it (again: the report
        is kept once)."""
        row = {"reporter_id": reporter_id, "player_id": player_id, "name": name}
        with unavailable(), self.engine.begin() as connection:
            try:
                with connection.begin_nested():
                    connection.execute(insert(NameReportRow), row | {"created_at": now()})
            except IntegrityError:
                pass  # reported already by them
            connection.execute(
                update(_PLAYERS).where(_PLAYERS.c.id == player_id).values(hidden_name=name)
            )

    def hidden_name(self, player_id: str) -> str | None:
        """The name of the player's last reported (hidden wherever it shows: "a player"),
        or ``None``."""
        with unavailable(), Session(self.engine) as session:
            return session.execute(
                select(_PLAYERS.c.hidden_name).where(_PLAYERS.c.id == player_id)
            ).scalar()

    def is_hidden(self, player_id: str, name: str | None) -> bool:
        """Whether ``name``, shown as ``player_id``'s, is a name of theirs that was reported."""
        return name is not None and name == self.hidden_name(player_id)

    def player_behind(self, room_code: str, seat: str) -> str | None:
        """The player who took ``seat`` in the room ``room_code`` last, or ``None`` (a
        computer player's seat, an open one, or no such room)."""
        with unavailable(), Session(self.engine) as session:
            return session.execute(
                select(_SEATS.c.player_id)
                .where(_SEATS.c.room_code == room_code, _SEATS.c.seat == seat)
                .order_by(_SEATS.c.created_at.desc())
                .limit(1)
            ).scalar()

    def seated_in(self, player_id: str, room_code: str) -> bool:
        """Whether ``player_id`` took a seat in the room ``room_code``."""
        with unavailable(), Session(self.engine) as session:
            found = session.execute(
                select(_SEATS.c.seat)
                .where(_SEATS.c.player_id == player_id, _SEATS.c.room_code == room_code)
                .limit(1)
            ).first()
        return found is not None

    def kept_about(self, player_id: str) -> dict[str, list[dict[str, Any]]]:
        """What safety keeps about the player, for their export: the players they blocked
        (by their name now), the names they reported, and their own names reported (never
        who reported them)."""
        blocks = self.blocked_by(player_id)
        with unavailable(), Session(self.engine) as session:
            made = session.execute(
                select(NameReportRow.name, NameReportRow.created_at).where(
                    NameReportRow.reporter_id == player_id
                )
            ).all()
            about = session.execute(
                select(NameReportRow.name, NameReportRow.created_at).where(
                    NameReportRow.player_id == player_id
                )
            ).all()
        return {
            "blocks": [
                {"name": b.name, "hidden": b.hidden, "since": b.since.isoformat()} for b in blocks
            ],
            "reports": [{"name": name, "at": utc(at).isoformat()} for name, at in made],
            "reported_names": [{"name": name, "at": utc(at).isoformat()} for name, at in about],
        }


__all__ = ["BlockRow", "Blocked", "NameReportRow", "SafetyStore"]
