"""Safety among strangers (docs/players.md, "Safety"): a player blocks another from the room
where they met (quick play keeps them apart) and unblocks them from their profile; a display
name reported is hidden from everyone else — "a player" in their language — until its owner
changes it; both limited per player; a room and a seat only, never a player's id; the
requests refused clearly when they name no one they may."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text
from tests.players.plays import browser_fixture

from cardavia.belote import Seat
from cardavia.live.limits import Limits
from cardavia.live.room_state import RoomSettings, RoomState
from cardavia.live.safety import hide
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.web.app import create_app
from cardavia.web.history import room_sitters
from cardavia.words import load_catalogs

__all__ = ["browser_fixture"]


@pytest.fixture(name="app")
def app_fixture(database: str) -> FastAPI:
    """The site on a database of the test's own, with the safety's limits low enough to
    reach: 3 blocks and 2 reports an hour."""
    return create_app(
        Settings(
            database_url=database,
            ai_delay=(0.0, 0.0),
            seed=7,
            limits=Limits(
                games_per_minute=0, messages_per_second=0, blocks_per_hour=3, reports_per_hour=2
            ),
            allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),
        )
    )


def rows(app: FastAPI, sql: str) -> list[Any]:
    with app.state.store.engine.connect() as connection:
        return list(connection.execute(text(sql)).all())


def player_id(app: FastAPI, name: str) -> str:
    (found,) = [row[0] for row in rows(app, "SELECT id, name FROM players") if row[1] == name]
    return str(found)


def create_room(client: TestClient, name: str, **options: Any) -> dict[str, str]:
    body = {"name": name, "rules": "maison", "level": "beginner", "lang": "en"} | options
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, str] = response.json()
    return data


def join(client: TestClient, code: str, name: str, seat: str) -> dict[str, str]:
    response = client.post(f"/api/rooms/{code}/join", json={"name": name, "seat": seat})
    assert response.status_code == 201, response.text
    data: dict[str, str] = response.json()
    return data


def met(browser: Callable[[], TestClient]) -> tuple[TestClient, TestClient, dict[str, str]]:
    """Ana (South, the room's creator) and Bo (North) seated in one room (Bo's token as
    ``bo_token``)."""
    ana, bo = browser(), browser()
    room = create_room(ana, "Ana")
    room["bo_token"] = join(bo, room["room"], "Bo", "N")["token"]
    return ana, bo, room


def names(client: TestClient, room: dict[str, str], token: str | None, lang: str) -> Any:
    url = f"/api/rooms/{room['room']}?lang={lang}" + (f"&token={token}" if token else "")
    return {seat: entry["name"] for seat, entry in client.get(url).json()["room"]["seats"].items()}


def unblock(client: TestClient, key: str, **headers: str) -> Any:
    return client.request(
        "DELETE",
        f"/api/blocks/{key}",
        content=json.dumps({}),
        headers={"Content-Type": "application/json", **headers},
    )


def test_a_block_keeps_apart_until_unblocked_and_names_no_id(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    ana, bo, room = met(browser)
    answer = ana.post("/api/blocks", json={"room": room["room"], "seat": "N"})
    assert answer.status_code == 201 and answer.json() == {"blocked": True}
    ana_id, bo_id = player_id(app, "Ana"), player_id(app, "Bo")
    assert app.state.store.safety.kept_apart(ana_id) == {bo_id}
    assert app.state.store.safety.kept_apart(bo_id) == {ana_id}  # either way
    listed = ana.get("/api/blocks")
    (block,) = listed.json()["blocks"]
    assert block["name"] == "Bo" and block["hidden"] is False
    for secret in (ana_id, bo_id):
        assert secret not in listed.text
    # Another player's list is not theirs to read, nor to change.
    assert bo.get("/api/blocks").json() == {"blocks": [], "name_hidden": False}
    refused = unblock(bo, block["id"])
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    assert unblock(ana, "0" * 24).status_code == 404
    assert app.state.store.safety.kept_apart(ana_id) == {bo_id}
    answer = unblock(ana, block["id"])
    assert answer.status_code == 200 and answer.json() == {"unblocked": True}
    assert app.state.store.safety.kept_apart(ana_id) == frozenset()
    assert ana.get("/api/blocks").json()["blocks"] == []


def test_a_reported_name_is_hidden_from_the_others_until_it_changes(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    ana, bo, room = met(browser)
    carl = browser()
    other = create_room(bo, "Bo")  # another room where Bo sits under the same name
    join(carl, other["room"], "Carl", "N")
    answer = ana.post("/api/reports", json={"room": room["room"], "seat": "N"})
    assert answer.status_code == 201 and answer.json() == {"reported": True}
    # To the others, in their language; to Bo, their own name.
    assert names(ana, room, room["token"], "fr")["N"] == "un joueur"
    assert names(ana, room, None, "ar")["N"] == "لاعب"
    assert names(bo, room, room["bo_token"], "fr") == {"N": "Bo", "E": None, "S": "Ana", "W": None}
    assert names(carl, other, None, "pl")["S"] == "gracz"  # every room Bo sat in as Bo
    (seats,) = [r[0] for r in rows(app, f"SELECT state FROM rooms WHERE code = '{room['room']}'")]
    assert json.loads(seats)["seats"]["N"]["hidden"] is True
    # Bo is told on their profile; the name changed, it is no longer hidden.
    assert bo.get("/api/blocks").json()["name_hidden"] is True
    assert ana.get("/api/blocks").json()["name_hidden"] is False
    bo.put("/api/me", json={"name": "Bob"})
    assert bo.get("/api/blocks").json()["name_hidden"] is False
    fresh = create_room(bo, "Bob")
    assert names(ana, fresh, None, "en")["S"] == "Bob"
    # Under the reported name again: hidden there too, at once.
    third = create_room(bo, "Bo")
    assert names(ana, third, None, "fr")["S"] == "un joueur"
    assert rows(app, "SELECT name FROM name_reports") == [("Bo",)]


def test_the_blocks_and_reports_are_limited_per_player(
    browser: Callable[[], TestClient],
) -> None:
    ana, bo, room = met(browser)
    body = {"room": room["room"], "seat": "N", "lang": "fr"}
    for _ in range(3):
        assert ana.post("/api/blocks", json=body).status_code == 201
    refused = ana.post("/api/blocks", json=body)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert refused.json()["message"].startswith("Trop de requêtes")
    for _ in range(2):
        assert ana.post("/api/reports", json=body).status_code == 201
    refused = ana.post("/api/reports", json=body | {"lang": "ar"})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    # Another player has their own allowance.
    assert bo.post("/api/blocks", json={"room": room["room"], "seat": "S"}).status_code == 201


def test_what_names_no_one_they_may_is_refused_clearly(
    browser: Callable[[], TestClient],
) -> None:
    ana, bo, room = met(browser)
    code = room["room"]
    stranger = browser()
    stranger.put("/api/me", json={"name": "Eve"})  # a player, seated nowhere
    nobody = browser()  # no player at all
    cases: list[tuple[TestClient, Any, int, str]] = [
        (ana, {"room": code, "seat": "S"}, 400, "yourself"),
        (ana, {"room": code, "seat": "E"}, 400, "not_a_person"),  # an open seat
        (ana, {"room": code, "seat": "X"}, 400, "bad_field"),
        (ana, {"room": code}, 400, "missing_field"),
        (ana, {"room": code, "seat": "N", "player": "x"}, 400, "unknown_field"),
        (ana, {"room": "ZZZZZ", "seat": "N"}, 403, "not_in_room"),  # a forged room
        (ana, {"room": 7, "seat": "N"}, 403, "not_in_room"),
        (stranger, {"room": code, "seat": "N"}, 403, "not_in_room"),
        (nobody, {"room": code, "seat": "N"}, 403, "not_in_room"),
    ]
    for client, body, status, error in cases:
        for route in ("/api/blocks", "/api/reports"):
            answer = client.post(route, json=body)
            assert (answer.status_code, answer.json()["code"]) == (status, error), (body, route)
    evil = ana.post(
        "/api/blocks",
        json={"room": code, "seat": "N"},
        headers={"Origin": "https://evil.example"},
    )
    assert evil.status_code == 403 and evil.json()["code"] == "bad_origin"
    form = ana.post("/api/reports", content=b"room=x", headers={"Content-Type": "text/plain"})
    assert form.status_code == 415 and form.json()["code"] == "not_json"
    # A computer player's seat, once the game started.
    with ana.websocket_connect(f"/ws/rooms/{code}?token={room['token']}") as ws:
        ws.send_json({"type": "start"})
        while ws.receive_json()["type"] != "state":
            pass
    answer = ana.post("/api/blocks", json={"room": code, "seat": "W"})
    assert (answer.status_code, answer.json()["code"]) == (400, "not_a_person")
    assert bo.post("/api/reports", json={"room": code, "seat": "S"}).status_code == 201


def test_the_export_holds_blocks_and_reports_and_deletion_erases_them(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    ana, bo, room = met(browser)
    body = {"room": room["room"], "seat": "N"}
    assert ana.post("/api/blocks", json=body).status_code == 201
    assert ana.post("/api/reports", json=body).status_code == 201
    assert bo.post("/api/blocks", json=body | {"seat": "S"}).status_code == 201
    export = ana.get("/api/me/export")
    data = export.json()
    assert [(b["name"], b["hidden"]) for b in data["blocks"]] == [(None, True)]  # Bo's: hidden
    assert [r["name"] for r in data["reports"]] == ["Bo"] and data["reported_names"] == []
    assert player_id(app, "Bo") not in export.text
    bo_export = bo.get("/api/me/export").json()
    assert [r["name"] for r in bo_export["reported_names"]] == ["Bo"]
    assert "Ana" not in json.dumps(bo_export["reported_names"])  # never who reported
    answer = ana.request(
        "DELETE",
        "/api/me",
        content=json.dumps({"confirm": True}),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 200
    assert rows(app, "SELECT * FROM player_blocks") == []
    assert rows(app, "SELECT * FROM name_reports") == []


def test_a_reported_name_is_a_player_in_the_others_games() -> None:
    """ "My games" of the others read the room's seats: a hidden name is "a player" in the
    reader's language."""
    state = RoomState.new(
        RoomSettings("maison", "beginner", "french", None, "en"), Seat.S, name="Ana", token="a"
    )
    state, _ = state.take(Seat.N, name="Bo", token="b")
    sitters = room_sitters(json.dumps(hide(state, Seat.N).to_json()), "beginner", frozenset())
    words = load_catalogs().wording("fr")
    assert sitters[Seat.N].public(words, None) == {"name": "un joueur", "computer": False}
    assert sitters[Seat.S].public(words, None) == {"name": "Ana", "computer": False}
