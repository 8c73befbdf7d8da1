"""Run every benchmark and collect their figures in one generated file, ``docs/benchmarks.md``,
headed by the machine (CPU model, cores, Python) and the date: the README links it rather
than carry figures that go stale by hand.

Each script still prints its own figures (they are shown as they come, then written to the
file as printed). ``--quick`` runs each on a tiny size, to check the collection itself (its
figures mean nothing); ``--only deals,solver`` runs some of them; ``--output`` writes
elsewhere. Run: ``make bench`` or ``uv run python bench/collect.py [--quick]``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Bench:
    """One benchmark: its script, the arguments of the full run and of a tiny one."""

    name: str
    script: str
    full: tuple[str, ...]
    quick: tuple[str, ...]


HUMAN_PACE = (
    "--think",
    "2-4",
    "--pace",
    "normal",
    "--ai-delay",
    "0.05-0.1",
    "--client-processes",
    "2",
)

BENCHES = (
    Bench("deals", "deals.py", (), ("--seconds", "0.2")),
    Bench("solver", "solver.py", (), ("--deals", "2", "--playouts", "20000")),
    Bench(
        "decisions",
        "decisions.py",
        (),
        ("--deals", "1", "--levels", "beginner,club"),
    ),
    Bench("card_play", "card_play.py", (), ("--deals", "1", "--levels", "club,strong")),
    Bench(
        "ai_workers",
        "ai_workers.py",
        (),
        ("--decisions", "2", "--rounds", "1", "--skip-workers"),
    ),
    Bench("analysis", "analysis.py", (), ("--deals", "1")),
    Bench("start", "start.py", ("--no-bytecode",), ("--runs", "1")),
    Bench("first_visit", "first_visit.py", (), ()),
    Bench("table_drawing", "table_drawing.py", (), ("--deals", "1")),
    Bench("actions", "actions.py", (), ("--deals", "5")),
    Bench("deal_parts", "deal_parts.py", (), ("--deals", "5")),
    Bench(
        "socket_floor", "socket_floor.py", (), ("--clients", "20", "--seconds", "2", "--ramp", "1")
    ),
    Bench(
        "load",
        "load.py",
        ("--clients", "200", "--seconds", "30", "--level", "club"),
        ("--clients", "5", "--seconds", "2", "--ramp", "1"),
    ),
    Bench(
        "load_human_paced",
        "load.py",
        ("--clients", "1000", "--seconds", "60", "--ramp", "40", *HUMAN_PACE),
        ("--clients", "20", "--seconds", "3", "--ramp", "1", *HUMAN_PACE),
    ),
    Bench(
        "quickplay",
        "quickplay.py",
        ("--people", "2000", "--seconds", "60"),
        ("--people", "40", "--seconds", "3", "--wait", "1"),
    ),
    Bench("tournaments", "tournaments.py", (), ("--players", "200", "--calls", "20")),
    Bench(
        "friends",
        "friends.py",
        ("--players", "1000", "--friends", "20", "--seconds", "60"),
        ("--players", "20", "--friends", "4", "--seconds", "2", "--poll", "1"),
    ),
)


def cpu_model() -> str:
    """The CPU's model name (Linux /proc/cpuinfo), or what the platform says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def commit() -> str:
    """The checked-out commit (short), with ``+`` when the tree has changes; ``?`` outside git."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "?"
    return (head or "?") + ("+" if dirty else "")


def machine() -> str:
    """The machine the figures were measured on, in one line."""
    cores = len(os.sched_getaffinity(0))
    return (
        f"{cpu_model()}, {cores} cores, {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}"
    )


def run(bench: Bench, quick: bool) -> tuple[list[str], str, float, int]:
    """Run one benchmark, echoing its output as it comes: its command, output, time, status."""
    arguments = bench.quick if quick else bench.full
    command = ["python", f"bench/{bench.script}", *arguments]
    print(f"$ {' '.join(command)}", flush=True)
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, *command[1:]],
        cwd=ROOT,
        stdout=subprocess.PIPE,  # the figures; what goes to stderr stays on the terminal
        text=True,
    )
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        print(line, end="", flush=True)
        lines.append(line)
    status = process.wait()
    return command, "".join(lines), time.monotonic() - started, status


def section(bench: Bench, command: list[str], output: str, seconds: float, status: int) -> str:
    """One benchmark's part of the file: what it measures, how it was run, what it printed."""
    doc = (ROOT / "bench" / bench.script).read_text(encoding="utf-8")
    summary = doc.split('"""', 2)[1].split("\n\n", 1)[0].replace("\n", " ").strip()
    failed = f", **failed with status {status}**" if status else ""
    return (
        f"## {bench.name}\n\n{summary}\n\n`{' '.join(command)}` ({seconds:.0f} s{failed}):\n\n"
        f"```text\n{output.rstrip()}\n```\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny runs: checks the collection")
    parser.add_argument("--only", help="some of: " + ",".join(b.name for b in BENCHES))
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "benchmarks.md")
    options = parser.parse_args()
    names = options.only.split(",") if options.only else [b.name for b in BENCHES]
    unknown = set(names) - {b.name for b in BENCHES}
    if unknown:
        parser.error(f"no such benchmark: {', '.join(sorted(unknown))}")
    now = datetime.datetime.now(datetime.UTC)
    quick = "**A quick run (`--quick`): tiny sizes, the figures mean nothing.**\n"
    head = (
        "# Benchmark figures\n\n"
        "Generated by `make bench` (`bench/collect.py`): do not edit by hand, run it again.\n"
        f"{quick if options.quick else ''}\n- machine: {machine()}\n"
        f"- date: {now:%Y-%m-%d %H:%M} UTC, commit {commit()}\n"
        f"- load average at the start: {os.getloadavg()[0]:.2f}\n"
    )
    sections = []
    failures = 0
    for bench in BENCHES:
        if bench.name in names:
            command, output, seconds, status = run(bench, options.quick)
            failures += status != 0
            sections.append(section(bench, command, output, seconds, status))
    options.output.write_text("\n".join([head, *sections]), encoding="utf-8")
    print(f"written: {options.output}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
