"""The database's schema brought up to date: Alembic's revisions (the package's
``migrations/versions/``), run in one transaction.

Every revision since the first is in the package, so an installed site upgrades its own
database: ``cardavia serve`` does on start (before its web processes), ``cardavia db upgrade``
on demand, and every :class:`~cardavia.store.db.GameStore` opened on a database that is behind.
A database made before migrations (the site then created its tables and added the columns
it lacked by hand) has no revision written in it: the one it is at is read off its columns
(:func:`legacy_revision`), written in, and the revisions after it run. An empty database is
given the models' tables at once and the latest revision written in (Alembic's way to build
a database from scratch: three times faster than every revision in turn, which counts for
the tests' many databases; tests/players/test_migrations.py checks that the revisions build
the same schema). On PostgreSQL the
upgrade holds an advisory lock, so that processes started together upgrade one after the
other (the second finds nothing to do).

>>> from sqlalchemy import create_engine, inspect
>>> engine = create_engine("sqlite://")
>>> upgrade(engine)
Upgrade(before=None, after='0013_push')
>>> sorted(inspect(engine).get_table_names())  # doctest: +NORMALIZE_WHITESPACE
['alembic_version', 'friend_links', 'friendships', 'game_events', 'games',
 'league_members', 'league_seasons', 'name_reports', 'passkey_ceremonies', 'passkeys',
 'performance_changes', 'player_blocks',
 'player_games', 'player_rooms', 'player_sessions', 'players', 'push_sent',
 'push_subscriptions', 'quick_seats',
 'rating_changes', 'ratings', 'rooms', 'tournament_deals', 'tournament_entries',
 'tournament_pars', 'tournaments']
>>> upgrade(engine)
Upgrade(before='0013_push', after='0013_push')
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import Connection, Engine, MetaData, exc, inspect, text

if TYPE_CHECKING:
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

MIGRATIONS: Final = Path(__file__).with_name("migrations")
"""The folder of the revisions (``versions/``), inside the package."""
LATEST: Final = "0013_push"
"""The latest revision, written out so that a database already at it is known without
loading Alembic (a second of a process's start; tests/players/test_migrations.py checks it
is :func:`head`)."""
LOCK_KEY: Final = 0x63617264
"""The PostgreSQL advisory lock held while the schema is upgraded."""

LEGACY_COLUMNS: Final[Sequence[tuple[str, str]]] = (
    ("finished", "0002_finished"),
    ("first_seed", "0003_first_seed"),
    ("seat", "0004_seat"),
)
"""The columns of ``games`` the site added by hand before migrations, in the order it
added them, each with the revision that adds it now."""
LEGACY_TABLES: Final = frozenset({"games", "game_events", "rooms"})
"""The tables of the first revision."""


@dataclass(frozen=True, slots=True)
class Upgrade:
    """What an upgrade did: the revision the database was at (``None``: none written in
    it) and the one it is at now."""

    before: str | None
    after: str | None


@functools.cache
def scripts() -> ScriptDirectory:
    """The revisions (read once per process)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config)


def head() -> str:
    """The latest revision: the one the models of :mod:`cardavia.store.db` describe."""
    latest = scripts().get_current_head()
    assert latest is not None, "the package has no revision"
    return latest


def current_revision(connection: Connection) -> str | None:
    """The revision written in the database (``None``: none)."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def at_latest(engine: Engine) -> bool:
    """Whether the database is already at :data:`LATEST` (read with one query, without
    Alembic: the usual case, a site starting on its own database)."""
    try:
        with engine.connect() as connection:
            written = connection.execute(text("SELECT version_num FROM alembic_version"))
            return [row[0] for row in written] == [LATEST]
    except exc.DBAPIError:  # no revision table yet: a new or older database
        return False


def legacy_revision(connection: Connection) -> str | None:
    """The revision a database made before migrations is at, read off its tables: ``None``
    for a database without the first revision's tables (it is upgraded from nothing: the
    first revision creates what is missing), else the last of the hand-added columns of
    ``games`` it has in their order (the first revision when it has none)."""
    inspector = inspect(connection)
    if LEGACY_TABLES - set(inspector.get_table_names()):
        return None
    columns = {column["name"] for column in inspector.get_columns("games")}
    reached = "0001_tables"
    for column, revision in LEGACY_COLUMNS:
        if column not in columns:
            break
        reached = revision
    return reached


def upgrade(engine: Engine, *, models: MetaData | None = None) -> Upgrade:
    """Bring the database to the latest revision in one transaction (on PostgreSQL under
    an advisory lock: one process at a time); a database made before migrations is first
    stamped with the revision it is at. ``models``: the latest revision's tables, created at
    once in an empty database. Answers what was done."""
    if at_latest(engine):
        return Upgrade(LATEST, LATEST)
    from alembic.operations import Operations
    from alembic.runtime.migration import MigrationContext

    script = scripts()
    latest = head()

    def steps(revision: Any, _context: MigrationContext) -> Any:
        # As alembic.command.upgrade does: the steps from the database's revision.
        return script._upgrade_revs(latest, revision)

    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        context = MigrationContext.configure(connection, opts={"fn": steps})
        before = context.get_current_revision()
        if before is None and models is not None and not inspect(connection).get_table_names():
            models.create_all(connection)
            context.stamp(script, latest)
        elif before is None and (reached := legacy_revision(connection)) is not None:
            context.stamp(script, reached)
        if context.get_current_revision() != latest:
            with Operations.context(context):
                context.run_migrations()
        return Upgrade(before, context.get_current_revision())


__all__ = [
    "LATEST",
    "LEGACY_COLUMNS",
    "MIGRATIONS",
    "Upgrade",
    "at_latest",
    "current_revision",
    "head",
    "legacy_revision",
    "scripts",
    "upgrade",
]
