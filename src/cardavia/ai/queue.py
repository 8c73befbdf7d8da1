"""The queue of decisions on Redis, as a web process sees it: send a decision, await its
answer.

With ``CARDAVIA_REDIS_URL`` set, :class:`~cardavia.ai.decisions.Decisions` sends each search
decision (``strong``, ``expert``) through a :class:`DecisionQueue`, and any number of
``cardavia ai-worker`` processes (:mod:`cardavia.ai.worker`), on this machine or others, take
them and send the action back. This module is the client end only: a web process never
imports the worker.

A job carries the level, the seat's :class:`~cardavia.belote.Observation` (what that seat may
see, never the deal's state: the hidden cards stay in the web process), the seed and the
match score; its result is the :class:`~cardavia.belote.Action`. Both travel pickled (arq's
default), which is fine between processes of one site that trust their Redis: keep Redis on
a private network, as the site's other state.

The queue is arq's (https://github.com/python-arq/arq), chosen over Dramatiq, RQ and Celery
because it is asyncio-native: the web process enqueues a job and awaits its result on its
event loop, with no thread per waiting decision and no separate result backend; it needs
only redis-py. Dramatiq and RQ are synchronous (a result means a blocking wait or a results
middleware), Celery is far larger than this one queue needs.

A job lives no longer than its asker waits (arq's job expiry): a decision nobody waits for
any more is dropped by the worker that finds it, not computed for nothing.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any, Final

from arq import create_pool
from arq.connections import ArqRedis, RedisSettings
from arq.jobs import Job, SerializationError
from redis.exceptions import RedisError

from cardavia.belote import Action, Observation

QUEUE_NAME: Final = "cardavia:ai:decisions"
"""The arq queue of the decisions (a Redis sorted set of that name)."""

JOB_NAME: Final = "decide"
"""The workers' function that a job names."""

JOB_TIMEOUT: Final = 120.0
"""Seconds a decision may take in a worker (an expert decision takes about a second), and
that a :class:`DecisionQueue` waits for one by default, queueing included. The site waits
far less (:data:`~cardavia.ai.environment.DEFAULT_DEADLINE`)."""

POLL_DELAY: Final = 0.01
"""Seconds between a worker's looks at the queue when idle, and a web process's first wait
before it looks for a result."""

MAX_POLL_DELAY: Final = 0.05
"""The longest a web process waits between two looks for a result. It looks again after
10 ms, then half as long again each time: a quick decision is answered quickly, and the many
decisions queued behind busy workers do not ask Redis a hundred times a second each (that
polling took as much CPU as a fifth of the decisions, and two workers gained 1.62× over one
rather than 1.7×: ``bench/ai_workers.py --only workers``)."""


class QueueUnreachableError(ConnectionError):
    """Redis could not be reached to queue a decision or read its answer."""


class DecisionQueue:
    """The web process's end: sends decisions to the queue and awaits their results."""

    def __init__(self, url: str, *, timeout: float = JOB_TIMEOUT) -> None:
        self.settings = RedisSettings.from_dsn(url)
        self.settings.conn_retries = 0  # Redis down: say so at once (the site decides here)
        self.timeout = timeout
        """Seconds to wait for an answer, queueing included; also how long a job lives."""
        self._redis: ArqRedis | None = None
        self._connecting = asyncio.Lock()

    async def redis(self) -> ArqRedis:
        """The connection pool (made on first use, on the running loop)."""
        async with self._connecting:
            if self._redis is None:
                self._redis = await create_pool(self.settings)
            return self._redis

    async def decide(
        self,
        level: str,
        observation: Observation,
        seed: int,
        match_scores: tuple[int, int] | None = None,
    ) -> Action:
        """A worker's decision (:func:`cardavia.ai.pool.decide_here`); ``TimeoutError`` if
        none answers within :attr:`timeout`, ``QueueUnreachableError`` if Redis cannot be
        reached; a worker's exception is raised here."""
        try:
            redis = await self.redis()
            job = await redis.enqueue_job(
                JOB_NAME,
                level,
                observation,
                seed,
                match_scores,
                _queue_name=QUEUE_NAME,
                _expires=timedelta(seconds=self.timeout),
            )
        except (OSError, RedisError) as error:
            raise QueueUnreachableError(f"the AI queue on Redis: {error}") from error
        assert job is not None  # no job id is given, so it is never a duplicate
        result = await self._result(job)
        if not isinstance(result, Action):
            raise TypeError(f"the worker answered {result!r}, not an action")
        return result

    async def _result(self, job: Job) -> Any:
        """The job's result, looked for less and less often (:data:`MAX_POLL_DELAY`); the
        worker's exception raised here; ``TimeoutError`` past :attr:`timeout`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        delay = POLL_DELAY
        while True:
            await asyncio.sleep(min(delay, max(0.0, deadline - loop.time())))
            try:
                info = await job.result_info()
            except (OSError, RedisError) as error:
                raise QueueUnreachableError(f"the AI queue on Redis: {error}") from error
            if info is not None:
                if info.success:
                    return info.result
                if isinstance(info.result, BaseException):
                    raise info.result
                raise SerializationError(repr(info.result))
            if loop.time() >= deadline:
                raise TimeoutError(f"no AI worker answered within {self.timeout:g} s")
            delay = min(delay * 1.5, MAX_POLL_DELAY)

    async def close(self) -> None:
        """Close the connections."""
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None


__all__ = [
    "JOB_NAME",
    "JOB_TIMEOUT",
    "MAX_POLL_DELAY",
    "POLL_DELAY",
    "QUEUE_NAME",
    "DecisionQueue",
    "QueueUnreachableError",
]
