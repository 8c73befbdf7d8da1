"""Fixtures of the tournaments' tests: the tests' PostgreSQL and a fresh, empty database in it
for each test that needs one (the players' fixtures, which start and stop the multi-process
tests' servers)."""

from __future__ import annotations

from tests.players.conftest import empty_postgres, postgres_url, session_postgres

__all__ = ["empty_postgres", "postgres_url", "session_postgres"]
