"""Told while the site is closed (docs/players.md, "Told when the site is closed"): a browser
subscribed hands its push subscription to the site, and a friend's invitation, or a
tournament of theirs about to close, is posted to its push service — here a push service on
this machine, which reads what it is sent as a real one does, and decrypts it with the
browser's key as the browser would (RFC 8291), after checking the site's signature (VAPID,
RFC 8292). Only a push service's endpoint is taken; a subscription its service says is
gone is forgotten; a site without a key offers nothing; an erased player's browsers go."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi import FastAPI
from fastapi.testclient import TestClient
from py_vapid import Vapid02
from sqlalchemy import text
from tests.players.plays import browser_fixture
from tests.players.test_friends import lists, met
from tests.tournaments.test_play import TOURNAMENT, tournament_site

from cardavia.live.friends import CLOSING_SOON, closing_entry
from cardavia.live.push import Push, b64, site_key, unb64
from cardavia.live.settings import PushSettings

__all__ = ["browser_fixture"]

CONTACT = "mailto:push@cardavia.test"


@dataclass
class PushService:
    """A push service on this machine: what it was posted (the path, the headers by their
    names in lower case, the body); ``/gone/…`` answers 410
    (the browser unsubscribed), as the real services say it."""

    url: str
    received: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)

    def wait(self, count: int) -> list[tuple[str, dict[str, str], bytes]]:
        """What was posted, once ``count`` messages were (the site sends in the background)."""
        for _ in range(200):
            if len(self.received) >= count:
                break
            time.sleep(0.025)
        return list(self.received)


@pytest.fixture(name="service")
def service_fixture() -> Iterator[PushService]:
    found: list[tuple[str, dict[str, str], bytes]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            found.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(410 if self.path.startswith("/gone/") else 201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield PushService(f"http://127.0.0.1:{server.server_address[1]}", found)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(name="key_file")
def key_file_fixture(tmp_path: Path) -> Path:
    """The site's key, as ``vapid --gen`` makes one."""
    vapid = Vapid02()
    vapid.generate_keys()
    path = tmp_path / "private_key.pem"
    vapid.save_key(str(path))
    return path


def push_site(database: str, settings: PushSettings) -> FastAPI:
    """The site with ``settings``' pushes, and a short tournament closing within the hour."""
    return tournament_site(database, push=settings)


@pytest.fixture(name="app")
def app_fixture(database: str, key_file: Path, service: PushService) -> FastAPI:
    return push_site(database, PushSettings(key_file, CONTACT, (service.url,)))


@dataclass
class Browser:
    """A browser's side of a subscription: its key pair and secret (RFC 8291)."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    secret: bytes = field(default_factory=lambda: b"0123456789abcdef")

    def subscription(self, lang: str) -> dict[str, Any]:
        """What the page posts: its ``PushSubscription`` as JSON, and its language."""
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        keys = {"p256dh": b64(point), "auth": b64(self.secret)}
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": keys, "lang": lang}

    def read(self, body: bytes) -> dict[str, str]:
        """The message, decrypted with this browser's key as the browser does."""
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.secret, version="aes128gcm"
        )
        found: dict[str, str] = json.loads(plain)
        return found


def signed_by_the_site(headers: dict[str, str], key: str, audience: str) -> bool:
    """Whether ``headers`` (their names in lower case) carry the site's VAPID signature,
    for ``audience``, with its contact (the push service's checks)."""
    auth = headers["authorization"]
    if not Vapid02.verify(auth):
        return False
    fields = dict(part.split("=", 1) for part in auth.split(" ", 1)[1].split(","))
    claims = json.loads(unb64(fields["t"].split(".")[1]))
    return fields["k"] == key and claims["aud"] == audience and claims["sub"] == CONTACT


def test_a_friends_invitation_reaches_a_closed_browser_for_it_alone(
    browser: Callable[[], TestClient], service: PushService
) -> None:
    ana, bo, code = met(browser)
    ana.post("/api/friends", json={"room": code, "seat": "N"})
    bo.post("/api/friends", json={"room": code, "seat": "S"})
    key = bo.get("/api/push").json()["key"]
    assert len(unb64(key)) == 65  # an uncompressed P-256 point, as pushManager wants it
    phone = Browser(f"{service.url}/bo/phone")
    answer = bo.post("/api/push", json=phone.subscription("fr"))
    assert answer.status_code == 201 and answer.json() == {"subscribed": True}
    room = ana.post(
        "/api/rooms", json={"name": "Ana", "rules": "coinche", "level": "club", "lang": "en"}
    ).json()["room"]
    friend = lists(ana)["friends"][0]["key"]
    assert ana.post(f"/api/friends/{friend}/invite", json={"room": room}).status_code == 200
    ((path, headers, body),) = service.wait(1)
    assert path == "/bo/phone"
    assert headers["content-encoding"] == "aes128gcm" and headers["ttl"] == "3600"
    assert signed_by_the_site(headers, key, service.url)
    assert room.encode() not in body and b"Ana" not in body  # the service reads nothing
    note = phone.read(body)
    assert note == {
        "title": "Cardavia",
        "body": "Ana vous invite dans sa salle.",
        "url": f"/fr/room/{room}",
        "tag": "invite",
        "lang": "fr",
    }
    # The page's own invitation is there too, for a page open.
    (invite,) = bo.post("/api/friends/news", json={"where": "online"}).json()["invites"]
    assert invite["room"] == room
    # Switched off: nothing more is posted to that browser.
    ended = bo.request("DELETE", "/api/push", json={"endpoint": phone.endpoint, "lang": "fr"})
    assert ended.status_code == 200 and ended.json() == {"subscribed": False}
    assert ana.post(f"/api/friends/{friend}/invite", json={"room": room}).status_code == 200
    time.sleep(0.2)
    assert len(service.received) == 1


def test_only_a_push_services_endpoint_is_taken(
    app: FastAPI, browser: Callable[[], TestClient], service: PushService
) -> None:
    person = browser()
    good = Browser(f"{service.url}/person").subscription("ar")
    # No player yet (no cookie): refused, in the page's language.
    refused = person.post("/api/push", json=good)
    assert (refused.status_code, refused.json()["code"]) == (403, "bad_token")
    person.put("/api/me", json={"settings": {"sounds": True}})
    wrong: list[dict[str, Any]] = [
        good | {"endpoint": "http://127.0.0.1:1/internal"},  # not the service: another port
        good | {"endpoint": f"{service.url}.evil.example/x"},
        good | {"endpoint": "https://fcm.googleapis.com.evil.example/x"},
        good | {"endpoint": f"{service.url}/" + "x" * 1000},
        good | {"endpoint": 7},
        good | {"keys": {"p256dh": good["keys"]["p256dh"][:-4], "auth": good["keys"]["auth"]}},
        good | {"keys": {"p256dh": good["keys"]["p256dh"], "auth": "not base64!"}},
        good | {"keys": "none"},
        good | {"extra": True},
    ]
    for data in wrong:
        answer = person.post("/api/push", json=data)
        assert answer.status_code == 400, data
        assert answer.json()["code"] in ("bad_subscription", "unknown_field"), answer.json()
    said = person.post("/api/push", json=wrong[0]).json()["message"]
    assert said.startswith("تعذّرت قراءة اشتراك هذا المتصفّح")
    assert (
        app.state.store.engine.connect()
        .execute(text("SELECT COUNT(*) FROM push_subscriptions"))
        .scalar()
        == 0
    )
    assert person.post("/api/push", json=good).status_code == 201
    # A real service's endpoint, where the site's list does not name it (this one names the
    # test's service alone): refused too.
    windows = good | {"endpoint": "https://wns2-par02p.notify.windows.com/w/?token=abc"}
    assert person.post("/api/push", json=windows).status_code == 400


def test_a_subscription_its_service_says_is_gone_is_forgotten(
    app: FastAPI, browser: Callable[[], TestClient], service: PushService
) -> None:
    person = browser()
    person.put("/api/me", json={"settings": {"sounds": True}})
    for path in ("/gone/old-phone", "/laptop"):
        data = Browser(service.url + path).subscription("en")
        assert person.post("/api/push", json=data).status_code == 201
    player = next(iter(app.state.store.engine.connect().execute(text("SELECT id FROM players"))))[0]
    push: Push = app.state.live.push

    def note(words: Any) -> dict[str, str]:
        return {"title": "Cardavia", "body": "test", "url": "/en/", "tag": "t", "lang": words.lang}

    assert person.portal.call(push.send, player, note) == 1
    assert sorted(path for path, _, _ in service.received) == ["/gone/old-phone", "/laptop"]
    kept = app.state.store.push.of(player)
    assert [s.endpoint for s in kept] == [service.url + "/laptop"]


def test_a_tournament_about_to_close_is_pushed_once_whichever_process_looks(
    app: FastAPI, browser: Callable[[], TestClient], service: PushService
) -> None:
    person, finished = browser(), browser()
    phone = Browser(f"{service.url}/person")
    for client, path in ((person, "/person"), (finished, "/finished")):
        started = client.post(f"/api/tournaments/{TOURNAMENT}/deals/1", json={"lang": "en"})
        assert started.status_code == 201
        data = phone.subscription("fr") | {"endpoint": service.url + path}
        assert client.post("/api/push", json=data).status_code == 201
    store = app.state.store
    # The second player finished their deals: nothing for them.
    with store.engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE tournament_entries SET finished_at = started_at WHERE player_id IN "
                "(SELECT player_id FROM push_subscriptions WHERE endpoint LIKE '%/finished')"
            )
        )
    push: Push = app.state.live.push
    # Another process, on the same database: whichever looks first tells, the other does not.
    other = Push(store, push.settings, app.state.live.catalogs)
    told = person.portal.call(push.remind_closing, CLOSING_SOON, closing_entry)
    again = person.portal.call(other.remind_closing, CLOSING_SOON, closing_entry)
    assert (told, again) == (1, 0)
    ((path, _, body),) = service.received
    assert path == "/person"
    note = phone.read(body)
    name = "Tournoi express · Table Cardavia"
    assert note["body"] == f"{name} se clôture dans l’heure\u00a0: vos donnes vous attendent."
    assert note["url"] == f"/fr/tournaments/{TOURNAMENT}" and note["tag"] == "closing"


def test_a_site_without_a_key_offers_nothing_and_an_erased_player_leaves_no_browser(
    app: FastAPI,
    tmp_path: Path,
    pristine_database: Path,
    service: PushService,
    browser: Callable[[], TestClient],
) -> None:
    shutil.copyfile(pristine_database, tmp_path / "bare.db")
    bare = TestClient(push_site(f"sqlite:///{tmp_path / 'bare.db'}", PushSettings()))
    assert bare.get("/api/push").json() == {"key": None}
    assert "data-push-key" not in bare.get("/fr/").text
    bare.put("/api/me", json={"settings": {"sounds": True}})
    refused = bare.post("/api/push", json=Browser(service.url + "/x").subscription("en"))
    assert (refused.status_code, refused.json()["code"]) == (400, "push_unavailable")
    # With its key, every page's settings offer it (shown where the browser can).
    person = browser()
    assert "data-push-key=" in person.get("/fr/").text
    person.put("/api/me", json={"settings": {"sounds": True}})
    assert (
        person.post("/api/push", json=Browser(service.url + "/p").subscription("pl")).status_code
        == 201
    )
    export = person.get("/api/me/export").json()
    assert export["push_subscriptions"] == [{"endpoint": service.url + "/p", "lang": "pl"}]
    assert person.request("DELETE", "/api/me", json={"confirm": True}).status_code == 200
    with app.state.store.engine.connect() as connection:
        assert list(connection.execute(text("SELECT * FROM push_subscriptions"))) == []


def test_a_key_that_is_not_there_or_not_a_key_stops_the_site_clearly(tmp_path: Path) -> None:
    """A wrong ``CARDAVIA_PUSH_KEY`` is said at the start, and no key is made in its place
    (each process would make its own)."""
    missing = tmp_path / "missing.pem"
    with pytest.raises(ValueError, match="names no file"):
        site_key(missing)
    assert not missing.exists()
    broken = tmp_path / "broken.pem"
    broken.write_text("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n")
    with pytest.raises(ValueError, match="is not a private key"):
        site_key(broken)
