"""Fixtures of the players' tests: the PostgreSQL, Redis and web processes of the
multi-process tests (``tests/multi/conftest.py``, loaded from its file: its servers start and
stop as there), and a fresh database in that PostgreSQL for each test that needs one empty."""

from __future__ import annotations

import importlib.util
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from cardavia.store.db import database_url

_spec = importlib.util.spec_from_file_location(
    "cardavia_tests_multi_fixtures", Path(__file__).parents[1] / "multi" / "conftest.py"
)
assert _spec is not None and _spec.loader is not None
multi = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = multi
_spec.loader.exec_module(multi)

session_postgres = multi.session_postgres
postgres_url = multi.postgres_url
session_redis = multi.session_redis
redis_url = multi.redis_url
web_process = multi.web_process


@pytest.fixture
def empty_postgres(postgres_url: str) -> Iterator[str]:
    """The URL of a new, empty database of the tests' PostgreSQL (dropped afterwards)."""
    server = create_engine(database_url(postgres_url), isolation_level="AUTOCOMMIT")
    name = f"players_{secrets.token_hex(6)}"
    with server.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    url = make_url(database_url(postgres_url)).set(database=name)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with server.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        server.dispose()
