"""Several web processes serving one site (issue 9, item 2): PostgreSQL for the games, Redis
for the changes and the leases. A game created on one process is played through another, a
change made on one reaches a watcher on the other, one process at a time plays a table's
computer seats, and killing a process mid-deal loses nothing: the client reconnects to the
other one and goes on."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.multi.conftest import WebProcess
from tests.preloaded import Started, start
from websockets.sync.client import ClientConnection, connect

from cardavia.ai.levels import level_version
from cardavia.live.bus import RedisBus

View = dict[str, Any]
READ_SECONDS = 20


def open_socket(web: WebProcess, game: dict[str, str], lang: str = "en") -> ClientConnection:
    url = f"{web.ws}/ws/games/{game['game']}?token={game['token']}&lang={lang}"
    return connect(url, open_timeout=10)


def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=READ_SECONDS))
    return message


def settle(ws: ClientConnection) -> View:
    """Read until the table waits for South (its turn, or the deal over)."""
    for _ in range(500):
        message = receive(ws)
        if message["type"] == "error":
            # Another process moved first, or the database was away a moment: ask again.
            assert message["code"] in ("stale", "unavailable"), message
            time.sleep(0.2)
            ws.send(json.dumps({"type": "sync"}))
            continue
        view: View = message["view"]
        if view["phase"] in ("over", "cancelled") or (view["to_move"] == "S" and view["legal"]):
            return view
    raise AssertionError("the table did not settle")


def test_a_game_is_played_through_one_process_and_watched_from_the_other(
    web_process: Callable[..., WebProcess],
) -> None:
    first, second = web_process(), web_process()
    game = first.post("/api/games", {"rules": "cardavia", "level": "club", "lang": "fr"})
    rng = random.Random(3)
    with open_socket(second, game) as player, open_socket(first, game, "es") as watcher:
        view = settle(player)
        while view["phase"] not in ("over", "cancelled"):
            player.send(json.dumps({"type": "action", "action": rng.choice(view["legal"])}))
            view = settle(player)
        # Every change reached the watcher on the other process, in its own language.
        seen: View = receive(watcher)["view"]
        while seen["step"] < view["step"] or seen["phase"] != view["phase"]:
            seen = receive(watcher)["view"]
        assert seen["lang"] == "es"
        assert seen["step"] == view["step"]
        assert seen["match"] == view["match"]


def test_one_process_at_a_time_holds_a_tables_lease(redis_url: str) -> None:
    async def main() -> None:
        one, two = RedisBus(redis_url, lease=0.5), RedisBus(redis_url, lease=0.5)
        try:
            assert await one.claim("game-x")
            assert await one.claim("game-x")  # renewed
            assert not await two.claim("game-x")
            await one.release("game-x")
            assert await two.claim("game-x")
            assert not await one.claim("game-x")
            await asyncio.sleep(0.7)  # two died without giving it up: it runs out
            assert await one.claim("game-x")
        finally:
            await one.close()
            await two.close()

    asyncio.run(main())


def test_changes_are_published_to_the_other_processes(redis_url: str) -> None:
    async def main() -> list[tuple[str, int]]:
        heard: list[tuple[str, int]] = []
        got = asyncio.Event()

        async def on_change(game_id: str, revision: int) -> None:
            heard.append((game_id, revision))
            got.set()

        sender, hearer = RedisBus(redis_url), RedisBus(redis_url)

        async def on_resync() -> None:
            pass

        await hearer.start(on_change, on_resync)
        await sender.start(on_change, on_resync)
        await asyncio.sleep(0.2)  # subscribed
        try:
            await sender.publish("game-y", 7)
            await asyncio.wait_for(got.wait(), timeout=5)
        finally:
            await sender.close()
            await hearer.close()
        return heard

    # Heard by the other process, not echoed to the sender.
    assert asyncio.run(main()) == [("game-y", 7)]


def test_killing_a_process_mid_deal_loses_nothing(
    web_process: Callable[..., WebProcess],
) -> None:
    first, second = web_process(), web_process()
    game = first.post("/api/games", {"rules": "coinche", "level": "club", "lang": "en"})
    rng = random.Random(5)
    with open_socket(first, game) as player:
        view = settle(player)
        for _ in range(6):
            if view["phase"] in ("over", "cancelled"):
                break
            player.send(json.dumps({"type": "action", "action": rng.choice(view["legal"])}))
            view = settle(player)
        first.kill()
    # The page reconnects, to the other process: the game is there as last seen.
    with open_socket(second, game) as player:
        again = settle(player)
        assert again["step"] == view["step"]
        assert again["hand"] == view["hand"]
        assert again["bids"] == view["bids"]
        while again["phase"] not in ("over", "cancelled"):
            player.send(json.dumps({"type": "action", "action": rng.choice(again["legal"])}))
            again = settle(player)
        assert again["replay"] is not None


def test_the_processes_go_on_after_redis_restarts(
    web_process: Callable[..., WebProcess], own_redis: Callable[[], None]
) -> None:
    first, second = web_process(), web_process()
    game = first.post("/api/games", {"rules": "coinche", "level": "club", "lang": "en"})
    rng = random.Random(8)
    with open_socket(second, game) as player, open_socket(first, game) as watcher:
        view = settle(player)
        own_redis()  # Redis stops and starts again: its subscriptions are gone
        deadline = time.monotonic() + READ_SECONDS
        while view["phase"] not in ("over", "cancelled"):
            player.send(json.dumps({"type": "action", "action": rng.choice(view["legal"])}))
            view = settle(player)
        # The watcher on the other process hears of the changes again: once subscribed
        # anew, its process catches up with what it missed.
        seen: View = receive(watcher)["view"]
        while seen["step"] < view["step"] and time.monotonic() < deadline:
            seen = receive(watcher)["view"]
        assert seen["step"] == view["step"]


def test_the_processes_go_on_after_postgresql_restarts(
    web_process: Callable[..., WebProcess], own_postgres: Callable[[], None]
) -> None:
    first, second = web_process(), web_process()
    game = first.post("/api/games", {"rules": "coinche", "level": "club", "lang": "en"})
    rng = random.Random(9)
    with open_socket(second, game) as player:
        view = settle(player)
        own_postgres()  # every connection of both processes is cut
        while view["phase"] not in ("over", "cancelled"):
            player.send(json.dumps({"type": "action", "action": rng.choice(view["legal"])}))
            view = settle(player)
    with open_socket(first, game) as again:  # saved: the other process sees it whole
        assert settle(again)["step"] == view["step"]


def start_ai_worker(redis_url: str, log: Path, *, fresh: bool = False) -> Started:
    """An AI worker process (``cardavia ai-worker``) on the queue, its log in ``log``
    (forked from a preloaded interpreter, tests/preloaded.py; ``fresh``: a new one)."""
    return start(["ai-worker", "--redis-url", redis_url, "--jobs", "1"], output=log, fresh=fresh)


def test_the_computer_players_think_on_ai_workers_and_a_worker_restarts(
    web_process: Callable[..., WebProcess], redis_url: str, tmp_path: Path
) -> None:
    """With Redis, a strong table's computer seats are decided by the AI worker processes
    (the queue), not by the web process; a worker killed between two decisions (kill -9)
    and started again loses nothing: the deal goes on to its end."""
    log = tmp_path / "worker.log"
    worker = start_ai_worker(redis_url, log)
    # A database of its own: the workers' log is this table's alone (a tournament another
    # test entered on the shared PostgreSQL would have its par worked out on them too).
    web = web_process(CARDAVIA_DATABASE_URL=f"sqlite:///{tmp_path / 'own.db'}")
    game = web.post("/api/games", {"rules": "coinche", "level": "strong", "lang": "en"})
    rng = random.Random(8)

    def decided(run: int) -> bool:
        runs = log.read_text().split("AI worker:")
        return len(runs) > run and ":decide(" in runs[run]

    def play_until(player: ClientConnection, view: View, done: Callable[[], bool]) -> View:
        """South plays (and deals on) until ``done``; the last view."""
        for _ in range(200):
            if done():
                return view
            if view["phase"] in ("over", "cancelled"):
                player.send(json.dumps({"type": "next_deal"}))
            else:
                player.send(json.dumps({"type": "action", "action": rng.choice(view["legal"])}))
            view = settle(player)
        raise AssertionError("the computer players never decided")

    try:
        with open_socket(web, game) as player:
            view = play_until(player, settle(player), lambda: decided(1))
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=10)
            worker = start_ai_worker(redis_url, log)
            view = play_until(player, view, lambda: decided(2))
            while view["phase"] not in ("over", "cancelled"):
                player.send(json.dumps({"type": "action", "action": rng.choice(view["legal"])}))
                view = settle(player)
    finally:
        worker.terminate()
        worker.wait(timeout=20)
    # Both workers decided (each logs the jobs it ran), for the computer seats only.
    runs = log.read_text().split("AI worker:")
    assert len(runs) == 3
    asked = f":decide('{level_version('strong')}', Observation(seat=<Seat."  # the table's version
    assert all(asked in run for run in runs[1:])
    assert "Seat.S" not in log.read_text()
