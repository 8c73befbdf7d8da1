"""The lobby (docs/players.md, "The lobby"): how many people play now (each person once,
across processes through Redis), the quick-play tables under way with their players — a
reported name as "a player" — and score, "Watch" only where every seated person allows it,
and a "Play now" for each preset."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.players.plays import app_fixture, browser_fixture, new_game

from cardavia.belote import PRESETS
from cardavia.live.presence import Presence
from cardavia.live.room_state import RoomState
from cardavia.store.ratings import RatingChange
from cardavia.web.guests import PLAYER_COOKIE

__all__ = ["app_fixture", "browser_fixture"]


@pytest.fixture(autouse=True)
def fresh_figures(app: FastAPI) -> None:
    """The lobby reads its figures at every request (the site keeps them two seconds)."""
    app.state.lobby.kept = 0.0


def lobby(client: TestClient, lang: str = "en") -> dict[str, Any]:
    answer = client.get(f"/api/lobby?lang={lang}")
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    data: dict[str, Any] = answer.json()
    return data


def quick_room(app: FastAPI, ana: TestClient, bo: TestClient) -> dict[str, str]:
    """A room as quick play forms it (quick, watchers allowed): Ana South, Bo North."""
    answer = ana.post(
        "/api/rooms",
        json={"name": "Ana", "rules": "coinche", "level": "beginner", "watchers": True},
    )
    room: dict[str, str] = answer.json()
    joined = bo.post(f"/api/rooms/{room['room']}/join", json={"name": "Bo", "seat": "N"})
    room["bo_token"] = joined.json()["token"]
    rooms = app.state.rooms

    def quick(state: RoomState) -> RoomState:
        return replace(state, settings=replace(state.settings, quick=True))

    ana.portal.call(rooms.change, rooms.rooms[room["room"]], quick)  # type: ignore[union-attr]
    return room


def until(ws: Any, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(300):
        message: dict[str, Any] = ws.receive_json()
        if test(message):
            return message
    raise AssertionError("no such message")


def started(ana_ws: Any) -> None:
    ana_ws.send_json({"type": "start"})
    until(ana_ws, lambda m: m["type"] == "state")


def test_the_lobby_counts_people_and_lists_the_quick_tables(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    ana, bo, solo = browser(), browser(), browser()
    assert lobby(ana) | {"presets": None} == {
        "playing": 0,
        "tables": [],
        "presets": None,
        "seats": ["N", "E", "S", "W"],
    }
    room = quick_room(app, ana, bo)
    friends = ana.post("/api/rooms", json={"name": "Ana", "watchers": True}).json()
    code = room["room"]
    game = new_game(solo)
    with (
        ana.websocket_connect(f"/ws/rooms/{code}?token={room['token']}") as ana_ws,
        ana.websocket_connect(f"/ws/rooms/{code}?token={room['token']}") as second_tab,
        bo.websocket_connect(f"/ws/rooms/{code}?token={room['bo_token']}") as bo_ws,
        ana.websocket_connect(f"/ws/rooms/{friends['room']}?token={friends['token']}"),
        solo.websocket_connect(f"/ws/games/{game['game']}?token={game['token']}") as solo_ws,
    ):
        until(bo_ws, lambda m: m["type"] == "room")
        until(second_tab, lambda m: m["type"] == "room")
        until(solo_ws, lambda m: m["type"] == "state")
        started(ana_ws)
        data = lobby(bo, "fr")
        # Ana (twice: one person), Bo, Ana's friends' room seat, the single-player table.
        assert data["playing"] == 4
        (table,) = data["tables"]  # the friends' room is not a public table
        assert table["code"] == code and table["rules_name"] == "Coinche (règles officielles)"
        assert table["deal"] == 1 and table["scores"] == {"NS": 0, "EW": 0}
        assert table["seats"]["N"] == {"name": "Bo", "computer": False}
        assert table["seats"]["S"] == {"name": "Ana", "computer": False}
        # A computer player reads as one, never as a person's name (its level's "Débutant").
        assert table["seats"]["E"] == {"name": "Joueur ordinateur", "computer": True}
        assert table["watch"] == f"/fr/room/{code}?watch"
        text = bo.get("/api/lobby").text
        for secret in (room["token"], room["bo_token"], game["token"]):
            assert secret not in text
    assert lobby(ana)["playing"] == 0 and lobby(ana)["tables"] == []


def test_a_reported_name_is_a_player_in_the_lobby(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    ana, bo = browser(), browser()
    room = quick_room(app, ana, bo)
    code = room["room"]
    with (
        ana.websocket_connect(f"/ws/rooms/{code}?token={room['token']}") as ana_ws,
        bo.websocket_connect(f"/ws/rooms/{code}?token={room['bo_token']}"),
    ):
        started(ana_ws)
        assert ana.post("/api/reports", json={"room": code, "seat": "N"}).status_code == 201
        names = {lang: lobby(ana, lang)["tables"][0]["seats"]["N"]["name"] for lang in ("fr", "ar")}
        assert names == {"fr": "un joueur", "ar": "لاعب"}
        assert "Bo" not in ana.get("/api/lobby").text


def test_no_watch_where_a_seated_person_does_not_allow_it(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    ana, bo, watcher = browser(), browser(), browser()
    room = quick_room(app, ana, bo)
    code = room["room"]
    with watcher.websocket_connect(f"/ws/rooms/{code}") as early:
        until(early, lambda m: m["type"] == "room")
        bo.put("/api/me", json={"settings": {"watchable": False}})
        with (
            ana.websocket_connect(f"/ws/rooms/{code}?token={room['token']}") as ana_ws,
            bo.websocket_connect(f"/ws/rooms/{code}?token={room['bo_token']}"),
        ):
            # The watcher already there is told and let go; nobody may come to watch.
            assert until(early, lambda m: m["type"] == "error")["code"] == "no_watchers"
            started(ana_ws)
            assert lobby(ana)["tables"][0]["watch"] is None
            with watcher.websocket_connect(f"/ws/rooms/{code}") as late:
                assert late.receive_json()["code"] == "missing_token"


def test_the_top_rated_table_is_listed_first_with_its_rating(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    """Two quick-play tables: the one whose people are rated higher comes first, though it
    is the less far on; each says its rating (the mean of its people's, a newcomer's 1500)."""
    ana, bo, cleo, dan = (browser() for _ in range(4))
    newcomers, strong = quick_room(app, ana, bo), quick_room(app, cleo, dan)
    store = app.state.store
    for person in (cleo, dan):  # Cleo and Dan have won a rated coinche deal before
        player = store.players.find(person.cookies[PLAYER_COOKIE]).id
        change = RatingChange(player, mu=30.0, sigma=6.0)
        store.ratings.record([change], family="coinche", room_code="OLDER", game_id="g", deal=1)
    with (
        ana.websocket_connect(f"/ws/rooms/{newcomers['room']}?token={newcomers['token']}") as one,
        bo.websocket_connect(f"/ws/rooms/{newcomers['room']}?token={newcomers['bo_token']}"),
        cleo.websocket_connect(f"/ws/rooms/{strong['room']}?token={strong['token']}") as two,
        dan.websocket_connect(f"/ws/rooms/{strong['room']}?token={strong['bo_token']}"),
    ):
        started(one)
        started(two)
        tables = lobby(ana)["tables"]
        assert [t["code"] for t in tables] == [strong["room"], newcomers["room"]]
        assert [t["rating"] for t in tables] == [1700, 1500]
    page = ana.get("/fr/lobby").text
    assert "Les tables les mieux cotées d’abord." in page and '"Cote {n}"' in page


def test_each_preset_has_its_play_now_and_the_page_is_in_the_language(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    client = browser()
    presets = lobby(client, "ar")["presets"]
    assert [p["key"] for p in presets] == list(PRESETS)
    assert {p["play"] for p in presets} == {f"/ar/quick/{key}" for key in PRESETS}
    for lang, title in (("fr", "Salon"), ("ar", "الصالة"), ("en", "Lobby")):
        page = client.get(f"/{lang}/lobby")
        assert page.status_code == 200 and f'<h1 id="lobby-title">{title}</h1>' in page.text
        assert all(f'href="/{lang}/quick/{key}"' in page.text for key in PRESETS)
        assert f'href="/{lang}/lobby"' in client.get(f"/{lang}/").text  # in the header
    assert client.get("/xx/lobby").status_code == 404


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A Redis server of the test's own."""
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(10)


@pytest.mark.slow  # a Redis process
def test_the_count_is_the_sites_across_processes(redis_url: str) -> None:
    """Two processes' heartbeats: each person once, each table once, and what a process
    stopped telling drops out after the time to live."""

    async def run() -> None:
        one, two = Presence(redis_url, ttl=0.5), Presence(redis_url, ttl=0.5)
        table = {"code": "ABCDE", "deal": 1}
        await one.beat({"room:ABCDE:S", "table:x"}, {"ABCDE": table})
        await two.beat({"room:ABCDE:S", "room:ABCDE:N", "queue:p"}, {"ABCDE": table})
        assert await one.count() == 4 and await two.count() == 4
        assert [t["code"] for t in await two.tables()] == ["ABCDE"]
        await asyncio.sleep(0.6)
        await two.beat({"queue:p"}, {})
        assert await one.count() == 1 and await one.tables() == []
        for presence in (one, two):
            await presence.close()
        alone = Presence()
        await alone.beat({"table:y"}, {})
        assert await alone.count() == 1

    asyncio.run(run())
