"""What every table of the store shares: the declarative base (one metadata, the latest
revision's schema), times in UTC, and the one way a "cannot serve now" failure of the
database is told (:class:`StoreUnavailableError`)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Final

from sqlalchemy.exc import InterfaceError, InternalError, OperationalError
from sqlalchemy.orm import DeclarativeBase

from cardavia.metrics import service_failed


class Base(DeclarativeBase):
    """The declarative base of Cardavia's tables."""


class StoreUnavailableError(RuntimeError):
    """The database cannot do what was asked now (disk full, read-only, unreachable):
    nothing was written, and what was saved before is intact."""


UNAVAILABLE: Final = (OperationalError, InternalError, InterfaceError)
"""The driver's errors that say the database cannot serve, rather than that the request is
wrong: SQLite's "database or disk is full" and "attempt to write a readonly database",
PostgreSQL's disk full, read-only transaction or lost connection."""


@contextmanager
def unavailable() -> Iterator[None]:
    """Turn the database's "cannot serve now" errors into :class:`StoreUnavailableError`."""
    try:
        yield
    except UNAVAILABLE as error:
        service_failed("database")
        raise StoreUnavailableError(str(error.orig or error)) from error


def hash_token(token: str) -> str:
    """The SHA-256 of a token, in hex: what the database keeps."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def utc(moment: datetime) -> datetime:
    """A time in UTC: SQLite gives back times without their zone, PostgreSQL with it."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def now() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


__all__ = [
    "UNAVAILABLE",
    "Base",
    "StoreUnavailableError",
    "hash_token",
    "now",
    "unavailable",
    "utc",
]
