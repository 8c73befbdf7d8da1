"""A player's history and deletion across two web processes (PostgreSQL and Redis): a room
made on one process and joined on the other is in both people's "My games" whichever
process answers; a deletion asked of one process takes the name out of the room that the
other holds open."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

from tests.players.test_guests_multi import call, opener
from websockets.sync.client import connect


def test_a_room_across_processes_is_listed_and_a_deletion_reaches_both(
    web_process: Callable[..., Any],
) -> None:
    first, second = web_process(), web_process()
    ana, _ = opener()
    bob, _ = opener()
    body = {"name": "Ana", "rules": "cardavia", "seat": "S", "lang": "fr"}
    made = call(ana, first.http + "/api/rooms", "POST", body)
    code = made["room"]
    joined = call(
        bob, second.http + f"/api/rooms/{code}/join", "POST", {"name": "Bob", "seat": "N"}
    )
    with connect(f"{first.ws}/ws/rooms/{code}?token={made['token']}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "start"}))
        for _ in range(100):
            if json.loads(ws.recv(timeout=20))["type"] == "state":
                break
        (entry,) = call(bob, second.http + "/api/me/games")["deals"]
        assert entry["room"] == code and entry["partner"] == {"name": "Ana", "computer": False}
        (mine,) = call(ana, second.http + "/api/me/games")["deals"]
        assert mine["partner"] == {"name": "Bob", "computer": False} and mine["seat"] == "S"

        request = urllib.request.Request(
            second.http + "/api/me",
            data=json.dumps({"confirm": True}).encode(),
            method="DELETE",
            headers={"Content-Type": "application/json"},
        )
        with ana.open(request, timeout=10) as response:
            assert json.loads(response.read()) == {"deleted": True}
        (entry,) = call(bob, first.http + "/api/me/games?lang=fr")["deals"]
        assert entry["partner"] == {"name": "un ancien joueur", "computer": False}
        room = call(bob, first.http + f"/api/rooms/{code}?token={joined['token']}")
        assert "Ana" not in json.dumps(room, ensure_ascii=False)
    assert call(ana, first.http + "/api/me")["player"] is False
