"""A tournament across two web processes on PostgreSQL and Redis (issue 35): three
simultaneous starts of one deal, sent to both processes, deal one game; a hint is refused at
the tournament's table while it is open, and the late action — a deal started on one process,
played on through the other once the tournament has closed — is refused, whichever process
answers."""

from __future__ import annotations

import html
import json
import re
import secrets
import threading
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.multi.conftest import WebProcess
from tests.multi.test_several_servers import open_socket, receive, settle
from tests.tournaments.test_starting import games_dealt
from websockets.sync.client import ClientConnection

from cardavia.store.db import GameStore
from cardavia.tournaments.schedule import Planned
from cardavia.tournaments.service import Tournaments

TOURNAMENT = "short-cardavia-multi"
"""The tournament's id, made unique for each run (the session's PostgreSQL is shared)."""
OPEN_SECONDS = 40
"""How long the test's tournament is open: room for two starts and a few moves on a busy
machine (the test then waits for its close)."""


def start(
    web: WebProcess, tournament_id: str, number: int, cookie: str | None = None
) -> tuple[str, str]:
    """``POST /api/tournaments/…/deals/{number}`` on ``web`` (a new guest without
    ``cookie``): the table page's address and the player's cookie."""
    headers = {"Content-Type": "application/json"} | ({"Cookie": cookie} if cookie else {})
    request = urllib.request.Request(
        f"{web.http}/api/tournaments/{tournament_id}/deals/{number}",
        data=json.dumps({"lang": "en"}).encode(),
        headers=headers,
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201
        given = response.headers.get("set-cookie")
        url: str = json.loads(response.read())["url"]
    return url, cookie or str(given).split(";")[0]


def table_game(web: WebProcess, url: str, cookie: str) -> dict[str, str]:
    """The game the table page hands to table.js."""
    request = urllib.request.Request(web.http + url, headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=30) as response:
        page = response.read().decode()
    found = re.search(r"data-game='([^']*)'", page)
    assert found is not None
    game: dict[str, str] = json.loads(html.unescape(found.group(1)))
    return game


def answer_to(ws: ClientConnection, message: dict[str, Any], step: int) -> dict[str, Any]:
    """Send ``message``; the next message that is no view of ``step`` (an error, a hint, or
    the first view past it: the message was acted on)."""
    ws.send(json.dumps(message))
    for _ in range(300):
        answer = receive(ws)
        if answer["type"] != "state" or answer["view"]["step"] != step:
            return answer
    raise AssertionError("no answer")


def test_a_tournament_across_two_processes_deals_once_and_refuses_late_play_and_hints(
    web_process: Callable[..., WebProcess], postgres_url: str
) -> None:
    first, second = web_process(), web_process()
    store = GameStore(postgres_url)
    opens = datetime.now(UTC) - timedelta(minutes=1)
    closes = datetime.now(UTC) + timedelta(seconds=OPEN_SECONDS)
    plan = Planned(f"{TOURNAMENT}-{secrets.token_hex(4)}", "short", "cardavia", 3, opens, closes)
    assert Tournaments(store, level="beginner").make(plan)
    tournament = Tournaments(store).get(plan.id)
    assert tournament is not None
    try:
        url, cookie = start(first, plan.id, 1)
        game = table_game(first, url, cookie)
        # Three tabs of the player start deal 2 at once, through both processes: one game.
        together = threading.Barrier(3)

        def press(web: WebProcess) -> str:
            together.wait()
            return start(web, plan.id, 2, cookie)[0]

        with ThreadPoolExecutor(3) as pool:
            urls = list(pool.map(press, (first, second, first)))
        assert set(urls) == {f"/en/tournaments/{plan.id}/play/2"}
        assert games_dealt(store, tournament.secret[1]) == 1
        # Deal 1, open: a move through the first process, no hint from the second.
        with open_socket(first, game) as ws:
            view = settle(ws)
            moved = answer_to(ws, {"type": "action", "action": view["legal"][0]}, view["step"])
            assert moved["type"] == "state"
        with open_socket(second, game) as ws:
            view = settle(ws)
            assert answer_to(ws, {"type": "hint"}, view["step"]).get("code") == (
                "tournament_no_hints"
            )
        # The tournament closes (its scheduler closes it within a minute: the seeds public).
        time.sleep(max(0.0, (closes - datetime.now(UTC)).total_seconds()) + 0.5)
        revision = revision_of(store, game["game"])
        for web in (second, first):
            with open_socket(web, game) as ws:
                view = settle(ws)
                late = {"type": "action", "action": view["legal"][0]}
                refused = answer_to(ws, late, view["step"])
                assert refused.get("code") == "tournament_closed", refused
                assert answer_to(ws, {"type": "hint"}, view["step"]).get("code") == (
                    "tournament_closed"
                )
        assert revision_of(store, game["game"]) == revision  # nothing moved
    finally:
        store.close()


def revision_of(store: GameStore, game_id: str) -> int:
    """The game's revision as the store holds it now."""
    stored = store.load(game_id)
    assert stored is not None
    return stored.revision
