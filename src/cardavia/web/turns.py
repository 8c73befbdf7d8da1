"""People first: a person's move is handled ahead of the computer players' moves.

A person who plays a card waits for the table to show it; a computer player waits anyway,
for its natural pause (``CARDAVIA_AI_DELAY``, 0.15–0.3 s), before its move is shown. So when
the process is busy, the computer players of every table hold their next decision while any
person's action is being handled (checked, saved, sent), for at most ``patience`` seconds:
the wait counts as part of their pause, which on a quiet server leaves their pace as it was,
and under load moves the queue's wait from the people's clicks to the computer players'
thinking, where nobody sees it. The total work is the same: deals per second do not change,
the people's latency does (``bench/load.py``). Whatever the load, a computer player waits at
most ``patience`` per move, so a table with no person to act is never starved.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Final

PATIENCE: Final = 0.25
"""The longest a computer player's move waits for the people's actions to be handled, s."""


class PeopleFirst:
    """The people's actions under way in this process, and the computer players' wait."""

    def __init__(self, patience: float = PATIENCE) -> None:
        self.patience = patience
        self.acting = 0
        """People's actions being handled now."""
        self._waiting: set[asyncio.Future[None]] = set()
        """The computer players waiting for them (a future each, of its own event loop)."""

    @contextlib.contextmanager
    def person_acting(self) -> Iterator[None]:
        """Around the handling of one person's action (its check, save and sending)."""
        self.acting += 1
        try:
            yield
        finally:
            self.acting -= 1
            if self.acting == 0:
                waiting, self._waiting = self._waiting, set()
                for future in waiting:
                    _release(future)

    async def computer_turn(self) -> None:
        """Before a computer player decides: wait until no person's action is under way, or
        ``patience`` seconds at most."""
        if self.acting == 0:
            return
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._waiting.add(future)
        # A plain timer rather than asyncio.timeout: this runs before every computer move.
        timer = loop.call_later(self.patience, _release, future)
        try:
            await future
        finally:
            timer.cancel()
            self._waiting.discard(future)


def _release(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


__all__ = ["PATIENCE", "PeopleFirst"]
