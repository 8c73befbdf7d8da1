"""The one cap on a client's computer-player work (docs/web.md, "Fair use").

A client (whoever a table belongs to) may have at most so many decisions, analyses and hints
running at once; the rest of its work waits behind its own, never behind everyone's, so that
one client's many tables cannot starve the others. :class:`~cardavia.ai.decisions.Decisions`
holds the site's one :class:`WorkBudget` and takes a slot for every decision that is not
decided at once; the site takes one of the same slots for the other computer work it does
for a client (a deal's analysis, a hint).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class WorkBudget:
    """At most ``size`` pieces of work at once per key (0: no limit); the rest wait, each
    key's queue apart from the others'."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._slots: dict[str, tuple[asyncio.Semaphore, int]] = {}

    @contextlib.asynccontextmanager
    async def slot(self, key: str | None) -> AsyncIterator[None]:
        """Hold one of ``key``'s slots while the block runs (``None``: nobody's, no cap)."""
        if self.size <= 0 or key is None:
            yield
            return
        semaphore, users = self._slots.get(key, (asyncio.Semaphore(self.size), 0))
        self._slots[key] = (semaphore, users + 1)
        try:
            async with semaphore:
                yield
        finally:
            semaphore, users = self._slots[key]
            if users <= 1:
                del self._slots[key]
            else:
                self._slots[key] = (semaphore, users - 1)

    def running(self, key: str) -> int:
        """How many of ``key``'s pieces of work hold a slot now."""
        entry = self._slots.get(key)
        if entry is None:
            return 0
        semaphore, _ = entry
        return self.size - semaphore._value


__all__ = ["WorkBudget"]
