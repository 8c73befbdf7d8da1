"""Fixtures of quick play's tests: an app on a fresh SQLite file with a short wait, and
people (each their own player cookie and, unless told, their own address: the test client
is a trusted proxy forwarding for them) joining its queue through one test client."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.web.app import create_app
from cardavia.web.guests import PLAYER_COOKIE


@pytest.fixture
def make_app(database: str) -> Callable[..., FastAPI]:
    def make(**overrides: Any) -> FastAPI:
        options: dict[str, Any] = {
            "database_url": database,
            "ai_delay": (0.0, 0.0),
            "seed": 7,
            "limits": Limits(games_per_minute=0, messages_per_second=0),
            "allowed_hosts": (*LOOPBACK_HOSTS, "testserver"),
            "quick_wait": 3600.0,
            "quick_joins_per_minute": 0.0,
            "trusted_proxies": ("testclient",),
        }
        options.update(overrides)
        return create_app(Settings(**options))

    return make


@pytest.fixture
def client(make_app: Callable[..., FastAPI]) -> Iterator[TestClient]:
    with TestClient(make_app()) as test_client:
        yield test_client


ADDRESSES = (f"198.51.100.{n % 250 + 1}" for n in itertools.count())
"""A new address for each person not told theirs."""


class Person:
    """Someone pressing "Play now": their player cookie (none before their first join) and
    the address they come from (a new one unless told)."""

    def __init__(
        self, client: TestClient, cookie: str | None = None, *, address: str | None = None
    ) -> None:
        self.client = client
        self.cookie = cookie
        self.address = address or next(ADDRESSES)

    def headers(self) -> dict[str, str]:
        cookie = {"cookie": f"{PLAYER_COOKIE}={self.cookie}"} if self.cookie else {}
        return cookie | {"x-forwarded-for": self.address}

    def join(self, preset: str = "maison", lang: str = "en", status: int = 201) -> dict[str, Any]:
        self.client.cookies.clear()
        response = self.client.post(
            f"/api/quick/{preset}", json={"lang": lang}, headers=self.headers()
        )
        assert response.status_code == status, response.text
        self.cookie = response.cookies.get(PLAYER_COOKIE) or self.cookie
        self.client.cookies.clear()
        data: dict[str, Any] = response.json()
        return data

    def socket(self, preset: str = "maison", lang: str = "en") -> Any:
        return self.client.websocket_connect(
            f"/ws/quick/{preset}?lang={lang}", headers=self.headers()
        )


def read_until(ws: Any, kind: str, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = json.loads(ws.receive_text())
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind}")
