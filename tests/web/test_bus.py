"""The table service with a bus of several processes, without Redis: a bus that is slow to
give a lease up must not leave a table waiting, and a change from another process reaches
the table's connections."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.live.bus import LocalBus

Settle = Callable[..., tuple[dict[str, Any], list[dict[str, Any]]]]


class SlowBus(LocalBus):
    """A bus of several processes, this one alone on it, slow to give a lease up."""

    distributed = True

    def __init__(self) -> None:
        self.published: list[tuple[str, int]] = []

    async def publish(self, game_id: str, revision: int) -> None:
        self.published.append((game_id, revision))

    async def release(self, game_id: str) -> None:
        await asyncio.sleep(0.2)


def socket_url(game: dict[str, str]) -> str:
    return f"/ws/games/{game['game']}?token={game['token']}&lang=en"


def test_a_lease_given_up_slowly_leaves_no_table_waiting(
    make_app: Callable[..., FastAPI], play_out: Settle
) -> None:
    bus = SlowBus()
    app = make_app(bus=bus)
    with TestClient(app) as client:
        game = client.post("/api/games", json={"rules": "coinche", "level": "club"}).json()
        with client.websocket_connect(socket_url(game)) as ws:
            view, _ = play_out(ws, random.Random(2))
        assert view["phase"] in ("over", "cancelled")
        # Every change was published, in order.
        revisions = [revision for game_id, revision in bus.published if game_id == game["game"]]
        assert revisions == list(range(1, len(revisions) + 1))
        assert len(revisions) == view["step"]


def test_a_change_from_another_process_reaches_the_connections(
    make_app: Callable[..., FastAPI], settle: Settle, database: str
) -> None:
    from cardavia.store.db import GameStore
    from cardavia.store.events import action_event

    app = make_app(bus=SlowBus())
    with TestClient(app) as client:
        game = client.post("/api/games", json={"rules": "coinche", "level": "club"}).json()
        with client.websocket_connect(socket_url(game)) as ws:
            view, _ = settle(ws)
            assert view["to_move"] == "S"
            # Another process saves South's pass (through the store) and says so.
            other = GameStore(database)
            revision = other.append(game["game"], action_event("S pass"), revision=view["step"])
            other.close()
            service = app.state.tables
            client.portal.call(service.on_remote_change, game["game"], revision)  # type: ignore[union-attr]
            seen = ws.receive_json()["view"]
            assert seen["step"] == view["step"] + 1
            assert seen["bids"][-1]["seat"] == "S"
