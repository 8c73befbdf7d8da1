"""The serving stack alone, at a person's pace: what the site's WebSocket traffic costs the
server with nothing of the game in it.

A FastAPI WebSocket route served by uvicorn as the site is (uvloop, no deflate) answers each
message of a client with ``--answers`` messages of ``--size`` bytes, all at once; ``--clients``
connections each send a message every ``--every`` seconds on average (drawn between half and
one and a half of it). At the single-player table a deal is 9 such messages of the person's
(bids, cards, the next game) and some 35 views sent back (``bench/deal_parts.py``), one every
4.6 s of a table at ``bench/load.py --think 2-4 --pace normal``: the defaults. The answers go
out together here, the cheapest way (the site sends the computer players' moves on their
beats, ``--spread 0.1``): together, the figure is a floor.

Prints the server's CPU (user and system, from ``/proc``) per message with its answers, per
table and second, and per deal (9 messages). Run: ``uv run python bench/socket_floor.py
[--clients N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import time

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from load import cpu_seconds, free_port, listening
from websockets.asyncio.client import connect

MESSAGES_A_DEAL = 9
"""The person's messages in a deal at the single-player table (bench/load.py: 11,534 actions
by South in 1,311 deals)."""

app = FastAPI()


@app.websocket("/ws")
async def answer(websocket: WebSocket) -> None:
    """Each message answered with the asked number of texts of the asked size."""
    await websocket.accept()
    answers = int(websocket.query_params.get("answers", "4"))
    spread = float(websocket.query_params.get("spread", "0"))
    text = json.dumps({"type": "state", "view": "x" * int(websocket.query_params["size"])})
    try:
        while True:
            await websocket.receive_text()
            for number in range(answers):
                if number and spread:
                    await asyncio.sleep(spread)
                await websocket.send_text(text)
    except WebSocketDisconnect:
        pass


def start_server(port: int) -> subprocess.Popen[bytes]:
    """This module's app on uvicorn, as ``bench/load.py`` starts the site."""
    return listening(subprocess.Popen([sys.executable, __file__, "--serve", str(port)]), port)


async def client(
    url: str, options: argparse.Namespace, rng: random.Random, start: float, sent: list[int]
) -> None:
    """One connection: a message now and then, its answers read; the messages sent from
    ``start`` on counted."""
    message = json.dumps({"type": "action", "action": {"kind": "play", "card": "JH"}})
    async with connect(url, ping_interval=None, max_size=None) as ws:
        while time.monotonic() < start + options.seconds:
            await asyncio.sleep(options.every * rng.uniform(0.5, 1.5))
            await ws.send(message)
            if time.monotonic() >= start:
                sent[0] += 1
            for _ in range(options.answers):
                await ws.recv()


async def run(options: argparse.Namespace, port: int, pid: int) -> tuple[int, float]:
    """Every client, ramped up; answers the messages sent and the server's CPU while
    measured."""
    rng = random.Random(options.seed)
    query = f"answers={options.answers}&size={options.size}&spread={options.spread}"
    url = f"ws://127.0.0.1:{port}/ws?{query}"
    start = time.monotonic() + options.ramp
    sent = [0]
    tasks = []
    for _ in range(options.clients):
        tasks.append(
            asyncio.create_task(client(url, options, random.Random(rng.random()), start, sent))
        )
        await asyncio.sleep(options.ramp / options.clients)
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    before = cpu_seconds(pid)
    await asyncio.sleep(options.seconds)
    cpu = cpu_seconds(pid) - before
    await asyncio.gather(*tasks, return_exceptions=True)
    return sent[0], cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured, after the ramp")
    parser.add_argument("--ramp", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=4.6, help="mean seconds between messages")
    parser.add_argument("--answers", type=int, default=4, help="messages sent back for each")
    parser.add_argument("--size", type=int, default=3000, help="bytes of each answer")
    parser.add_argument(
        "--spread", type=float, default=0.0, help="seconds between two answers (0: together)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve is not None:
        uvicorn.run(
            app,
            host="127.0.0.1",
            port=options.serve,
            log_level="warning",
            access_log=False,
            ws_per_message_deflate=False,
        )
        return
    port = free_port()
    server = start_server(port)
    try:
        sent, cpu = asyncio.run(run(options, port, server.pid))
    finally:
        server.terminate()
        server.wait()
    per_message = cpu / max(sent, 1)
    print(
        f"{options.clients} connections, a message every {options.every} s each, "
        f"{options.answers} answers of {options.size} bytes to each"
        + (f", {options.spread} s apart" if options.spread else ", together")
        + f"; {options.seconds:.0f} s measured"
    )
    print(f"messages: {sent} ({sent / options.seconds:.0f}/s); server: {cpu:.2f} s of CPU")
    print(
        f"server CPU: {1e3 * per_message:.3f} ms per message and its answers, "
        f"{1e3 * cpu / options.seconds / options.clients:.3f} ms per table per second, "
        f"{1e3 * per_message * MESSAGES_A_DEAL:.1f} ms per deal ({MESSAGES_A_DEAL} messages)"
    )


if __name__ == "__main__":
    main()
