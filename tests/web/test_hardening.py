"""What a hostile or unlucky client meets (issue 9, item 5): lone surrogates answered in JSON,
a full disk or a read-only database answered with a 503 in the player's language, the
``Origin`` and media-type checks, the security headers, 405s, and slow request bodies."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from starlette.requests import Request

from cardavia.live.protocol import ClientError, dump_message, printable
from cardavia.web.http_helpers import origin_allowed, read_json_body
from cardavia.words import load_catalogs

NewGame = Callable[..., dict[str, str]]
CATALOGS = load_catalogs()


def socket_url(game: dict[str, str], lang: str = "en") -> str:
    return f"/ws/games/{game['game']}?token={game['token']}&lang={lang}"


# -- lone surrogates -------------------------------------------------------------------------


def test_printable_and_dump_message_never_fail() -> None:
    assert printable("a\ud800b") == "a\ufffdb"
    text = dump_message({"x": "\udfff"})
    text.encode("utf-8")
    assert text == '{"x":"\\udfff"}'
    assert dump_message({"x": "é"}) == '{"x":"é"}'


@pytest.mark.parametrize(
    "message",
    [
        '{"type":"sync","\\ud800":1}',
        '{"type":"\\ud800"}',
        '{"type":"action","action":{"kind":"\\udc00"}}',
        '{"type":"action","action":{"kind":"play","card":"\\ud83d"}}',
    ],
)
def test_a_lone_surrogate_in_a_socket_message_is_answered(
    client: TestClient, new_game: NewGame, message: str
) -> None:
    game = new_game()
    with client.websocket_connect(socket_url(game, "fr")) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text(message)
        error = ws.receive_json()
        while error["type"] == "state":  # the computer players' moves
            error = ws.receive_json()
        assert error["type"] == "error"
        assert error["message"]
        # The connection still serves.
        ws.send_json({"type": "sync"})
        reply = ws.receive_json()
        while reply["type"] != "state":
            reply = ws.receive_json()
        assert reply["view"]["game"] == game["game"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"rules":"\\ud800"}',
        b'{"level":"\\udfff"}',
        b'{"\\ud800":1}',
        b'{"rules":"cardavia","deck":"\\ud800x"}',
    ],
)
def test_a_lone_surrogate_in_an_http_body_is_answered_in_json(
    client: TestClient, body: bytes
) -> None:
    response = client.post(
        "/api/games",
        content=body,
        headers={"Content-Type": "application/json", "Accept-Language": "pl"},
    )
    assert response.status_code == 400
    error = response.json()
    assert error["type"] == "error"
    assert "\ufffd" in error["message"]
    assert client.get("/healthz").text == "ok"


# -- the database cannot write ---------------------------------------------------------------


def _disk_full(*_args: Any, **_kwargs: Any) -> Any:
    raise OperationalError("UPDATE games", {}, sqlite3.OperationalError("database or disk is full"))


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_a_full_disk_is_a_503_in_the_players_language(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    monkeypatch.setattr(store._sessions, "begin", _disk_full)
    monkeypatch.setattr(store.engine, "begin", _disk_full)
    response = client.post(
        "/api/games", json={"rules": "cardavia"}, headers={"Accept-Language": lang}
    )
    assert response.status_code == 503
    error = response.json()
    assert error["code"] == "unavailable"
    assert error["message"] == CATALOGS.wording(lang).error("unavailable")


def test_a_full_disk_during_a_deal_keeps_the_game_and_says_so(
    client: TestClient, new_game: NewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game()
    store = client.app.state.store  # type: ignore[attr-defined]
    with client.websocket_connect(socket_url(game, "es")) as ws:
        view = ws.receive_json()["view"]
        while view["to_move"] != "S":
            view = ws.receive_json()["view"]
        with monkeypatch.context() as patch:
            patch.setattr(store._sessions, "begin", _disk_full)
            patch.setattr(store.engine, "begin", _disk_full)
            ws.send_json({"type": "action", "action": view["legal"][0]})
            error = ws.receive_json()
            assert error["code"] == "unavailable"
            assert error["message"] == CATALOGS.wording("es").error("unavailable")
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["view"]["step"] == view["step"]
        ws.send_json({"type": "action", "action": view["legal"][0]})
        after = ws.receive_json()
        assert after["type"] == "state"
        assert after["view"]["step"] == view["step"] + 1


def test_a_read_only_database_still_shows_the_saved_games(
    make_app: Callable[..., FastAPI], tmp_path: Path, database: str
) -> None:
    with TestClient(make_app()) as writer:
        response = writer.post("/api/games", json={"rules": "cardavia", "lang": "en"})
        game = response.json()
    read_only = f"sqlite:///file:{tmp_path / 'cardavia.db'}?mode=ro&uri=true"
    with TestClient(make_app(database_url=read_only)) as reader:
        view = reader.get(f"/api/games/{game['game']}?token={game['token']}")
        assert view.status_code == 200
        assert view.json()["game"] == game["game"]
        refused = reader.post(
            "/api/games", json={"rules": "cardavia"}, headers={"Accept-Language": "hi"}
        )
        assert refused.status_code == 503
        assert refused.json()["message"] == CATALOGS.wording("hi").error("unavailable")
        with reader.websocket_connect(socket_url(game)) as ws:
            first = ws.receive_json()
            assert first["type"] == "state"
            # The computer players (or South) cannot save: told, in JSON, not a crash.
            if first["view"]["to_move"] == "S":
                ws.send_json({"type": "action", "action": first["view"]["legal"][0]})
            assert ws.receive_json()["code"] == "unavailable"
        assert reader.get("/en/").status_code == 200


# -- origins, media types, headers, methods --------------------------------------------------


def test_origin_allowed() -> None:
    host = {"host": "cardavia.test"}
    assert origin_allowed(host)
    assert origin_allowed(host | {"origin": "https://cardavia.test"})
    assert not origin_allowed(host | {"origin": "https://evil.test"})
    assert not origin_allowed(host | {"origin": "null"})
    assert origin_allowed(host | {"origin": "https://app.test"}, ("https://app.test",))


def test_creating_a_game_from_another_site_is_refused(client: TestClient) -> None:
    response = client.post(
        "/api/games",
        json={"rules": "cardavia"},
        headers={"Origin": "https://evil.test", "Accept-Language": "fr"},
    )
    assert response.status_code == 403
    assert response.json()["code"] == "bad_origin"
    assert response.json()["message"] == CATALOGS.wording("fr").error("bad_origin")
    same = client.post(
        "/api/games", json={"rules": "cardavia"}, headers={"Origin": "http://testserver"}
    )
    assert same.status_code == 201


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_creating_a_game_requires_json(client: TestClient, content_type: str | None) -> None:
    headers = {"Accept-Language": "es"}
    if content_type:
        headers["Content-Type"] = content_type
    response = client.post("/api/games", content=b'{"rules":"cardavia"}', headers=headers)
    assert response.status_code == 415
    assert response.json()["code"] == "not_json"
    assert response.json()["message"] == CATALOGS.wording("es").error("not_json")


def test_a_socket_from_another_site_is_refused(client: TestClient, new_game: NewGame) -> None:
    game = new_game()
    with client.websocket_connect(
        socket_url(game, "pl"), headers={"Origin": "https://evil.test"}
    ) as ws:
        error = ws.receive_json()
        assert error["code"] == "bad_origin"
        assert error["message"] == CATALOGS.wording("pl").error("bad_origin")


def test_content_security_policy(client: TestClient) -> None:
    for path in ("/en/", "/healthz", "/api/nothing"):
        policy = client.get(path).headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy
        assert "script-src 'self';" in policy
        assert "style-src 'self';" in policy
        assert "unsafe" not in policy


@pytest.mark.parametrize(("method", "path"), [("DELETE", "/api/games"), ("PUT", "/healthz")])
def test_a_wrong_method_says_so(client: TestClient, method: str, path: str) -> None:
    response = client.request(method, path, headers={"Accept-Language": "ar"})
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
    assert response.json()["message"] == CATALOGS.wording("ar").error("method_not_allowed")
    assert "allow" in response.headers


def test_a_slow_body_times_out() -> None:
    async def slow() -> dict[str, Any]:
        await asyncio.sleep(5)
        return {"type": "http.request", "body": b"{}", "more_body": False}

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/games",
        "headers": [(b"content-type", b"application/json")],
    }

    async def read() -> dict[str, Any]:
        return await read_json_body(Request(scope, slow), 4096, 0.05)

    with pytest.raises(ClientError) as raised:
        asyncio.run(read())
    assert raised.value.code == "body_timeout"


def test_a_slow_body_times_out_on_a_real_server(make_app: Callable[..., FastAPI]) -> None:
    """A client that sends its headers, then its body too slowly, is answered 408 in JSON
    (uvicorn in a thread, a raw socket)."""
    app = make_app(body_timeout=0.3)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
            client.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 40\r\n"
                b'Accept-Language: fr\r\n\r\n{"rules"'
            )
            started = time.monotonic()
            reply = b""
            while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
                chunk = client.recv(4096)
                if not chunk:
                    break
                reply += chunk
            waited = time.monotonic() - started
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), reply
        error = json.loads(body)
        assert error["code"] == "body_timeout"
        assert error["message"] == CATALOGS.wording("fr").error("body_timeout")
        assert 0.25 <= waited < 5
    finally:
        server.should_exit = True
        thread.join(timeout=10)
