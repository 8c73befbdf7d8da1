"""Seats held now across two web processes (PostgreSQL and Redis, issue 35): a room made on
one process and joined on the other, its seats swapped on the first, a friend removed before
the first deal on the second; the deletion asked of the second renames the seat the deleted
player holds now, and the removed person's "My games" stays empty whichever process
answers."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from tests.players.test_guests_multi import call, opener
from websockets.sync.client import ClientConnection, connect


def seats_once(ws: ClientConnection, test: Callable[[dict[str, Any]], bool]) -> None:
    for _ in range(100):
        message = json.loads(ws.recv(timeout=20))
        if message["type"] == "room" and test(message["room"]["seats"]):
            return
    raise AssertionError("the room never changed so")


def names(browser: urllib.request.OpenerDirector, url: str) -> dict[str, str | None]:
    seats = call(browser, url)["room"]["seats"]
    return {seat: entry["name"] for seat, entry in seats.items()}


def test_a_swap_on_one_process_and_a_deletion_on_the_other_erase_the_right_name(
    web_process: Callable[..., Any],
) -> None:
    first, second = web_process(), web_process()
    hana, _ = opener()
    ivan, _ = opener()
    removed, _ = opener()
    body = {"name": "Hana", "rules": "cardavia", "seat": "S", "lang": "en", "level": "beginner"}
    made = call(hana, first.http + "/api/rooms", "POST", body)
    code = made["room"]
    call(ivan, second.http + f"/api/rooms/{code}/join", "POST", {"name": "Ivan", "seat": "E"})
    joined = {"name": "Removed", "seat": "W"}
    call(removed, second.http + f"/api/rooms/{code}/join", "POST", joined)
    with connect(f"{first.ws}/ws/rooms/{code}?token={made['token']}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "swap", "seats": ["S", "E"]}))
        seats_once(ws, lambda seats: seats["E"]["name"] == "Hana")
        ws.send(json.dumps({"type": "free", "seat": "W"}))
        seats_once(ws, lambda seats: seats["W"]["kind"] == "open")
        ws.send(json.dumps({"type": "start"}))
        for _ in range(100):
            if json.loads(ws.recv(timeout=20))["type"] == "state":
                break
    for web in (first, second):
        assert call(removed, web.http + "/api/me/games")["deals"] == []
    (mine,) = call(ivan, first.http + "/api/me/games")["deals"]
    assert mine["seat"] == "S"  # where the swap put him
    request = urllib.request.Request(
        second.http + "/api/me",
        data=json.dumps({"confirm": True}).encode(),
        method="DELETE",
        headers={"Content-Type": "application/json"},
    )
    with ivan.open(request, timeout=10) as response:
        assert json.loads(response.read()) == {"deleted": True}
    after = names(hana, first.http + f"/api/rooms/{code}")
    assert after["E"] == "Hana" and after["S"] == "a former player", after
    game = call(hana, second.http + "/api/me/games")["deals"][0]["game"]
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(removed, first.http + f"/api/me/games/{game}/analysis?deal=1")
    assert refused.value.code == 404
