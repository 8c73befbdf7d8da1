"""How long the commands take to start, timed as whole processes: ``cardavia --help``, and
``cardavia serve`` until it answers ``/healthz`` on the embedded default (SQLite) with an
existing database. Each is run several times and printed as minimum and median, wall clock and
CPU (user + system of the process and its children).

``--no-bytecode`` runs them as a machine without compiled bytecode does: Python is pointed at an
empty cache folder (``PYTHONPYCACHEPREFIX``), so every module is compiled again at each start,
as it was before the install compiled them (``make`` runs ``uv sync --compile-bytecode`` and
compiles ``src/``). Both ways in one run give the ratio on the same machine and load.

Run: ``uv run python bench/start.py [--runs 5] [--no-bytecode]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CARDAVIA = Path(sys.executable).parent / "cardavia"
READY_SECONDS = 120
"""The most a start may take before the run is called failed (a busy machine is slow)."""


@dataclass(frozen=True)
class Timing:
    """One run of a command: wall clock until it was ready, and its CPU seconds."""

    wall: float
    cpu: float


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def time_help(env: dict[str, str]) -> Timing:
    """``cardavia --help`` from start to exit."""
    before, start = children_cpu(), time.perf_counter()
    subprocess.run([str(CARDAVIA), "--help"], env=env, check=True, stdout=subprocess.DEVNULL)
    return Timing(time.perf_counter() - start, children_cpu() - before)


def time_serve(env: dict[str, str], database: Path) -> Timing:
    """``cardavia serve`` until ``/healthz`` answers ``ok``; the CPU is what the process spent
    until it was stopped right after."""
    port = free_port()
    env = {**env, "CARDAVIA_DATABASE_URL": f"sqlite:///{database}"}
    command = [str(CARDAVIA), "serve", "--host", "127.0.0.1", "--port", str(port)]
    before, start = children_cpu(), time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"serve stopped: {process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            if time.perf_counter() - start > READY_SECONDS:
                raise RuntimeError(f"serve did not answer in {READY_SECONDS} s")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    if r.read() == b"ok":
                        break
            except OSError:
                time.sleep(0.01)
        wall = time.perf_counter() - start
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return Timing(wall, children_cpu() - before)


def summary(name: str, timings: list[Timing]) -> str:
    walls = [t.wall for t in timings]
    cpus = [t.cpu for t in timings]
    return (
        f"{name:<34} wall min {min(walls):5.2f} s  median {statistics.median(walls):5.2f} s"
        f"   cpu min {min(cpus):5.2f} s  median {statistics.median(cpus):5.2f} s"
        f"   ({len(timings)} runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--no-bytecode", action="store_true", help="also time them without compiled bytecode"
    )
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cardavia-start-"))
    try:
        database = folder / "cardavia.db"
        ways: list[tuple[str, dict[str, str]]] = [("", dict(os.environ))]
        if options.no_bytecode:
            empty = folder / "no-bytecode"
            empty.mkdir()
            cold = {**os.environ, "PYTHONPYCACHEPREFIX": str(empty), "PYTHONDONTWRITEBYTECODE": "1"}
            ways.append((", no bytecode", cold))
        # The database exists before the timed runs: the first start makes it.
        time_serve(ways[0][1], database)
        runs: list[tuple[str, Callable[[dict[str, str]], Timing]]] = [
            ("cardavia --help", time_help),
            ("cardavia serve until /healthz", lambda env: time_serve(env, database)),
        ]
        for label, run in runs:
            for suffix, env in ways:
                timings = [run(env) for _ in range(options.runs)]
                print(summary(label + suffix, timings), flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
