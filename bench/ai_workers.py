"""Computer players on several cores: expert decisions/s with 1 and 2 workers, and how long
club decisions wait while expert work runs.

Three measures, each on the same expert decisions (bidding and card play, from deals played
by the club level, seeded):

1. **In process** (:class:`cardavia.ai.pool.DecisionPool`, its search lane in processes and
   then in threads): all decisions submitted at once to a pool of 1, then 2 cores, and one
   decision at a time on 1, then 2 cores (each decision's worlds spread over both).
2. **Worker processes** (``cardavia ai-worker``, a redis-server of its own): 1, then 2 worker
   processes of one job each, all decisions queued at once.
3. **Club waits**: club decisions asked every 20 ms of :class:`cardavia.ai.decisions.Decisions`,
   with the pool idle and while 12 expert tables ask for decisions one after another (the
   cheap levels decide at once, in the caller's thread).

Every configuration is measured once a round, in turn, and the best round kept. Prints
decisions/s, the ratio of 2 to 1, the CPU time per decision of all the processes at work
(the web side's, the pool's or the workers', Redis's: what parallel work wastes or adds
shows there, whatever else runs on the machine), and before and after, how much parallelism the
machine offers at the time (the same pure kernel work in 2 processes against 1: on a
machine shared with other work, the ratios above are bounded by it). Run:
``uv run python bench/ai_workers.py [--decisions N] [--rounds R] [--skip-workers]
[--only pool|workers|club]``.
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
from pathlib import Path

from cardavia.ai import find_player
from cardavia.ai.decisions import Decisions
from cardavia.ai.pool import DecisionPool, Kind
from cardavia.ai.queue import DecisionQueue
from cardavia.ai.solver import Position, solve_root
from cardavia.ai.strong import tricks_won
from cardavia.ai.worlds import sample_worlds
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


def cpu_seconds(pids: Sequence[int]) -> float:
    """The CPU time (user and system) the processes have used so far (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def pids_of(pool: DecisionPool) -> list[int]:
    """This process and the pool's processes."""
    executor = pool._search
    children = list(executor._processes) if isinstance(executor, ProcessPoolExecutor) else []
    return [os.getpid(), *children]


class Tally:
    """The best rate of each configuration, and its mean CPU time per decision."""

    def __init__(self) -> None:
        self.best: dict[object, float] = {}
        self.cpu: dict[object, list[float]] = {}

    def add(self, key: object, decisions: int, wall: float, cpu: float) -> None:
        self.best[key] = max(self.best.get(key, 0.0), decisions / wall)
        self.cpu.setdefault(key, []).append(cpu / decisions)

    def line(self, label: str, key: object, base: object = None, note: str = "") -> None:
        value = self.best[key]
        ratio = f"  ({value / self.best[base]:.2f}x{note})" if base is not None else ""
        cpu = 1000 * statistics.fmean(self.cpu[key])
        print(f"  {label:24}{value:7.2f} expert decisions/s  {cpu:6.0f} ms CPU each{ratio}")


async def all_at_once(pool: DecisionPool, cases: Sequence[Case], tally: Tally, key: object) -> None:
    """Every decision submitted at once."""
    pids = pids_of(pool)
    cpu, start = cpu_seconds(pids), time.perf_counter()
    await asyncio.gather(*(pool.decide("expert", o, s) for o, s in cases))
    tally.add(key, len(cases), time.perf_counter() - start, cpu_seconds(pids) - cpu)


async def one_at_a_time(
    pool: DecisionPool, cases: Sequence[Case], tally: Tally, key: object
) -> None:
    """One decision at a time (each may spread its worlds)."""
    pids = pids_of(pool)
    cpu, start = cpu_seconds(pids), time.perf_counter()
    for observation, seed in cases:
        await pool.decide("expert", observation, seed)
    tally.add(key, len(cases), time.perf_counter() - start, cpu_seconds(pids) - cpu)


async def warm(pool: DecisionPool, cases: Sequence[Case]) -> DecisionPool:
    """The pool with its processes started and their modules imported."""
    await asyncio.gather(*(pool.decide("expert", o, s) for o, s in cases[: pool.cores.count]))
    return pool


async def in_process(cases: Sequence[Case], kind: Kind, rounds: int) -> None:
    """Every configuration measured once a round, in turn, the best round of each kept (the
    load of other work on the machine comes and goes)."""
    modes = [(1, all_at_once), (2, all_at_once), (1, one_at_a_time), (2, one_at_a_time)]
    pools = {cores: await warm(DecisionPool(cores=cores, kind=kind), cases) for cores in (1, 2)}
    tally = Tally()
    try:
        for _ in range(rounds):
            for cores, mode in modes:
                await mode(pools[cores], cases, tally, (cores, mode))
    finally:
        for pool in pools.values():
            await pool.close()
    print(f"in process (DecisionPool, kind={kind}; best of {rounds} rounds):")
    tally.line("1 core, all at once", (1, all_at_once))
    tally.line("2 cores, all at once", (2, all_at_once), (1, all_at_once))
    tally.line("1 core, one at a time", (1, one_at_a_time))
    tally.line("2 cores, one at a time", (2, one_at_a_time), (1, one_at_a_time), ", spread")


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
        world = sample_worlds(observation, rng, 1)[0]
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
        for _ in range(200):  # the server listens before anyone connects
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        workers = [start_worker(urls[count]) for count in (1, 2, 2)]
        queues = {count: DecisionQueue(url) for count, url in urls.items()}
        tally = Tally()
        pids = [os.getpid(), server.pid, *(worker.pid for worker in workers)]
        try:
            for queue in queues.values():
                # Each worker imports and answers before the clock starts.
                await asyncio.gather(*(queue.decide("expert", o, s) for o, s in cases[:4]))
            for _ in range(rounds):
                for count, queue in queues.items():
                    cpu, start = cpu_seconds(pids), time.perf_counter()
                    await asyncio.gather(*(queue.decide("expert", o, s) for o, s in cases))
                    wall = time.perf_counter() - start
                    tally.add(count, len(cases), wall, cpu_seconds(pids) - cpu)
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
    tally.line("1 worker", 1)
    tally.line("2 workers", 2, 1)


async def club_waits(cases: Sequence[Case], club_cases: Sequence[Case], kind: Kind) -> None:
    async def club_latencies(decisions: Decisions) -> list[float]:
        times = []
        for observation, seed in club_cases:
            start = time.perf_counter()
            await decisions.decide("club", observation, seed)
            times.append(1000 * (time.perf_counter() - start))
            await asyncio.sleep(0.02)
        return sorted(times)

    decisions = Decisions(pool=await warm(DecisionPool(cores=2, kind=kind), cases))
    try:
        idle = await club_latencies(decisions)
        stop = asyncio.Event()
        expert_done = 0

        async def table(index: int) -> None:
            """An expert table: one decision after another until the club ones are done."""
            nonlocal expert_done
            while not stop.is_set():
                observation, seed = cases[(index + expert_done) % len(cases)]
                await decisions.decide("expert", observation, seed, client=f"t{index}")
                expert_done += 1

        tables = [asyncio.ensure_future(table(i)) for i in range(12)]
        await asyncio.sleep(0.2)
        busy = await club_latencies(decisions)
        stop.set()
        await asyncio.gather(*tables)
    finally:
        await decisions.close()

    def line(times: list[float]) -> str:
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        return (
            f"median {statistics.median(times):6.2f} ms  p99 {p99:6.2f} ms  max {times[-1]:6.2f} ms"
        )

    print(f"club decisions ({len(club_cases)}, one every 20 ms, pool of 2 cores, kind={kind}):")
    print(f"  pool idle               {line(idle)}")
    print(f"  12 expert tables        {line(busy)}  ({expert_done} expert decisions meanwhile)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=16)
    parser.add_argument("--preset", default="coinche")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-workers", action="store_true")
    parser.add_argument(
        "--only", choices=["pool", "workers", "club"], help="one of the three measures"
    )
    args = parser.parse_args()
    print(
        f"{platform.machine()}, Python {platform.python_version()}, "
        f"{len(os.sched_getaffinity(0))} cores, preset {args.preset}, {args.decisions} decisions"
    )
    cases = expert_cases(args.preset, args.decisions, args.seed)
    club_cases = expert_cases(args.preset, 100, args.seed + 1)
    calibrate(cases)
    kinds: list[Kind] = ["process", "thread"]
    if args.only in (None, "pool"):
        for kind in kinds:
            asyncio.run(in_process(cases, kind, args.rounds))
    if args.only == "workers" or (args.only is None and not args.skip_workers):
        asyncio.run(with_workers(cases, args.rounds))
    if args.only in (None, "club"):
        for kind in kinds:
            asyncio.run(club_waits(cases, club_cases, kind))
    calibrate(cases)


if __name__ == "__main__":
    main()
