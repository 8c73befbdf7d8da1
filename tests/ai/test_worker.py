"""AI worker processes fed by the queue on Redis (:mod:`cardavia.ai.worker`), with a real
``redis-server`` started for the tests and real worker processes: the same decisions as in
process, only the seat's observation in a job, a decision waiting for a worker to start.

Without ``redis-server`` these tests are skipped, except with ``CI=true``, where they fail.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardavia.ai.pool import DecisionPool, decide_here
from cardavia.ai.worker import QUEUE_NAME, DecisionQueue
from cardavia.belote import DealState, Observation, Seat, find_rules

from .test_pool import observations

REDIS_SERVER = shutil.which("redis-server") or (
    "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A redis-server of the tests' own, on a free port, in a temporary directory."""
    if REDIS_SERVER is None:
        message = "redis-server is not installed (Debian: apt-get install redis-server)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    directory = tmp_path_factory.mktemp("redis")
    port = free_port()
    server = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory),
         "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                pytest.fail("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(10)


def start_worker(url: str, jobs: int = 1) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardavia.ai.worker", "--redis-url", url, "--jobs", str(jobs)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def worker(redis_url: str) -> Iterator[subprocess.Popen[bytes]]:
    process = start_worker(redis_url)
    yield process
    stop(process)


def test_the_workers_decide_as_the_players_do(
    redis_url: str, worker: subprocess.Popen[bytes]
) -> None:
    cases = [
        (level, observation, index, (300, 700) if index % 2 else None)
        for index, observation in enumerate(observations("coinche", 21, 3))
        for level in ("strong", "expert", "club")
    ]

    async def main() -> list[object]:
        pool = DecisionPool.from_env({"CARDAVIA_REDIS_URL": redis_url})
        assert pool.queue is not None
        try:
            await (await pool.queue.redis()).flushdb()  # only this test's jobs
            got = await asyncio.gather(
                *(pool.decide(lv, o, seed, match_scores=s, client="t") for lv, o, seed, s in cases)
            )
            # What the jobs carried: the seat's observation, nothing more.
            redis = await pool.queue.redis()
            carried = [r.args for r in await redis.all_job_results()]
            return [got, carried]
        finally:
            await pool.close()

    got, carried = asyncio.run(main())
    assert got == [decide_here(*case) for case in cases]
    assert isinstance(carried, list)
    assert len(carried) == 6  # strong and expert went to the worker, club stayed here
    for args in carried:
        assert [type(a) for a in args[:3]] == [str, Observation, int]


def test_a_job_without_an_observation_is_refused(
    redis_url: str, worker: subprocess.Popen[bytes]
) -> None:
    state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(1))

    async def main() -> None:
        queue = DecisionQueue(redis_url, timeout=60)
        try:
            redis = await queue.redis()
            job = await redis.enqueue_job(
                "decide", "expert", state, 1, None, _queue_name=QUEUE_NAME
            )
            assert job is not None
            with pytest.raises(TypeError, match="Observation"):
                await job.result(timeout=60, poll_delay=0.01)
        finally:
            await queue.close()

    asyncio.run(main())


def test_a_decision_waits_in_the_queue_for_a_worker(redis_url: str) -> None:
    """Queued with no worker running, answered by the worker started later (a worker
    restarted, or the first one of the site)."""
    observation = observations("cardavia", 4, 1)[0]

    async def main() -> object:
        queue = DecisionQueue(redis_url, timeout=60)
        try:
            pending = asyncio.ensure_future(queue.decide("strong", observation, 5))
            await asyncio.sleep(0.3)
            assert not pending.done()
            process = start_worker(redis_url)
            try:
                return await pending
            finally:
                stop(process)
        finally:
            await queue.close()

    assert asyncio.run(main()) == decide_here("strong", observation, 5)


def test_the_cli_runs_a_worker(redis_url: str) -> None:
    observation = observations("coinche", 6, 1)[0]
    process = subprocess.Popen(
        [sys.executable, "-m", "cardavia.cli", "ai-worker", "--redis-url", redis_url,
         "--jobs", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        action = asyncio.run(_one_decision(redis_url, observation))
    finally:
        stop(process)
    assert action == decide_here("expert", observation, 2)


async def _one_decision(url: str, observation: Observation) -> object:
    queue = DecisionQueue(url, timeout=60)
    try:
        return await queue.decide("expert", observation, 2)
    finally:
        await queue.close()


def test_a_worker_without_a_url_says_so() -> None:
    env = {k: v for k, v in os.environ.items() if k != "CARDAVIA_REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "cardavia.ai.worker"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 2
    assert "no Redis URL" in done.stderr


def test_with_redis_down_the_pool_decides_here() -> None:
    observation = observations("coinche", 13, 1)[0]

    async def main() -> object:
        url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
        pool = DecisionPool.from_env({"CARDAVIA_REDIS_URL": url})
        try:
            return await pool.decide("strong", observation, 4)
        finally:
            await pool.close()

    assert asyncio.run(main()) == decide_here("strong", observation, 4)


def test_without_a_redis_url_everything_stays_here() -> None:
    async def main() -> None:
        pool = DecisionPool.from_env({})
        try:
            assert pool.queue is None
        finally:
            await pool.close()

    asyncio.run(main())


def test_a_workers_failure_and_a_silent_queue_are_told_to_the_web_process(
    redis_url: str, worker: subprocess.Popen[bytes]
) -> None:
    """The result is looked for less and less often; what the worker raised is raised
    here, and with no answer in time a ``TimeoutError``."""
    observation = observations("cardavia", 4, 1)[0]

    async def main() -> None:
        queue = DecisionQueue(redis_url, timeout=60)
        try:
            with pytest.raises(ValueError, match="no-such-level"):
                await queue.decide("no-such-level", observation, 1)
            assert await queue.decide("strong", observation, 5) == decide_here(
                "strong", observation, 5
            )
        finally:
            await queue.close()
        silent = DecisionQueue(redis_url, timeout=0.3)
        try:
            # Queued under another name, no worker reads it: nobody answers.
            redis = await silent.redis()
            job = await redis.enqueue_job("decide", "strong", observation, 5, None,
                                          _queue_name="cardavia:ai:nobody")  # fmt: skip
            assert job is not None
            with pytest.raises(TimeoutError, match="no AI worker answered"):
                await silent._result(job)
        finally:
            await silent.close()

    asyncio.run(main())
