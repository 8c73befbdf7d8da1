"""Push subscriptions (docs/players.md, "Told when the site is closed"): each browser a player
asked to be told in while Cardavia is closed, as its push service named it (the endpoint to
post to, the browser's public key and secret that the message is encrypted for), with the
language of the page that asked; and what was pushed once only (a tournament's reminder),
so that two processes never push it twice.

>>> from cardavia.store.db import GameStore, new_token
>>> store = GameStore("sqlite://")
>>> ana = store.players.create(new_token())
>>> store.push.subscribe(ana.id, "https://push.example/a", "KEY", "SECRET", "fr")
>>> [(s.endpoint, s.lang) for s in store.push.of(ana.id)]
[('https://push.example/a', 'fr')]
>>> store.push.claim(ana.id, "closing:t1"), store.push.claim(ana.id, "closing:t1")
(True, False)
>>> store.push.unsubscribe(ana.id, "https://push.example/a"), store.push.of(ana.id)
(True, [])
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import DateTime, Engine, ForeignKey, String, delete, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardavia.store.base import Base, now, unavailable
from cardavia.store.tournaments import EntryRow, TournamentRow

ENDPOINT_LENGTH: Final = 1000
"""The longest endpoint kept (the push services' are under 300 characters)."""
SUBSCRIPTIONS_KEPT: Final = 10
"""A player's subscriptions kept at most (their browsers); the oldest goes for a new one."""


class PushSubscriptionRow(Base):
    """A browser that asked to be told while the site is closed: its push service's
    ``endpoint``, the browser's key (``p256dh``) and secret (``auth``), its page's ``lang``."""

    __tablename__ = "push_subscriptions"

    endpoint: Mapped[str] = mapped_column(String(ENDPOINT_LENGTH), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(50))
    lang: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PushSentRow(Base):
    """A message pushed once only to a player (``topic``: what it was about)."""

    __tablename__ = "push_sent"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    topic: Mapped[str] = mapped_column(String(80), primary_key=True)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class Subscription:
    """One browser of a player, as its push service named it."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str


class PushStore:
    """Push subscriptions and the messages pushed once, in the store's database (each method
    one short transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def subscribe(self, player_id: str, endpoint: str, p256dh: str, auth: str, lang: str) -> None:
        """Keep ``endpoint`` for ``player_id`` (another player's before, on a shared
        browser: now theirs), at most :data:`SUBSCRIPTIONS_KEPT` a player."""
        row = {
            "endpoint": endpoint,
            "player_id": player_id,
            "p256dh": p256dh,
            "auth": auth,
            "lang": lang,
            "created_at": now(),
        }
        with unavailable(), self.engine.begin() as connection:
            connection.execute(
                delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint)
            )
            connection.execute(insert(PushSubscriptionRow), row)
            kept = connection.execute(
                select(PushSubscriptionRow.endpoint)
                .where(PushSubscriptionRow.player_id == player_id)
                .order_by(PushSubscriptionRow.created_at.desc(), PushSubscriptionRow.endpoint)
                .offset(SUBSCRIPTIONS_KEPT)
            ).scalars()
            old = list(kept)
            if old:
                connection.execute(
                    delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint.in_(old))
                )

    def unsubscribe(self, player_id: str, endpoint: str) -> bool:
        """Forget ``player_id``'s ``endpoint``: whether it was theirs."""
        with unavailable(), self.engine.begin() as connection:
            result = connection.execute(
                delete(PushSubscriptionRow).where(
                    PushSubscriptionRow.endpoint == endpoint,
                    PushSubscriptionRow.player_id == player_id,
                )
            )
        return bool(getattr(result, "rowcount", 0))

    def forget(self, endpoint: str) -> None:
        """Forget ``endpoint``: its push service said it is gone (the browser unsubscribed)."""
        with unavailable(), self.engine.begin() as connection:
            connection.execute(
                delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint)
            )

    def of(self, player_id: str) -> list[Subscription]:
        """``player_id``'s subscriptions, the latest first."""
        with unavailable(), Session(self.engine) as session:
            rows = session.execute(
                select(
                    PushSubscriptionRow.endpoint,
                    PushSubscriptionRow.p256dh,
                    PushSubscriptionRow.auth,
                    PushSubscriptionRow.lang,
                )
                .where(PushSubscriptionRow.player_id == player_id)
                .order_by(PushSubscriptionRow.created_at.desc(), PushSubscriptionRow.endpoint)
            ).all()
        return [Subscription(*row) for row in rows]

    def claim(self, player_id: str, topic: str) -> bool:
        """Whether ``topic`` is ``player_id``'s to push now: the first asking only, whichever
        process asks (the row's key decides)."""
        row = {"player_id": player_id, "topic": topic, "sent_at": now()}
        try:
            with unavailable(), self.engine.begin() as connection:
                connection.execute(insert(PushSentRow), row)
        except IntegrityError:
            return False
        return True

    def closing_entries(self, moment: datetime, within: timedelta) -> list[tuple[str, str]]:
        """The (player, tournament) pairs of the players told while the site is closed who
        have deals left in a tournament closing within ``within`` of ``moment``."""
        with unavailable(), Session(self.engine) as session:
            rows = session.execute(
                select(EntryRow.player_id, EntryRow.tournament_id)
                .join(TournamentRow, TournamentRow.id == EntryRow.tournament_id)
                .where(
                    EntryRow.finished_at.is_(None),
                    TournamentRow.closed_at.is_(None),
                    TournamentRow.closes_at > moment,
                    TournamentRow.closes_at <= moment + within,
                    select(PushSubscriptionRow.endpoint)
                    .where(PushSubscriptionRow.player_id == EntryRow.player_id)
                    .exists(),
                )
                .order_by(EntryRow.tournament_id, EntryRow.player_id)
            ).all()
        return [(player, tournament) for player, tournament in rows]

    def kept_about(self, player_id: str) -> dict[str, list[dict[str, object]]]:
        """What is kept about the player's browsers told while the site is closed, for their
        export: each one's push service and language (never its key or secret)."""
        return {
            "push_subscriptions": [
                {"endpoint": s.endpoint, "lang": s.lang} for s in self.of(player_id)
            ]
        }


__all__ = ["PushSentRow", "PushStore", "PushSubscriptionRow", "Subscription"]
