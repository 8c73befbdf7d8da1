"""The passkeys' routes refuse what does not hold (docs/players.md): an answer that is not a
WebAuthn one, a ceremony unknown or spent or another player's, a request from another site
or not in JSON, a passkey that is not the player's; sign-out ends the session. (The
ceremonies themselves, with Chromium's virtual authenticator: tests/browser/test_players.py.)"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.web.app import create_app
from cardavia.web.edge import LOOPBACK_HOSTS
from cardavia.web.guests import PLAYER_COOKIE
from cardavia.web.limits import Limits
from cardavia.web.settings import Settings

GAME = {"rules": "cardavia", "level": "beginner", "lang": "en"}
ANSWER = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}}


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'cardavia.db'}",
            ai_delay=(0.0, 0.0),
            seed=7,
            limits=Limits(games_per_minute=0, messages_per_second=0),
            allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),
        )
    )


@pytest.fixture
def browser(app: FastAPI) -> Iterator[Callable[[], TestClient]]:
    clients: list[TestClient] = []

    def open_browser() -> TestClient:
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return client

    yield open_browser
    for client in clients:
        client.__exit__(None, None, None)


def refused(response: Any, status: int, code: str) -> None:
    assert (response.status_code, response.json()["code"]) == (status, code), response.text


def test_registration_options_are_the_sites_and_make_a_guest(
    browser: Callable[[], TestClient],
) -> None:
    person = browser()
    begun = person.post("/api/passkeys/register/options", json={})
    assert begun.status_code == 200 and PLAYER_COOKIE in person.cookies
    options = begun.json()["options"]
    assert options["rp"] == {"id": "testserver", "name": "Cardavia"}
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert len(options["challenge"]) >= 43 and begun.json()["ceremony"]
    again = person.post("/api/passkeys/register/options", json={}).json()
    assert again["options"]["user"]["id"] == options["user"]["id"]  # the same player
    assert again["options"]["challenge"] != options["challenge"]


def test_an_answer_that_does_not_hold_is_refused_and_spends_its_ceremony(
    browser: Callable[[], TestClient],
) -> None:
    person = browser()
    ceremony = person.post("/api/passkeys/register/options", json={}).json()["ceremony"]
    body = {"ceremony": ceremony, "credential": ANSWER}
    refused(person.post("/api/passkeys/register", json=body), 400, "passkey_refused")
    refused(person.post("/api/passkeys/register", json=body), 400, "passkey_refused")
    refused(
        person.post("/api/passkeys/register", json={"ceremony": ceremony}), 400, "missing_field"
    )
    assert person.get("/api/passkeys").json() == {"passkeys": []}


def test_a_ceremony_is_its_players_own(browser: Callable[[], TestClient]) -> None:
    owner, other = browser(), browser()
    ceremony = owner.post("/api/passkeys/register/options", json={}).json()["ceremony"]
    other.post("/api/games", json=GAME)
    body = {"ceremony": ceremony, "credential": ANSWER}
    refused(other.post("/api/passkeys/register", json=body), 400, "passkey_refused")
    # Nor is a registration's ceremony a sign-in's.
    ceremony = owner.post("/api/passkeys/register/options", json={}).json()["ceremony"]
    refused(
        other.post("/api/passkeys/signin", json={"ceremony": ceremony, "credential": ANSWER}),
        400,
        "passkey_refused",
    )


def test_adding_a_passkey_needs_a_player(browser: Callable[[], TestClient]) -> None:
    body = {"ceremony": "x", "credential": ANSWER}
    refused(browser().post("/api/passkeys/register", json=body), 403, "bad_token")


def test_a_sign_in_with_an_unknown_passkey_is_refused(browser: Callable[[], TestClient]) -> None:
    person = browser()
    ceremony = person.post("/api/passkeys/signin/options", json={}).json()["ceremony"]
    body = {"ceremony": ceremony, "credential": ANSWER}
    refused(person.post("/api/passkeys/signin", json=body), 400, "passkey_refused")
    assert PLAYER_COOKIE not in person.cookies
    refused(person.post("/api/passkeys/signin", json=body), 400, "passkey_refused")


@pytest.mark.parametrize(
    "path",
    ["/api/passkeys/register/options", "/api/passkeys/signin/options", "/api/signout"],
)
def test_state_changes_are_json_from_the_site(browser: Callable[[], TestClient], path: str) -> None:
    person = browser()
    elsewhere = {"Origin": "https://evil.example"}
    refused(person.post(path, json={}, headers=elsewhere), 403, "bad_origin")
    refused(
        person.post(path, content=b"{}", headers={"Content-Type": "text/plain"}), 415, "not_json"
    )
    refused(person.post(path, json={"player": "x"}), 400, "unknown_field")


def test_a_passkey_not_the_players_cannot_be_revoked(browser: Callable[[], TestClient]) -> None:
    person = browser()
    refused(person.delete("/api/passkeys/AAAA"), 403, "bad_token")
    person.post("/api/games", json=GAME)
    refused(person.delete("/api/passkeys/AAAA"), 404, "not_found")
    elsewhere = {"Origin": "https://evil.example"}
    refused(person.delete("/api/passkeys/AAAA", headers=elsewhere), 403, "bad_origin")


def test_sign_out_ends_the_session(app: FastAPI, browser: Callable[[], TestClient]) -> None:
    person = browser()
    person.post("/api/games", json=GAME)
    person.put("/api/me", json={"name": "Ana"})
    token = person.cookies[PLAYER_COOKIE]
    out = person.post("/api/signout", json={})
    assert out.status_code == 200 and out.json()["player"] is False
    assert PLAYER_COOKIE not in person.cookies
    thief = browser()  # the old cookie, kept by someone: it names nobody now
    assert (
        thief.get("/api/me", headers={"Cookie": f"{PLAYER_COOKIE}={token}"}).json()["player"]
        is False
    )


def test_ceremonies_are_rate_limited(browser: Callable[[], TestClient]) -> None:
    person = browser()
    statuses = [person.post("/api/passkeys/signin/options", json={}).status_code for _ in range(25)]
    assert statuses[0] == 200 and 429 in statuses
