"""AI worker processes: the search levels' decisions through a queue on Redis.

With ``CARDAVIA_REDIS_URL`` set, the web processes' :class:`~cardavia.ai.pool.DecisionPool`
puts each ``strong`` or ``expert`` decision on a queue on Redis (:class:`DecisionQueue`), and
any number of ``cardavia ai-worker`` processes, on this machine or others, take them, each
deciding with its own pool (:class:`~cardavia.ai.pool.DecisionPool`: one process per job,
the worlds spread over the idle cores), and send the action back. AI capacity grows by
starting workers.

A job carries the level, the seat's :class:`~cardavia.belote.Observation` (what that seat may
see, never the deal's state: the hidden cards stay in the web process), the seed and the
match score; its result is the :class:`~cardavia.belote.actions.Action`. Both travel pickled
(arq's default), which is fine between processes of one site that trust their Redis: keep
Redis on a private network, as the site's other state.

The queue is arq's (https://github.com/python-arq/arq), chosen over Dramatiq, RQ and Celery
because it is asyncio-native: the web process enqueues a job and awaits its result on its
event loop, with no thread per waiting decision and no separate result backend; it needs
only redis-py, and its worker runs an asyncio loop in which our decisions run in threads
(the solver's kernel releases the GIL). Dramatiq and RQ are synchronous (a result means a
blocking wait or a results middleware), Celery is far larger than this one queue needs.

Run a worker with ``cardavia ai-worker --redis-url redis://host:6379/0 [--jobs N]`` or
``python -m cardavia.ai.worker``; ``--jobs`` (by default the machine's cores) is how many
decisions it runs at once.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from collections.abc import Sequence
from datetime import timedelta
from typing import Any, Final, cast

from arq import create_pool
from arq.connections import ArqRedis, RedisSettings
from arq.jobs import Job, SerializationError
from arq.worker import Worker, func
from redis.exceptions import RedisError

from cardavia.ai.pool import REDIS_URL_VARIABLE, DecisionPool, Kind, machine_cores
from cardavia.belote.actions import Action
from cardavia.belote.observation import Observation

QUEUE_NAME: Final = "cardavia:ai:decisions"
"""The arq queue of the decisions (a Redis sorted set of that name)."""

JOB_TIMEOUT: Final = 120.0
"""Seconds a decision may take in a worker (an expert decision takes about a second), and
that a web process waits for one, queueing included, before giving up."""

POLL_DELAY: Final = 0.01
"""Seconds between a worker's looks at the queue when idle, and a web process's first wait
before it looks for a result."""

MAX_POLL_DELAY: Final = 0.05
"""The longest a web process waits between two looks for a result. It looks again after
10 ms, then half as long again each time: a quick decision is answered quickly, and the many
decisions queued behind busy workers do not ask Redis a hundred times a second each (that
polling took as much CPU as a fifth of the decisions, and two workers gained 1.62× over one
rather than 1.7×: ``bench/ai_workers.py --only workers``)."""

log = logging.getLogger(__name__)


class QueueUnreachableError(ConnectionError):
    """Redis could not be reached to queue a decision (nothing was queued)."""


class DecisionQueue:
    """The web process's end: sends decisions to the queue and awaits their results."""

    def __init__(self, url: str, *, timeout: float = JOB_TIMEOUT) -> None:
        self.settings = RedisSettings.from_dsn(url)
        self.settings.conn_retries = 0  # Redis down: say so at once (the pool decides here)
        self.timeout = timeout
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
                "decide",
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
            await asyncio.sleep(delay)
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
            if loop.time() > deadline:
                raise TimeoutError(f"no AI worker answered within {self.timeout:g} s")
            delay = min(delay * 1.5, MAX_POLL_DELAY)

    async def close(self) -> None:
        """Close the connections."""
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None


async def decide_job(
    ctx: dict[str, Any],
    level: str,
    observation: Observation,
    seed: int,
    match_scores: tuple[int, int] | None,
) -> Action:
    """The worker's job: the decision, by this process's pool."""
    if not isinstance(observation, Observation):
        raise TypeError("a decision job carries an Observation")
    pool = cast(DecisionPool, ctx["pool"])
    return await pool.decide(level, observation, seed, match_scores=match_scores)


def make_worker(url: str, *, jobs: int | None = None, burst: bool = False) -> Worker:
    """An arq worker deciding ``jobs`` decisions at once (by default one per core)."""
    jobs = jobs or machine_cores()

    async def startup(ctx: dict[str, Any]) -> None:
        # One job: decide in this process; more: in a pool of processes, one per job.
        kind: Kind = "thread" if jobs == 1 else "process"
        ctx["pool"] = DecisionPool(cores=jobs, per_client=jobs, kind=kind)

    async def shutdown(ctx: dict[str, Any]) -> None:
        pool = ctx.get("pool")
        if isinstance(pool, DecisionPool):
            await pool.close()

    return Worker(
        [func(decide_job, name="decide", max_tries=1)],
        queue_name=QUEUE_NAME,
        redis_settings=RedisSettings.from_dsn(url),
        max_jobs=jobs,
        job_timeout=JOB_TIMEOUT,
        keep_result=JOB_TIMEOUT,
        poll_delay=POLL_DELAY,
        on_startup=startup,
        on_shutdown=shutdown,
        burst=burst,
        log_results=False,
    )


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m cardavia.ai.worker``: run a worker until stopped (SIGINT or SIGTERM)."""
    parser = argparse.ArgumentParser(
        prog="cardavia ai-worker",
        description="Decide the computer players' moves from the queue on Redis.",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get(REDIS_URL_VARIABLE, ""),
        help=f"the Redis URL (default: ${REDIS_URL_VARIABLE})",
    )
    parser.add_argument("--jobs", type=int, default=0, help="decisions at once (default: cores)")
    args = parser.parse_args(argv)
    if not args.redis_url:
        parser.error(f"no Redis URL: pass --redis-url or set {REDIS_URL_VARIABLE}")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    worker = make_worker(args.redis_url, jobs=args.jobs or None)
    log.info("AI worker: %d decisions at once, queue %s", worker.max_jobs, QUEUE_NAME)
    worker.run()


if __name__ == "__main__":
    main()


__all__ = [
    "QUEUE_NAME",
    "DecisionQueue",
    "QueueUnreachableError",
    "decide_job",
    "main",
    "make_worker",
]
