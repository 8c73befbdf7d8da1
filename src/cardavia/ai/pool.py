"""The search lane: costly decisions off the event loop, on every core of this machine.

:class:`DecisionPool` decides one level's action for one observation, by seed::

    pool = DecisionPool()                   # once, at start-up
    await pool.start()                      # (optional) its processes started now
    action = await pool.decide("expert", observation, seed, match_scores=(500, 820))
    await pool.close()                      # at shut-down

``observation`` is the seat's :class:`~cardavia.belote.Observation` (never a deal state),
``seed`` an int, ``match_scores`` the match score before the deal when the table plays a
match. The result is :func:`decide_here`'s, the same in any configuration. The site does
not call the pool itself: :class:`~cardavia.ai.decisions.Decisions` chooses the lane of each
decision (the cheap levels never come here), caps each client's work and sees that the
answer is legal; the AI workers (:mod:`cardavia.ai.worker`) decide their jobs with a pool.

A pool of processes, one per core of the machine (``os.sched_getaffinity``), each decision
holding a core (:class:`~cardavia.ai.spread.Cores`, counted in shared memory across the
processes) and spreading its worlds over the cores no other decision holds
(:mod:`cardavia.ai.spread`: threads, since the solver's kernel releases the GIL; the same
decision, nodes and worlds as serial). Processes rather than threads because half of an
expert decision is Python (the reading of the bids, the scoring), which the threads of one
process run one at a time, and which would hold up the event loop of the web process;
``kind="thread"`` keeps the lane in this process (for tests with levels registered on the
fly, which the processes would not know). The processes are spawned, so the program's main
module must be importable without side effects (multiprocessing's
``if __name__ == "__main__"`` rule; ``cardavia serve`` and uvicorn are).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, Literal

from cardavia.ai.levels import find_version
from cardavia.ai.player import told_the_score
from cardavia.ai.spread import Cores, lending
from cardavia.belote import Action, Observation

Kind = Literal["process", "thread"]
"""How the search lane runs its decisions here: in processes of their own (the default:
half of an expert decision is Python, which threads of one process run one at a time, and
which would slow the event loop's own work), or in threads of this process (the kernel
searches in parallel, the rest shares the GIL)."""


def machine_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every system
        return max(1, os.cpu_count() or 1)


def decide_here(
    level: str,
    observation: Observation,
    seed: int,
    match_scores: tuple[int, int] | None = None,
) -> Action:
    """The decision of a player of ``level`` (a level or a version: ``expert-2026-12``), in
    the calling thread: what every lane and every worker computes."""
    player = find_version(level)
    if match_scores is not None:
        player = told_the_score(player, match_scores)
    return player.decide(observation, random.Random(seed))


_here: list[Cores] = []
"""In a pool process: the cores shared with the pool's other processes."""


PARENT_CHECK_SECONDS: Final = 1.0
"""How often a pool process checks that the process that started it is alive."""


def _start_process(count: int, condition: Any, counts: Any, levels: tuple[str, ...]) -> None:
    _here.append(Cores(count, condition=condition, counts=counts))
    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    for level in levels:  # imported now rather than at the first decision
        find_version(level)


def _exit_with(parent: int) -> None:
    """End this pool process once ``parent`` is gone: a web process or an AI worker killed
    (kill -9) tells its pool nothing, and its processes would otherwise stay, idle, for good."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def _ready() -> bool:
    return True


def _decide_in_process(
    level: str,
    observation: Observation,
    seed: int,
    match_scores: tuple[int, int] | None,
    spread: bool = True,
) -> Action:
    """A search decision in a pool process, on a core of the machine, its worlds spread
    over the cores no process is using."""
    cores = _here[0]
    with cores.hold(), lending(cores if spread else None):
        return decide_here(level, observation, seed, match_scores)


class DecisionPool:
    """Computer players' decisions, awaited from the event loop (see the module)."""

    def __init__(
        self,
        *,
        cores: int | None = None,
        kind: Kind = "process",
        spread: bool = True,
        levels: Iterable[str] = (),
    ) -> None:
        count = cores or machine_cores()
        self.kind: Kind = kind
        self.spread = spread
        """Whether a decision spreads its worlds over the idle cores (the same result)."""
        self._context = multiprocessing.get_context("spawn")
        if kind == "process":
            self._condition: Any = self._context.Condition()
            self._counts: Any = self._context.RawArray("i", [count, 0])
            self.cores = Cores(count, condition=self._condition, counts=self._counts)
        elif kind == "thread":
            self.cores = Cores(count)
        else:
            raise ValueError(f"kind: {kind!r} is not 'process' or 'thread'")
        """The cores the search lane holds and spreads worlds over."""
        self.levels = tuple(levels)
        """The levels whose players a process imports as it starts (not at its first
        decision)."""
        self._search: Executor | None = None

    def _search_executor(self) -> Executor:
        """The search lane's threads or processes (started on first use)."""
        if self._search is None:
            count = self.cores.count
            if self.kind == "process":
                self._search = ProcessPoolExecutor(
                    count,
                    mp_context=self._context,
                    initializer=_start_process,
                    initargs=(count, self._condition, self._counts, self.levels),
                )
            else:
                self._search = ThreadPoolExecutor(count, thread_name_prefix="cardavia-ai")
        return self._search

    async def start(self) -> None:
        """Start the search lane's processes now (a second or two), rather than at the first
        search decision: call it at the site's start-up."""
        if self.kind == "process":
            loop = asyncio.get_running_loop()
            executor = self._search_executor()
            # One call per process: the executor starts a process for each call it cannot
            # give to an idle one.
            calls = [loop.run_in_executor(executor, _ready) for _ in range(self.cores.count)]
            await asyncio.gather(*calls)

    async def decide(
        self,
        level: str,
        observation: Observation,
        seed: int,
        *,
        match_scores: tuple[int, int] | None = None,
    ) -> Action:
        """The action of a player of ``level`` (or of a version) for ``observation``:
        :func:`decide_here`'s, on a core of the pool; ``ValueError`` for an unknown one."""
        key = level.strip().lower()
        find_version(key)  # an unknown level fails here, not in a process
        loop = asyncio.get_running_loop()
        if self.kind == "thread":
            return await loop.run_in_executor(
                self._search_executor(),
                self._decide_on_a_core, key, observation, seed, match_scores,
            )  # fmt: skip
        try:
            return await loop.run_in_executor(
                self._search_executor(),
                _decide_in_process, key, observation, seed, match_scores, self.spread,
            )  # fmt: skip
        except BrokenProcessPool:
            # A pool process died (killed, out of memory): start new ones and try once more.
            broken, self._search = self._search, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            with self._condition:
                self._counts[0], self._counts[1] = self.cores.count, 0
            return await loop.run_in_executor(
                self._search_executor(),
                _decide_in_process, key, observation, seed, match_scores, self.spread,
            )  # fmt: skip

    def _decide_on_a_core(
        self,
        level: str,
        observation: Observation,
        seed: int,
        match_scores: tuple[int, int] | None,
    ) -> Action:
        with self.cores.hold(), lending(self.cores if self.spread else None):
            return decide_here(level, observation, seed, match_scores)

    async def close(self) -> None:
        """Stop the threads or processes (the decisions running finish first)."""
        loop = asyncio.get_running_loop()
        if self._search is not None:
            await loop.run_in_executor(None, self._search.shutdown)
        self.cores.close()


__all__ = ["DecisionPool", "Kind", "decide_here", "machine_cores"]
