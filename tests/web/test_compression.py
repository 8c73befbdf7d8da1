"""Pages, styles and scripts travel gzip-compressed; the API's JSON, a ``HEAD``, pictures and
the WebSocket do not (issue 37, item 6: ``cardavia.web.compression``)."""

from __future__ import annotations

import gzip
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.test_edge import has_security_headers

from cardavia.tournaments.schedule import Planned

GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


def raw_get_method(
    client: TestClient, method: str, path: str, headers: dict[str, str]
) -> tuple[Any, bytes]:
    """An answer's headers and its body as it came over the wire (not decoded)."""
    with client.stream(method, path, headers=headers) as response:
        return response, b"".join(response.iter_raw())


def raw_get(client: TestClient, path: str, headers: dict[str, str]) -> tuple[Any, bytes]:
    """A GET's answer and its body as it came over the wire."""
    return raw_get_method(client, "GET", path, headers)


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/fr/rules/scoring", "text/html"),
        ("/ar/rules/legal-cards", "text/html"),
        ("/static/js/table_board.js", "text/javascript"),
        ("/static/css/table.css", "text/css"),
        ("/sw.js", "text/javascript"),
    ],
)
def test_pages_styles_and_scripts_are_compressed(reader: TestClient, path: str, kind: str) -> None:
    packed, body = raw_get(reader, path, GZIP)
    plain, text = raw_get(reader, path, PLAIN)
    assert packed.status_code == plain.status_code == 200
    assert packed.headers["content-type"].startswith(kind)
    assert packed.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in packed.headers["vary"].lower()
    assert has_security_headers(packed.headers)
    assert "content-encoding" not in plain.headers
    # What came compressed is what comes plain, in far fewer bytes.
    assert gzip.decompress(body) == text
    assert len(body) < len(text) / 2
    if "etag" in packed.headers:
        assert packed.headers["etag"] == "W/" + plain.headers["etag"]


def test_the_api_pictures_and_a_range_are_sent_as_they_are(client: TestClient) -> None:
    # The API carries secrets (a seat's token) beside what a client sent: never compressed.
    created = client.post("/api/games", json={"lang": "fr"}, headers=GZIP)
    assert created.status_code == 201
    assert "content-encoding" not in created.headers
    answer, _ = raw_get(client, f"/api/problems?lang=fr&token={'x' * 2000}", GZIP)
    assert answer.status_code == 200 and "content-encoding" not in answer.headers
    picture, body = raw_get(client, "/static/icons/icon-512.png", GZIP)
    assert "content-encoding" not in picture.headers and body[:4] == b"\x89PNG"
    part, chunk = raw_get(client, "/static/js/table_board.js", GZIP | {"Range": "bytes=0-99"})
    assert part.status_code == 206 and len(chunk) == 100
    assert "content-encoding" not in part.headers


@pytest.mark.parametrize("accept", [GZIP, PLAIN])
def test_a_head_has_the_headers_of_its_get_and_no_body(
    reader: TestClient, accept: dict[str, str]
) -> None:
    """A HEAD is answered (it was 405) with what its GET says, Content-Length included."""
    for path in ("/fr/rules/scoring", "/static/css/table.css", "/healthz"):
        head, nothing = raw_get_method(reader, "HEAD", path, accept)
        got, body = raw_get(reader, path, accept)
        assert head.status_code == got.status_code == 200, path
        assert nothing == b""
        for name in ("content-type", "content-encoding", "content-length", "vary"):
            assert head.headers.get(name) == got.headers.get(name), (path, name)
        if "content-length" in got.headers:
            assert int(got.headers["content-length"]) == len(body)
    assert reader.head("/fr/no-such-page").status_code == 404
    assert reader.head("/api/games").status_code == 405


def test_a_refused_encoding_gets_plain_text(reader: TestClient) -> None:
    for accept in ("gzip;q=0", "br", "identity, deflate"):
        answer, body = raw_get(reader, "/fr/rules/scoring", {"Accept-Encoding": accept})
        assert "content-encoding" not in answer.headers
        assert body.startswith(b"<!DOCTYPE html>") or body.lstrip().startswith(b"<!")


def test_no_page_holds_the_player_cookie_breach_has_nothing_to_read(
    client: TestClient, new_game: Callable[..., dict[str, str]]
) -> None:
    """What makes compressing the pages safe from BREACH: a page reflects what a visitor sent
    (its path, its query) but holds no secret beside it — the player cookie (HttpOnly) and
    a seat's token are never written into a page."""
    game = new_game(lang="fr")
    cookie = client.cookies.get("cardavia_player")
    assert cookie
    for path in ("/fr/", "/fr/me", "/fr/me/games", "/fr/lobby", "/fr/room/", "/fr/tournaments"):
        answer, body = raw_get(client, f"{path}?q={cookie[:8]}", GZIP)
        assert answer.status_code == 200, path
        text = gzip.decompress(body).decode()
        assert cookie not in text and game["token"] not in text, path


@pytest.mark.slow  # a tournament made and a deal of it started (its par worked out)
def test_the_page_that_holds_a_seat_token_is_never_compressed_and_reflects_nothing(
    client: TestClient,
) -> None:
    """A tournament deal's table gives its script the seat's token: it is sent plain (it
    says no-transform), and nothing a visitor sends comes back in it (no BREACH oracle)."""
    opens = datetime.now(UTC) - timedelta(minutes=1)
    plan = Planned("breach", "short", "cardavia", 2, opens, opens + timedelta(hours=1))
    tournaments = client.app.state.tournaments  # type: ignore[attr-defined]
    tournaments.make(plan)
    started = client.post("/api/tournaments/breach/deals/1", json={"lang": "fr"})
    assert started.status_code == 201
    marker = "ZQXMARKERZQX"
    sent = GZIP | {"Referer": marker, "User-Agent": marker, "X-Anything": marker}
    answer, body = raw_get(client, f"/fr/tournaments/breach/play/1?q={marker}&lang={marker}", sent)
    assert answer.status_code == 200
    assert "content-encoding" not in answer.headers
    assert "no-transform" in answer.headers["cache-control"]
    text = body.decode()
    assert '"token"' in text and marker not in text
    # Its tournament's page, which holds none, is compressed as every page is.
    page, _ = raw_get(client, "/fr/tournaments/breach", GZIP)
    assert page.headers["content-encoding"] == "gzip"


def test_the_table_socket_is_unaffected(
    client: TestClient,
    new_game: Callable[..., dict[str, str]],
    play_out: Callable[..., tuple[dict[str, Any], list[dict[str, Any]]]],
) -> None:
    game = new_game(lang="fr")
    url = f"/ws/games/{game['game']}?token={game['token']}&lang=fr"
    with client.websocket_connect(url, headers=GZIP) as ws:
        view, _messages = play_out(ws, random.Random(3))
    assert view["phase"] in ("over", "cancelled")
