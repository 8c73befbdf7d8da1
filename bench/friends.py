"""What friends cost the site (docs/players.md, "Friends"): ``--players`` players, each with
``--friends`` friends, each with one page open, as the pages do — a word every ``--poll``
seconds (``POST /api/friends/news``: where the page is, the invitations heard) and, every
third word, the friends list with where each friend is (``GET /api/friends``: the friends
page, a room's invitations) — against a real server (uvicorn, ``cardavia.web.app``) on a
SQLite database made for the run.

Prints the words and lists answered per second, their latency, and the server's CPU per
request and in all (Linux /proc: the server process and its children), over the run's
steady part (after one poll period, when every page has started).

    python bench/friends.py --players 1000 --friends 20 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime

from load import cpu_seconds, free_port, listening, percentile
from sqlalchemy import insert

from cardavia.store.db import GameStore
from cardavia.store.friends import FriendRow

PLACES = ("online", "table", "online", "tournament")


def make_players(database: str, players: int, friends: int) -> list[str]:
    """``players`` guests, each the friend of the ``friends / 2`` next ones and of the as many
    before (so ``friends`` friends each): their tokens."""
    store = GameStore(database)
    tokens = [secrets.token_urlsafe(24) for _ in range(players)]
    ids = [store.players.create(token).id for token in tokens]
    moment = datetime.now(UTC)
    rows = [
        {"asker_id": ids[i], "asked_id": ids[(i + k) % players], "asked_at": moment,
         "accepted_at": moment}
        for i in range(players)
        for k in range(1, friends // 2 + 1)
    ]  # fmt: skip
    with store.engine.begin() as connection:
        connection.execute(insert(FriendRow), rows)
    store.close()
    return tokens


async def request(port: int, method: str, path: str, token: str, body: object = None) -> int:
    """One HTTP/1.1 request as the page's fetch makes it (its player's cookie): its status."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = b"" if body is None else json.dumps(body).encode()
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Origin: http://127.0.0.1:{port}\r\nCookie: cardavia_player={token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        "Connection: close\r\n\r\n"
    )
    writer.write(head.encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    return int(raw.split(b" ", 2)[1])


class Tally:
    def __init__(self) -> None:
        self.words: list[float] = []
        self.lists: list[float] = []
        self.errors = 0


async def page(port: int, token: str, options: argparse.Namespace, tally: Tally,
               steady: float, deadline: float, rng: random.Random) -> None:  # fmt: skip
    """One player's open page: a word every poll, the friends list every third."""
    await asyncio.sleep(rng.uniform(0, options.poll))
    count = 0
    while time.monotonic() < deadline:
        began = time.monotonic()
        body = {"where": rng.choice(PLACES), "lang": "fr"}
        status = await request(port, "POST", "/api/friends/news", token, body)
        kept = tally.words
        if count % 3 == 0 and status == 200:
            status = await request(port, "GET", "/api/friends?lang=fr", token)
            kept = tally.lists
        if status != 200:
            tally.errors += 1
        elif began >= steady:
            kept.append(time.monotonic() - began)
        count += 1
        await asyncio.sleep(max(0.0, options.poll - (time.monotonic() - began)))


async def run(port: int, pid: int, tokens: list[str], options: argparse.Namespace) -> None:
    tally, rng = Tally(), random.Random(7)
    start = time.monotonic()
    steady, deadline = start + options.poll, start + options.poll + options.seconds
    pages = [page(port, t, options, tally, steady, deadline, rng) for t in tokens]
    runner = asyncio.gather(*pages)
    await asyncio.sleep(options.poll)
    cpu0, wall0 = cpu_seconds(pid), time.monotonic()
    await runner
    cpu, wall = cpu_seconds(pid) - cpu0, time.monotonic() - wall0
    words, lists = len(tally.words), len(tally.lists)
    requests = words + 2 * lists
    print(f"players {options.players}, {options.friends} friends each, a word every "
          f"{options.poll:g} s, {wall:.0f} s measured")  # fmt: skip
    print(f"  words (where, invitations)  {words / wall:8.1f} /s   "
          f"p50 {percentile(tally.words, 0.5) * 1000:6.1f} ms   "
          f"p95 {percentile(tally.words, 0.95) * 1000:6.1f} ms")  # fmt: skip
    print(f"  friends lists (+ a word)    {lists / wall:8.1f} /s   "
          f"p50 {percentile(tally.lists, 0.5) * 1000:6.1f} ms   "
          f"p95 {percentile(tally.lists, 0.95) * 1000:6.1f} ms")  # fmt: skip
    per_request = cpu / max(1, requests) * 1000
    print(f"  server CPU                  {cpu / wall * 100:8.1f} % of a core   "
          f"{per_request:6.2f} ms per request   errors {tally.errors}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--friends", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--poll", type=float, default=15.0)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardavia-friends-") as folder:
        database = f"sqlite:///{folder}/friends.db"
        tokens = make_players(database, options.players, options.friends)
        port = free_port()
        env = {**os.environ, "CARDAVIA_DATABASE_URL": database, "CARDAVIA_FRIENDS_PER_HOUR": "0"}
        command = [sys.executable, "-m", "uvicorn", "cardavia.web.app:create_app", "--factory",
                   "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
                   "--no-access-log"]  # fmt: skip
        server = listening(subprocess.Popen(command, env=env), port)
        try:
            asyncio.run(run(port, server.pid, tokens, options))
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
