"""The passkeys' routes refuse what does not hold (docs/players.md): an answer that is not a
WebAuthn one, a ceremony unknown or spent or another player's, a request from another site
or not in JSON, a passkey that is not the player's; sign-out ends the session. (The
ceremonies themselves, with Chromium's virtual authenticator: tests/browser/test_players.py.)"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.web.app import create_app
from cardavia.web.guests import PLAYER_COOKIE

GAME = {"rules": "cardavia", "level": "beginner", "lang": "en"}
ANSWER = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}}


@pytest.fixture
def app(database: str) -> FastAPI:
    return create_app(
        Settings(
            database_url=database,
            ai_delay=(0.0, 0.0),
            seed=7,
            limits=Limits(games_per_minute=0, messages_per_second=0),
            allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),
            # Each browser a client of its own (the limits count each apart).
            trusted_proxies=("testclient",),
        )
    )


@pytest.fixture
def browser(app: FastAPI) -> Iterator[Callable[[], TestClient]]:
    clients: list[TestClient] = []

    def open_browser() -> TestClient:
        client = TestClient(app, headers={"X-Forwarded-For": f"198.51.100.{len(clients) + 1}"})
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


def add_passkey(client: TestClient, key: Any) -> dict[str, Any]:
    begun = client.post("/api/passkeys/register/options", json={}).json()
    answer = key.register(begun["options"])
    added = client.post(
        "/api/passkeys/register", json={"ceremony": begun["ceremony"], "credential": answer}
    )
    assert added.status_code == 201, added.text
    result: dict[str, Any] = added.json()
    return result


def sign_in(client: TestClient, key: Any) -> tuple[Any, dict[str, Any]]:
    begun = client.post("/api/passkeys/signin/options", json={}).json()
    body = {"ceremony": begun["ceremony"], "credential": key.sign_in(begun["options"])}
    return client.post("/api/passkeys/signin", json=body), body


def test_a_passkey_signs_in_as_its_player_and_nothing_else(
    app: FastAPI, browser: Callable[[], TestClient], soft_authenticator: Any
) -> None:
    key = soft_authenticator("http://testserver", "testserver")
    owner = browser()
    owner.post("/api/games", json=GAME)
    owner.put("/api/me", json={"name": "Ana", "settings": {"fourColour": True}})
    added = add_passkey(owner, key)
    assert [p["id"] for p in added["passkeys"]] == [added["passkey"]["id"]]

    # Another browser, a guest already (a cookie planted there, say): signed in, it is the
    # owner's player under a new token; the token it came with names nobody now.
    other = browser()
    other.post("/api/games", json=GAME)
    planted = other.cookies[PLAYER_COOKIE]
    signed, body = sign_in(other, key)
    assert signed.status_code == 200, signed.text
    assert signed.json() == owner.get("/api/me").json()
    assert other.cookies[PLAYER_COOKIE] not in (planted, owner.cookies[PLAYER_COOKIE])
    stranger = browser()
    assert (
        stranger.get("/api/me", headers={"Cookie": f"{PLAYER_COOKIE}={planted}"}).json()["player"]
        is False
    )
    # The answer replayed: its ceremony is spent.
    refused(other.post("/api/passkeys/signin", json=body), 400, "passkey_refused")
    # A fresh ceremony, but the authenticator's counter behind the one last seen (a clone).
    key.count = 0
    refused(sign_in(browser(), key)[0], 400, "passkey_refused")
    # Signed by another key under this passkey's id: refused.
    forger = soft_authenticator("http://testserver", "testserver")
    forger.credential, forger.count = key.credential, 100
    refused(sign_in(browser(), forger)[0], 400, "passkey_refused")
    # Made for another site: refused.
    elsewhere = soft_authenticator("https://evil.example", "evil.example")
    elsewhere.credential, elsewhere.key, elsewhere.count = key.credential, key.key, 100
    refused(sign_in(browser(), elsewhere)[0], 400, "passkey_refused")
    # The counter moved on: accepted again.
    key.count = 50
    assert sign_in(browser(), key)[0].status_code == 200

    # Revoked by its owner: the sessions it opened end, and it signs in no more.
    passkey = added["passkey"]["id"]
    assert owner.delete(f"/api/passkeys/{passkey}").json() == {"passkeys": []}
    assert other.get("/api/me").json()["player"] is False
    assert owner.get("/api/me").json()["name"] == "Ana"
    refused(sign_in(browser(), key)[0], 400, "passkey_refused")


def test_several_passkeys_each_listed_and_revoked_alone(
    browser: Callable[[], TestClient], soft_authenticator: Any
) -> None:
    owner = browser()
    keys = [soft_authenticator("http://testserver", "testserver") for _ in range(3)]
    for key in keys:
        add_passkey(owner, key)
    listed = owner.get("/api/passkeys").json()["passkeys"]
    assert len(listed) == 3
    # The same passkey cannot be added twice, nor another player's revoked.
    begun = owner.post("/api/passkeys/register/options", json={}).json()
    assert len(begun["options"]["excludeCredentials"]) == 3
    thief = browser()
    thief.post("/api/games", json=GAME)
    refused(thief.delete(f"/api/passkeys/{listed[0]['id']}"), 404, "not_found")
    owner.delete(f"/api/passkeys/{listed[1]['id']}")
    assert [p["id"] for p in owner.get("/api/passkeys").json()["passkeys"]] == [
        listed[0]["id"],
        listed[2]["id"],
    ]
    assert sign_in(browser(), keys[2])[0].status_code == 200
    refused(sign_in(browser(), keys[1])[0], 400, "passkey_refused")


def test_a_passkey_without_a_counter_and_its_clone_both_sign_in(
    browser: Callable[[], TestClient], soft_authenticator: Any
) -> None:
    """What the counter cannot detect (docs/players.md): an authenticator that keeps no
    counter signs with 0 every time, as many passkeys do, and WebAuthn accepts 0 after 0, so
    a copy of it signs in as the original does. Only revoking the passkey stops them both."""
    key = soft_authenticator("http://testserver", "testserver")
    owner = browser()
    owner.post("/api/games", json=GAME)
    owner.put("/api/me", json={"name": "Ana"})
    added = add_passkey(owner, key)
    clone = soft_authenticator("http://testserver", "testserver")
    clone.credential, clone.key, clone.user_handle = key.credential, key.key, key.user_handle
    for signer in (key, clone, key):
        signer.count = -1  # its sign_in moves it on by one: it signs with 0
        signed = sign_in(browser(), signer)[0]
        assert signed.status_code == 200 and signed.json()["name"] == "Ana", signed.text
    (listed,) = owner.get("/api/passkeys").json()["passkeys"]
    assert listed["used_at"] is not None  # what the player sees of a use: its date
    owner.delete(f"/api/passkeys/{added['passkey']['id']}")
    for signer in (key, clone):
        signer.count = -1
        refused(sign_in(browser(), signer)[0], 400, "passkey_refused")
