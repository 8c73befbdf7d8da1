"""The site's edge (issue 18): the ``Host`` it answers to, relative redirects, the security
headers on every answer (errors and 500s), numbers read strictly, nothing described for
robots (``/openapi.json``), public answers cached, the room socket's errors like the table's,
and who a client is behind a trusted proxy (``X-Forwarded-For`` ignored from anyone else)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.test_hardening import _disk_full
from tests.web.test_rooms import Seated, create_room, room_url

from cardavia.live.limits import Counters, Limits, SiteLimiter
from cardavia.web.edge import SECURITY_HEADERS
from cardavia.web.http_helpers import client_of, whole_number

EVIL = {"Host": "rebind.evil.example", "Origin": "http://rebind.evil.example"}


def has_security_headers(headers: Any) -> bool:
    return all(
        headers.get(name.decode()) == value.decode() for name, value in SECURITY_HEADERS.items()
    )


def test_another_host_is_refused_a_request_and_a_socket(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"name": "Ana"}, headers=EVIL)
    assert response.status_code == 400
    assert has_security_headers(response.headers)
    assert client.get("/healthz", headers={"Host": "evil.example:8000"}).status_code == 400
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/ws/rooms/ABCDE", headers=EVIL) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 1008
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8443", "testserver"):
        assert client.get("/healthz", headers={"Host": host}).status_code == 200


def test_redirects_are_relative(reader: TestClient) -> None:
    response = reader.get("/fr", headers={"Host": "localhost:8000"}, follow_redirects=False)
    assert response.status_code in (301, 307, 308)
    assert response.headers["location"] == "/fr/"
    moved = reader.get("/fr/rules/contree?x=1", follow_redirects=False)
    assert moved.headers["location"].startswith("/fr/rules/")


@pytest.mark.parametrize("deal", ["%C2%B2", "%D9%A3", "-1", "1.0", "", "12345"])
def test_analysis_numbers_are_read_strictly(
    client: TestClient, new_game: Callable[..., dict[str, str]], deal: str
) -> None:
    game = new_game()
    response = client.get(f"/api/games/{game['game']}/analysis?deal={deal}&token={game['token']}")
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "bad_field"


def test_whole_numbers_are_ascii_digits() -> None:
    assert whole_number("0012") == 12
    assert [whole_number(t) for t in ("²", "٣", "１", "", "+1", " 1", "1" * 19)] == [None] * 7
    assert whole_number("12345", digits=4) is None


def test_every_answer_carries_the_security_headers(
    make_app: Callable[..., FastAPI], new_game: Callable[..., dict[str, str]]
) -> None:
    app = make_app()

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        for response in (
            client.get("/api/boom"),
            client.get("/api/nothing-here"),
            client.get("/fr/nothing-here"),
            client.put("/api/games"),
            client.get("/static/css/none.css"),
            client.get("/healthz"),
        ):
            assert has_security_headers(response.headers), response.request.url
        failed = client.get("/api/boom", headers={"Accept-Language": "fr"})
        assert failed.status_code == 500 and failed.json()["code"] == "internal"


def test_openapi_is_not_served(reader: TestClient) -> None:
    for path in ("/openapi.json", "/docs", "/redoc"):
        assert reader.get(path).status_code == 404


def test_public_answers_are_cached_and_personal_ones_not(
    client: TestClient, new_game: Callable[..., dict[str, str]]
) -> None:
    for path in ("/api/problems", "/api/problems/today", "/api/learn/words?lang=fr"):
        response = client.get(path)
        assert response.status_code == 200
        cache = response.headers["cache-control"]
        assert cache.startswith("public, max-age=") and int(cache.rpartition("=")[2]) > 0
        assert "Accept-Language" in response.headers["vary"]
    game = new_game()
    view = client.get(f"/api/games/{game['game']}?token={game['token']}")
    assert view.headers["cache-control"] == "no-store"


def test_room_socket_errors_are_the_tables_and_echo_no_lone_surrogate(
    client: TestClient,
) -> None:
    room = create_room(client)
    with client.websocket_connect(room_url(room["room"], room["token"])) as ws:
        ana = Seated(ws, "S")
        ana.read_until(lambda m: m["type"] == "room")
        cases = [
            ('{"type": ["action"]}', "unknown_type"),
            ('{"type": {"a": 1}}', "unknown_type"),
            ('{"type": "\\ud800"}', "unknown_type"),
            ('{"type": "free", "seat": "\\ud800"}', "bad_field"),
            ('{"type": "sit", "seat": ["\\udfff"]}', "bad_field"),
            ('{"type": "swap", "seats": ["\\ud800", "N"]}', "bad_field"),
            ('{"type": "phrase", "code": "\\ud800"}', "unknown_phrase"),
            ('{"type": "start", "\\ud800": 1}', "unknown_field"),
        ]
        for text, code in cases:
            ws.send_text(text)
            raw = ws.receive_text()
            error = json.loads(raw)
            assert error["type"] == "error" and error["code"] == code, (text, error)
            assert "\\ud8" not in raw and "\\udf" not in raw, raw
            raw.encode("utf-8")


def test_the_client_behind_a_trusted_proxy() -> None:
    assert client_of("127.0.0.1", "203.0.113.5") == "127.0.0.1"
    trusted = ("127.0.0.1", "10.0.0.0/8")
    assert client_of("127.0.0.1", "203.0.113.5", trusted) == "203.0.113.5"
    assert client_of("127.0.0.1", "198.51.100.7, 203.0.113.5, 10.1.2.3", trusted) == "203.0.113.5"
    assert client_of("192.0.2.1", "203.0.113.5", trusted) == "192.0.2.1"
    assert client_of("2001:db8::1", "") == client_of("2001:db8::ffff:1", "") == "2001:db8::/64"
    assert client_of("::ffff:192.0.2.4", "") == "192.0.2.4"


def test_forwarded_for_is_ignored_unless_the_peer_is_trusted(
    make_app: Callable[..., FastAPI],
) -> None:
    limits = Limits(games_per_minute=1, games_burst=2, messages_per_second=0)
    with TestClient(make_app(limits=limits)) as client:
        codes = [
            client.post(
                "/api/games",
                json={"level": "beginner"},
                headers={"X-Forwarded-For": f"203.0.113.{n}"},
            ).status_code
            for n in range(4)
        ]
        assert codes == [201, 201, 429, 429]
    with TestClient(make_app(limits=limits, trusted_proxies=("testclient",))) as client:
        codes = [
            client.post(
                "/api/games",
                json={"level": "beginner"},
                headers={"X-Forwarded-For": f"203.0.113.{n}"},
            ).status_code
            for n in range(4)
        ]
        assert codes == [201] * 4


def test_a_refused_write_logs_one_line_with_the_reason(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    monkeypatch.setattr(store._sessions, "begin", _disk_full)
    monkeypatch.setattr(store.engine, "begin", _disk_full)
    with caplog.at_level(logging.WARNING, logger="cardavia"):
        for _ in range(3):
            assert client.post("/api/games", json={"rules": "cardavia"}).status_code == 503
    said = [r for r in caplog.records if r.name.startswith("cardavia")]
    creations = [r for r in said if "could not be created" in r.getMessage()]
    assert len(creations) == 3
    for record in said:
        assert record.exc_info is None and "\n" not in record.getMessage()
    for record in creations:
        assert record.getMessage().endswith("(database or disk is full)")


def test_a_site_limiter_counts_in_the_process_while_redis_fails(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Down:
        async def eval(self, *_args: Any) -> int:
            raise ConnectionError("Redis is restarting\nmore")

    limiter = SiteLimiter("games", rate=1 / 60, burst=2, redis=Down())
    with caplog.at_level(logging.WARNING, logger="cardavia"):
        waits = [asyncio.run(limiter.take("203.0.113.1")) for _ in range(4)]
    assert waits[:2] == [0, 0] and all(wait > 0 for wait in waits[2:])
    said = [r.getMessage() for r in caplog.records]
    assert said == ["limit games counted in this process: Redis is restarting"]
    assert asyncio.run(Counters().limiter("games", 0, 1).take("x")) == 0
