"""What the history's and the profile's tests share: the site on a database of the test's
own, browsers on it (each a cookie jar), and deals played out with random legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.web.app import create_app

GAME = {"rules": "cardavia", "level": "beginner", "lang": "en"}
View = dict[str, Any]


@pytest.fixture(name="app")
def app_fixture(database: str) -> FastAPI:
    """The site on a SQLite file of the test's own, its computer players without a pause."""
    return create_app(
        Settings(
            database_url=database,
            ai_delay=(0.0, 0.0),
            seed=7,
            limits=Limits(games_per_minute=0, messages_per_second=0),
            allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),
        )
    )


@pytest.fixture(name="browser")
def browser_fixture(app: FastAPI) -> Iterator[Callable[[], TestClient]]:
    """Open browsers on the app: each a client with a cookie jar of its own, all on the one
    event loop of the site (its rooms' and tables' locks are the loop's)."""
    site = TestClient(app)
    site.__enter__()

    def open_browser() -> TestClient:
        client = TestClient(app)
        client.portal = site.portal
        return client

    yield open_browser
    site.__exit__(None, None, None)


def settle(ws: Any, seat: str) -> View:
    """The table's view once it waits for ``seat`` or the deal is over."""
    for _ in range(300):
        message = ws.receive_json()
        if message["type"] != "state":
            continue
        view: View = message["view"]
        if view["phase"] in ("over", "cancelled") or (view["to_move"] == seat and view["legal"]):
            return view
    raise AssertionError("the table did not settle")


def play_deal(client: TestClient, game: dict[str, str], rng: random.Random) -> View:
    """Play the game's current deal out with random legal actions; the last view."""
    path = f"/ws/games/{game['game']}?token={game['token']}"
    with client.websocket_connect(path) as ws:
        view = settle(ws, game["seat"])
        while view["phase"] not in ("over", "cancelled"):
            ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
            view = settle(ws, game["seat"])
    return view


def new_game(client: TestClient, **fields: str) -> dict[str, str]:
    response = client.post("/api/games", json=GAME | fields)
    assert response.status_code == 201
    data: dict[str, str] = response.json()
    return data


def played_deal(client: TestClient, seed: int = 1) -> tuple[dict[str, str], View]:
    """A game whose first deal was played out (and not everybody passed)."""
    rng = random.Random(seed)
    for _ in range(20):
        game = new_game(client)
        view = play_deal(client, game, rng)
        if view["phase"] == "over":
            return game, view
    raise AssertionError("every deal was passed out")
