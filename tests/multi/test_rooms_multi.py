"""A room whose players are connected to different web processes (Redis and PostgreSQL):
a whole deal played by two people, one on each process, with two computer players; then
one of them drops, a computer player takes the seat over, and they come back through the
other process and get it back."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from tests.multi.conftest import WebProcess
from websockets.sync.client import ClientConnection, connect

READ_SECONDS = 20


class Player:
    def __init__(self, stack: ExitStack, web: WebProcess, code: str, token: str, seat: str) -> None:
        url = f"{web.ws}/ws/rooms/{code}?token={token}&lang=en"
        self.ws: ClientConnection = stack.enter_context(connect(url, open_timeout=10))
        self.seat = seat
        self.view: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=READ_SECONDS))
        if message["type"] == "state":
            self.view = message["view"]
        elif message["type"] == "room":
            self.room = message["room"]
        elif message["type"] == "error":
            assert message["code"] in ("stale", "unavailable"), message
            time.sleep(0.1)
            self.send({"type": "sync"})
        return message

    def read_until(self, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for _ in range(1000):
            message = self.read()
            if test(message):
                return message
        raise AssertionError("nothing came")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))


def _state(test: Callable[[dict[str, Any]], bool]) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "state" and test(m["view"])


def play(players: dict[str, Player], lead: Player, rng: random.Random) -> dict[str, Any]:
    """Play the deal to its end: ``lead`` is read throughout; whoever's turn it is reads
    until their own view says so, then acts."""
    handled: tuple[int, int] | None = None

    def settled(view: dict[str, Any]) -> bool:
        return view["phase"] in ("over", "cancelled") or view["to_move"] in players

    while True:
        view = lead.view
        if view is None or (view["deal_number"], view["step"]) == handled or not settled(view):
            view = lead.read_until(_state(settled))["view"]
        if view["phase"] in ("over", "cancelled"):
            return view
        at = (view["deal_number"], view["step"])
        mover = players[view["to_move"]]
        mine = mover.view
        if mine is None or (mine["deal_number"], mine["step"]) != at:
            mine = mover.read_until(_state(lambda v, at=at: (v["deal_number"], v["step"]) == at))[
                "view"
            ]
        mover.send({"type": "action", "action": rng.choice(mine["legal"])})
        handled = at


def test_a_room_played_across_two_processes(web_process: Callable[..., WebProcess]) -> None:
    first, second = web_process(), web_process()
    room = first.post(
        "/api/rooms",
        {"name": "Ana", "level": "beginner", "target": 500, "next_delay": 3600, "grace": 0.5},
    )
    code = room["room"]
    friend = second.post(f"/api/rooms/{code}/join", {"name": "Bo", "seat": "N"})
    with ExitStack() as stack:
        ana = Player(stack, first, code, room["token"], "S")
        bo = Player(stack, second, code, friend["token"], "N")
        ana.read_until(lambda m: m["type"] == "room")
        bo.read_until(lambda m: m["type"] == "room" and m["room"]["seats"]["S"]["name"] == "Ana")
        ana.send({"type": "start"})
        # The other process hears of the start and opens the table for Bo.
        view = bo.read_until(lambda m: m["type"] == "state")["view"]
        assert view["seat"] == "N" and view["names"]["S"]["name"] == "Ana"
        ana.read_until(lambda m: m["type"] == "state")
        final = play({"S": ana, "N": bo}, ana, random.Random(5))
        assert final["replay"] is not None
        bo.read_until(_state(lambda v: v["step"] == final["step"]))
        assert bo.view is not None and bo.view["result"]["scores"] == final["result"]["scores"]
        # Bo drops: away, then played by a computer player; he comes back through the other
        # process and has his seat back.
        bo.ws.close()
        ana.read_until(lambda m: m["type"] == "room" and m["room"]["seats"]["N"]["away"])
        ana.read_until(lambda m: m["type"] == "room" and m["room"]["seats"]["N"]["computer"])
        bo = Player(stack, first, code, friend["token"], "N")
        bo.read_until(lambda m: m["type"] == "room" and not m["room"]["seats"]["N"]["away"])
        ana.read_until(lambda m: m["type"] == "room" and not m["room"]["seats"]["N"]["computer"])


def test_watchers_on_two_processes_cannot_crowd_out_a_seat(
    web_process: Callable[..., WebProcess],
) -> None:
    """Issue 18, item 3, on two processes: each counts the connections it holds; watchers
    filling their share on both leave the player's tab its room on either."""
    limits = {"CARDAVIA_WATCHERS_PER_ROOM": "3", "CARDAVIA_SOCKETS_PER_SEAT": "1"}
    first, second = web_process(**limits), web_process(**limits)
    room = first.post(
        "/api/rooms", {"name": "Ana", "level": "beginner", "next_delay": 3600, "watchers": True}
    )
    code = room["room"]

    def first_message(web: WebProcess, token: str | None = None) -> tuple[ClientConnection, str]:
        url = f"{web.ws}/ws/rooms/{code}?lang=en" + (f"&token={token}" if token else "")
        ws = stack.enter_context(connect(url, open_timeout=10))
        message = json.loads(ws.recv(timeout=READ_SECONDS))
        return ws, message.get("code") or message["type"]

    with ExitStack() as stack:
        for web in (first, second):
            assert [first_message(web)[1] for _ in range(3)] == ["room"] * 3
            assert first_message(web)[1] == "too_many_sockets"
        for web in (first, second):
            tab, answer = first_message(web, room["token"])
            assert answer == "room"
            tab.close()
