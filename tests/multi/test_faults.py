"""The audit's figure (issue 18): no table silent more than 5 s after any single process
fault. A strong table (its computer seats decided by an AI worker) is played across two web
processes, PostgreSQL and Redis; mid-deal, right after South acts (the computers thinking),
each process kind fails once: the AI worker killed (kill -9, started again), Redis restarted,
the web process that serves the table killed (the player's tab reconnects to the other, as
the page does). The longest silence of the table after each — the longest wait for its next
state while a computer seat owed the move — is measured and printed."""

from __future__ import annotations

import itertools
import json
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from tests.multi.conftest import WebProcess
from tests.multi.test_several_servers import start_ai_worker
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

View = dict[str, Any]
SILENCE_LIMIT = 5.0
"""Seconds a table may stay silent after a single fault (the audit's figure)."""
ACTIONS_AFTER_FAULT = 6
"""South's actions played after each fault before the next (the window measured)."""
READ_SECONDS = 30.0
GAME: Final = {"rules": "coinche", "level": "strong", "lang": "en"}


class Tab:
    """A player's tab on a table: it reconnects to the other web process when its own goes,
    and notes when each state arrives."""

    def __init__(self, webs: list[WebProcess], game: dict[str, str]) -> None:
        self.webs, self.game = webs, game
        self.ws: ClientConnection | None = None
        self.arrivals: list[tuple[float, View]] = []
        self.served_by: list[int] = []
        """The port of each web process the tab connected to, in order."""
        self.connect()

    def connect(self) -> None:
        for _ in range(100):
            for web in self.webs:
                if web.process.poll() is not None:
                    continue
                url = f"{web.ws}/ws/games/{self.game['game']}?token={self.game['token']}"
                try:
                    # Held across the tab's reconnections, not one block: the direct form.
                    self.ws = connect(url, open_timeout=5, legacy=True)
                    self.served_by.append(web.port)
                    return
                except OSError:
                    continue
            time.sleep(0.1)
        raise AssertionError("no web process took the tab")

    def new_game(self) -> None:
        """The match is over: a new one, on a web process still running."""
        web = next(web for web in self.webs if web.process.poll() is None)
        self.game = web.post("/api/games", GAME)
        self.close()
        self.connect()
        self.served_by.pop()

    def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        try:
            self.ws.send(json.dumps(message))
        except ConnectionClosed:
            self.connect()

    def next_view(self) -> View:
        while True:
            assert self.ws is not None
            try:
                message = json.loads(self.ws.recv(timeout=READ_SECONDS))
            except ConnectionClosed:
                self.connect()
                continue
            if message["type"] == "error" and message["code"] == "match_over":
                self.new_game()
                continue
            if message["type"] == "error":
                assert message["code"] in ("stale", "unavailable"), message
                time.sleep(0.2)
                self.send({"type": "sync"})
                continue
            if message["type"] != "state":
                continue
            view: View = message["view"]
            self.arrivals.append((time.monotonic(), view))
            return view

    def settle(self) -> View:
        """Read until the table waits for South (its turn, or the deal over)."""
        while True:
            view = self.next_view()
            if view["phase"] in ("over", "cancelled") or (view["to_move"] == "S" and view["legal"]):
                return view

    def play(self, view: View, rng: random.Random) -> None:
        if view["phase"] in ("over", "cancelled"):
            self.send({"type": "next_deal"})
        else:
            self.send({"type": "action", "action": rng.choice(view["legal"])})

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()

    def longest_silence(self, start: float, end: float) -> float:
        """The longest wait for the next state, between ``start`` and ``end``, while a
        computer seat owed the move (South's own turns excepted: the test acts at once)."""
        longest, last = 0.0, start
        owed = True  # a fault comes right after South's action: a computer seat's turn
        for moment, view in self.arrivals:
            if moment <= start:
                continue
            if moment > end:
                break
            if owed:
                longest = max(longest, moment - last)
            last = moment
            owed = view["phase"] not in ("over", "cancelled") and view["to_move"] != "S"
        return longest


def test_no_table_is_silent_long_after_any_single_fault(
    web_process: Callable[..., WebProcess],
    redis_url: str,
    own_redis: Callable[[], None],
    tmp_path: Path,
) -> None:
    log = tmp_path / "worker.log"
    worker = start_ai_worker(redis_url, log)
    first, second = web_process(), web_process()
    game = first.post("/api/games", GAME)
    tab = Tab([first, second], game)
    rng = random.Random(18)

    def kill_the_worker() -> None:
        nonlocal worker
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
        worker = start_ai_worker(redis_url, log)  # as its supervisor would

    def kill_the_web_process() -> None:
        serving = next(web for web in (first, second) if web.process.poll() is None)
        serving.kill()

    faults: dict[str, Callable[[], None]] = {
        "AI worker killed": kill_the_worker,
        "Redis restarted": own_redis,
        "web process killed": kill_the_web_process,
    }
    moments: list[tuple[str, float]] = [("none (before the faults)", time.monotonic())]
    try:
        view = tab.settle()
        for _ in range(ACTIONS_AFTER_FAULT):
            tab.play(view, rng)
            view = tab.settle()
        for name, fault in faults.items():
            while view["phase"] in ("over", "cancelled"):
                tab.play(view, rng)
                view = tab.settle()
            tab.play(view, rng)
            moments.append((name, time.monotonic()))
            fault()
            view = tab.settle()
            for _ in range(ACTIONS_AFTER_FAULT):
                tab.play(view, rng)
                view = tab.settle()
        moments.append(("end", time.monotonic()))
    finally:
        tab.close()
        worker.terminate()
        worker.wait(timeout=20)
    silences = {
        name: tab.longest_silence(start, end)
        for (name, start), (_next, end) in itertools.pairwise(moments)
    }
    for name, silence in silences.items():
        print(f"longest silence of a strong table, fault: {name}: {silence:.2f} s")
    assert tab.served_by == [first.port, second.port]  # the tab went on on the other process
    assert all(silence < SILENCE_LIMIT for silence in silences.values()), silences
