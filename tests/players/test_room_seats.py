"""Seats held now, not seats first taken (issue 35): a person's record of a room seat
(``player_rooms``) follows their seat token as the room changes — a swap, a move to another
seat, a seat freed before the first deal — so that a deletion renames the seat the deleted
player holds (never the person who sits where they first sat), "My games" and the analysis
are refused to a person removed before the first deal, and a block or a report after a swap
reaches the person shown in the seat named."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.players.plays import app_fixture, browser_fixture
from tests.players.test_profile import delete, rows
from tests.web.test_rooms import Seated, play_deal, room_url

__all__ = ["app_fixture", "browser_fixture"]

FORMER = "a former player"


def create(client: TestClient, name: str, seat: str = "S", **options: Any) -> dict[str, str]:
    body = {"name": name, "rules": "cardavia", "level": "beginner", "lang": "en", "seat": seat}
    made = client.post("/api/rooms", json=body | options)
    assert made.status_code == 201, made.text
    answer: dict[str, str] = made.json()
    return answer


def join(client: TestClient, code: str, name: str, seat: str) -> dict[str, str]:
    joined = client.post(f"/api/rooms/{code}/join", json={"name": name, "seat": seat})
    assert joined.status_code == 201, joined.text
    answer: dict[str, str] = joined.json()
    return answer


def names(client: TestClient, code: str) -> dict[str, str | None]:
    seats = client.get(f"/api/rooms/{code}").json()["room"]["seats"]
    return {seat: entry["name"] for seat, entry in seats.items()}


def until_seats(seated: Seated, test: Callable[[dict[str, Any]], bool]) -> None:
    seated.read_until(lambda m: m["type"] == "room" and test(m["room"]["seats"]))


def test_a_deletion_after_a_swap_erases_the_deleted_players_name_only(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    hana, ivan = browser(), browser()
    made = create(hana, "Hana")
    code = made["room"]
    join(ivan, code, "Ivan", "E")
    with hana.websocket_connect(room_url(code, made["token"])) as ws:
        host = Seated(ws, "S")
        host.send({"type": "swap", "seats": ["S", "E"]})
        until_seats(host, lambda seats: seats["E"]["name"] == "Hana")
    assert names(hana, code) == {"N": None, "E": "Hana", "S": "Ivan", "W": None}
    assert sorted(rows(app, "SELECT seat FROM player_rooms")) == [("E",), ("S",)]
    assert delete(ivan).status_code == 200
    assert names(hana, code) == {"N": None, "E": "Hana", "S": FORMER, "W": None}
    assert rows(app, "SELECT seat FROM player_rooms") == [("E",)]  # Hana's, where she sits


def test_a_deletion_after_sitting_elsewhere_erases_the_name_where_they_sit(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    host, karl = browser(), browser()
    code = create(host, "Host")["room"]
    seat = join(karl, code, "Karl", "E")
    with karl.websocket_connect(room_url(code, seat["token"])) as ws:
        moving = Seated(ws, "E")
        moving.send({"type": "sit", "seat": "W"})
        until_seats(moving, lambda seats: seats["W"]["name"] == "Karl")
    assert delete(karl).status_code == 200
    assert names(host, code) == {"N": None, "E": None, "S": "Host", "W": FORMER}


@pytest.mark.slow  # a room's whole deal
def test_a_person_removed_before_the_first_deal_loses_the_rooms_games(
    browser: Callable[[], TestClient],
) -> None:
    host, friend, removed = browser(), browser(), browser()
    made = create(host, "Host", watchers=False)
    code = made["room"]
    near = join(friend, code, "Friend", "N")
    join(removed, code, "Removed", "W")
    with (
        host.websocket_connect(room_url(code, made["token"])) as ws,
        friend.websocket_connect(room_url(code, near["token"])) as fws,
    ):
        hosting, partner = Seated(ws, "S"), Seated(fws, "N")
        hosting.send({"type": "free", "seat": "W"})
        until_seats(hosting, lambda seats: seats["W"]["kind"] == "open")
        hosting.send({"type": "start"})
        playing = removed.get("/api/me/games").json()
        assert playing["deals"] == [] and playing["games"] == 0
        view = play_deal({"S": hosting, "N": partner}, hosting, random.Random(35))
    game = friend.get("/api/me/games").json()["deals"][0]["game"]
    assert friend.get(f"/api/me/games/{game}/analysis?deal=1").status_code == 200
    assert view["phase"] in ("over", "cancelled")
    assert removed.get("/api/me/games").json()["deals"] == []
    refused = removed.get(f"/api/me/games/{game}/analysis?deal=1")
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"


def test_after_a_swap_blocks_and_reports_reach_the_person_shown_in_the_seat(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    lena, marc = browser(), browser()
    made = create(lena, "Lena")
    code = made["room"]
    join(marc, code, "Marc", "E")
    with lena.websocket_connect(room_url(code, made["token"])) as ws:
        host = Seated(ws, "S")
        host.send({"type": "swap", "seats": ["S", "E"]})
        until_seats(host, lambda seats: seats["E"]["name"] == "Lena")
    # Marc now sits South: his own seat is his, Lena's (East) is hers.
    mine = marc.post("/api/reports", json={"room": code, "seat": "S"})
    assert mine.status_code == 400 and mine.json()["code"] == "yourself"
    blocked = marc.post("/api/blocks", json={"room": code, "seat": "E"})
    assert blocked.status_code == 201, blocked.text
    assert [b["name"] for b in marc.get("/api/blocks").json()["blocks"]] == ["Lena"]
    reported = marc.post("/api/reports", json={"room": code, "seat": "E"})
    assert reported.status_code == 201, reported.text
    (lena_id,) = rows(app, "SELECT player_id FROM player_rooms WHERE seat = 'E'")
    assert rows(app, "SELECT player_id, name FROM name_reports") == [(lena_id[0], "Lena")]
