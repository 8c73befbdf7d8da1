"""The schema's migrations (:mod:`cardavia.store.migrate`): a database made before them —
written here from the SQL the site's code made until then, with games, their events and rooms
in it, with or without the columns added by hand since — is recognised, stamped and upgraded
with nothing lost, on SQLite and on PostgreSQL; the revisions build the models' schema;
``cardavia db upgrade`` and ``cardavia serve`` upgrade."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from typer.testing import CliRunner

from cardavia.cli import app as cli
from cardavia.store import migrate
from cardavia.store.db import Base, GameStore, database_url
from cardavia.store.events import action_event
from cardavia.store.migrate import current_revision, head, upgrade

ADDED_BY_HAND = ("finished", "first_seed", "seat")
"""The columns of ``games`` the site added with ``ALTER TABLE``, in their order."""
LEVELS_THEN = ("club", "expert", "registered-by-a-test")
"""The levels of the games saved before the games kept their players' version."""


def todays_schema(dialect: str, columns: Sequence[str], *, rooms: bool = True) -> list[str]:
    """The SQL the site ran on an empty database before migrations (SQLAlchemy's
    ``create_all`` of its models), ``games`` with only the hand-added ``columns`` given
    (a database made by an earlier version, not yet brought up to date)."""
    stamp = "DATETIME" if dialect == "sqlite" else "TIMESTAMP WITH TIME ZONE"
    false = "0" if dialect == "sqlite" else "false"
    extra = {
        "finished": f"finished BOOLEAN DEFAULT {false} NOT NULL,",
        "first_seed": "first_seed VARCHAR(64),",
        "seat": "seat VARCHAR(1) DEFAULT 'S',",
    }
    statements = [
        f"""CREATE TABLE games (
            id VARCHAR(32) NOT NULL, rules VARCHAR(32) NOT NULL, level VARCHAR(32) NOT NULL,
            lang VARCHAR(8) NOT NULL, token_hash VARCHAR(64) NOT NULL, record TEXT NOT NULL,
            revision INTEGER NOT NULL, created_at {stamp} NOT NULL,
            updated_at {stamp} NOT NULL, {" ".join(extra[c] for c in columns)}
            PRIMARY KEY (id))""",
        "CREATE INDEX ix_games_updated_at ON games (updated_at)",
        """CREATE TABLE game_events (
            game_id VARCHAR(32) NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL,
            PRIMARY KEY (game_id, seq),
            FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE)""",
    ]
    if rooms:
        statements += [
            f"""CREATE TABLE rooms (
                code VARCHAR(8) NOT NULL, game_id VARCHAR(32), client VARCHAR(64) NOT NULL,
                state TEXT NOT NULL, revision INTEGER NOT NULL, created_at {stamp} NOT NULL,
                human_at {stamp} NOT NULL, PRIMARY KEY (code))""",
            "CREATE INDEX ix_rooms_client ON rooms (client)",
            "CREATE INDEX ix_rooms_human_at ON rooms (human_at)",
        ]
    return statements


RECORD = '{"deals": [{"actions": []}]}'


def fill(url: str, columns: Sequence[str], *, rooms: bool = True) -> dict[str, list[Any]]:
    """Make today's schema at ``url`` and put games, events and rooms in it; answers every
    row of each table."""
    engine = create_engine(database_url(url))
    dialect = engine.dialect.name
    when = "2026-11-30 12:00:00.000000" if dialect == "sqlite" else "2026-11-30 12:00:00+00"
    with engine.begin() as connection:
        for statement in todays_schema(dialect, columns, rooms=rooms):
            connection.execute(text(statement))
        for number in range(3):
            values: dict[str, Any] = {
                "id": f"game{number}",
                "rules": "maison",
                "level": LEVELS_THEN[number],
                "lang": "fr",
                "token_hash": f"{number:064d}",
                "record": RECORD,
                "revision": 2,
                "created_at": when,
                "updated_at": when,
            }
            if "finished" in columns:
                values["finished"] = number == 0
            if "first_seed" in columns:
                values["first_seed"] = f"{number:x}" * 8
            if "seat" in columns:
                values["seat"] = "NEWS"[number]
            names = ", ".join(values)
            marks = ", ".join(f":{name}" for name in values)
            connection.execute(text(f"INSERT INTO games ({names}) VALUES ({marks})"), values)
            for seq, action in ((1, "N pass"), (2, "E pass")):
                connection.execute(
                    text("INSERT INTO game_events (game_id, seq, event) VALUES (:g, :s, :e)"),
                    {"g": f"game{number}", "s": seq, "e": action_event(action)},
                )
        if rooms:
            connection.execute(
                text(
                    "INSERT INTO rooms (code, game_id, client, state, revision, created_at,"
                    " human_at) VALUES ('KQRST', 'game1', '127.0.0.1', '{\"seats\": {}}', 4,"
                    " :when, :when), ('ABCDE', NULL, '10.0.0.1', '{}', 0, :when, :when)"
                ),
                {"when": when},
            )
    rows = everything(engine)
    engine.dispose()
    return rows


def everything(engine: Any) -> dict[str, list[Any]]:
    """Every row of today's tables, in a stable order."""
    tables = set(inspect(engine).get_table_names())
    order = {"games": "id", "game_events": "game_id, seq", "rooms": "code"}
    with engine.connect() as connection:
        return {
            table: [
                tuple(row)
                for row in connection.execute(text(f"SELECT * FROM {table} ORDER BY {key}"))
            ]
            for table, key in order.items()
            if table in tables
        }


def check_upgraded(url: str, before: dict[str, list[Any]], columns: Sequence[str]) -> None:
    """Open the store on ``url`` (it upgrades): at the latest revision, every row kept with
    its values, the added columns given their defaults, the games loaded with their events."""
    store = GameStore(url)
    after = everything(store.engine)
    with store.engine.connect() as connection:
        assert current_revision(connection) == head()
    assert after["game_events"] == before["game_events"]
    assert after["rooms"] == before.get("rooms", [])
    width = 9
    assert [row[:width] for row in after["games"]] == [row[:width] for row in before["games"]]
    for number in range(3):
        game = store.load(f"game{number}")
        assert game is not None and game.token_hash == f"{number:064d}"
        assert game.revision == 2 and game.lang == "fr" and game.rules == "maison"
        assert json.loads(game.record)["deals"][0]["actions"] == ["N pass", "E pass"]
        assert game.seat == ("NEWS"[number] if "seat" in columns else "S")
        assert game.first_seed == (f"{number:x}" * 8 if "first_seed" in columns else None)
        # Played by its level's version of then (none known for a level of a test's).
        assert game.version == ("club-2026-12", "expert-2026-12", None)[number]
    with store.engine.connect() as connection:
        finished = connection.execute(text("SELECT id, finished FROM games ORDER BY id")).all()
    assert [bool(flag) for _, flag in finished] == [
        "finished" in columns and number == 0 for number in range(3)
    ]
    if before.get("rooms"):
        room = store.load_room("KQRST")
        assert room is not None and room.game_id == "game1" and room.revision == 4
    # It still works: a new game is saved beside the old ones.
    game = store.create(rules="coinche", level="club", lang="en", token="t", record=RECORD)
    assert store.load(game.id) is not None
    store.close()


@pytest.mark.parametrize("count", range(len(ADDED_BY_HAND) + 1))
def test_a_sqlite_database_of_today_upgrades_with_nothing_lost(tmp_path: Path, count: int) -> None:
    url = f"sqlite:///{tmp_path / 'cardavia.db'}"
    columns = ADDED_BY_HAND[:count]
    before = fill(url, columns)
    check_upgraded(url, before, columns)


def test_a_database_older_than_rooms_is_given_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cardavia.db'}"
    before = fill(url, (), rooms=False)
    check_upgraded(url, before, ())
    engine = create_engine(url)
    assert "rooms" in inspect(engine).get_table_names()
    engine.dispose()


@pytest.mark.parametrize("count", [0, 1, len(ADDED_BY_HAND)])
def test_a_postgresql_database_of_today_upgrades_with_nothing_lost(
    empty_postgres: str, count: int
) -> None:
    columns = ADDED_BY_HAND[:count]
    before = fill(empty_postgres, columns)
    check_upgraded(empty_postgres, before, columns)


def schema_differences(url: str) -> list[Any]:
    """What separates the database at ``url`` from the models (Alembic's comparison)."""
    engine = create_engine(database_url(url))
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_server_default": True})
        differences = compare_metadata(context, Base.metadata)
    engine.dispose()
    return list(differences)


def test_the_revisions_build_the_models_schema_on_sqlite(tmp_path: Path) -> None:
    """From nothing, revision after revision (not the models' tables at once): the same."""
    url = f"sqlite:///{tmp_path / 'revisions.db'}"
    engine = create_engine(url)
    assert upgrade(engine).after == head()
    engine.dispose()
    assert schema_differences(url) == []


def test_the_revisions_build_the_models_schema_on_postgresql(empty_postgres: str) -> None:
    engine = create_engine(database_url(empty_postgres))
    assert upgrade(engine).after == head()
    engine.dispose()
    assert schema_differences(empty_postgres) == []


def test_today_upgraded_is_the_models_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cardavia.db'}"
    fill(url, ())
    GameStore(url).close()
    assert schema_differences(url) == []


def test_processes_upgrading_together_on_postgresql_upgrade_once(empty_postgres: str) -> None:
    """Web processes started at once: the advisory lock lets one upgrade, the others find
    the latest revision there."""
    fill(empty_postgres, ())
    outcomes: list[Any] = []

    def run() -> None:
        engine = create_engine(database_url(empty_postgres))
        try:
            outcomes.append(upgrade(engine))
        except Exception as error:  # the test reports it below
            outcomes.append(error)
        engine.dispose()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(str(outcome.before) for outcome in outcomes) == [head(), head(), "None"]
    assert {outcome.after for outcome in outcomes} == {head()}


def test_db_upgrade_says_what_it_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'cardavia.db'}"
    fill(url, ("finished",))
    monkeypatch.setenv("CARDAVIA_DATABASE_URL", url)
    runner = CliRunner()
    first = runner.invoke(cli, ["db", "upgrade"])
    assert first.exit_code == 0, first.output
    assert f"upgraded from none to {head()}" in first.output
    again = runner.invoke(cli, ["db", "upgrade"])
    assert again.exit_code == 0 and f"is at revision {head()}" in again.output


def test_db_upgrade_leaves_a_read_only_database_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cardavia.db"
    fill(f"sqlite:///{path}", ())
    saved = path.read_bytes()
    monkeypatch.setenv("CARDAVIA_DATABASE_URL", f"sqlite:///{path}")
    monkeypatch.setenv("CARDAVIA_DATABASE_READ_ONLY", "1")
    result = CliRunner().invoke(cli, ["db", "upgrade"])
    assert result.exit_code == 1 and "read-only" in result.output
    assert path.read_bytes() == saved


@pytest.mark.slow  # a cardavia serve process
def test_serve_upgrades_the_database_before_it_serves(tmp_path: Path) -> None:
    path = tmp_path / "cardavia.db"
    fill(f"sqlite:///{path}", ())
    environment = {**os.environ, "CARDAVIA_DATABASE_URL": f"sqlite:///{path}"}
    with socket.socket() as taken:  # a port it cannot listen on: it upgrades, then stops
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        serve = [sys.executable, "-c", "from cardavia.cli import app; app()", "serve"]
        finished = subprocess.run(
            [*serve, "--port", port], env=environment, capture_output=True, timeout=60, text=True
        )
    assert f"upgraded from none to {head()}" in finished.stderr
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        assert current_revision(connection) == head()
    engine.dispose()


def test_the_written_latest_revision_is_the_head() -> None:
    """A database at :data:`migrate.LATEST` is not upgraded again: it must be the newest
    revision of the package (a new revision moves it)."""
    assert migrate.head() == migrate.LATEST
    engine = create_engine("sqlite://")
    assert not migrate.at_latest(engine)
    migrate.upgrade(engine)
    assert migrate.at_latest(engine)
