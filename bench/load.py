"""Load test of the site: N concurrent browser-like clients, each creating a game and playing
whole deals through the table's WebSocket as the page does, against a server this script
starts (one process: uvicorn, SQLite in a temporary folder; or ``--processes N`` joined by
``--database`` PostgreSQL and ``--redis``, each game created on one process and played
through the next), bounded in time and count.

Each client plays South with random legal actions; an action's latency is the time from
sending it to receiving the ``state`` it made. The computer players' pause is 0 unless
``--ai-delay`` says otherwise (their thinking is then all that is left between two South
actions; the latency excludes it, since the action's state comes before they think). The
rate limits are turned off (every client comes from 127.0.0.1).

``--busy-clients N --busy-level expert`` adds N more clients at tables of another level,
measured apart: how much the search levels' thinking slows the club players down.
``--ai-workers N`` (with ``--redis``) starts N AI worker processes (``cardavia ai-worker``)
that decide the search levels' moves from the queue.

Prints deals/s, action latency p50/p95/p99, errors, and the server's CPU (share of one core,
its pool's processes and the AI workers included) and memory (resident, at the end). Run:
``uv run python bench/load.py --clients 200 --seconds 30 --level club``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Tally:
    """What the clients saw."""

    deals: int = 0
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def family(pid: int) -> list[int]:
    """A process and its living descendants (the decision pool's processes), Linux /proc."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        for children in Path(f"/proc/{current}/task").glob("*/children"):
            try:
                queue += [int(child) for child in children.read_text().split()]
            except OSError:
                continue
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its living descendants (Linux /proc)."""
    total = 0.0
    for member in family(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


def resident_mib(pid: int) -> float:
    """Resident memory of a process and its living descendants, MiB."""
    total = 0.0
    for member in family(pid):
        try:
            lines = Path(f"/proc/{member}/status").read_text().splitlines()
        except OSError:
            continue
        total += sum(int(line.split()[1]) / 1024 for line in lines if line.startswith("VmRSS:"))
    return total


async def post_json(port: int, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A minimal HTTP/1.1 POST (as the page's fetch), answering the status and the JSON."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode()
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Origin: http://127.0.0.1:{port}\r\nContent-Length: {len(data)}\r\n"
        "Connection: close\r\n\r\n".encode()
        + data
    )
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(payload or b"{}")


async def client(
    number: int,
    ports: list[int],
    options: argparse.Namespace,
    deadline: float,
    tally: Tally,
    level: str,
) -> None:
    """One player: create a game, play its deals until the deadline (or the count). With
    several processes, the game is created on one and played through the next."""
    rng = random.Random(number)
    port, play_port = ports[number % len(ports)], ports[(number + 1) % len(ports)]
    await asyncio.sleep(rng.uniform(0, options.ramp))
    while time.monotonic() < deadline and tally.deals < options.max_deals:
        try:
            status, game = await post_json(
                port, "/api/games", {"rules": options.rules, "level": level}
            )
            if status != 201:
                tally.error(f"create {status}")
                await asyncio.sleep(1)
                continue
            url = (
                f"ws://127.0.0.1:{play_port}/ws/games/{game['game']}?token={game['token']}&lang=fr"
            )
            async with connect(url, origin=f"http://127.0.0.1:{play_port}") as ws:  # type: ignore[arg-type]
                if await play_game(ws, rng, deadline, options, tally):
                    return
        except (OSError, WebSocketException, ValueError) as error:
            tally.error(type(error).__name__)
            await asyncio.sleep(0.5)


async def play_game(
    ws: Any, rng: random.Random, deadline: float, options: argparse.Namespace, tally: Tally
) -> bool:
    """Play a game's deals; answers whether the run is over."""
    sent_at: float | None = None
    sent_step = -1
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or tally.deals >= options.max_deals:
            return True
        try:
            text = await asyncio.wait_for(ws.recv(), timeout=min(remaining, options.stall))
        except TimeoutError:
            if time.monotonic() < deadline:
                tally.error("stalled")
            return time.monotonic() >= deadline
        message = json.loads(text)
        if message["type"] == "error":
            tally.error(message["code"])
            sent_at = None
            await ws.send(json.dumps({"type": "sync"}))
            continue
        view = message["view"]
        if sent_at is not None and view["step"] > sent_step:
            tally.latencies.append(time.perf_counter() - sent_at)
            tally.actions += 1
            sent_at = None
        if view["phase"] in ("over", "cancelled"):
            if sent_at is not None:
                continue
            tally.deals += 1
            if view["next_deal"]:
                await ws.send(json.dumps({"type": "next_deal"}))
                continue
            return False  # the game is over: a new one
        if view["to_move"] == "S" and view["legal"] and sent_at is None:
            sent_step = view["step"]
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "action": rng.choice(view["legal"])}))


def start_server(port: int, folder: str, options: argparse.Namespace) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "CARDAVIA_DATABASE_URL": options.database or f"sqlite:///{folder}/load.db",
        "CARDAVIA_AI_DELAY": options.ai_delay,
        "CARDAVIA_GAMES_PER_MINUTE": "0",
        "CARDAVIA_MESSAGES_PER_SECOND": "0",
        "CARDAVIA_AI_PER_CLIENT": "0",
    }
    if options.redis:
        env["CARDAVIA_REDIS_URL"] = options.redis
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "cardavia.web.app:create_app",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--no-access-log",
        "--ws-per-message-deflate",
        "false",
    ]
    server = subprocess.Popen(command, env=env)
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit("the server did not start")


def start_ai_worker(options: argparse.Namespace) -> subprocess.Popen[bytes]:
    """An AI worker process on the Redis queue, one decision at a time."""
    command = [sys.executable, "-m", "cardavia.cli", "ai-worker", "--redis-url", options.redis]
    return subprocess.Popen([*command, "--jobs", "1"], stderr=subprocess.DEVNULL)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(level: str, tally: Tally, deals: int, elapsed: float) -> None:
    """One group of clients' figures."""
    ms = [latency * 1000 for latency in tally.latencies]
    print(f"{level} deals: {deals} ({deals / elapsed:.2f} deals/s), actions by South: {len(ms)}")
    print(
        f"action latency: p50 {percentile(ms, 0.50):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, "
        f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms, default=float('nan')):.1f} ms"
    )
    print(f"errors: {sum(tally.errors.values())} {tally.errors or ''}".rstrip())


async def run(ports: list[int], pids: list[int], options: argparse.Namespace) -> None:
    tally, busy = Tally(), Tally()
    start = time.monotonic()
    deadline = start + options.ramp + options.seconds
    tasks = [
        asyncio.create_task(client(number, ports, options, deadline, tally, options.level))
        for number in range(options.clients)
    ]
    tasks += [
        asyncio.create_task(
            client(options.clients + n, ports, options, deadline, busy, options.busy_level)
        )
        for n in range(options.busy_clients)
    ]
    # Measure after the ramp: every client is playing then.
    await asyncio.sleep(options.ramp)
    deals0, busy0 = tally.deals, busy.deals
    cpu0, wall0 = sum(map(cpu_seconds, pids)), time.monotonic()
    tally.latencies.clear()
    busy.latencies.clear()
    await asyncio.wait(tasks, timeout=options.seconds + options.stall + 5)
    for task in tasks:
        task.cancel()
    elapsed = time.monotonic() - wall0
    cpu = sum(map(cpu_seconds, pids)) - cpu0
    print(
        f"{options.clients} clients, {options.level} tables ({options.rules}), AI pause "
        f"{options.ai_delay} s, {len(ports)} web process(es), {options.ai_workers} AI "
        f"worker(s), {elapsed:.1f} s measured after a {options.ramp:g} s ramp"
    )
    report(options.level, tally, tally.deals - deals0, elapsed)
    if options.busy_clients:
        print(f"and {options.busy_clients} clients at {options.busy_level} tables:")
        report(options.busy_level, busy, busy.deals - busy0, elapsed)
    print(
        f"server: {cpu / elapsed * 100:.0f} % of one core, "
        f"{sum(map(resident_mib, pids)):.0f} MiB resident; load average "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured, after the ramp")
    parser.add_argument("--ramp", type=float, default=5.0, help="clients start over this time")
    parser.add_argument("--max-deals", type=int, default=100_000, help="stop after this many")
    parser.add_argument("--level", default="club")
    parser.add_argument("--rules", default="cardavia")
    parser.add_argument("--ai-delay", default="0", help="the computer players' pause, s")
    parser.add_argument("--stall", type=float, default=20.0, help="a table silent this long")
    parser.add_argument("--database", help="a database URL instead of a temporary SQLite")
    parser.add_argument("--processes", type=int, default=1, help="web processes to start")
    parser.add_argument("--redis", help="a Redis URL joining the processes (with --database)")
    parser.add_argument("--server", help="PORT:PID of a server already running (not started)")
    parser.add_argument("--busy-clients", type=int, default=0, help="more clients, apart")
    parser.add_argument("--busy-level", default="expert", help="the level of their tables")
    parser.add_argument("--ai-workers", type=int, default=0, help="AI worker processes")
    options = parser.parse_args()
    if options.server:
        port, pid = (int(part) for part in options.server.split(":"))
        asyncio.run(run([port], [pid], options))
        return
    if options.processes > 1 and not (options.redis and options.database):
        parser.error("several processes need --database (PostgreSQL) and --redis")
    if options.ai_workers and not options.redis:
        parser.error("AI workers need --redis")
    ports = [free_port() for _ in range(options.processes)]
    with tempfile.TemporaryDirectory() as folder:
        servers = [start_server(port, folder, options) for port in ports]
        servers += [start_ai_worker(options) for _ in range(options.ai_workers)]
        try:
            asyncio.run(run(ports, [server.pid for server in servers], options))
        finally:
            for server in servers:
                server.send_signal(signal.SIGINT)
            for server in servers:
                try:
                    server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    server.kill()


if __name__ == "__main__":
    main()
