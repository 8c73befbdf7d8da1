"""The files a web process may open, and the connections it holds within them (docs/deploy.md,
"Open files").

Every connection is a file. A process that reaches its open-file limit cannot accept another
connection (``accept`` fails with ``EMFILE``: asyncio stops accepting for a second), nor open
its database or Redis: unfinished heads from many addresses, each within its own cap, starved
``/healthz`` and every other client of a process limited to 1,024 files (audit of 2026-12-04,
problem 8). So the site raises its limit at start (:func:`raise_file_limit`: the soft limit to
the hard one, where the system allows), and holds at most :func:`connection_capacity`
connections at once, below the limit by a reserve for everything else it opens
(:mod:`cardavia.web.server` makes room for a new connection by closing the one that has
waited longest for its request head).
"""

from __future__ import annotations

import logging
import resource
from typing import Final

log = logging.getLogger(__name__)

RESERVE: Final = 128
"""Files kept for what a web process opens besides its clients' connections, at least: its
listening socket, the database's connections (PostgreSQL's pool: up to 15) or SQLite's files,
Redis's connections, the decision pool's pipes, the logs (24 files at rest, measured on
SQLite). A limit of 256 leaves 128 connections."""
RESERVE_SHARE: Final = 8
"""Of a larger limit, an eighth is kept (8,192 of 65,536)."""
FEWEST: Final = 16
"""The fewest connections held, however low the limit (a process that cannot hold 16 is
not one to serve with)."""


def raise_file_limit() -> int:
    """Raise this process's open-file limit (``RLIMIT_NOFILE``) to its hard limit, where the
    system allows it (the processes it starts inherit it), and answer the limit now. A system
    that refuses keeps the limit as it was (logged)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (OSError, ValueError) as error:
            log.warning("the open-file limit stays %d (%s)", soft, error)
    return soft


def connection_capacity(limit: int | None = None) -> int:
    """The most connections a process with the open-file limit ``limit`` (this process's:
    ``None``) holds at once: the limit less :data:`RESERVE` or an eighth of it, whichever is
    more, and never fewer than :data:`FEWEST`.

    >>> connection_capacity(256), connection_capacity(1024), connection_capacity(65536)
    (128, 896, 57344)
    """
    if limit is None:
        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if limit == resource.RLIM_INFINITY:
            limit = 1 << 20
    return max(FEWEST, limit - max(RESERVE, limit // RESERVE_SHARE))


__all__ = ["FEWEST", "RESERVE", "RESERVE_SHARE", "connection_capacity", "raise_file_limit"]
