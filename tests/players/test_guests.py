"""The guest player (docs/players.md): made on a person's first game, known by a random
token in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` over HTTPS) whose SHA-256 alone
is kept; their name, language and table settings kept and served back by ``/api/me`` to any
browser holding the cookie; the games and room seats they take linked to them; a cookie that
is not a player's is a new guest, never an error and never another player."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, WEB_DIR, Settings
from cardavia.players import SETTINGS
from cardavia.web.app import create_app
from cardavia.web.guests import PLAYER_COOKIE

GAME = {"rules": "cardavia", "level": "beginner", "lang": "en"}


@pytest.fixture
def make_app(database: str) -> Callable[..., FastAPI]:
    """An app on a SQLite file of the test's own (the same file each time)."""

    def make(**overrides: Any) -> FastAPI:
        options: dict[str, Any] = {
            "database_url": database,
            "ai_delay": (0.0, 0.0),
            "seed": 7,
            "limits": Limits(games_per_minute=0, messages_per_second=0),
            "allowed_hosts": (*LOOPBACK_HOSTS, "testserver"),
        } | overrides
        return create_app(Settings(**options))

    return make


@pytest.fixture
def app(make_app: Callable[..., FastAPI]) -> FastAPI:
    return make_app()


@pytest.fixture
def browser(app: FastAPI) -> Iterator[Callable[..., TestClient]]:
    """Open browsers on the app: each a client with a cookie jar of its own."""
    clients: list[TestClient] = []

    def open_browser(**options: Any) -> TestClient:
        client = TestClient(app, **options)
        client.__enter__()
        clients.append(client)
        return client

    yield open_browser
    for client in clients:
        client.__exit__(None, None, None)


def rows(app: FastAPI, sql: str) -> list[Any]:
    with app.state.store.engine.connect() as connection:
        return list(connection.execute(text(sql)).all())


def set_cookie(response: Any) -> str:
    """The ``Set-Cookie`` header of the player cookie."""
    (header,) = [h for h in response.headers.get_list("set-cookie") if h.startswith(PLAYER_COOKIE)]
    return str(header)


def test_the_first_game_makes_a_guest_whose_token_is_kept_hashed(
    app: FastAPI, browser: Callable[..., TestClient]
) -> None:
    person = browser()
    assert person.get("/api/me").json() == {
        "player": False,
        "name": None,
        "lang": None,
        "settings": {},
    }
    assert rows(app, "SELECT id FROM players") == []  # reading makes nobody
    created = person.post("/api/games", json=GAME | {"seat": "W"})
    assert created.status_code == 201
    header = set_cookie(created)
    attributes = {part.strip().lower() for part in header.split(";")[1:]}
    assert {"httponly", "samesite=lax", "path=/"} <= attributes
    assert "secure" not in attributes  # plain HTTP
    token = person.cookies[PLAYER_COOKIE]
    assert len(token) >= 43
    (player,) = rows(app, "SELECT id FROM players")
    (session,) = rows(app, "SELECT player_id, token_hash FROM player_sessions")
    assert session == (player.id, hashlib.sha256(token.encode()).hexdigest())
    for table in ("players", "player_sessions", "player_games"):
        assert token not in json.dumps(
            [list(map(str, r)) for r in rows(app, f"SELECT * FROM {table}")]
        )
    game = created.json()["game"]
    assert rows(app, "SELECT player_id, game_id, seat FROM player_games") == [
        (player.id, game, "W")
    ]
    # The second game: the same player, both games theirs.
    again = person.post("/api/games", json=GAME)
    assert len(rows(app, "SELECT id FROM players")) == 1
    linked = rows(app, "SELECT game_id FROM player_games ORDER BY created_at")
    assert [g for (g,) in linked] == [game, again.json()["game"]]
    assert person.get("/api/me").json()["player"] is True


def test_the_cookie_is_secure_over_https(
    make_app: Callable[..., FastAPI], browser: Callable[..., TestClient]
) -> None:
    direct = browser(base_url="https://testserver")
    assert "secure" in set_cookie(direct.post("/api/games", json=GAME)).lower()
    # Behind a proxy: its X-Forwarded-Proto counts only when it is a trusted one.
    forwarded = {"X-Forwarded-Proto": "https"}
    stranger = browser()
    header = set_cookie(stranger.post("/api/games", json=GAME, headers=forwarded))
    assert "secure" not in header.lower()
    with TestClient(make_app(trusted_proxies=("testclient",))) as proxied:
        header = set_cookie(proxied.post("/api/games", json=GAME, headers=forwarded))
        assert "secure" in header.lower()
        header = set_cookie(proxied.post("/api/games", json=GAME, headers={}))
        assert "secure" not in header.lower()


def test_what_the_player_keeps_follows_them_to_another_browser(
    app: FastAPI, browser: Callable[..., TestClient]
) -> None:
    first = browser()
    first.post("/api/games", json=GAME)
    settings = {"contrast": 80, "deck": "spanish", "fourColour": True, "aiPace": "slow"}
    changed = first.put(
        "/api/me",
        json={"name": "  Zo\u00e9\u200b  la  reine ", "lang": "fr", "settings": settings},
    )
    assert changed.status_code == 200, changed.text
    expected = {"player": True, "name": "Zoé la reine", "lang": "fr", "settings": settings}
    assert changed.json() == expected
    second = browser()
    assert second.get("/api/me").json()["player"] is False
    second.cookies.set(PLAYER_COOKIE, first.cookies[PLAYER_COOKIE], domain="testserver.local")
    assert second.get("/api/me").json() == expected
    # The name forgotten, the rest kept.
    assert second.put("/api/me", json={"name": None}).json()["name"] is None
    assert first.get("/api/me").json()["settings"] == settings


def test_settings_saved_before_any_game_make_the_guest(
    app: FastAPI, browser: Callable[..., TestClient]
) -> None:
    person = browser()
    answer = person.put("/api/me", json={"settings": {"sounds": True}})
    assert answer.status_code == 200 and PLAYER_COOKIE in person.cookies
    game = person.post("/api/games", json=GAME).json()["game"]
    (player,) = rows(app, "SELECT id FROM players")
    assert rows(app, "SELECT player_id, game_id FROM player_games") == [(player.id, game)]


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"name": ""}, "bad_name", None),
        ({"name": "x" * 25}, "bad_name", None),
        ({"name": 7}, "bad_name", None),
        ({"lang": "de"}, "bad_field", "lang"),
        ({"settings": {"contrast": 101}}, "bad_field", "contrast"),
        ({"settings": {"contrast": True}}, "bad_field", "contrast"),
        ({"settings": {"deck": "tarot"}}, "bad_field", "deck"),
        ({"settings": {"colour": "red"}}, "bad_field", "settings"),
        ({"settings": []}, "bad_field", "settings"),
        ({"seat": "N"}, "unknown_field", "seat"),
    ],
)
def test_a_wrong_change_is_refused_and_changes_nothing(
    app: FastAPI, browser: Callable[..., TestClient], body: dict[str, Any], code: str, field: Any
) -> None:
    person = browser()
    person.post("/api/games", json=GAME)
    person.put("/api/me", json={"name": "Ana", "settings": {"sounds": True}})
    before = person.get("/api/me").json()
    refused = person.put("/api/me", json=body, headers={"Accept-Language": "fr"})
    assert refused.status_code == 400
    error = refused.json()
    assert error["code"] == code and error["type"] == "error" and error["message"]
    if field is not None:
        assert error["args"]["field"] == field
    assert person.get("/api/me").json() == before


def test_a_change_must_be_json_from_the_site_itself(
    app: FastAPI, browser: Callable[..., TestClient]
) -> None:
    person = browser()
    person.post("/api/games", json=GAME)
    before = person.get("/api/me").json()
    plain = person.put(
        "/api/me", content=b'{"name": "Eve"}', headers={"Content-Type": "text/plain"}
    )
    assert (plain.status_code, plain.json()["code"]) == (415, "not_json")
    elsewhere = person.put(
        "/api/me", json={"name": "Eve"}, headers={"Origin": "https://evil.example"}
    )
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (403, "bad_origin")
    own = person.put("/api/me", json={"name": "Eve"}, headers={"Origin": "http://testserver"})
    assert own.status_code == 200
    assert before["name"] is None and person.get("/api/me").json()["name"] == "Eve"
    assert person.post("/api/me", json={}).status_code == 405


@pytest.mark.parametrize(
    "cookie", ["forged" + "A" * 37, "", "x" * 5000, "\u00e9t\u00e9", '"quoted"', "a;b"]
)
def test_a_cookie_not_a_players_is_a_new_guest(
    app: FastAPI, browser: Callable[..., TestClient], cookie: str
) -> None:
    owner = browser()
    owner.post("/api/games", json=GAME)
    owner.put("/api/me", json={"name": "Owner"})
    stranger = browser()
    sent = {"Cookie": f"{PLAYER_COOKIE}=".encode() + cookie.encode()}  # as it is, even UTF-8
    me = stranger.get("/api/me", headers=sent)
    assert me.status_code == 200 and me.json()["player"] is False
    created = stranger.post("/api/games", json=GAME, headers=sent)
    assert created.status_code == 201
    assert stranger.cookies[PLAYER_COOKIE] not in (cookie, owner.cookies[PLAYER_COOKIE])
    assert stranger.get("/api/me").json() == {
        "player": True,
        "name": None,
        "lang": "en",
        "settings": {},
    }
    assert len(rows(app, "SELECT id FROM players")) == 2


def test_a_page_never_fails_on_a_bad_cookie(browser: Callable[..., TestClient]) -> None:
    person = browser()
    sent = {"Cookie": f"{PLAYER_COOKIE}=".encode() + b"\xff\x7f" * 300}
    assert person.get("/en/", headers=sent).status_code == 200
    assert person.get("/api/me", headers=sent).status_code == 200
    assert person.post("/api/games", json=GAME, headers=sent).status_code == 201


def test_room_seats_are_linked_to_their_players(
    app: FastAPI, browser: Callable[..., TestClient]
) -> None:
    creator, friend = browser(), browser()
    room = creator.post("/api/rooms", json={"name": "Ana", "seat": "S", "lang": "fr"}).json()
    joined = friend.post(f"/api/rooms/{room['room']}/join", json={"name": "Bo", "seat": "N"})
    assert joined.status_code == 201
    seats = rows(
        app,
        "SELECT s.token_hash, r.room_code, r.seat FROM player_rooms r"
        " JOIN player_sessions s ON s.player_id = r.player_id ORDER BY r.seat",
    )

    def hashed(client: TestClient) -> str:
        return hashlib.sha256(client.cookies[PLAYER_COOKIE].encode()).hexdigest()

    assert seats == [(hashed(friend), room["room"], "N"), (hashed(creator), room["room"], "S")]
    # The name each sat under is their player's now (they had none); a later one is not.
    assert friend.get("/api/me").json()["name"] == "Bo"
    friend.put("/api/me", json={"name": "Bob"})
    other = creator.post("/api/rooms", json={"name": "Zed", "seat": "S"}).json()
    friend.post(f"/api/rooms/{other['room']}/join", json={"name": "Bo", "seat": "N"})
    assert (creator.get("/api/me").json()["name"], friend.get("/api/me").json()["name"]) == (
        "Ana",
        "Bob",
    )


def test_changes_are_rate_limited(browser: Callable[..., TestClient]) -> None:
    person = browser()
    statuses = [
        person.put("/api/me", json={"settings": {"grain": n}}).status_code for n in range(30)
    ]
    assert statuses[0] == 200 and 429 in statuses


def test_the_kept_settings_are_those_of_the_settings_panel() -> None:
    """``settings.js``'s ``DEFAULTS`` and the server's list name the same settings: a setting
    added to one is added to the other."""
    source = (WEB_DIR / "static" / "js" / "settings.js").read_text()
    block = re.search(r"DEFAULTS = Object\.freeze\(\{(.*?)\}\);", source, re.S)
    assert block is not None
    names = re.findall(r"^\s*(\w+):", block.group(1), re.M)
    assert sorted(names) == sorted(SETTINGS)
