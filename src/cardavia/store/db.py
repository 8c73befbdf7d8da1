"""The games table and :class:`GameStore`: create a game, load it, save its record.

A game row keeps what the engine needs to rebuild the game (the record, JSON of
:mod:`cardavia.belote.notation`, as written when the game was created, and the events appended
to it since — each action, each new deal — one short transaction each) and what the
site needs around it (rules, level, language, the seat token's SHA-256 hash). The token itself
is never stored: whoever reads the database cannot act for the player.

>>> store = GameStore("sqlite://")
>>> token = new_token()
>>> game = store.create(rules="cardavia", level="club", lang="fr", token=token, record="{}")
>>> store.load(game.id).token_matches(token), store.load(game.id).token_matches("guess")
(True, False)
>>> store.save(game.id, '{"x": 1}', revision=0)
1
>>> store.load(game.id).record
'{"x": 1}'
"""

from __future__ import annotations

import hmac
import logging
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from typing import Any, Final, cast

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from cardavia.store.base import UNAVAILABLE as _UNAVAILABLE
from cardavia.store.base import Base as Base
from cardavia.store.base import StoreUnavailableError as StoreUnavailableError
from cardavia.store.base import hash_token as hash_token
from cardavia.store.base import now as _now
from cardavia.store.base import unavailable as _unavailable
from cardavia.store.base import utc as _utc
from cardavia.store.events import fold_events
from cardavia.store.friends import FriendStore
from cardavia.store.leagues import LeagueStore
from cardavia.store.migrate import Upgrade, upgrade
from cardavia.store.passkeys import PasskeyStore
from cardavia.store.players import PlayerStore, follow_room_seats, unlink_games, unlink_rooms
from cardavia.store.push import PushStore
from cardavia.store.quickplay import QuickSeatStore
from cardavia.store.ratings import RatingStore
from cardavia.store.read_only import forced_read_only, read_only_url
from cardavia.store.safety import SafetyStore
from cardavia.store.standings import StandingStore
from cardavia.store.tournaments import TournamentStore

log = logging.getLogger(__name__)

DATABASE_URL_VARIABLE: Final = "CARDAVIA_DATABASE_URL"
DEFAULT_DATABASE_URL: Final = "sqlite:///cardavia.db"
GAME_ID_BYTES: Final = 12
"""A game's id: 12 random bytes, 16 URL-safe characters."""
TOKEN_BYTES: Final = 32
"""A seat token: 32 random bytes, 43 URL-safe characters."""
MAX_ID_LENGTH: Final = 32


def new_token() -> str:
    """A fresh seat token (unguessable, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_matches(token_hash: str, token: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``token_hash`` (compared in constant time,
    so that the answer's timing tells nothing about the hash)."""
    if not isinstance(token, str) or not token:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


def database_url(url: str | None = None) -> str:
    """The database to use: ``url``, else ``CARDAVIA_DATABASE_URL``, else ``cardavia.db``.
    A plain ``postgresql://`` (or ``postgres://``) URL is given the psycopg 3 driver, the one
    the ``postgresql`` extra installs."""
    url = url or os.environ.get(DATABASE_URL_VARIABLE) or DEFAULT_DATABASE_URL
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


class GameRow(Base):
    """One game: a single deal or a match, as its record."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(MAX_ID_LENGTH), primary_key=True)
    rules: Mapped[str] = mapped_column(String(32))
    level: Mapped[str] = mapped_column(String(32))
    lang: Mapped[str] = mapped_column(String(8))
    token_hash: Mapped[str] = mapped_column(String(64))
    record: Mapped[str] = mapped_column(Text)
    """The record, JSON (:meth:`cardavia.belote.notation.Record.to_json`)."""
    revision: Mapped[int] = mapped_column(Integer, default=0)
    """How many times the record was saved: a save names the revision it replaces, so two
    servers cannot overwrite each other's moves unnoticed."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    finished: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the game is over (a finished game is kept; an abandoned one is not)."""
    first_seed: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    """The secret seed the first deal was dealt from, hexadecimal (docs/fair-deals.md; the
    later deals' are in their events); ``None`` for games made before deals were seeded."""
    seat: Mapped[str | None] = mapped_column(String(1), nullable=True, server_default="S")
    """The seat the game's token plays (``N``, ``E``, ``S``, ``W``): the person's at a
    single-player table; ``None`` for a room's game (its people hold the room's tokens).
    Games saved before seats could be chosen were played from South."""
    version: Mapped[str | None] = mapped_column(String(32), nullable=True, default=None)
    """The version of its computer players (:func:`cardavia.ai.levels.version_of`: a
    tournament's deal, its tournament's); ``None`` for a level registered without one."""


class EventRow(Base):
    """One event appended to a game's record since it was last written whole: an action
    or a new deal (:mod:`cardavia.store.events`). Its ``seq`` is the revision it
    made."""

    __tablename__ = "game_events"

    game_id: Mapped[str] = mapped_column(
        String(MAX_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    event: Mapped[str] = mapped_column(Text)


class RoomRow(Base):
    """One room: a table of several people (:mod:`cardavia.live.rooms`), found by its short
    code. Its ``state`` (JSON: settings, seats with the hashes of their tokens, who is
    away, who is ready, the last quick phrases) is rewritten whole at each change, naming
    the revision it replaces; its game, once dealt, is a row of ``games``."""

    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    game_id: Mapped[str | None] = mapped_column(String(MAX_ID_LENGTH), nullable=True)
    client: Mapped[str] = mapped_column(String(64), index=True)
    """The address that created the room (the limit of rooms per client)."""
    state: Mapped[str] = mapped_column(Text)
    revision: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    human_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    """The last time a person was at the table: a room with nobody for a day closes."""


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A room as the database holds it."""

    code: str
    game_id: str | None
    client: str
    state: str
    revision: int
    human_at: datetime


class RoomCodeTakenError(RuntimeError):
    """A new room's code is already some other room's: draw another."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as the database holds it."""

    id: str
    rules: str
    level: str
    lang: str
    token_hash: str
    record: str
    revision: int
    created_at: datetime
    updated_at: datetime
    first_seed: str | None = None
    """The first deal's secret seed (:attr:`GameRow.first_seed`)."""
    seat: str | None = None
    """The seat the game's token plays (:attr:`GameRow.seat`)."""
    version: str | None = None
    """The version of its computer players (:attr:`GameRow.version`)."""

    def token_matches(self, token: str | None) -> bool:
        """Whether ``token`` is this game's seat token (compared in constant time)."""
        return token_matches(self.token_hash, token)

    @classmethod
    def of(cls, row: GameRow, events: Sequence[str] = ()) -> StoredGame:
        """The value of a row, with the events appended to its record since it was last
        written folded in."""
        return cls(
            id=row.id,
            rules=row.rules,
            level=row.level,
            lang=row.lang,
            token_hash=row.token_hash,
            record=fold_events(row.record, events),
            revision=row.revision,
            created_at=_utc(row.created_at),
            updated_at=_utc(row.updated_at),
            first_seed=row.first_seed,
            seat=row.seat,
            version=row.version,
        )


@dataclass(frozen=True, slots=True)
class Append:
    """One event to append to a game's record (:meth:`GameStore.append_all`), if the game is
    still at ``revision``; ``finished``: the game is over with it."""

    game_id: str
    event: str
    revision: int
    finished: bool = False

    def event_row(self) -> dict[str, object]:
        """Its row of ``game_events``: the event, numbered by the revision it makes."""
        return {"game_id": self.game_id, "seq": self.revision + 1, "event": self.event}


class _SomeStaleError(Exception):
    """Inside :meth:`GameStore.append_all`: a game of the group is not at its revision."""


class StaleGameError(RuntimeError):
    """The record changed since it was loaded (another server saved it): nothing was saved."""


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """SQLite: wait for a lock rather than fail at once, and let readers work while a game is
    saved (write-ahead log)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA busy_timeout = 5000")
    cursor.execute("PRAGMA journal_mode = WAL")
    # In WAL mode: a commit survives the process being killed; only a power cut may lose the
    # last ones. It spares an fsync per action.
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()


def upgrade_schema(engine: Engine) -> Upgrade:
    """Bring the database's schema up to date (:func:`cardavia.store.migrate.upgrade`: the
    revisions since the one it is at; an empty database is given these models' tables)."""
    return upgrade(engine, models=Base.metadata)


def upgrade_database(url: str | None = None) -> Upgrade:
    """Upgrade the database at ``url`` (:func:`database_url`) to the latest revision, as
    ``cardavia serve`` does on start and ``cardavia db upgrade`` on demand.
    :class:`StoreUnavailableError` when it cannot be written (read-only: nothing is tried,
    :mod:`cardavia.store.read_only`) or reached."""
    url = database_url(url)
    if read_only_url(url, forced=forced_read_only()) is not None:
        raise StoreUnavailableError("the database is read-only")
    engine = _engine(url)
    try:
        with _unavailable():
            return upgrade_schema(engine)
    finally:
        engine.dispose()


@dataclass(frozen=True, slots=True)
class _CoreWrites:
    """A group's appends through SQLAlchemy Core's compiled statements (any database)."""

    connection: Connection
    now: datetime
    advance_statement: Any
    append_statement: Any

    def advance(self, appends: Sequence[Append]) -> int:
        """Move each game on by one revision, if still at its append's: how many moved."""
        advances = [
            {"id_": a.game_id, "revision": a.revision, "now": self.now, "finished": a.finished}
            for a in appends
        ]
        return int(self.connection.execute(self.advance_statement, advances).rowcount)

    def append(self, appends: Sequence[Append]) -> None:
        """Add each append's event to its game's record."""
        self.connection.execute(self.append_statement, [a.event_row() for a in appends])


@dataclass(frozen=True, slots=True)
class _CursorWrites:
    """A group's appends by the SQLite driver's own cursor, in the transaction SQLAlchemy
    opened: the same two statements, written once as SQL. SQLAlchemy's execution of them
    cost more than SQLite's own work (a group of one: 0.19 ms of CPU, 0.11 ms so), and the
    writer runs one group per action at a person's pace."""

    connection: Connection
    sql: tuple[str, str]
    values: Callable[[Append], tuple[Any, ...]]

    def advance(self, appends: Sequence[Append]) -> int:
        """Move each game on by one revision, if still at its append's: how many moved."""
        with _driver_unavailable():
            cursor = self.connection.connection.cursor()
            try:
                cursor.executemany(self.sql[0], [self.values(a) for a in appends])
                return int(cursor.rowcount)
            finally:
                cursor.close()

    def append(self, appends: Sequence[Append]) -> None:
        """Add each append's event to its game's record."""
        with _driver_unavailable():
            cursor = self.connection.connection.cursor()
            try:
                rows = [(a.game_id, a.revision + 1, a.event) for a in appends]
                cursor.executemany(self.sql[1], rows)
            finally:
                cursor.close()


@contextmanager
def _driver_unavailable() -> Iterator[None]:
    """SQLite's own "cannot serve now" errors (disk full, read-only), which SQLAlchemy does
    not see on the driver's cursor, as :class:`StoreUnavailableError`."""
    try:
        yield
    except (sqlite3.OperationalError, sqlite3.InternalError, sqlite3.InterfaceError) as error:
        raise StoreUnavailableError(str(error)) from error


def _engine(url: str) -> Engine:
    """An engine on ``url``: SQLite's connections shared across threads, waiting for locks
    and in write-ahead-log mode; other databases' checked before use."""
    is_sqlite = url.startswith("sqlite")
    in_memory = is_sqlite and url in ("sqlite://", "sqlite:///:memory:")
    options: dict[str, Any] = {}
    if is_sqlite:
        options["connect_args"] = {"check_same_thread": False}
    if in_memory:
        # One shared connection, or each thread would see its own empty database.
        options["poolclass"] = StaticPool
    else:
        options["pool_pre_ping"] = not is_sqlite
    engine: Engine = create_engine(url, **options)
    if is_sqlite and not in_memory:
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


class GameStore:
    """The games in a database. Every method is one short transaction; they block, so the
    web server calls them from a worker thread."""

    def __init__(self, url: str | None = None, *, read_only: bool | None = None) -> None:
        """The games at ``url`` (:func:`database_url`); a SQLite file opened read-only when
        ``read_only`` (``None``: ``CARDAVIA_DATABASE_READ_ONLY``) or when it cannot be
        written (:mod:`cardavia.store.read_only`)."""
        url = database_url(url)
        forced = forced_read_only() if read_only is None else read_only
        opened = read_only_url(url, forced=forced)
        self.read_only = opened is not None
        """Whether the database was opened read-only (every write answers unavailable)."""
        engine = _engine(opened or url)
        try:
            upgrade_schema(engine)
        except _UNAVAILABLE as error:
            fallback = None if self.read_only else read_only_url(url, failed=True)
            if fallback is None:
                # A read-only database whose tables exist still serves its saved games; one
                # that cannot be reached at all fails on first use, with a clear error then.
                log.warning("the database's tables could not be checked: %s", error.orig)
            else:
                log.warning("the database is opened read-only: %s", error.orig)
                engine.dispose()
                engine = _engine(fallback)
                self.read_only = True
        self.engine = engine
        self.players = PlayerStore(engine)
        """The players (:mod:`cardavia.store.players`), in the same database."""
        self.passkeys = PasskeyStore(engine)
        """Their passkeys (:mod:`cardavia.store.passkeys`)."""
        self.quick = QuickSeatStore(engine)
        """The seats quick play gave them (:mod:`cardavia.store.quickplay`)."""
        self.ratings = RatingStore(engine)
        """Their ratings (:mod:`cardavia.store.ratings`)."""
        self.safety = SafetyStore(engine)
        """Their blocks and reports (:mod:`cardavia.store.safety`)."""
        self.friends = FriendStore(engine)
        """Their friends and friend links (:mod:`cardavia.store.friends`)."""
        self.push = PushStore(engine)
        """Their browsers told while the site is closed (:mod:`cardavia.store.push`)."""
        self.tournaments = TournamentStore(engine)
        """The duplicate tournaments, their entries and deals
        (:mod:`cardavia.store.tournaments`)."""
        self.standings = StandingStore(engine)
        """Their standings, made at closing (:mod:`cardavia.store.standings`)."""
        self.leagues = LeagueStore(engine)
        """The performance from tournament deals and the weekly leagues
        (:mod:`cardavia.store.leagues`)."""
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        # The statements of an action, compiled once (SQLAlchemy Core: no ORM per action).
        games, events = cast(Table, GameRow.__table__), cast(Table, EventRow.__table__)
        self._advance_statement = (
            update(games)
            .where(games.c.id == bindparam("id_"), games.c.revision == bindparam("revision"))
            .values(
                revision=games.c.revision + 1,
                updated_at=bindparam("now"),
                finished=bindparam("finished"),
            )
        )
        self._append_statement = insert(events)
        self._create_statement = insert(games)
        self._cursor_sql: tuple[str, str] | None = None
        if engine.dialect.name == "sqlite":
            self._cursor_sql = (
                f"UPDATE {games.name} SET revision = revision + 1, updated_at = ?, finished = ?"
                " WHERE id = ? AND revision = ?",
                f"INSERT INTO {events.name} (game_id, seq, event) VALUES (?, ?, ?)",
            )
        dialect = engine.dialect
        stamp = games.c.updated_at.type.dialect_impl(dialect).bind_processor(dialect)
        flag = games.c.finished.type.dialect_impl(dialect).bind_processor(dialect)
        self._stamp: Callable[[Any], Any] = stamp or (lambda value: value)
        self._flag: Callable[[Any], Any] = flag or (lambda value: value)

    def _cursor_values(self, now: datetime) -> Callable[[Append], tuple[Any, ...]]:
        """An append's parameters of the SQLite update, as SQLAlchemy would bind them."""
        stamp = self._stamp(now)
        flag = self._flag
        return lambda a: (stamp, flag(a.finished), a.game_id, a.revision)

    def close(self) -> None:
        """Close the database's connections."""
        self.engine.dispose()

    def create(
        self,
        *,
        rules: str,
        level: str,
        lang: str,
        token: str,
        record: str,
        first_seed: str | None = None,
        seat: str | None = None,
        version: str | None = None,
    ) -> StoredGame:
        """Save a new game under a fresh random id; only the token's hash is kept (and the
        first deal's secret seed, if it was dealt from one; ``seat``: the seat the token
        plays, if any; ``version``: its computer players' version)."""
        game = StoredGame(
            id=secrets.token_urlsafe(GAME_ID_BYTES),
            rules=rules,
            level=level,
            lang=lang,
            token_hash=hash_token(token),
            record=record,
            revision=0,
            created_at=(now := _now()),
            updated_at=now,
            first_seed=first_seed,
            seat=seat,
            version=version,
        )
        # SQLAlchemy Core (one statement compiled once): a new game per deal at the
        # single-deal tables, so its cost counts.
        with _unavailable(), self.engine.begin() as connection:
            # Its fields as they are (asdict would deep-copy each value for nothing).
            values = {field.name: getattr(game, field.name) for field in fields(game)}
            connection.execute(self._create_statement, {**values, "finished": False})
        return game

    def load(self, game_id: str) -> StoredGame | None:
        """The game of that id, or ``None``."""
        if not isinstance(game_id, str) or not 0 < len(game_id) <= MAX_ID_LENGTH:
            return None
        with _unavailable(), Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            events = session.scalars(
                select(EventRow.event).where(EventRow.game_id == game_id).order_by(EventRow.seq)
            ).all()
            return StoredGame.of(row, events)

    def save(self, game_id: str, record: str, *, revision: int) -> int:
        """Replace a game's whole record in one transaction (its appended events folded in:
        they are deleted), if it is still at ``revision``; answers the new revision.
        :class:`StaleGameError` if it moved on meanwhile (or is gone): nothing is written
        then."""
        with _unavailable(), self._sessions.begin() as session:
            self._advance(session, game_id, revision, record=record)
            session.execute(delete(EventRow).where(EventRow.game_id == game_id))
        return revision + 1

    def append(self, game_id: str, event: str, *, revision: int, finished: bool = False) -> int:
        """Append one event (:mod:`cardavia.store.events`) to a game's record in
        one short transaction, if it is still at ``revision``: the record itself is not
        rewritten. ``finished``: the game is over with this event. Answers the new revision;
        :class:`StaleGameError` as :meth:`save`."""
        (outcome,) = self.append_all([Append(game_id, event, revision, finished)])
        if outcome is None:
            raise StaleGameError(f"game {game_id} is not at revision {revision}")
        return outcome

    def append_all(self, appends: Sequence[Append]) -> list[int | None]:
        """Append events to several games' records in one transaction (a group commit: the
        site's writer saves every action that arrived while it was writing the last ones).
        Each append is checked on its own: answers, in order, each game's new revision, or
        ``None`` for a game no longer at its append's revision (nothing written for it).
        Should the transaction fail, nothing is written for any of them."""
        if not appends:
            return []
        now = _now()
        with _unavailable():
            try:
                # Usually every game is where its append expects: two statements for all.
                with self.engine.begin() as connection:
                    writes = self._writes(connection, now)
                    if writes.advance(appends) != len(appends):
                        raise _SomeStaleError
                    writes.append(appends)
                return [a.revision + 1 for a in appends]
            except _SomeStaleError:
                pass  # rolled back: each one alone tells which
            outcomes: list[int | None] = []
            with self.engine.begin() as connection:
                writes = self._writes(connection, now)
                for append in appends:
                    if writes.advance([append]) != 1:
                        outcomes.append(None)
                        continue
                    outcomes.append(append.revision + 1)
                    writes.append([append])
            return outcomes

    def _writes(self, connection: Connection, now: datetime) -> _CoreWrites | _CursorWrites:
        """How appends are written in ``connection``'s transaction: SQLite's own cursor, or
        SQLAlchemy Core's compiled statements (any other database)."""
        if self._cursor_sql is None:
            return _CoreWrites(connection, now, self._advance_statement, self._append_statement)
        return _CursorWrites(connection, self._cursor_sql, self._cursor_values(now))

    def events_since(self, game_id: str, revision: int) -> list[tuple[int, str]]:
        """The events appended after ``revision``, ``(seq, event)`` in order: what another
        server did to a game since this one last saw it."""
        with _unavailable(), Session(self.engine) as session:
            rows = session.execute(
                select(EventRow.seq, EventRow.event)
                .where(EventRow.game_id == game_id, EventRow.seq > revision)
                .order_by(EventRow.seq)
            ).all()
            return [(int(seq), str(event)) for seq, event in rows]

    def purge_abandoned(self, idle: timedelta, *, now: datetime | None = None) -> int:
        """Delete the unfinished games nobody has played for ``idle`` (their events too);
        finished games are kept. Answers how many were deleted."""
        cutoff = (now or _now()) - idle
        with _unavailable(), self._sessions.begin() as session:
            abandoned = (
                select(GameRow.id)
                .where(GameRow.finished.is_(False), GameRow.updated_at < cutoff)
                .scalar_subquery()
            )
            session.execute(delete(EventRow).where(EventRow.game_id.in_(abandoned)))
            unlink_games(session, abandoned)
            result = session.execute(
                delete(GameRow)
                .where(GameRow.finished.is_(False), GameRow.updated_at < cutoff)
                .execution_options(synchronize_session=False)
            )
            return int(getattr(result, "rowcount", 0))

    # -- rooms --

    def create_room(self, code: str, state: str, *, client: str) -> StoredRoom:
        """Save a new room; :class:`RoomCodeTakenError` if its code is taken."""
        now = _now()
        row = RoomRow(
            code=code,
            game_id=None,
            client=client[:64],
            state=state,
            revision=0,
            created_at=now,
            human_at=now,
        )
        try:
            with _unavailable(), self._sessions.begin() as session:
                session.add(row)
        except IntegrityError:
            raise RoomCodeTakenError(code) from None
        return StoredRoom(code, None, row.client, state, 0, now)

    def load_room(self, code: str) -> StoredRoom | None:
        """The room of that code, or ``None``."""
        if not isinstance(code, str) or not 0 < len(code) <= 8:
            return None
        with _unavailable(), Session(self.engine) as session:
            row = session.get(RoomRow, code)
            if row is None:
                return None
            return StoredRoom(
                row.code, row.game_id, row.client, row.state, row.revision, _utc(row.human_at)
            )

    def save_room(
        self,
        code: str,
        state: str,
        *,
        revision: int,
        game_id: str | None = None,
        human: bool = True,
    ) -> int:
        """Rewrite a room's state if it is still at ``revision`` (:class:`StaleGameError`
        otherwise: nothing written); ``game_id``: its game, once dealt; ``human``: a person
        is there now. The players' seats in it follow the state in the same transaction
        (:func:`~cardavia.store.players.follow_room_seats`). Answers the new revision."""
        values: dict[str, Any] = {"state": state, "revision": revision + 1}
        if game_id is not None:
            values["game_id"] = game_id
        if human:
            values["human_at"] = _now()
        with _unavailable(), self.engine.begin() as connection:
            result = connection.execute(
                update(RoomRow)
                .where(RoomRow.code == code, RoomRow.revision == revision)
                .values(**values)
            )
            if result.rowcount != 1:
                raise StaleGameError(f"room {code} is not at revision {revision}")
            follow_room_seats(connection, code, state)
        return revision + 1

    def rooms_of(self, client: str) -> int:
        """How many rooms the address ``client`` has open."""
        with _unavailable(), Session(self.engine) as session:
            rows = session.scalars(select(RoomRow.code).where(RoomRow.client == client[:64]))
            return len(rows.all())

    def purge_rooms(self, idle: timedelta, *, now: datetime | None = None) -> int:
        """Close (delete) the rooms nobody has been at for ``idle``, and their games.
        Answers how many were closed."""
        cutoff = (now or _now()) - idle
        with _unavailable(), self._sessions.begin() as session:
            closed = session.execute(
                select(RoomRow.code, RoomRow.game_id).where(RoomRow.human_at < cutoff)
            ).all()
            games = [game for _, game in closed if game]
            if games:
                session.execute(delete(EventRow).where(EventRow.game_id.in_(games)))
                unlink_games(session, games)
                session.execute(delete(GameRow).where(GameRow.id.in_(games)))
            if closed:
                unlink_rooms(session, [code for code, _ in closed])
                session.execute(delete(RoomRow).where(RoomRow.code.in_([c for c, _ in closed])))
            return len(closed)

    @staticmethod
    def _advance(session: Session, game_id: str, revision: int, **values: Any) -> None:
        result = session.execute(
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.revision == revision)
            .values(revision=revision + 1, updated_at=datetime.now(UTC), **values)
            .execution_options(synchronize_session=False)
        )
        if getattr(result, "rowcount", 0) != 1:
            raise StaleGameError(f"game {game_id} is not at revision {revision}")
