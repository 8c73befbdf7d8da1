"""Friends (docs/players.md, "Friends"): a player asks another — met at a table, or through
the other's friend link — and they are friends once the other accepts; either may end it,
and a block ends it too. A player's friend link is a code of its own, made the first time
they ask for it (a link, never a search of names).

>>> from cardavia.store.db import GameStore, new_token
>>> store = GameStore("sqlite://")
>>> ana, bo = store.players.create(new_token()), store.players.create(new_token())
>>> _ = store.players.update(ana.id, {"name": "Ana"}), store.players.update(bo.id, {"name": "Bo"})
>>> store.friends.ask(ana.id, bo.id)
'asked'
>>> [f.name for f in store.friends.asking(bo.id)], store.friends.friends_of(ana.id)
(['Ana'], [])
>>> store.friends.accept(bo.id, ana.id), [f.name for f in store.friends.friends_of(ana.id)]
(True, ['Bo'])
>>> store.friends.ask(bo.id, ana.id)
'friends'
>>> store.friends.end(ana.id, bo.id), store.friends.friends_of(bo.id)
(True, [])
>>> code = store.friends.link_code(ana.id)
>>> code == store.friends.link_code(ana.id), store.friends.by_code(code) == ana.id
(True, True)
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

from sqlalchemy import (
    DateTime,
    Engine,
    ForeignKey,
    String,
    and_,
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
from sqlalchemy.sql.elements import ColumnElement

from cardavia.store.base import Base, now, unavailable, utc

CODE_LENGTH: Final = 12
"""Characters of a friend link's code (URL-safe: 72 bits)."""

_PLAYERS = table(
    "players", column("id", String), column("name", String), column("hidden_name", String)
)
"""The players' table as far as friends read it (their names, the one hidden)."""

Asked = Literal["asked", "friends"]
"""What asking did: asked (the other has yet to answer), or friends (they had asked too)."""


class FriendRow(Base):
    """``asker_id`` asked ``asked_id`` to be friends (``accepted_at``: since when they are)."""

    __tablename__ = "friendships"

    asker_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    asked_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    accepted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class FriendLinkRow(Base):
    """A player's friend link: the code that names them in ``/{lang}/friend/{code}``."""

    __tablename__ = "friend_links"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    code: Mapped[str] = mapped_column(String(16), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class Friend:
    """Another player as a friend list shows them: their id (never shown: the site makes a
    key of it), their name now (``None``: none, or hidden), since when (asked, or friends)."""

    id: str
    name: str | None
    since: datetime


def _pair(one: str, two: str) -> ColumnElement[bool]:
    """The rows between ``one`` and ``two``, whoever asked."""
    return or_(
        and_(FriendRow.asker_id == one, FriendRow.asked_id == two),
        and_(FriendRow.asker_id == two, FriendRow.asked_id == one),
    )


class FriendStore:
    """Friendships and friend links in the store's database (each method one short
    transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def ask(self, asker_id: str, asked_id: str) -> Asked:
        """``asker_id`` asks ``asked_id``: friends at once if ``asked_id`` had asked them (or
        they are friends already), else asked (again: nothing changes)."""
        with unavailable(), self.engine.begin() as connection:
            rows = connection.execute(
                select(FriendRow.asker_id, FriendRow.accepted_at).where(_pair(asker_id, asked_id))
            ).all()
            if any(accepted is not None for _, accepted in rows):
                return "friends"
            if any(asker == asked_id for asker, _ in rows):
                connection.execute(
                    update(FriendRow)
                    .where(FriendRow.asker_id == asked_id, FriendRow.asked_id == asker_id)
                    .values(accepted_at=now())
                )
                return "friends"
            if not rows:
                row = {"asker_id": asker_id, "asked_id": asked_id, "asked_at": now()}
                try:
                    with connection.begin_nested():
                        connection.execute(insert(FriendRow), row)
                except IntegrityError:
                    pass  # asked at the same moment by another request
        return "asked"

    def accept(self, player_id: str, asker_id: str) -> bool:
        """``player_id`` accepts ``asker_id``'s asking: whether there was one to accept."""
        with unavailable(), self.engine.begin() as connection:
            result = connection.execute(
                update(FriendRow)
                .where(
                    FriendRow.asker_id == asker_id,
                    FriendRow.asked_id == player_id,
                    FriendRow.accepted_at.is_(None),
                )
                .values(accepted_at=now())
            )
        return bool(getattr(result, "rowcount", 0))

    def end(self, one: str, two: str) -> bool:
        """Nothing between ``one`` and ``two`` any more (a friendship ended, an asking
        refused or taken back, a block): whether there was something."""
        with unavailable(), self.engine.begin() as connection:
            result = connection.execute(delete(FriendRow).where(_pair(one, two)))
        return bool(getattr(result, "rowcount", 0))

    def _listed(self, player_id: str, *, friends: bool, asked_by_them: bool) -> list[Friend]:
        other = FriendRow.asked_id if asked_by_them else FriendRow.asker_id
        mine = FriendRow.asker_id if asked_by_them else FriendRow.asked_id
        since = FriendRow.accepted_at if friends else FriendRow.asked_at
        accepted = (
            FriendRow.accepted_at.is_not(None) if friends else FriendRow.accepted_at.is_(None)
        )
        with unavailable(), Session(self.engine) as session:
            rows = session.execute(
                select(other, _PLAYERS.c.name, _PLAYERS.c.hidden_name, since)
                .join(_PLAYERS, _PLAYERS.c.id == other)
                .where(mine == player_id, accepted)
            ).all()
        return [
            Friend(id_, None if name is not None and name == hidden else name, utc(at))
            for id_, name, hidden, at in rows
        ]

    def friends_of(self, player_id: str) -> list[Friend]:
        """``player_id``'s friends, by name (whoever asked)."""
        found = self._listed(player_id, friends=True, asked_by_them=True)
        found += self._listed(player_id, friends=True, asked_by_them=False)
        return sorted(found, key=lambda f: ((f.name or "").casefold(), f.id))

    def asking(self, player_id: str) -> list[Friend]:
        """Who asked ``player_id`` and awaits an answer, the latest first."""
        found = self._listed(player_id, friends=False, asked_by_them=False)
        return sorted(found, key=lambda f: f.since, reverse=True)

    def asked(self, player_id: str) -> list[Friend]:
        """Whom ``player_id`` asked, who has yet to answer, the latest first."""
        found = self._listed(player_id, friends=False, asked_by_them=True)
        return sorted(found, key=lambda f: f.since, reverse=True)

    def are_friends(self, one: str, two: str) -> bool:
        """Whether ``one`` and ``two`` are friends."""
        with unavailable(), Session(self.engine) as session:
            found = session.execute(
                select(FriendRow.asker_id).where(
                    _pair(one, two),
                    FriendRow.accepted_at.is_not(None),
                )
            ).first()
        return found is not None

    def kept_about(self, player_id: str) -> dict[str, list[dict[str, object]]]:
        """What friends keep about the player, for their export: their friends, who asks
        them, whom they asked (each by their name now, since when) and their friend link."""

        def rows(found: list[Friend]) -> list[dict[str, object]]:
            return [{"name": f.name, "since": f.since.isoformat()} for f in found]

        with unavailable(), Session(self.engine) as session:
            code = session.execute(
                select(FriendLinkRow.code).where(FriendLinkRow.player_id == player_id)
            ).scalar()
        return {
            "friends": rows(self.friends_of(player_id)),
            "friend_requests": rows(self.asking(player_id)),
            "friend_requests_sent": rows(self.asked(player_id)),
            "friend_link": [] if code is None else [{"code": code}],
        }

    def has_friends(self, player_id: str) -> bool:
        """Whether ``player_id`` has a friend (or an asking either way): their pages then say
        where they are, for their friends."""
        with unavailable(), Session(self.engine) as session:
            found = session.execute(
                select(FriendRow.asker_id)
                .where(or_(FriendRow.asker_id == player_id, FriendRow.asked_id == player_id))
                .limit(1)
            ).first()
        return found is not None

    def link_code(self, player_id: str) -> str:
        """``player_id``'s friend link's code, made the first time it is asked for."""
        with unavailable(), self.engine.begin() as connection:
            code = connection.execute(
                select(FriendLinkRow.code).where(FriendLinkRow.player_id == player_id)
            ).scalar()
            if code is not None:
                return str(code)
            code = secrets.token_urlsafe(9)[:CODE_LENGTH]
            row = {"player_id": player_id, "code": code, "created_at": now()}
            connection.execute(insert(FriendLinkRow), row)
        return code

    def by_code(self, code: str) -> str | None:
        """The player whose friend link has ``code``, or ``None``."""
        with unavailable(), Session(self.engine) as session:
            found = session.execute(
                select(FriendLinkRow.player_id).where(FriendLinkRow.code == code)
            ).scalar()
        return None if found is None else str(found)


__all__ = ["Asked", "Friend", "FriendLinkRow", "FriendRow", "FriendStore"]
