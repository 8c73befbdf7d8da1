"""The player across several web processes (PostgreSQL and Redis, as a site with several
servers runs): a guest made by one process is the same player on another, which serves back
what they keep and links their next game to them."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.request
from collections.abc import Callable
from typing import Any

from sqlalchemy import create_engine, text

from cardavia.store.db import database_url


def opener() -> tuple[urllib.request.OpenerDirector, http.cookiejar.CookieJar]:
    """A browser of sorts: an opener keeping its cookies."""
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)), jar


def call(
    browser: urllib.request.OpenerDirector, url: str, method: str = "GET", body: Any = None
) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with browser.open(request, timeout=10) as response:
        return json.loads(response.read())


def test_a_guest_of_one_process_is_the_same_player_on_another(
    web_process: Callable[..., Any], postgres_url: str
) -> None:
    first, second = web_process(), web_process()
    browser, jar = opener()
    game = call(browser, first.http + "/api/games", "POST", {"level": "beginner"})["game"]
    (cookie,) = [c for c in jar if c.name == "cardavia_player"]
    call(browser, first.http + "/api/me", "PUT", {"name": "Ana", "settings": {"sounds": True}})
    # The cookie is the site's, whichever process answers: the jar sends it to the other port.
    me = call(browser, second.http + "/api/me")
    assert (me["player"], me["name"], me["settings"]) == (True, "Ana", {"sounds": True})
    other = call(browser, second.http + "/api/games", "POST", {"level": "beginner"})["game"]
    assert [c.value for c in jar if c.name == "cardavia_player"] == [cookie.value]
    engine = create_engine(database_url(postgres_url))
    with engine.connect() as connection:
        linked = connection.execute(
            text(
                "SELECT g.game_id FROM player_games g JOIN players p ON p.id = g.player_id"
                " WHERE p.name = 'Ana' ORDER BY g.created_at"
            )
        ).all()
    engine.dispose()
    assert [row.game_id for row in linked] == [game, other]


def test_a_passkey_added_on_one_process_signs_in_on_another(
    web_process: Callable[..., Any], soft_authenticator: Any
) -> None:
    """The ceremonies' challenges are in the database: a passkey added through one process
    signs in through another, each ceremony begun on one and answered on the other."""
    first, second = web_process(), web_process()
    owner, _ = opener()
    call(owner, first.http + "/api/me", "PUT", {"name": "Ana"})
    key = soft_authenticator(second.http, "127.0.0.1")
    begun = call(owner, first.http + "/api/passkeys/register/options", "POST", {})
    answer = key.register(begun["options"])
    body = {"ceremony": begun["ceremony"], "credential": answer}
    added = call(owner, second.http + "/api/passkeys/register", "POST", body)
    assert len(added["passkeys"]) == 1
    other, _ = opener()
    begun = call(other, second.http + "/api/passkeys/signin/options", "POST", {})
    key.origin = first.http
    body = {"ceremony": begun["ceremony"], "credential": key.sign_in(begun["options"])}
    signed = call(other, first.http + "/api/passkeys/signin", "POST", body)
    assert (signed["player"], signed["name"]) == (True, "Ana")
    assert call(other, second.http + "/api/me")["name"] == "Ana"
