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
from arq.constants import in_progress_key_prefix, retry_key_prefix

from cardavia.ai.decisions import Decisions
from cardavia.ai.pool import decide_here
from cardavia.ai.queue import QUEUE_NAME, DecisionQueue, QueueUnreachableError
from cardavia.belote import DealState, Observation, Seat, find_rules

from .test_pool import observations

pytestmark = pytest.mark.slow  # Redis and AI worker processes

REDIS_SERVER = shutil.which("redis-server") or (
    "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_redis(port: int, directory: Path) -> subprocess.Popen[bytes]:
    """A redis-server on ``port`` (in ``directory``, saving nothing), answering PING."""
    assert REDIS_SERVER is not None
    server = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory),
         "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return server
        except OSError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            pytest.fail("redis-server did not start")
        time.sleep(0.05)


def needs_redis() -> None:
    """Skip without redis-server, except with ``CI=true``, where it is a failure."""
    if REDIS_SERVER is None:
        message = "redis-server is not installed (Debian: apt-get install redis-server)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A redis-server of the tests' own, on a free port, in a temporary directory."""
    needs_redis()
    port = free_port()
    server = start_redis(port, tmp_path_factory.mktemp("redis"))
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(10)


def start_worker(url: str, jobs: int = 1, log: Path | None = None) -> subprocess.Popen[bytes]:
    """A worker process (``python -m cardavia.ai.worker``), its log in ``log`` if given."""
    output = subprocess.DEVNULL if log is None else log.open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "cardavia.ai.worker", "--redis-url", url, "--jobs", str(jobs)],
        stdout=output,
        stderr=output,
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
        pool = Decisions.from_settings(redis_url=redis_url, deadline=60)
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


async def _ready(url: str, observation: Observation) -> None:
    """Wait for the worker to answer one decision (its modules imported): the test's setup,
    so a connection to the test's Redis that times out on a busy machine is tried again (up to
    three times) rather than failing a test about something else."""
    for attempt in range(3):
        try:
            await _one_decision(url, observation)
            return
        except QueueUnreachableError:
            if attempt == 2:
                raise


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
        pool = Decisions.from_settings(redis_url=url)
        try:
            return await pool.decide("strong", observation, 4)
        finally:
            await pool.close()

    assert asyncio.run(main()) == decide_here("strong", observation, 4)


def test_without_a_redis_url_everything_stays_here() -> None:
    async def main() -> None:
        pool = Decisions.from_settings()
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


# -- workers that never stall a table (issue 18) ---------------------------------------------


def bidding_observation(seed: int) -> Observation:
    """The first bidder's observation of a deal: an expert bid takes some tenths of a second
    (time enough to kill its worker mid-decision)."""
    state = DealState.deal(find_rules("coinche"), dealer=Seat.W, rng=random.Random(seed))
    assert state.to_move is not None
    return state.observation(state.to_move)


async def kill_when_busy(queue: DecisionQueue, worker: subprocess.Popen[bytes]) -> None:
    """SIGKILL ``worker`` as soon as it is deciding a job: the job held (its in-progress key)
    and its try counted (its retry key, written as the job starts running)."""
    redis = await queue.redis()
    deadline = time.monotonic() + 30
    while not (
        await redis.keys(in_progress_key_prefix + "*") and await redis.keys(retry_key_prefix + "*")
    ):
        assert time.monotonic() < deadline, "the worker never took the job"
        await asyncio.sleep(0.002)
    await asyncio.sleep(0.02)  # into the decision (an expert bid takes tenths of a second)
    worker.kill()
    worker.wait()


def test_a_worker_survives_a_redis_restart(tmp_path: Path) -> None:
    """Redis stopped under a running worker: the worker says so, waits and connects again
    (it does not exit), then decides the next job."""
    needs_redis()
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    log = tmp_path / "worker.log"
    observation = observations("coinche", 41, 1)[0]
    server = start_redis(port, tmp_path)
    worker = start_worker(url, log=log)
    try:
        assert asyncio.run(_one_decision(url, observation)) == decide_here("expert", observation, 2)
        server.terminate()
        server.wait(10)
        time.sleep(2.0)  # the worker finds Redis gone, and tries again meanwhile
        assert worker.poll() is None, log.read_text()
        server = start_redis(port, tmp_path)
        # Through the queue only (no fallback here): the worker answers.
        assert asyncio.run(_one_decision(url, observation)) == decide_here("expert", observation, 2)
        assert worker.poll() is None
    finally:
        stop(worker)
        server.terminate()
        server.wait(10)
    text = log.read_text()
    assert "Redis unreachable" in text
    assert "Traceback" not in text


def test_a_decision_is_made_in_time_when_its_worker_is_killed(redis_url: str) -> None:
    """A worker killed mid-decision: the web process decides within its deadline, a real
    decision (the expert's, requeued, or the club player's), never the first legal action."""
    observation = bidding_observation(42)
    worker = start_worker(redis_url)

    async def main() -> tuple[object, float]:
        decisions = Decisions.from_settings(redis_url=redis_url, deadline=3.0, kind="thread")
        assert decisions.queue is not None
        try:
            await (await decisions.queue.redis()).flushdb()
            await _ready(redis_url, observation)  # the worker ready (modules imported)
            start = time.monotonic()
            pending = asyncio.ensure_future(decisions.decide("expert", observation, 9))
            await kill_when_busy(decisions.queue, worker)
            return await pending, time.monotonic() - start
        finally:
            await decisions.close()

    try:
        action, elapsed = asyncio.run(main())
    finally:
        stop(worker)
    assert elapsed < 4.5  # within the deadline (3 s), and nothing more than a club decision
    assert action in {decide_here("expert", observation, 9), decide_here("club", observation, 9)}


def test_a_decision_whose_worker_is_killed_is_requeued_once(redis_url: str) -> None:
    """The job of a worker killed mid-decision is free again after its lease (2 s): another
    worker takes it (its second try) and answers, long before arq's own two minutes."""
    observation = bidding_observation(43)
    first = start_worker(redis_url)
    second: subprocess.Popen[bytes] | None = None

    async def main() -> tuple[object, float, list[int]]:
        nonlocal second
        queue = DecisionQueue(redis_url, timeout=60)
        try:
            redis = await queue.redis()
            await redis.flushdb()
            await _ready(redis_url, bidding_observation(1))  # the first worker ready
            start = time.monotonic()
            pending = asyncio.ensure_future(queue.decide("expert", observation, 11))
            await kill_when_busy(queue, first)
            second = start_worker(redis_url)
            action = await pending
            elapsed = time.monotonic() - start
            tries = [r.job_try for r in await redis.all_job_results() if r.args[2] == 11]
            return action, elapsed, tries
        finally:
            await queue.close()

    try:
        action, elapsed, tries = asyncio.run(main())
    finally:
        stop(first)
        if second is not None:
            stop(second)
    assert action == decide_here("expert", observation, 11)
    assert tries == [2]
    assert elapsed < 30  # arq alone: 130 s


def test_with_no_worker_the_site_decides_within_its_deadline(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis up, no worker: each search decision waits its deadline, then the club player
    decides here (one line in the log); the job is dropped, not left for a later worker."""
    observation = observations("coinche", 44, 1)[0]

    async def main() -> tuple[object, float, int]:
        decisions = Decisions.from_settings(redis_url=redis_url, deadline=0.5, kind="thread")
        assert decisions.queue is not None
        try:
            redis = await decisions.queue.redis()
            await redis.flushdb()
            start = time.monotonic()
            action = await decisions.decide("expert", observation, 12, client="c")
            elapsed = time.monotonic() - start
            await asyncio.sleep(0.7)
            return action, elapsed, len(await redis.keys("arq:job:*"))
        finally:
            await decisions.close()

    action, elapsed, jobs_left = asyncio.run(main())
    assert action == decide_here("club", observation, 12)
    assert 0.5 <= elapsed < 1.5
    assert jobs_left == 0  # expired with its asker's wait
    assert any("decided by club" in r.getMessage() for r in caplog.records)
