"""Fixtures of the site's tests: an app on a temporary SQLite file with no AI pause and a
seeded shuffle, a client, and helpers that create games and follow a table's messages."""

from __future__ import annotations

import faulthandler
import random
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.ai.decisions import Decisions
from cardavia.belote import DealState, Seat, card_code
from cardavia.live.bus import LocalBus
from cardavia.live.game_server import GameServer
from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.web.app import create_app

View = dict[str, Any]
WATCHDOG_SECONDS = int(__import__("os").environ.get("CARDAVIA_TEST_WATCHDOG", "180"))


@pytest.fixture(autouse=True)
def watchdog() -> Iterator[None]:
    """Stop a test that hangs (a socket waiting for a message that never comes) with every
    thread's traceback, rather than let the suite run forever."""
    faulthandler.dump_traceback_later(WATCHDOG_SECONDS, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def make_app(database: str) -> Callable[..., FastAPI]:
    """Make an app on the test database (the same file each time: a restart), with the
    computer players answering at once unless ``ai_delay`` says otherwise, and no rate
    limits unless ``limits`` says otherwise; ``bus`` or ``decisions``: the game server's,
    given when it is built (:meth:`~cardavia.live.game_server.GameServer.build`)."""

    def make(
        *, bus: LocalBus | None = None, decisions: Decisions | None = None, **overrides: Any
    ) -> FastAPI:
        options: dict[str, Any] = {
            "database_url": database,
            "ai_delay": (0.0, 0.0),
            "seed": 7,
            # Tests send messages and create games faster than a person: the rate limits
            # are off unless a test sets them (tests/web/test_fair_use.py).
            "limits": Limits(games_per_minute=0, messages_per_second=0),
            # The test client sends ``Host: testserver``.
            "allowed_hosts": (*LOOPBACK_HOSTS, "testserver"),
        }
        options.update(overrides)
        settings = Settings(**options)
        if bus is None and decisions is None:
            return create_app(settings)
        return create_app(live=GameServer.build(settings, bus=bus, decisions=decisions))

    return make


@pytest.fixture
def client(make_app: Callable[..., FastAPI]) -> Iterator[TestClient]:
    """A client of a fresh app (its lifespan running: one event loop for the whole test)."""
    with TestClient(make_app()) as test_client:
        yield test_client


@pytest.fixture
def new_game(client: TestClient) -> Callable[..., dict[str, str]]:
    """Create a game through the API; answers ``{"game", "token", "seat"}``."""

    def create(
        rules: str = "cardavia", level: str = "beginner", lang: str = "en"
    ) -> dict[str, str]:
        response = client.post("/api/games", json={"rules": rules, "level": level, "lang": lang})
        assert response.status_code == 201, response.text
        data: dict[str, str] = response.json()
        return data

    return create


def is_my_turn(view: View) -> bool:
    """Whether South must act now."""
    return view["to_move"] == "S" and bool(view["legal"])


def is_settled(view: View) -> bool:
    """Whether the table waits for South: South's turn, or the deal is over."""
    return is_my_turn(view) or view["phase"] in ("over", "cancelled")


@pytest.fixture
def settle() -> Callable[..., tuple[View, list[dict[str, Any]]]]:
    """Read a socket's messages until the table waits for South; answers the last view and
    every message read (a test fails rather than hang if the table never settles)."""

    def read(ws: Any, limit: int = 200) -> tuple[View, list[dict[str, Any]]]:
        messages: list[dict[str, Any]] = []
        for _ in range(limit):
            message = ws.receive_json()
            messages.append(message)
            if message["type"] == "state" and is_settled(message["view"]):
                return message["view"], messages
        raise AssertionError(f"the table did not settle in {limit} messages")

    return read


@pytest.fixture
def play_out(
    settle: Callable[..., tuple[View, list[dict[str, Any]]]],
) -> Callable[..., tuple[View, list[dict[str, Any]]]]:
    """Play South with random legal actions until the deal is over; answers the final view
    and every message. ``view``: the table's view if it was already read (else the socket
    is read until the table waits for South)."""

    def play(
        ws: Any, rng: random.Random, view: View | None = None
    ) -> tuple[View, list[dict[str, Any]]]:
        messages: list[dict[str, Any]] = []
        if view is None:
            view, messages = settle(ws)
        while view["phase"] not in ("over", "cancelled"):
            ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
            view, more = settle(ws)
            messages += more
        return view, messages

    return play


def cards_seat_may_know(state: DealState, seat: Seat | None) -> set[str]:
    """The cards a seat may know in a state (``None``: a watcher, who holds none), worked out
    from the state itself, not from an observation: its own cards, every card played, the
    turned card of classic tables, and the cards of the announcements shown after the first
    trick. The no-leak tests check every message against it."""
    known = set(state.hand(seat).codes()) if seat is not None else set()
    for trick in state.tricks:
        known |= {card_code(card) for card in trick.cards}
    known |= {card_code(card) for _, card in state.trick}
    if state.rules.bidding == "classic":
        known.add(card_code(state.deck[20]))
    winner = state.announcement_winner
    if winner is not None:
        for other in winner.seats:
            for item in state.declared[other]:
                known |= set(item.card_set.codes())
    return known


@pytest.fixture(scope="module")
def shared_site(
    tmp_path_factory: pytest.TempPathFactory, pristine_database: Path
) -> Iterator[TestClient]:
    """One site for the tests of a module that only read it (its pages, its problems, its
    errors): made once, where a site for each such test was most of its time."""
    database = tmp_path_factory.mktemp("site") / "cardavia.db"
    shutil.copyfile(pristine_database, database)
    settings = Settings(
        database_url=f"sqlite:///{database}",
        seed=7,
        limits=Limits(games_per_minute=0, messages_per_second=0),
        allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),
    )
    with TestClient(create_app(settings)) as site:
        yield site


@pytest.fixture
def reader(shared_site: TestClient) -> TestClient:
    """A visitor of :func:`shared_site`: a client of its own (its own cookies), on the site's
    one event loop."""
    visitor = TestClient(shared_site.app)
    visitor.portal = shared_site.portal
    return visitor
