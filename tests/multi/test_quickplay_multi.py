"""Quick play across two web processes (Redis and PostgreSQL): people queued on different
processes are seated together at one table, each told their own seat by the process holding
their connection, whichever process formed the table; nobody is seated twice."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from tests.multi.conftest import WebProcess
from websockets.sync.client import ClientConnection, connect

READ_SECONDS = 20


def join(web: WebProcess, preset: str, lang: str) -> str:
    """Press "Play now" on ``web``: answers the new guest's player cookie."""
    request = urllib.request.Request(
        f"{web.http}/api/quick/{preset}",
        data=json.dumps({"lang": lang}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
        cookie = response.headers["set-cookie"].split(";")[0]
        assert cookie.startswith("cardavia_player=")
        return str(cookie)


def wait_socket(stack: ExitStack, web: WebProcess, preset: str, cookie: str) -> ClientConnection:
    url = f"{web.ws}/ws/quick/{preset}?lang=en"
    return stack.enter_context(connect(url, open_timeout=10, additional_headers={"Cookie": cookie}))


def read_until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    for _ in range(200):
        message: dict[str, Any] = json.loads(ws.recv(timeout=READ_SECONDS))
        if message["type"] == kind:
            return message
        assert message["type"] == "waiting", message
    raise AssertionError(f"no {kind}")


def test_people_queued_on_two_processes_are_seated_together(
    web_process: Callable[..., WebProcess],
) -> None:
    settings = {"CARDAVIA_QUICK_WAIT": "3600", "CARDAVIA_QUICK_JOINS": "0"}
    first, second = web_process(**settings), web_process(**settings)
    places = [first, second, first, second]
    with ExitStack() as stack:
        sockets = []
        for web in places:
            cookie = join(web, "maghreb", "en")
            sockets.append(wait_socket(stack, web, "maghreb", cookie))
        seated = [read_until(ws, "seated") for ws in sockets]
    assert len({s["room"] for s in seated}) == 1
    assert sorted(s["seat"] for s in seated) == ["E", "N", "S", "W"]
    code = seated[0]["room"]
    # Each token opens its seat of the room from either process; the room is a quick one.
    for web, s in zip(places[::-1], seated, strict=True):
        with urllib.request.urlopen(f"{web.http}/api/rooms/{code}?token={s['token']}") as answer:
            room = json.loads(answer.read())
        assert room["room"]["you"] == s["seat"] and room["view"]["seat"] == s["seat"]
        assert room["room"]["started"] and room["room"]["rules"] == "maghreb"


def test_many_people_on_two_processes_are_each_seated_once(
    web_process: Callable[..., WebProcess],
) -> None:
    settings = {"CARDAVIA_QUICK_WAIT": "3600", "CARDAVIA_QUICK_JOINS": "0"}
    first, second = web_process(**settings), web_process(**settings)
    places = [first, second] * 8
    with ExitStack() as stack:
        sockets = [
            wait_socket(stack, web, "cardavia", join(web, "cardavia", "fr")) for web in places
        ]
        seated = [read_until(ws, "seated") for ws in sockets]
    rooms: dict[str, list[str]] = {}
    for s in seated:
        rooms.setdefault(s["room"], []).append(s["seat"])
    assert len(rooms) == 4
    assert all(sorted(seats) == ["E", "N", "S", "W"] for seats in rooms.values())
