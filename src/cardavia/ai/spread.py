"""Spreading one decision's worlds over the machine's idle cores, with the serial result.

The search levels solve their worlds one after the other and stop when a node budget is
spent (:func:`cardavia.ai.strong.card_values`, :meth:`cardavia.ai.expert.ExpertPlayer.play_values`).
:func:`in_order` keeps that loop as it is: it answers the worlds' results in their order,
one by one, while spare cores solve the next worlds ahead of time. The loop reads the
results in the same order and stops at the same world as it would alone, so the decision,
the worlds solved and the nodes counted are exactly the serial ones; a world solved ahead
and not needed is only wasted work. The solver's kernel releases the GIL and keeps its
table per thread, so the helper threads search in parallel.

Helpers come only from spare cores: the decision pool (:mod:`cardavia.ai.pool`) lends a
:class:`Cores` to the decisions it runs (:func:`lending`); a core goes to a world ahead only
while no decision waits for one. Outside the pool, or with no core spare, everything runs in
the calling thread, as before.

>>> list(in_order(lambda x: x * x, range(4)))
[0, 1, 4, 9]
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterable, Iterator, MutableSequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from types import TracebackType
from typing import Final, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")


HELPERS: Final = 3
"""The most threads of a process that solve worlds ahead: half of a decision is Python, which
they do not speed up, and each thread's solver keeps a 32 MiB table."""


class Cores:
    """The machine's cores as the decision pool shares them: a decision holds one while it
    runs (:meth:`hold`: waiting its turn if none is free), and helpers take the free ones
    (:meth:`spare`) only while no decision waits.

    By default the count lives in this process; the process pool gives its processes one
    count in shared memory (``condition``: a ``multiprocessing`` condition, ``counts``: a
    shared array of two ints), so that a decision spreads its worlds only over the cores no
    process is using."""

    def __init__(
        self,
        count: int,
        *,
        condition: ConditionLike | None = None,
        counts: MutableSequence[int] | None = None,
    ) -> None:
        if count < 1:
            raise ValueError("at least one core")
        self.count = count
        self._changed: ConditionLike = condition or threading.Condition()
        self._counts: MutableSequence[int] = [count, 0] if counts is None else counts
        """The cores free, and the decisions waiting for one."""
        self.helpers = ThreadPoolExecutor(
            max(1, min(count - 1, HELPERS)), thread_name_prefix="cardavia-world"
        )
        """The threads that solve worlds ahead (one core is the decision's own)."""

    @contextmanager
    def hold(self) -> Iterator[None]:
        """One core for a decision, for the time of the block."""
        counts = self._counts
        with self._changed:
            counts[1] += 1
            try:
                while counts[0] <= 0:
                    self._changed.wait()
            finally:
                counts[1] -= 1
            counts[0] -= 1
        try:
            yield
        finally:
            self.give()

    def spare(self) -> bool:
        """Take a free core for a helper, if one is free and no decision waits."""
        counts = self._counts
        with self._changed:
            if counts[0] <= 0 or counts[1]:
                return False
            counts[0] -= 1
            return True

    def give(self) -> None:
        """Give back a core."""
        with self._changed:
            self._counts[0] += 1
            self._changed.notify()

    @property
    def free(self) -> int:
        """The cores free now."""
        with self._changed:
            return self._counts[0]

    @property
    def waiting(self) -> int:
        """The decisions waiting for a core now."""
        with self._changed:
            return self._counts[1]

    def close(self) -> None:
        """Stop the helper threads (the pool's end)."""
        self.helpers.shutdown(wait=False, cancel_futures=True)


class ConditionLike(Protocol):
    """A ``threading.Condition`` or a ``multiprocessing`` one."""

    def __enter__(self) -> bool: ...
    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
        /,
    ) -> None: ...
    def wait(self, timeout: float | None = None) -> bool: ...
    def notify(self, n: int = 1) -> None: ...


_lent: ContextVar[Cores | None] = ContextVar("cardavia_ai_cores", default=None)


@contextmanager
def lending(cores: Cores | None) -> Iterator[None]:
    """Let the decisions made in this block (in this thread or context) spread their worlds
    over ``cores``' spare cores."""
    token = _lent.set(cores)
    try:
        yield
    finally:
        _lent.reset(token)


def in_order(function: Callable[[T], R], items: Iterable[T]) -> Generator[R, None, None]:
    """``function(item)`` for each item, in order, computed ahead on spare cores when the
    pool lends them; the same results as ``map(function, items)``. Close the iterator (or
    exhaust it) to stop the work ahead: worlds not started are dropped."""
    cores = _lent.get()
    if cores is None:
        yield from map(function, items)
        return
    todo = list(items)
    ahead: dict[int, Future[R]] = {}
    done: dict[int, R] = {}  # computed here ahead of their turn, while a helper was busy
    claimed = 0  # the items before this index are a helper's or this thread's

    def top_up() -> None:
        nonlocal claimed
        while claimed < len(todo) and cores.spare():
            future = cores.helpers.submit(function, todo[claimed])
            future.add_done_callback(lambda _: cores.give())
            ahead[claimed] = future
            claimed += 1

    try:
        for index, item in enumerate(todo):
            if index in done:
                top_up()
                yield done.pop(index)
                continue
            future = ahead.pop(index, None)
            if future is None or future.cancel():
                claimed = max(claimed, index + 1)
                top_up()
                yield function(item)
                continue
            # A helper has it: rather than wait, work on the next item nobody has.
            while not future.done() and claimed < len(todo):
                following = claimed
                claimed += 1
                top_up()
                done[following] = function(todo[following])
            yield future.result()
    finally:
        for future in ahead.values():
            future.cancel()


__all__ = ["Cores", "in_order", "lending"]
