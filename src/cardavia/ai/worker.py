"""The AI worker process: ``cardavia ai-worker`` decides the search levels' decisions that
the web processes put on the queue on Redis (:mod:`cardavia.ai.queue`).

Any number of workers, on this machine or others, take the jobs; each decides with its own
:class:`~cardavia.ai.pool.DecisionPool` (one process per job, the worlds spread over the idle
cores) and sends the action back. AI capacity grows by starting workers. The queue is arq's
(see :mod:`cardavia.ai.queue` for why); its worker runs an asyncio loop in which our
decisions run in processes, or in threads for a single job (the solver's kernel releases
the GIL).

A worker outlives what happens around it (issue 18):

- **Redis restarts or is unreachable**: the worker says so in one line and connects again,
  waiting :data:`FIRST_RETRY_DELAY`, then twice as long each time up to
  :data:`MAX_RETRY_DELAY`; it never exits for it. Its pool of processes is kept meanwhile.
- **A worker dies mid-decision** (kill -9, a lost machine): the job is held by a lease of
  :data:`LEASE` seconds that the worker renews while it decides, so another worker takes the
  job again soon after (once: :data:`MAX_TRIES`), rather than after arq's own hold of the
  whole job timeout. The web process does not wait for it past its deadline either
  (:class:`~cardavia.ai.decisions.Decisions`): whatever happens, the table goes on.

Run a worker with ``cardavia ai-worker --redis-url redis://host:6379/0 [--jobs N]`` or
``python -m cardavia.ai.worker``; ``--jobs`` (by default the machine's cores) is how many
decisions it runs at once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final, cast

from arq import create_pool
from arq.connections import ArqRedis, RedisSettings
from arq.constants import in_progress_key_prefix
from arq.typing import StartupShutdown
from arq.worker import Worker, func

from cardavia.ai.decisions import SEARCH_LEVELS
from cardavia.ai.environment import REDIS_URL_VARIABLE
from cardavia.ai.pool import DecisionPool, Kind, machine_cores
from cardavia.ai.queue import JOB_NAME, JOB_TIMEOUT, POLL_DELAY, QUEUE_NAME
from cardavia.belote import Action, Observation

LEASE: Final = 2.0
"""Seconds a job stays held by the worker deciding it without being renewed. The worker
renews it every :data:`RENEW_EVERY` seconds while it decides; should the worker die, the job
is free again within this time. (arq holds a job for its whole timeout plus ten seconds,
130 s here: a table stayed silent two minutes when its worker was killed.)"""

RENEW_EVERY: Final = LEASE / 4
"""Seconds between two renewals of a job's lease."""

MAX_TRIES: Final = 2
"""A job is tried at most twice: by the worker that took it, and once more should that
worker die before answering. A decision that fails is not tried again (it would fail
again); the web process decides it."""

FIRST_RETRY_DELAY: Final = 0.5
"""Seconds before a worker that lost Redis tries to connect again."""

MAX_RETRY_DELAY: Final = 10.0
"""The longest wait between two tries (the wait doubles from :data:`FIRST_RETRY_DELAY`)."""

CLOSE_TIMEOUT: Final = 5.0
"""Seconds a worker waits for its connection's jobs to wind up when the connection ends."""

log = logging.getLogger(__name__)


async def decide_job(
    ctx: dict[str, Any],
    level: str,
    observation: Observation,
    seed: int,
    match_scores: tuple[int, int] | None,
) -> Action:
    """The worker's job: the decision, by this process's pool, its lease renewed."""
    if not isinstance(observation, Observation):
        raise TypeError("a decision job carries an Observation")
    pool = cast(DecisionPool, ctx["pool"])
    async with _holding(ctx):
        return await pool.decide(level, observation, seed, match_scores=match_scores)


@contextlib.asynccontextmanager
async def _holding(ctx: dict[str, Any]) -> AsyncIterator[None]:
    """Renew the job's lease (:data:`LEASE`) while the block runs."""
    redis = cast(ArqRedis, ctx["redis"])
    key = in_progress_key_prefix + str(ctx["job_id"])

    async def renew() -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            with contextlib.suppress(Exception):  # Redis away: the job may be taken again
                await redis.pexpire(key, int(LEASE * 1000))

    renewing = asyncio.ensure_future(renew())
    try:
        yield
    finally:
        renewing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await renewing


def make_worker(
    redis: ArqRedis,
    pool: DecisionPool,
    *,
    jobs: int,
    on_connect: StartupShutdown | None = None,
    burst: bool = False,
) -> Worker:
    """An arq worker on the connection ``redis``, deciding ``jobs`` decisions at once with
    ``pool``. It does not handle signals: :func:`serve` does, across connections."""
    worker = Worker(
        [func(decide_job, name=JOB_NAME, max_tries=MAX_TRIES)],
        queue_name=QUEUE_NAME,
        redis_pool=redis,
        max_jobs=jobs,
        job_timeout=JOB_TIMEOUT,
        keep_result=JOB_TIMEOUT,
        poll_delay=POLL_DELAY,
        on_startup=on_connect,
        burst=burst,
        handle_signals=False,
        log_results=False,
        ctx={"pool": pool},
    )
    worker.in_progress_timeout_s = LEASE  # renewed by each job (_holding)
    return worker


async def serve(url: str, *, jobs: int | None = None, stop: asyncio.Event | None = None) -> None:
    """Decide the queue's jobs until ``stop`` is set (SIGINT or SIGTERM in :func:`main`),
    connecting to Redis again, with backoff, whenever the connection is lost."""
    jobs = jobs or machine_cores()
    stop = stop or asyncio.Event()
    # One job: decide in this process; more: in a pool of processes, one per job.
    kind: Kind = "thread" if jobs == 1 else "process"
    pool = DecisionPool(cores=jobs, kind=kind, levels=sorted(SEARCH_LEVELS))
    settings = RedisSettings.from_dsn(url)
    settings.conn_retries = 0  # the retries are this loop's, with backoff
    delay = FIRST_RETRY_DELAY

    async def connected(ctx: dict[str, Any]) -> None:
        nonlocal delay
        delay = FIRST_RETRY_DELAY
        log.info("AI worker: connected, %d decisions at once, queue %s", jobs, QUEUE_NAME)

    try:
        while not stop.is_set():
            try:
                await _one_connection(settings, pool, jobs=jobs, on_connect=connected, stop=stop)
            except Exception as error:
                log.warning(
                    "AI worker: Redis unreachable (%s: %s); connecting again in %.1f s",
                    type(error).__name__, error, delay,
                )  # fmt: skip
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)
            delay = min(delay * 2, MAX_RETRY_DELAY)
    finally:
        await pool.close()


async def _one_connection(
    settings: RedisSettings,
    pool: DecisionPool,
    *,
    jobs: int,
    on_connect: StartupShutdown,
    stop: asyncio.Event,
) -> None:
    """Serve the queue on one connection to Redis until it fails or ``stop`` is set."""
    redis = await create_pool(settings)
    worker = make_worker(redis, pool, jobs=jobs, on_connect=on_connect)
    running = asyncio.ensure_future(worker.async_run())
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
        # The jobs under way are cancelled: arq puts each back on the queue for another
        # worker (or this one, connected again).
        tasks = [*worker.tasks.values(), running]
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=CLOSE_TIMEOUT)
        for task in tasks:  # retrieved: only the connection's own failure is raised below
            if task.done() and not task.cancelled():
                task.exception()
        with contextlib.suppress(Exception):
            await redis.delete(worker.health_check_key)
        with contextlib.suppress(Exception):
            await redis.aclose()
    if running.done() and not running.cancelled():
        error = running.exception()
        if error is not None:
            raise error


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
    asyncio.run(_until_signalled(args.redis_url, args.jobs or None))


async def _until_signalled(url: str, jobs: int | None) -> None:
    """:func:`serve` until SIGINT or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await serve(url, jobs=jobs, stop=stop)


if __name__ == "__main__":
    main()


__all__ = [
    "FIRST_RETRY_DELAY",
    "LEASE",
    "MAX_RETRY_DELAY",
    "MAX_TRIES",
    "decide_job",
    "main",
    "make_worker",
    "serve",
]
