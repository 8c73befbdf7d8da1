"""The passkeys' tables and :class:`PasskeyStore`: each passkey a player added (its
credential id, public key and the authenticator's last sign count: never a secret), and the
ceremonies under way (the challenge a browser must sign, kept until it answers — any process
may get the answer — and used once).

>>> from cardavia.store.db import GameStore, new_token
>>> store = GameStore("sqlite://")
>>> player = store.players.create(new_token())
>>> ceremony = store.passkeys.begin(b"challenge", player_id=player.id)
>>> store.passkeys.take(ceremony).challenge, store.passkeys.take(ceremony)
(b'challenge', None)
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import (
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from cardavia.store.base import Base, now, unavailable, utc

CEREMONY_SECONDS: Final = 300
"""How long a ceremony's challenge waits for its answer."""
MAX_CREDENTIAL_ID: Final = 1400
"""A credential id's most characters (1023 bytes at most, in base64url)."""


class PasskeyRow(Base):
    """A passkey of a player (WebAuthn credential)."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(MAX_CREDENTIAL_ID), primary_key=True)
    """The credential id, base64url."""
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    """The credential's public key (COSE)."""
    sign_count: Mapped[int] = mapped_column(Integer)
    """The authenticator's signature counter as last seen (a clone of an authenticator that
    keeps one does not move it on; 0 for the many passkeys that keep none)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class CeremonyRow(Base):
    """A registration or sign-in under way: the challenge the browser's answer must sign."""

    __tablename__ = "passkey_ceremonies"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    player_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), nullable=True
    )
    """The player adding a passkey; ``None`` for a sign-in (who it is, the passkey says)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


@dataclass(frozen=True, slots=True)
class StoredPasskey:
    """A passkey as the database holds it."""

    id: str
    player_id: str
    public_key: bytes
    sign_count: int
    created_at: datetime
    used_at: datetime | None

    @classmethod
    def of(cls, row: PasskeyRow) -> StoredPasskey:
        """The value of a row."""
        used = None if row.used_at is None else utc(row.used_at)
        return cls(row.id, row.player_id, row.public_key, row.sign_count, utc(row.created_at), used)


@dataclass(frozen=True, slots=True)
class StoredCeremony:
    """A ceremony taken back (:meth:`PasskeyStore.take`)."""

    challenge: bytes
    player_id: str | None


class PasskeyStore:
    """The passkeys and ceremonies in the store's database (each method one short
    transaction, blocking)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def begin(self, challenge: bytes, *, player_id: str | None) -> str:
        """Keep a ceremony's challenge (``player_id``: the player adding a passkey); answers
        the ceremony's id. Ceremonies older than :data:`CEREMONY_SECONDS` are dropped."""
        ceremony = secrets.token_urlsafe(16)
        moment = now()
        row = {"id": ceremony, "challenge": challenge, "player_id": player_id, "created_at": moment}
        with unavailable(), self.engine.begin() as connection:
            cutoff = moment - timedelta(seconds=CEREMONY_SECONDS)
            connection.execute(delete(CeremonyRow).where(CeremonyRow.created_at < cutoff))
            connection.execute(insert(CeremonyRow), row)
        return ceremony

    def take(self, ceremony: object) -> StoredCeremony | None:
        """The ceremony ``ceremony``, removed (a challenge is answered once), or ``None``:
        unknown, already answered, or older than :data:`CEREMONY_SECONDS`."""
        if not isinstance(ceremony, str) or not 0 < len(ceremony) <= 32:
            return None
        with unavailable(), self.engine.begin() as connection:
            row = connection.execute(
                select(CeremonyRow.challenge, CeremonyRow.player_id, CeremonyRow.created_at).where(
                    CeremonyRow.id == ceremony
                )
            ).first()
            if row is None:
                return None
            gone = connection.execute(delete(CeremonyRow).where(CeremonyRow.id == ceremony))
            if gone.rowcount != 1:
                return None  # another process took it first
        if now() - utc(row.created_at) > timedelta(seconds=CEREMONY_SECONDS):
            return None
        return StoredCeremony(bytes(row.challenge), row.player_id)

    def add(self, passkey_id: str, player_id: str, public_key: bytes, sign_count: int) -> None:
        """Keep a new passkey of the player."""
        row = {
            "id": passkey_id,
            "player_id": player_id,
            "public_key": public_key,
            "sign_count": sign_count,
            "created_at": now(),
            "used_at": None,
        }
        with unavailable(), self.engine.begin() as connection:
            connection.execute(insert(PasskeyRow), row)

    def find(self, passkey_id: object) -> StoredPasskey | None:
        """The passkey of that credential id, or ``None``."""
        if not isinstance(passkey_id, str) or not 0 < len(passkey_id) <= MAX_CREDENTIAL_ID:
            return None
        with unavailable(), Session(self.engine) as session:
            row = session.get(PasskeyRow, passkey_id)
            return None if row is None else StoredPasskey.of(row)

    def used(self, passkey_id: str, *, before: int, after: int) -> bool:
        """The passkey signed in, its counter moved from ``before`` to ``after``: kept if the
        counter is still ``before`` (false: another sign-in with it came first)."""
        with unavailable(), self.engine.begin() as connection:
            result = connection.execute(
                update(PasskeyRow)
                .where(PasskeyRow.id == passkey_id, PasskeyRow.sign_count == before)
                .values(sign_count=after, used_at=now())
            )
            return bool(result.rowcount == 1)

    def of_player(self, player_id: str) -> list[StoredPasskey]:
        """The player's passkeys, oldest first."""
        with unavailable(), Session(self.engine) as session:
            rows = session.scalars(
                select(PasskeyRow)
                .where(PasskeyRow.player_id == player_id)
                .order_by(PasskeyRow.created_at)
            ).all()
            return [StoredPasskey.of(row) for row in rows]

    def revoke(self, player_id: str, passkey_id: str) -> bool:
        """Remove the player's passkey ``passkey_id`` (false: they have none of that id)."""
        with unavailable(), self.engine.begin() as connection:
            result = connection.execute(
                delete(PasskeyRow).where(
                    PasskeyRow.id == passkey_id, PasskeyRow.player_id == player_id
                )
            )
            return bool(result.rowcount == 1)


__all__ = [
    "CEREMONY_SECONDS",
    "CeremonyRow",
    "PasskeyRow",
    "PasskeyStore",
    "StoredCeremony",
    "StoredPasskey",
]
