"""The one thread that writes this process's games to the database, in group commits.

Every table's actions arrive here from the event loop. A single thread writes them, and each
transaction takes the actions that arrived while the last one was being written, and in the
:data:`LINGER` before it (:meth:`~cardavia.store.db.GameStore.append_all`): one commit saves
the moves of many tables, and the database's per-transaction cost and the thread's wake-up
are paid once for all of them. People's
actions go first (``first=True``): each group takes every person's action waiting, then the
computer players' up to :data:`GROUP` in all, so that a person's click waits for at most one
short group ahead of it, never for a burst of computer moves. A single
writer also suits SQLite, which lets one connection write at a time: two writing threads
would only wait on each other's lock (its busy handler sleeps, which is where the actions'
latency went). The other writes of the site (new games, rooms) go through the same thread,
one by one, for the same reason.

Should a group's transaction fail for a reason that is not the database's as a whole (a
full disk, a read-only file: :class:`~cardavia.store.db.StoreUnavailableError`, given to every
action of the group), its actions are written again one by one, so that one game's bad write
never costs another game its move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

from cardavia.metrics import writer_group
from cardavia.store.db import Append, GameStore, StaleGameError, StoreUnavailableError

log = logging.getLogger(__name__)

T = TypeVar("T")

GROUP: Final = 48
"""The most computer moves in one transaction (people's actions are never held back). A
group of 48 appends is written in about a millisecond of CPU; without a bound, the computer
players of every table, released at once, made groups of 200 that held a person's action
for 30 ms (``bench/load.py``)."""

LINGER: Final = 0.01
"""How long the writer waits before each group, s: the actions that arrive meanwhile share its
transaction. At a person's pace the groups otherwise held one action each, and the thread's
wake-ups, not SQLite, were most of a deal's saving: 1,000 tables (``bench/load.py --think
2-4 --pace normal``) cost 22.7 ms of server CPU a deal without it, 16.9 with 10 ms (17.2 with
20, 17.8 with 50); the person's action latency p50 2.7 → 12 ms, p99 28 → 29 ms."""

Outcome = int | BaseException
"""A saved append's new revision, or why it was not saved."""

Waiting = tuple[Append, "asyncio.Future[int]"]
"""An append waiting to be written, and its caller's future."""


class GameWriter:
    """Writes :class:`Append`\\ s in groups from one thread; ``call`` runs any other write of
    the store in the same thread."""

    def __init__(self, store: GameStore, *, linger: float = LINGER) -> None:
        self.store = store
        self.linger = linger
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="cardavia-store")
        self._people: list[Waiting] = []
        self._computers: list[Waiting] = []
        self._writing: asyncio.Task[None] | None = None

    async def append(self, append: Append, *, first: bool = False) -> int:
        """Save ``append`` with the next group (``first``: a person's action, ahead of the
        computer players'); answers the game's new revision. :class:`StaleGameError` if the
        game was not at the append's revision, :class:`StoreUnavailableError` if the
        database could not write it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        (self._people if first else self._computers).append((append, future))
        if self._writing is None:
            self._writing = loop.create_task(self._write_groups())
        return await future

    async def call(self, function: Callable[..., T], *args: object) -> T:
        """Run ``function(*args)`` (a write of the store) in the writer's thread."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, function, *args)

    async def _write_groups(self) -> None:
        """Write what is waiting, group after group, until nothing is."""
        loop = asyncio.get_running_loop()
        group: list[Waiting] = []
        try:
            while self._people or self._computers:
                if self.linger > 0:
                    await asyncio.sleep(self.linger)
                group = self._next_group()
                appends = [append for append, _future in group]
                writer_group(len(appends))
                outcomes = await loop.run_in_executor(self._thread, self._write, appends)
                for (_append, future), outcome in zip(group, outcomes, strict=True):
                    if future.done():  # its caller is gone (cancelled): the write stands
                        continue
                    if isinstance(outcome, BaseException):
                        future.set_exception(outcome)
                    else:
                        future.set_result(outcome)
                group = []
        except BaseException as error:
            # The thread is gone (shut down) or this task was cancelled: no caller waits
            # for ever.
            for _append, future in group + self._people + self._computers:
                if not future.done():
                    future.set_exception(StoreUnavailableError(f"not written: {error!r}"))
            self._people, self._computers = [], []
            if not isinstance(error, Exception):
                raise  # cancelled: the cancellation goes on
            # The thread shut down (the site stopping): the callers are told; nothing more
            # for the task to say.
        finally:
            self._writing = None

    def _next_group(self) -> list[Waiting]:
        """Every person's action waiting, then computer moves up to :data:`GROUP` in all, in
        the order they came."""
        room = max(0, GROUP - len(self._people))
        group = self._people + self._computers[:room]
        self._people, self._computers = [], self._computers[room:]
        return group

    def _write(self, appends: list[Append]) -> list[Outcome]:
        """One group in one transaction (in the writer's thread); on a failure that is not
        the database's as a whole, each append again on its own."""
        try:
            return [self._outcome(append, revision) for append, revision in
                    zip(appends, self.store.append_all(appends), strict=True)]  # fmt: skip
        except StoreUnavailableError as error:
            return [StoreUnavailableError(str(error)) for _ in appends]
        except Exception as error:
            if len(appends) == 1:
                return [error]
            log.warning("a group of %d writes failed: each again alone", len(appends))
        return [self._write([append])[0] for append in appends]

    @staticmethod
    def _outcome(append: Append, revision: int | None) -> Outcome:
        if revision is None:
            return StaleGameError(f"game {append.game_id} is not at revision {append.revision}")
        return revision

    def shutdown(self) -> None:
        """Wait for the writes under way, then stop the thread."""
        self._thread.shutdown(wait=True)


__all__ = ["GameWriter"]
