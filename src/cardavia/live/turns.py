"""The computer players' turns: people first, and the beat their moves fall on.

**People first**: a person's move is handled ahead of the computer players' moves.

A person who plays a card waits for the table to show it; a computer player waits anyway,
for its pause (``CARDAVIA_AI_DELAY``, 0.05–0.1 s) and the next beat, before its move is
shown. So when the process is busy, the computer players of every table hold their next
decision while any person's action is being handled (checked, saved, sent), for at most
``patience`` seconds: the wait counts as part of their pause, which on a quiet server leaves
their pace as it was, and under load moves the queue's wait from the people's clicks to the
computer players' thinking, where nobody sees it. The total work is the same: deals per
second do not change, the people's latency does (``bench/load.py``). Whatever the load, a
computer player waits at most ``patience`` per move, so a table with no person to act is
never starved.

**The beat** (:func:`on_beat`): a computer player's move is shown when its pause is over,
rounded up to the next :data:`BEAT` of the process's clock. Nobody sees it (the page shows
each move at the player's own pace, slower than the beat), but the moves of every table of
the process whose pauses end within one beat are then made in one turn of the event loop:
saved in one transaction (one trip to the writer's thread,
:class:`~cardavia.live.writer.GameWriter`) and sent together. At a person's pace each move
otherwise woke the process, the writer's thread and the database on its own, which made a
deal cost twice the CPU it costs when tables play flat out (``bench/load.py --think 2-4``).
With no pause (``CARDAVIA_AI_DELAY=0``) there is nothing to round.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Iterator
from typing import Final

PATIENCE: Final = 0.25
"""The longest a computer player's move waits for the people's actions to be handled, s."""
BEAT: Final = 0.1
"""The computer players' moves fall on the process's clock every 100 ms (:func:`on_beat`):
less than the page's fastest pace, which is what a player sees (``bench/load.py --think 2-4
--pace normal``, 1,000 tables: 27 ms of server CPU a deal with a 50 ms beat, 22–25 with
100 ms, as more tables share each beat)."""


def on_beat(when: float, beat: float = BEAT) -> float:
    """The first beat at or after ``when`` (a time of the event loop's clock).

    >>> on_beat(10.01), on_beat(10.1), on_beat(3.0, beat=0.25)
    (10.1, 10.1, 3.0)
    """
    return round(math.ceil(round(when / beat, 9)) * beat, 9)


async def sleep_until(when: float) -> None:
    """Wait until the event loop's clock reads ``when``: every wait for the same ``when``
    ends in the same turn of the loop."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    timer = loop.call_at(when, _release, future)
    try:
        await future
    finally:
        timer.cancel()


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


__all__ = ["BEAT", "PATIENCE", "PeopleFirst", "on_beat", "sleep_until"]
