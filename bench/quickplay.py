"""Quick play under a crowd: ``--people`` (2,000) people pressing "Play now" within
``--seconds`` (60), on the embedded default (one web process, SQLite).

The site runs as ``cardavia serve`` in a process of its own (a temporary SQLite file, no
other service); this script is the crowd: each person arrives at a random moment of the
minute, on one of the four rules presets, in one of the six languages, from an address of
their own (the site trusts the loopback as a proxy and reads ``X-Forwarded-For``: one
client's entries never share a table), joins the queue (``POST /api/quick/{preset}``: a
guest player made for them) and waits on its socket until seated. Printed:

- the time to be seated, from pressing "Play now" to the seat received (median, p99, max),
  for everybody, and for those seated before the wait was over (at a table of four: the last
  few of each preset sit down with computer players after the wait, ``--wait`` seconds);
- the queue's CPU: the web process's CPU seconds (user + system, from ``/proc``) over the
  run, per 1,000 joins — joining (the guest made, their rating, completion and blocks read),
  forming the tables, making each a room with its game dealt, telling the waiting people.

    python3 -m uv run python bench/quickplay.py --people 2000 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

PRESETS = ("cardavia", "maison", "coinche", "maghreb")
LANGUAGES = ("fr", "fr", "fr", "en", "ar", "ar", "pl", "hi", "es")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far, user and system (Linux's ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_site(folder: str, port: int, wait: float) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "CARDAVIA_DATABASE_URL": f"sqlite:///{folder}/bench.db",
        "CARDAVIA_QUICK_WAIT": str(wait),
        "CARDAVIA_QUICK_JOINS": "0",
        "CARDAVIA_CONNECTIONS_PER_ADDRESS": "0",
        "CARDAVIA_TRUSTED_PROXIES": "127.0.0.1",
    }
    env.pop("CARDAVIA_REDIS_URL", None)
    command = [sys.executable, "-c", "from cardavia.cli import app; app()", "serve"]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the site did not start")


def join(port: int, preset: str, lang: str, address: str, cookie: str | None = None) -> str:
    """Press "Play now" from ``address``: answers the player's cookie (a new guest's without
    ``cookie``)."""
    headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
    headers |= {"Cookie": cookie} if cookie else {}
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/quick/{preset}",
        data=json.dumps({"lang": lang}).encode(),
        headers=headers,
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return str(response.headers["set-cookie"].split(";")[0])


REJOINED: list[int] = [0]
"""How many times a person was dropped from the queue and joined again (as the page does)."""


async def person(port: int, at: float, start: float, rng: random.Random, address: str) -> float:
    """One person from ``address``: arrives at ``at`` seconds, presses "Play now", waits to be
    seated (joining again, as the page does, if dropped from the queue meanwhile); answers the
    seconds it took."""
    await asyncio.sleep(max(0.0, start + at - time.monotonic()))
    preset, lang = rng.choice(PRESETS), rng.choice(LANGUAGES)
    pressed = time.monotonic()
    cookie = await asyncio.to_thread(join, port, preset, lang, address)
    url = f"ws://127.0.0.1:{port}/ws/quick/{preset}?lang={lang}"
    for _ in range(3):
        async with connect(url, additional_headers={"Cookie": cookie}, open_timeout=60) as ws:
            async for text in ws:
                message = json.loads(text)
                if message["type"] == "seated":
                    return time.monotonic() - pressed
                if message["type"] == "error" and message["code"] != "not_waiting":
                    raise RuntimeError(message["message"])
        REJOINED[0] += 1
        await asyncio.to_thread(join, port, preset, lang, address, cookie)
    raise RuntimeError("never seated")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def crowd(port: int, people: int, seconds: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    arrivals = sorted(rng.uniform(0, seconds) for _ in range(people))
    start = time.monotonic()
    jobs = [
        person(port, at, start, random.Random(rng.random()), f"10.0.{n // 250}.{n % 250 + 1}")
        for n, at in enumerate(arrivals)
    ]
    return list(await asyncio.gather(*jobs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--people", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--wait", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="cardavia-bench-")
    port = free_port()
    site = start_site(folder, port, options.wait)
    try:
        before = cpu_seconds(site.pid)
        began = time.monotonic()
        times = asyncio.run(crowd(port, options.people, options.seconds, options.seed))
        elapsed = time.monotonic() - began
        cpu = cpu_seconds(site.pid) - before
    finally:
        site.terminate()
        site.wait(timeout=10)
    quick = [took for took in times if took < options.wait]
    print(f"quick play: {options.people} people pressing Play now over {options.seconds:g} s")
    print(f"  (one web process, SQLite; wait before computer players {options.wait:g} s)")
    print(f"  run: {elapsed:.1f} s")
    print(
        f"  seated before the wait was over: {len(quick)} people, median "
        f"{statistics.median(quick) * 1000:.0f} ms, p99 {percentile(quick, 0.99) * 1000:.0f} ms"
        if quick
        else "  nobody seated before the wait was over"
    )
    print(
        f"  everybody: median {statistics.median(times) * 1000:.0f} ms, "
        f"p99 {percentile(times, 0.99) * 1000:.0f} ms, max {max(times):.1f} s"
    )
    print(f"  dropped from the queue and joined again: {REJOINED[0]}")
    print(
        f"  the web process's CPU: {cpu:.1f} s, {cpu / options.people * 1000:.1f} s per 1,000 joins"
    )


if __name__ == "__main__":
    main()
