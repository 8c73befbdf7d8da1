"""The computer players' decisions off the event loop, on every core, fairly shared.

The web layer awaits one function for every computer decision::

    pool = DecisionPool.from_env()          # once, at start-up
    await pool.start()                      # (optional) its processes started now
    action = await pool.decide("expert", observation, seed, match_scores=(500, 820),
                               client=game_id)
    await pool.close()                      # at shut-down

``observation`` is the seat's :class:`~cardavia.belote.Observation` (never a deal state),
``seed`` an int (draw it from the table's generator, ``table.rng.getrandbits(64)``, so that
a seeded game replays), ``match_scores`` the match score before the deal when the table
plays a match, ``client`` whoever the work is for (a game, a user): the key of the cap on
concurrent search work per client (``None``: no cap). The result is the same as
``told_the_score(find_player(level), match_scores).decide(observation, random.Random(seed))``
in any configuration (:func:`decide_here`).

Two lanes, so that cheap decisions never wait behind costly ones:

- ``beginner`` and ``club`` decide in tens of microseconds (club: median 0.03 ms, at most
  0.25 ms): at once, in the caller's thread, always in this process. A hop to a thread
  would cost more than the decision, a round trip to a queue far more.
- ``strong`` and ``expert`` search: a pool of processes, one per core of the machine
  (``os.sched_getaffinity``), each decision holding a core (:class:`~cardavia.ai.spread.Cores`,
  counted in shared memory across the processes) and spreading its worlds over the cores no
  other decision holds (:mod:`cardavia.ai.spread`: threads, since the solver's kernel
  releases the GIL; the same decision, nodes and worlds as serial). Processes rather than
  threads because half of an expert decision is Python (the reading of the bids, the
  scoring), which the threads of one process run one at a time, and which would hold up
  the event loop of the web process; ``kind="thread"`` keeps the lane in this process (for
  tests with levels registered on the fly, which the processes would not know). The
  processes are spawned, so the program's main module must be importable without side
  effects (multiprocessing's ``if __name__ == "__main__"`` rule; ``cardavia serve`` and
  uvicorn are). A
  client has at most ``per_client`` search decisions running or queued at a time (by
  default half the cores, at least one): its other tables wait behind its own work, not
  everyone's.

With ``CARDAVIA_REDIS_URL`` set (:meth:`DecisionPool.from_env`), the search lane sends its
decisions to a queue on Redis instead, served by ``cardavia ai-worker`` processes on any
machine (:mod:`cardavia.ai.worker`): AI capacity grows by adding workers. The queue is arq's
(see :mod:`cardavia.ai.worker` for why). Without it, everything runs in this process; with
it, should Redis be unreachable, the decision is made in this process (the same one) and a
warning logged.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from cardavia.ai.player import find_player, told_the_score
from cardavia.ai.spread import Cores, lending
from cardavia.belote.actions import Action
from cardavia.belote.observation import Observation

if TYPE_CHECKING:
    from cardavia.ai.worker import DecisionQueue

CHEAP_LEVELS: Final = frozenset({"beginner", "club"})
"""The levels decided in their own lane, always in this process."""

REDIS_URL_VARIABLE: Final = "CARDAVIA_REDIS_URL"

log = logging.getLogger(__name__)

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
    """The decision of a player of ``level``, in the calling thread: what every lane and
    every worker computes."""
    player = find_player(level)
    if match_scores is not None:
        player = told_the_score(player, match_scores)
    return player.decide(observation, random.Random(seed))


_here: list[Cores] = []
"""In a pool process: the cores shared with the pool's other processes."""


def _start_process(count: int, condition: Any, counts: Any) -> None:
    _here.append(Cores(count, condition=condition, counts=counts))
    for level in ("strong", "expert"):  # imported now rather than at the first decision
        find_player(level)


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


@dataclass
class _Client:
    """One client's cap: a semaphore, and how many decisions use it (dropped at zero)."""

    semaphore: asyncio.Semaphore
    users: int = 0


class DecisionPool:
    """Computer players' decisions, awaited from the event loop (see the module)."""

    def __init__(
        self,
        *,
        cores: int | None = None,
        per_client: int | None = None,
        queue: DecisionQueue | None = None,
        kind: Kind = "process",
        spread: bool = True,
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
        self.per_client = per_client or max(1, self.cores.count // 2)
        """The most search decisions of one client running or queued at a time."""
        self.queue = queue
        """The Redis queue that decides the search levels, or ``None``: this process."""
        self._search: Executor | None = None
        self._clients: dict[str, _Client] = {}

    def _search_executor(self) -> Executor:
        """The search lane's threads or processes (started on first use)."""
        if self._search is None:
            count = self.cores.count
            if self.kind == "process":
                self._search = ProcessPoolExecutor(
                    count,
                    mp_context=self._context,
                    initializer=_start_process,
                    initargs=(count, self._condition, self._counts),
                )
            else:
                self._search = ThreadPoolExecutor(count, thread_name_prefix="cardavia-ai")
        return self._search

    async def start(self) -> None:
        """Start the search lane's processes now (a second or two), rather than at the first
        search decision: call it at the site's start-up."""
        if self.queue is None and self.kind == "process":
            loop = asyncio.get_running_loop()
            executor = self._search_executor()
            # One call per process: the executor starts a process for each call it cannot
            # give to an idle one.
            calls = [loop.run_in_executor(executor, _ready) for _ in range(self.cores.count)]
            await asyncio.gather(*calls)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> DecisionPool:
        """A pool for this process: with ``CARDAVIA_REDIS_URL`` set, the search levels go
        to the workers' queue on Redis; without it, everything runs here."""
        url = (os.environ if environ is None else environ).get(REDIS_URL_VARIABLE, "").strip()
        if not url:
            return cls()
        from cardavia.ai.worker import DecisionQueue

        return cls(queue=DecisionQueue(url))

    async def decide(
        self,
        level: str,
        observation: Observation,
        seed: int,
        *,
        match_scores: tuple[int, int] | None = None,
        client: str | None = None,
    ) -> Action:
        """The action of a computer player of ``level`` for ``observation`` (see the
        module); ``ValueError`` for an unknown level."""
        key = level.strip().lower()
        find_player(key)  # an unknown level fails here, not in a worker
        if key in CHEAP_LEVELS:
            return decide_here(key, observation, seed, match_scores)
        if client is None:
            return await self._search_decision(key, observation, seed, match_scores)
        entry = self._clients.get(client)
        if entry is None:
            entry = self._clients[client] = _Client(asyncio.Semaphore(self.per_client))
        entry.users += 1
        try:
            async with entry.semaphore:
                return await self._search_decision(key, observation, seed, match_scores)
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._clients[client]

    async def _search_decision(
        self,
        level: str,
        observation: Observation,
        seed: int,
        match_scores: tuple[int, int] | None,
    ) -> Action:
        if self.queue is not None:
            from cardavia.ai.worker import QueueUnreachableError

            try:
                return await self.queue.decide(level, observation, seed, match_scores)
            except QueueUnreachableError:
                # Redis is down: the game goes on, decided here (the same decision).
                log.warning("the AI queue is unreachable: deciding in this process")
        loop = asyncio.get_running_loop()
        if self.kind == "thread":
            return await loop.run_in_executor(
                self._search_executor(),
                self._decide_on_a_core, level, observation, seed, match_scores,
            )  # fmt: skip
        try:
            return await loop.run_in_executor(
                self._search_executor(),
                _decide_in_process, level, observation, seed, match_scores, self.spread,
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
                _decide_in_process, level, observation, seed, match_scores, self.spread,
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
        """Stop the threads (the decisions running finish first) and the queue's
        connection."""
        if self.queue is not None:
            await self.queue.close()
        loop = asyncio.get_running_loop()
        if self._search is not None:
            await loop.run_in_executor(None, self._search.shutdown)
        self.cores.close()


__all__ = ["CHEAP_LEVELS", "DecisionPool", "Kind", "decide_here", "machine_cores"]
