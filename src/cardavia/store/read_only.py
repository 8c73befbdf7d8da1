"""A SQLite database the site cannot write: opened read-only, so that the saved games still
show (docs/web.md, "A read-only database still serves") while every write answers 503
``unavailable``.

A database in write-ahead-log mode needs its ``-shm`` file even to be read: opened plainly
on a file or folder that cannot be written, every game would fail with "unable to open
database file". It is opened ``mode=ro`` instead, and ``immutable=1`` when its folder cannot
be written either (no ``-shm`` can be made there; SQLite then reads the file alone, without
locks). :func:`read_only_url` says when and how; :data:`READ_ONLY_VARIABLE` forces it (root
may write whatever the files' modes say, and a copy kept for reading should stay as it is).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final
from urllib.parse import quote

from sqlalchemy.engine import make_url

READ_ONLY_VARIABLE: Final = "CARDAVIA_DATABASE_READ_ONLY"
"""``1`` (or ``true``, ``yes``): open the SQLite database read-only whatever its files allow."""


def forced_read_only(environ: Mapping[str, str] | None = None) -> bool:
    """Whether :data:`READ_ONLY_VARIABLE` asks for a read-only database."""
    environ = os.environ if environ is None else environ
    return environ.get(READ_ONLY_VARIABLE, "").strip().lower() in ("1", "true", "yes")


def sqlite_file(url: str) -> Path | None:
    """The file of a plain SQLite URL (``sqlite:///cardavia.db``); ``None`` for another
    database, an in-memory one or a URL that already says how to open it (``file:…``)."""
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:") or "uri" in parsed.query:
        return None
    return Path(database)


def cannot_write(path: Path) -> bool:
    """Whether the database file ``path`` exists and it, or its folder, cannot be written."""
    folder = path.parent if str(path.parent) else Path(".")
    return path.exists() and not (os.access(path, os.W_OK) and os.access(folder, os.W_OK))


def read_only_url(url: str, *, forced: bool = False, failed: bool = False) -> str | None:
    """The URL opening ``url``'s SQLite file read-only, when it must be: ``forced``, the file
    or its folder not writable, or a plain open ``failed``; ``None`` when it need not be (or
    ``url`` is not a plain SQLite file's, or the file is not there yet: it is made)."""
    path = sqlite_file(url)
    if path is None or not path.exists() or not (forced or failed or cannot_write(path)):
        return None
    folder = path.parent if str(path.parent) else Path(".")
    immutable = failed or not os.access(folder, os.W_OK)
    options = "mode=ro" + ("&immutable=1" if immutable else "")
    return f"sqlite:///file:{quote(str(path.resolve()))}?{options}&uri=true"


__all__ = ["READ_ONLY_VARIABLE", "cannot_write", "forced_read_only", "read_only_url", "sqlite_file"]
