"""Leaving a quick-play deal for good is rated as a loss for the leaver (docs/players.md,
"Leaving" and "Ratings"), on the embedded site: the page's "It counts as a lost game for
you alone…" holds for the rating too, not only for the completion rate."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.quickplay.conftest import Person, read_until
from tests.web.test_rooms import Seated, room_url

from cardavia.players.ratings import MU
from cardavia.store.db import GameStore
from cardavia.store.quickplay import Completion


def player_of(app: Any, who: Person) -> str:
    player = app.state.store.players.find(who.cookie)
    assert player is not None
    return str(player.id)


def deal_over(client: TestClient, code: str) -> bool:
    """Whether the room's deal in play is over (its table read here)."""
    app: Any = client.app
    table = client.portal.call(app.state.rooms.table, app.state.rooms.rooms[code])
    return table is not None and bool(table.match.deal.is_over)


def soon(test: Callable[[], bool], seconds: float = 30.0) -> bool:
    """Whether ``test`` holds within ``seconds`` (polled: the room's work runs on its own
    tasks, on a busy machine after what a test reads)."""
    until = time.monotonic() + seconds
    while not test() and time.monotonic() < until:
        time.sleep(0.05)
    return test()


def test_leaving_a_deal_for_good_rates_it_as_a_loss_for_the_leaver(
    make_app: Callable[..., FastAPI],
) -> None:
    """A guest seated with three computer players opens the table, then leaves it mid-deal:
    one rating change for them, a loss; none more once the deal ends under the computer."""
    with TestClient(make_app(quick_wait=0.2)) as client:
        app: Any = client.app
        store: GameStore = app.state.store
        guest = Person(client)
        guest.join("cardavia")
        with guest.socket("cardavia") as ws:
            seated = read_until(ws, "seated")
        code, token = seated["room"], seated["token"]
        leaver = player_of(app, guest)
        with client.websocket_connect(room_url(code, token)) as ws:
            mine = Seated(ws, seated["seat"])
            view = mine.read_until(lambda m: m["type"] == "state")["view"]
            assert view["phase"] != "over"
            mine.send({"type": "leave"})
            mine.read_until(lambda m: m["type"] == "error" and m["code"] == "removed")
        assert soon(lambda: store.quick.completion(leaver) == Completion(0, 1))
        assert soon(lambda: len(store.ratings.history(leaver)) == 1)
        (change,) = store.ratings.history(leaver)
        assert change.room_code == code and change.deal == 1 and change.family == "classic"
        assert change.mu < MU
        # The deal goes on under the computer player; its end rates nobody more.
        assert soon(lambda: deal_over(client, code))
        assert len(store.ratings.history(leaver)) == 1
        assert store.ratings.current(leaver, "classic").deals == 1
