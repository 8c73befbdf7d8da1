"""Persistence: games saved as they go (SQLite by default, PostgreSQL when
``CARDAVIA_DATABASE_URL`` says so), so that a deal survives a reload and a server restart."""

from cardavia.store.db import (
    DATABASE_URL_VARIABLE,
    DEFAULT_DATABASE_URL,
    GameStore,
    StaleGameError,
    StoredGame,
    StoreUnavailableError,
    hash_token,
    new_token,
    token_matches,
    upgrade_database,
)

__all__ = [
    "DATABASE_URL_VARIABLE",
    "DEFAULT_DATABASE_URL",
    "GameStore",
    "StaleGameError",
    "StoreUnavailableError",
    "StoredGame",
    "hash_token",
    "new_token",
    "token_matches",
    "upgrade_database",
]
