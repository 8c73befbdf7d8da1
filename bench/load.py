"""Load test of the site: N concurrent browser-like clients, each creating a game and playing
whole deals through the table's WebSocket as the page does (each next game dealt over the same
socket, the player's cookie kept as a browser keeps it), against a server this script
starts (one process: uvicorn, SQLite in a temporary folder; or ``--processes N`` joined by
``--database`` PostgreSQL and ``--redis``, each game created on one process and played
through the next), bounded in time and count.

Each client plays South with random legal actions; an action's latency is the time from
sending it to receiving the ``state`` it made. The computer players' pause is 0 when flat out
unless ``--ai-delay`` says otherwise (their thinking is then all that is left between two
South actions; the latency excludes it, since the action's state comes before they think). The
rate limits are turned off (every client comes from 127.0.0.1).

``--busy-clients N --busy-level expert`` adds N more clients at tables of another level,
measured apart: how much the search levels' thinking slows the club players down.
``--ai-workers N`` (with ``--redis``) starts N AI worker processes (``cardavia ai-worker``)
that decide the search levels' moves from the queue.

**At a person's pace** (``--think 2-4 --pace normal``): each client shows each change as the
table's page does (``--pace``: each move alone on the table for the page's pace, a finished
trick longer: ``static/js/table.js`` ``PACES``), then thinks 2 to 4 s before each of its actions
(a card, a bid, the next deal), so most tables are idle most of the time; the figure that
matters is then the server's CPU per table and second. The computer players then pause as on
the site (``CARDAVIA_AI_DELAY``'s default; ``--ai-delay 0.4-0.9`` instead adds the longer
pause the site once had).
``--client-processes N`` spreads the clients over N processes (one keeps up with about 2,000
tables at that pace) and sums their tallies.

Prints deals/s, action latency p50/p95/p99, errors, the frames and bytes a client receives
a deal, and the server's CPU (share of one core,
its pool's processes and the AI workers included; per table and second, per deal; the first
web process's split between its event loop's thread, its other threads and its pool, and the
kernel's part) and memory (resident, at the end). Run: ``uv run python bench/load.py
--clients 200 --seconds 30 --level club``, or at a person's pace ``uv run python
bench/load.py --clients 1000 --think 2-4 --pace normal --ramp 30 --seconds 60
--client-processes 2``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
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

from cardavia.live.settings import DEFAULT_AI_DELAY

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Tally:
    """What the clients saw."""

    deals: int = 0
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    cpu: float = 0.0
    """The client process's CPU seconds while measured (does the load client keep up?)."""
    frames: int = 0
    """The socket frames received (a batch is one)."""
    received: int = 0
    """Their bytes (the frames' payloads)."""

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def add(self, other: Tally) -> None:
        """Another client process's tally summed into this one."""
        self.deals += other.deals
        self.actions += other.actions
        self.latencies += other.latencies
        self.cpu += other.cpu
        self.frames += other.frames
        self.received += other.received
        for kind, count in other.errors.items():
            self.errors[kind] = self.errors.get(kind, 0) + count


PACES: dict[str, tuple[float, float]] = {
    "none": (0.0, 0.0),
    "slow": (0.95, 1.7),
    "normal": (0.52, 1.0),
    "fast": (0.22, 0.5),
}
"""How long the table's page shows each move alone, and a finished trick, s (its ``PACES``)."""


@dataclass
class Display:
    """The page's display of the views it is sent: each change shown for the pace's time
    before the next, as ``static/js/table.js`` ``pump`` does."""

    move: float
    hold: float
    free_at: float = 0.0
    previous: dict[str, Any] | None = None

    def show(self, view: dict[str, Any]) -> float:
        """When ``view`` is shown (now, or once the changes before it have been)."""
        shown = max(time.monotonic(), self.free_at)
        previous, self.previous = self.previous, view
        if previous is not None:
            if sum(view["tricks_won"].values()) > sum(previous["tricks_won"].values()):
                self.free_at = shown + self.hold
            elif len(view["trick"]) != len(previous["trick"]) or len(view["bids"]) != len(
                previous["bids"]
            ):
                self.free_at = shown + self.move
        return shown


def seconds_range(text: str) -> tuple[float, float]:
    """``2-4`` (a pause drawn between 2 and 4 s) or ``0`` (none)."""
    low, _, high = text.partition("-")
    return float(low), float(high or low)


async def think(rng: random.Random, options: argparse.Namespace, deadline: float) -> None:
    """A person's pause before an action (none when flat out), at most until the deadline."""
    low, high = options.think
    if high > 0:
        await asyncio.sleep(min(rng.uniform(low, high), max(0.0, deadline - time.monotonic())))


async def until(moment: float, deadline: float) -> None:
    """Wait until ``moment`` (the page showing a change), at most until the deadline."""
    await asyncio.sleep(max(0.0, min(moment, deadline) - time.monotonic()))


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


def user_and_system(stat: Path) -> tuple[float, float]:
    """The user and system CPU seconds in a /proc ``stat`` file (a process's or a thread's)."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its living descendants (Linux /proc)."""
    total = 0.0
    for member in family(pid):
        try:
            total += sum(user_and_system(Path(f"/proc/{member}/stat")))
        except OSError:
            continue
    return total


@dataclass(frozen=True)
class CpuSplit:
    """A web process's CPU seconds: its main thread's (the event loop), its other threads'
    (the writer's, the lookups'), its descendants' (the decision pool), and how much of the
    whole was the kernel's (sockets, wake-ups)."""

    loop: float = 0.0
    threads: float = 0.0
    children: float = 0.0
    system: float = 0.0

    def __sub__(self, other: CpuSplit) -> CpuSplit:
        return CpuSplit(
            self.loop - other.loop,
            self.threads - other.threads,
            self.children - other.children,
            self.system - other.system,
        )


def cpu_split(pid: int) -> CpuSplit:
    """:class:`CpuSplit` of a process now (Linux /proc: each thread's user and system ticks)."""
    loop = threads = children = system = 0.0
    for member in family(pid):
        tasks = Path(f"/proc/{member}/task").glob("*/stat") if member == pid else ()
        try:
            if member != pid:
                user, kernel = user_and_system(Path(f"/proc/{member}/stat"))
                children += user + kernel
                system += kernel
            for task in tasks:
                user, kernel = user_and_system(task)
                if task.parent.name == str(pid):
                    loop += user + kernel
                else:
                    threads += user + kernel
                system += kernel
        except OSError:
            continue
    return CpuSplit(loop, threads, children, system)


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


async def post_json(
    port: int, path: str, body: dict[str, Any]
) -> tuple[int, dict[str, Any], str | None]:
    """A minimal HTTP/1.1 POST (as the page's fetch), answering the status, the JSON and the
    player cookie it set (``name=value``), if any."""
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
    cookie = next(
        (
            line.split(b":", 1)[1].split(b";", 1)[0].strip().decode()
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"set-cookie:")
        ),
        None,
    )
    return status, json.loads(payload or b"{}"), cookie


async def client(
    number: int,
    ports: list[int],
    options: argparse.Namespace,
    deadline: float,
    tally: Tally,
    level: str,
) -> None:
    """One player: create a game, play its deals until the deadline (or the count), each next
    game dealt over the open socket as the page asks for it (``again``), the player's cookie
    kept as a browser keeps it. With several processes, the game is created on one and
    played through the next."""
    rng = random.Random(number)
    port, play_port = ports[number % len(ports)], ports[(number + 1) % len(ports)]
    await asyncio.sleep(rng.uniform(0, options.ramp))
    cookie: str | None = None
    while time.monotonic() < deadline and tally.deals < options.max_deals:
        try:
            status, game, given = await post_json(
                port, "/api/games", {"rules": options.rules, "level": level}
            )
            cookie = given or cookie
            if status != 201:
                tally.error(f"create {status}")
                await asyncio.sleep(1)
                continue
            url = (
                f"ws://127.0.0.1:{play_port}/ws/games/{game['game']}?token={game['token']}&lang=fr"
                f"&protocol={options.protocol}"
            )
            # No pings from the client, as a browser (the server's own keep the connection).
            origin: Any = f"http://127.0.0.1:{play_port}"
            headers = {"Cookie": cookie} if cookie else None
            async with connect(
                url, origin=origin, ping_interval=None, additional_headers=headers
            ) as ws:
                if await play_game(ws, rng, deadline, options, tally):
                    return
        except (OSError, WebSocketException, ValueError) as error:
            tally.error(type(error).__name__)
            await asyncio.sleep(0.5)


@dataclass
class Received:
    """The views as the table page receives them: whole, or (``--protocol 2``, the page's)
    a change applied to the view received last (docs/web.md, "Changes as changes")."""

    view: dict[str, Any] | None = None
    version: int | None = None

    def messages(self, text: str | bytes) -> list[dict[str, Any]]:
        """A frame's messages: one, or a batch's in order."""
        data = json.loads(text)
        return data if isinstance(data, list) else [data]

    def view_of(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The view a ``state`` or a ``change`` brings (``None``: none, or a change that
        does not follow the version held: the page then asks for the whole view)."""
        if message["type"] == "state":
            self.view, self.version = message["view"], message.get("version")
        elif message["type"] == "change":
            if self.view is None or message["since"] != self.version:
                return None
            kept = {k: v for k, v in self.view.items() if k not in message["unset"]}
            self.view, self.version = kept | message["set"], message["version"]
        else:
            return None
        return self.view


async def play_game(
    ws: Any, rng: random.Random, deadline: float, options: argparse.Namespace, tally: Tally
) -> bool:
    """Play the socket's games, deal after deal, each next game dealt over it; answers
    whether the run is over."""
    received = Received()
    pending: list[dict[str, Any]] = []
    sent_at: float | None = None
    sent_step = -1
    display = Display(*PACES[options.pace])
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or tally.deals >= options.max_deals:
            return True
        if not pending:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=min(remaining, options.stall))
            except TimeoutError:
                if time.monotonic() < deadline:
                    tally.error("stalled")
                return time.monotonic() >= deadline
            pending = received.messages(text)
            tally.frames += 1
            tally.received += len(text)
        message = pending.pop(0)
        if message["type"] == "game":
            continue  # the next game's: its state follows
        if message["type"] == "error":
            tally.error(message["code"])
            sent_at = None
            await ws.send(json.dumps({"type": "sync"}))
            continue
        view = received.view_of(message)
        if view is None:
            if message["type"] == "change":  # behind: the whole view again
                tally.error("behind")
                await ws.send(json.dumps({"type": "sync"}))
            continue
        shown = display.show(view)
        if sent_at is not None and view["step"] > sent_step:
            tally.latencies.append(time.perf_counter() - sent_at)
            tally.actions += 1
            sent_at = None
        if view["phase"] in ("over", "cancelled"):
            if sent_at is not None:
                continue
            tally.deals += 1
            await until(shown, deadline)
            await think(rng, options, deadline)
            if view["next_deal"]:
                await ws.send(json.dumps({"type": "next_deal"}))
            else:  # the game is over: the next one, over the same socket
                await ws.send(json.dumps({"type": "again", "game": view["game"]}))
            continue
        if view["to_move"] == "S" and view["legal"] and sent_at is None:
            await until(shown, deadline)
            await think(rng, options, deadline)
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
    return listening(subprocess.Popen(command, env=env), port)


def listening(server: subprocess.Popen[bytes], port: int) -> subprocess.Popen[bytes]:
    """``server`` once it listens on ``port`` (within 60 s: a busy machine takes a while to
    import the site); killed, and the run stopped, otherwise."""
    for _ in range(1200):
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
    if deals:
        print(
            f"received: {tally.frames / deals:.1f} frames a deal, "
            f"{tally.received / deals / 1000:.1f} kB a deal"
        )


async def play_clients(
    share: int, ports: list[int], options: argparse.Namespace, start: float
) -> tuple[Tally, Tally]:
    """Client process ``share``'s clients (every ``--client-processes``-th one, of both
    groups), from ``start`` to the end of the run: what they saw after the ramp."""
    tally, busy = Tally(), Tally()
    deadline = start + options.ramp + options.seconds
    step = options.client_processes
    tasks = [
        asyncio.create_task(client(number, ports, options, deadline, tally, options.level))
        for number in range(share, options.clients, step)
    ]
    tasks += [
        asyncio.create_task(
            client(options.clients + n, ports, options, deadline, busy, options.busy_level)
        )
        for n in range(share, options.busy_clients, step)
    ]
    # Measure after the ramp: every client is playing then.
    await asyncio.sleep(max(0.0, start + options.ramp - time.monotonic()))
    deals0, busy0, cpu0 = tally.deals, busy.deals, time.process_time()
    frames0, received0 = tally.frames, tally.received
    tally.latencies.clear()
    busy.latencies.clear()
    await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
    tally.cpu = time.process_time() - cpu0
    tally.deals -= deals0
    tally.frames -= frames0
    tally.received -= received0
    busy.deals -= busy0
    for task in tasks:
        task.cancel()
    return tally, busy


def client_process(
    share: int, ports: list[int], options: argparse.Namespace, start: float, results: Any
) -> None:
    """A client process: its share of the clients, its tallies sent back."""
    results.put(asyncio.run(play_clients(share, ports, options, start)))


async def run(ports: list[int], pids: list[int], options: argparse.Namespace) -> None:
    start = time.monotonic()  # the same clock in every process (CLOCK_MONOTONIC)
    measured: asyncio.Future[Any]
    if options.client_processes > 1:
        spawn = multiprocessing.get_context("spawn")
        results: Any = spawn.Queue()
        children = [
            spawn.Process(target=client_process, args=(share, ports, options, start, results))
            for share in range(options.client_processes)
        ]
        for child in children:
            child.start()
        measured = asyncio.get_running_loop().run_in_executor(
            None, lambda: [results.get() for _ in children]
        )
    else:
        measured = asyncio.gather(play_clients(0, ports, options, start))
    await asyncio.sleep(max(0.0, start + options.ramp - time.monotonic()))
    cpu0, wall0 = sum(map(cpu_seconds, pids)), time.monotonic()
    split0 = cpu_split(pids[0])
    await asyncio.sleep(max(0.0, start + options.ramp + options.seconds - time.monotonic()))
    elapsed = time.monotonic() - wall0
    cpu = sum(map(cpu_seconds, pids)) - cpu0
    split = cpu_split(pids[0]) - split0
    outcome = await measured
    tally, busy = Tally(), Tally()
    for mine, theirs in outcome:
        tally.add(mine)
        busy.add(theirs)
    low, high = options.think
    pace = f"think {low:g}-{high:g} s, page's pace {options.pace}, " if high else ""
    print(
        f"{options.clients} clients, {options.level} tables ({options.rules}), {pace}AI pause "
        f"{options.ai_delay} s, {len(ports)} web process(es), {options.ai_workers} AI "
        f"worker(s), {options.client_processes} client process(es), {elapsed:.1f} s "
        f"measured after a {options.ramp:g} s ramp"
    )
    report(options.level, tally, tally.deals, elapsed)
    if options.busy_clients:
        print(f"and {options.busy_clients} clients at {options.busy_level} tables:")
        report(options.busy_level, busy, busy.deals, elapsed)
    tables, deals = options.clients + options.busy_clients, tally.deals + busy.deals
    print(
        f"server: {cpu / elapsed * 100:.0f} % of one core, "
        f"{sum(map(resident_mib, pids)):.0f} MiB resident; load average "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; the load client "
        f"{tally.cpu / elapsed * 100:.0f} % of one core"
    )
    whole = split.loop + split.threads + split.children
    if whole > 0:
        print(
            f"the first web process's CPU: its event loop's thread {split.loop / whole:.0%}, "
            f"its other threads {split.threads / whole:.0%} (the writer's, the lookups'), "
            f"its pool {split.children / whole:.0%}; the kernel's part {split.system / whole:.0%}"
        )
    actions = len(tally.latencies) + len(busy.latencies)
    print(
        f"server CPU: {cpu * 1000 / tables / elapsed:.3f} ms per table per second, "
        f"{cpu * 1000 / deals if deals else float('nan'):.1f} ms per deal, "
        f"{cpu * 1000 / actions if actions else float('nan'):.2f} ms per action by South "
        "(the computer players' answers included)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured, after the ramp")
    parser.add_argument("--ramp", type=float, default=5.0, help="clients start over this time")
    parser.add_argument("--max-deals", type=int, default=100_000, help="stop after this many")
    parser.add_argument("--level", default="club")
    parser.add_argument("--rules", default="cardavia")
    parser.add_argument(
        "--protocol",
        choices=("1", "2"),
        default="2",
        help="the socket's protocol: 2, the page's (changes, batches), or 1 (whole views)",
    )
    parser.add_argument(
        "--ai-delay",
        help="the computer players' pause, s (flat out 0; at a person's pace the site's own)",
    )
    parser.add_argument("--stall", type=float, default=20.0, help="a table silent this long")
    parser.add_argument("--database", help="a database URL instead of a temporary SQLite")
    parser.add_argument("--processes", type=int, default=1, help="web processes to start")
    parser.add_argument("--redis", help="a Redis URL joining the processes (with --database)")
    parser.add_argument("--server", help="PORT:PID of a server already running (not started)")
    parser.add_argument("--busy-clients", type=int, default=0, help="more clients, apart")
    parser.add_argument("--busy-level", default="expert", help="the level of their tables")
    parser.add_argument("--ai-workers", type=int, default=0, help="AI worker processes")
    parser.add_argument(
        "--think", type=seconds_range, default=(0.0, 0.0), help="a client's pause, s: 2-4"
    )
    parser.add_argument(
        "--client-processes", type=int, default=1, help="processes the clients are spread on"
    )
    parser.add_argument(
        "--pace", choices=sorted(PACES), default="none", help="the page's display of each move"
    )
    options = parser.parse_args()
    if options.ai_delay is None:
        site_pause = "-".join(f"{part:g}" for part in DEFAULT_AI_DELAY)
        options.ai_delay = site_pause if options.think[1] > 0 else "0"
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
