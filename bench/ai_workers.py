"""Computer players on several cores: expert decisions/s with 1 and 2 workers, and how long
club decisions wait while expert work runs.

Three measures, each on the same expert decisions (bidding and card play, from deals played
by the club level, seeded):

1. **In process** (:class:`cardavia.ai.pool.DecisionPool`, its search lane in processes and
   then in threads): all decisions submitted at once to a pool of 1, then 2 cores, and one
   decision at a time on 1, then 2 cores (each decision's worlds spread over both).
2. **Worker processes** (``cardavia ai-worker``, a redis-server of its own): 1, then 2 worker
   processes of one job each, all decisions queued at once.
3. **Club waits**: club decisions asked every 20 ms, alone and while the pool of 2 cores is
   full of expert work (the cheap levels have a lane of their own).

Every configuration is measured once a round, in turn, and the best round kept. Prints
decisions/s and the ratio of 2 to 1, and before and after, how much parallelism the
machine offers at the time (the same pure kernel work in 2 processes against 1: on a
machine shared with other work, the ratios above are bounded by it). Run:
``uv run python bench/ai_workers.py [--decisions N] [--rounds R] [--skip-workers]``.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import platform
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from cardavia.ai import find_player
from cardavia.ai.pool import DecisionPool, Kind
from cardavia.ai.solver import Position, solve_root
from cardavia.ai.strong import tricks_won
from cardavia.ai.worker import DecisionQueue
from cardavia.belote import DealState, Observation, Seat, find_rules
from cardavia.belote.game import Phase

Case = tuple[Observation, int]


def expert_cases(preset: str, count: int, seed: int) -> list[Case]:
    """``count`` decision points (every third of deals played by club), with seeds."""
    rng = random.Random(seed)
    club = find_player("club")
    cases: list[Case] = []
    index = 0
    while len(cases) < count:
        state = DealState.deal(find_rules(preset), dealer=Seat(rng.randrange(4)), rng=rng)
        while not state.is_over and len(cases) < count:
            seat = state.to_move
            assert seat is not None
            observation = state.observation(seat)
            if len(observation.legal_actions) > 1 and index % 3 == 0:
                cases.append((observation, rng.getrandbits(32)))
            index += 1
            state = state.apply(club.decide(observation, rng))
    return cases


async def all_at_once(pool: DecisionPool, cases: Sequence[Case]) -> float:
    """Decisions/s with every decision submitted at once."""
    start = time.perf_counter()
    await asyncio.gather(*(pool.decide("expert", o, s) for o, s in cases))
    return len(cases) / (time.perf_counter() - start)


async def one_at_a_time(pool: DecisionPool, cases: Sequence[Case]) -> float:
    """Decisions/s with one decision at a time (each may spread its worlds)."""
    start = time.perf_counter()
    for observation, seed in cases:
        await pool.decide("expert", observation, seed)
    return len(cases) / (time.perf_counter() - start)


async def warm(pool: DecisionPool, cases: Sequence[Case]) -> DecisionPool:
    """The pool with its processes started and their modules imported."""
    await asyncio.gather(*(pool.decide("expert", o, s) for o, s in cases[: pool.cores.count]))
    return pool


async def in_process(cases: Sequence[Case], kind: Kind, rounds: int) -> None:
    """Every configuration measured once a round, in turn, the best round of each kept (the
    load of other work on the machine comes and goes)."""
    modes = [(1, all_at_once), (2, all_at_once), (1, one_at_a_time), (2, one_at_a_time)]
    pools = {cores: await warm(DecisionPool(cores=cores, kind=kind), cases) for cores in (1, 2)}
    rates: dict[tuple[int, object], float] = {}
    try:
        for _ in range(rounds):
            for cores, mode in modes:
                value = await mode(pools[cores], cases)
                rates[cores, mode] = max(rates.get((cores, mode), 0.0), value)
    finally:
        for pool in pools.values():
            await pool.close()
    print(f"in process (DecisionPool, kind={kind}; best of {rounds} rounds):")
    rate("1 core, all at once", rates[1, all_at_once])
    rate("2 cores, all at once", rates[2, all_at_once], rates[1, all_at_once])
    rate("1 core, one at a time", rates[1, one_at_a_time])
    rate("2 cores, one at a time", rates[2, one_at_a_time], rates[1, one_at_a_time], ", spread")


def kernel_work(positions: Sequence[Position]) -> float:
    """Seconds to solve ``positions`` (the calibration's unit of pure kernel work)."""
    start = time.perf_counter()
    for position in positions:
        solve_root(position)
    return time.perf_counter() - start


def calibrate(cases: Sequence[Case]) -> None:
    """The parallelism the machine offers now: the same pure kernel work in 1 process, then
    in 2 at once (1.00x: one core's worth is free; 2.00x: two)."""
    rng = random.Random(5)
    positions = []
    for observation, _ in cases:
        if observation.contract is None or observation.phase is not Phase.PLAYING:
            continue
        world = observation.sample_worlds(rng, 1)[0]
        leader = observation.trick[0][0] if observation.trick else observation.seat
        positions.append(
            Position.from_rules(
                observation.rules,
                observation.contract.strain,
                world,
                trick=observation.trick,
                leader=leader,
                tricks_won=tricks_won(observation),
            )
        )
    positions *= max(1, 40 // max(1, len(positions)))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=context) as executor:
        list(executor.map(kernel_work, [positions[:2]] * 2))  # started
        one = executor.submit(kernel_work, positions).result()
        start = time.perf_counter()
        list(executor.map(kernel_work, [positions] * 2))
        two = time.perf_counter() - start
    print(f"the machine now: pure kernel work in 2 processes at once {2 * one / two:.2f}x of 1")


def rate(label: str, value: float, base: float | None = None, note: str = "") -> None:
    """One line: decisions/s, and the ratio to ``base``."""
    ratio = f"  ({value / base:.2f}x{note})" if base else ""
    print(f"  {label:24}{value:7.2f} expert decisions/s{ratio}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_worker(url: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardavia.ai.worker", "--redis-url", url, "--jobs", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def with_workers(cases: Sequence[Case], rounds: int) -> None:
    """One worker serving one Redis database, two serving another, measured in turn."""
    server_path = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.path.exists(server_path):
        print("worker processes: skipped (no redis-server)")
        return
    port = free_port()
    urls = {1: f"redis://127.0.0.1:{port}/1", 2: f"redis://127.0.0.1:{port}/2"}
    with tempfile.TemporaryDirectory() as directory:
        server = subprocess.Popen(
            [server_path, "--port", str(port), "--bind", "127.0.0.1", "--dir", directory,
             "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        workers = [start_worker(urls[count]) for count in (1, 2, 2)]
        queues = {count: DecisionQueue(url) for count, url in urls.items()}
        rates: dict[int, float] = {}
        try:
            for queue in queues.values():
                # Each worker imports and answers before the clock starts.
                await asyncio.gather(*(queue.decide("expert", o, s) for o, s in cases[:4]))
            for _ in range(rounds):
                for count, queue in queues.items():
                    start = time.perf_counter()
                    await asyncio.gather(*(queue.decide("expert", o, s) for o, s in cases))
                    value = len(cases) / (time.perf_counter() - start)
                    rates[count] = max(rates.get(count, 0.0), value)
        finally:
            for queue in queues.values():
                await queue.close()
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(30)
            server.terminate()
            server.wait(10)
    print(f"worker processes (cardavia ai-worker --jobs 1, Redis; best of {rounds} rounds):")
    rate("1 worker", rates[1])
    rate("2 workers", rates[2], rates[1])


async def club_waits(cases: Sequence[Case], club_cases: Sequence[Case], kind: Kind) -> None:
    async def club_latencies(pool: DecisionPool) -> list[float]:
        times = []
        for observation, seed in club_cases:
            start = time.perf_counter()
            await pool.decide("club", observation, seed)
            times.append(1000 * (time.perf_counter() - start))
            await asyncio.sleep(0.02)
        return sorted(times)

    pool = await warm(DecisionPool(cores=2, kind=kind), cases)
    try:
        idle = await club_latencies(pool)
        expert = asyncio.ensure_future(
            asyncio.gather(
                *(
                    pool.decide("expert", o, s, client=f"t{i % 12}")
                    for i, (o, s) in enumerate(cases)
                )
            )
        )
        await asyncio.sleep(0.2)
        busy = await club_latencies(pool)
        still_running = not expert.done()
        await expert
    finally:
        await pool.close()

    def line(times: list[float]) -> str:
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        return (
            f"median {statistics.median(times):6.2f} ms  p99 {p99:6.2f} ms  max {times[-1]:6.2f} ms"
        )

    print(f"club decisions ({len(club_cases)}, one every 20 ms, pool of 2 cores, kind={kind}):")
    print(f"  pool idle               {line(idle)}")
    print(
        f"  pool full of expert     {line(busy)}"
        + ("" if still_running else "  (expert work ended first)")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=16)
    parser.add_argument("--preset", default="coinche")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-workers", action="store_true")
    args = parser.parse_args()
    print(
        f"{platform.machine()}, Python {platform.python_version()}, "
        f"{len(os.sched_getaffinity(0))} cores, preset {args.preset}, {args.decisions} decisions"
    )
    cases = expert_cases(args.preset, args.decisions, args.seed)
    club_cases = expert_cases(args.preset, 100, args.seed + 1)
    calibrate(cases)
    kinds: list[Kind] = ["process", "thread"]
    for kind in kinds:
        asyncio.run(in_process(cases, kind, args.rounds))
    if not args.skip_workers:
        asyncio.run(with_workers(cases, args.rounds))
    for kind in kinds:
        asyncio.run(club_waits(cases * 2, club_cases, kind))
    calibrate(cases)


if __name__ == "__main__":
    main()
