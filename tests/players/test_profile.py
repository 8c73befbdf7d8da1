"""The profile (docs/players.md, "The profile"): the export of everything kept about a
player, and their deletion — their rows erased, their name "a former player" in the others'
records, the cookie cleared; both from the site only, the deletion in JSON, asked for, and
rate-limited."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text
from tests.players.plays import app_fixture, browser_fixture, played_deal

from cardavia.web.guests import PLAYER_COOKIE

__all__ = ["app_fixture", "browser_fixture"]

CONFIRM = {"confirm": True}


def rows(app: FastAPI, sql: str) -> list[Any]:
    with app.state.store.engine.connect() as connection:
        return list(connection.execute(text(sql)).all())


def delete(client: TestClient, body: object = CONFIRM, **headers: str) -> Any:
    return client.request(
        "DELETE",
        "/api/me",
        content=json.dumps(body),
        headers={"Content-Type": "application/json", **headers},
    )


def test_the_export_holds_what_is_kept_and_no_secret(browser: Callable[[], TestClient]) -> None:
    client = browser()
    client.put("/api/me", json={"name": "Zoé", "settings": {"sounds": True}})
    game, _ = played_deal(client)
    token = client.cookies[PLAYER_COOKIE]
    answer = client.get("/api/me/export")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == 'attachment; filename="cardavia-player.json"'
    assert answer.headers["cache-control"] == "no-store"
    data = answer.json()
    assert data["player"]["name"] == "Zoé" and data["player"]["settings"]["sounds"] is True
    assert [g["game"] for g in data["games"]] == [game["game"]]
    assert data["deals"][0]["game"] == game["game"] and len(data["sessions"]) == 1
    assert data["passkeys"] == []
    for secret in (token, hashlib.sha256(token.encode()).hexdigest(), game["token"]):
        assert secret not in answer.text


def test_the_export_is_refused_to_nobody_and_to_another_site(
    browser: Callable[[], TestClient],
) -> None:
    nobody = browser()
    assert nobody.get("/api/me/export").status_code == 404
    client = browser()
    played_deal(client)
    answer = client.get("/api/me/export", headers={"Origin": "https://evil.example"})
    assert answer.status_code == 403 and answer.json()["code"] == "bad_origin"


def test_deleting_erases_the_player_and_clears_the_cookie(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    client = browser()
    client.put("/api/me", json={"name": "Zoé"})
    played_deal(client)
    token = client.cookies[PLAYER_COOKIE]
    (player_id,) = [row[0] for row in rows(app, "SELECT id FROM players")]
    answer = delete(client)
    assert answer.status_code == 200 and answer.json() == {"deleted": True}
    cookie = [h for h in answer.headers.get_list("set-cookie") if h.startswith(PLAYER_COOKIE)]
    assert cookie and "Max-Age=0" in cookie[0] and "HttpOnly" in cookie[0]
    for table in ("players", "player_sessions", "player_games", "player_rooms", "passkeys"):
        assert rows(app, f"SELECT * FROM {table}") == [], table
    assert player_id
    # The token kept elsewhere is no one's now.
    again = browser()
    again.cookies.set(PLAYER_COOKIE, token)
    assert again.get("/api/me").json()["player"] is False
    assert again.get("/api/me/games").json()["deals"] == []


def test_deleting_asks_json_a_confirmation_and_the_site(browser: Callable[[], TestClient]) -> None:
    client = browser()
    played_deal(client)
    wrong = client.request(
        "DELETE", "/api/me", content="confirm", headers={"Content-Type": "text/plain"}
    )
    assert wrong.status_code == 415
    assert delete(client, {}).json()["code"] == "missing_field"
    assert delete(client, {"confirm": "yes"}).json()["code"] == "bad_field"
    assert delete(client, {"confirm": True, "also": 1}).json()["code"] == "unknown_field"
    crossed = delete(client, Origin="https://evil.example")
    assert crossed.status_code == 403
    assert client.get("/api/me").json()["player"] is True
    nobody = browser()
    assert delete(nobody).status_code == 404


def test_deleting_is_rate_limited(browser: Callable[[], TestClient]) -> None:
    client = browser()
    codes = [delete(client).status_code for _ in range(40)]
    assert 429 in codes


def test_in_a_shared_room_the_name_becomes_a_former_player(
    browser: Callable[[], TestClient],
) -> None:
    ana, bob = browser(), browser()
    made = ana.post(
        "/api/rooms", json={"name": "Ana", "rules": "cardavia", "seat": "S", "lang": "fr"}
    ).json()
    code = made["room"]
    joined = bob.post(f"/api/rooms/{code}/join", json={"name": "Bob", "seat": "N"}).json()
    with ana.websocket_connect(f"/ws/rooms/{code}?token={made['token']}") as ws:
        ws.send_json({"type": "start"})
        for _ in range(50):
            if ws.receive_json().get("type") == "state":
                break
    assert delete(ana).status_code == 200
    for lang, words in (("fr", "un ancien joueur"), ("ar", "لاعب سابق"), ("en", "a former player")):
        (entry,) = bob.get(f"/api/me/games?lang={lang}").json()["deals"]
        assert entry["partner"] == {"name": words, "computer": False}
    room = bob.get(f"/api/rooms/{code}?token={joined['token']}").json()
    assert "Ana" not in json.dumps(room, ensure_ascii=False)
    assert "un ancien joueur" in json.dumps(room, ensure_ascii=False)
