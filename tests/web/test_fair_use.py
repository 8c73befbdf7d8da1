"""Fair use (issue 9, item 4): game creation and messages rate-limited per client, sockets
per game capped, outgoing queues bounded, the computer players' work capped per client, and
abandoned games deleted while finished ones are kept. Every refusal is in the player's
language."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardavia.ai.levels import LEVELS, register_player
from cardavia.belote.actions import Action
from cardavia.belote.observation import Observation
from cardavia.live.limits import Limits, RateLimiter
from cardavia.live.outbox import CLOSE, Listener
from cardavia.store.db import GameStore
from cardavia.store.events import action_event
from cardavia.words import load_catalogs

CATALOGS = load_catalogs()


def socket_url(game: dict[str, str], lang: str = "en") -> str:
    return f"/ws/games/{game['game']}?token={game['token']}&lang={lang}"


def create(client: TestClient, lang: str = "en") -> Any:
    return client.post(
        "/api/games",
        json={"rules": "cardavia", "level": "beginner", "lang": lang},
        headers={"Accept-Language": lang},
    )


# -- the pieces ------------------------------------------------------------------------------


def test_token_bucket() -> None:
    now = [0.0]
    limiter = RateLimiter(2.0, 3, clock=lambda: now[0])
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("b")  # each key its own bucket
    assert limiter.retry_after("a") == 1
    now[0] = 0.5
    assert limiter.allow("a")
    assert not limiter.allow("a")
    assert RateLimiter(0, 1).allow("x")  # 0: no limit


def test_limits_from_the_environment() -> None:
    limits = Limits.from_env({"CARDAVIA_GAMES_PER_MINUTE": "5", "CARDAVIA_SOCKETS_PER_GAME": "3"})
    assert (limits.games_per_minute, limits.sockets_per_game) == (5.0, 3)
    assert limits.messages_per_second == Limits().messages_per_second


def test_a_full_queue_drops_the_connection() -> None:
    listener = Listener(CATALOGS.wording("fr"), limit=3)
    for number in range(5):
        listener.send({"n": number})
    assert listener.dropped
    first = listener.queue.get_nowait()
    assert '"too_slow"' in first
    assert CATALOGS.wording("fr").error("too_slow") in first
    assert listener.queue.get_nowait() == CLOSE
    assert listener.queue.empty()
    listener.send({"n": 6})  # nothing more is queued
    assert listener.queue.empty()


# -- the site --------------------------------------------------------------------------------


@pytest.fixture
def limited(make_app: Callable[..., FastAPI]) -> Callable[..., TestClient]:
    clients: list[TestClient] = []

    def make(**limits: Any) -> TestClient:
        client = TestClient(make_app(limits=Limits(**limits)))
        client.__enter__()
        clients.append(client)
        return client

    yield make  # type: ignore[misc]
    for client in clients:
        client.__exit__(None, None, None)


def test_a_burst_of_game_creation_is_cut_off(limited: Callable[..., TestClient]) -> None:
    client = limited(games_per_minute=6, games_burst=3)
    assert [create(client).status_code for _ in range(3)] == [201, 201, 201]
    refused = create(client, "fr")
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_games"
    assert refused.json()["message"] == CATALOGS.wording("fr").error("too_many_games")
    assert int(refused.headers["retry-after"]) >= 1


@pytest.mark.slow  # whole deals
def test_a_game_dealt_over_the_socket_counts_as_a_game_created(
    limited: Callable[..., TestClient], play_out: Any
) -> None:
    client = limited(games_per_minute=1, games_burst=2)
    game = create(client).json()
    rng = random.Random(2)
    with client.websocket_connect(socket_url(game, "fr")) as ws:
        for _ in range(2):
            view, _ = play_out(ws, rng)
            while view["phase"] == "cancelled":
                ws.send_json({"type": "next_deal"})
                view, _ = play_out(ws, rng)
            ws.send_json({"type": "again", "game": view["game"]})
            answer = ws.receive_json()
            if answer["type"] == "error":
                break
            assert answer["type"] == "game"
        # The burst (2) is spent by the page's game and the first one dealt again.
        assert answer["code"] == "too_many_games"
        assert answer["message"] == CATALOGS.wording("fr").error("too_many_games")
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["view"]["game"] == view["game"]  # still there
    assert create(client).status_code == 429


def test_an_again_refused_or_late_costs_no_game(
    limited: Callable[..., TestClient], play_out: Any
) -> None:
    client = limited(games_per_minute=1, games_burst=2)
    game = create(client).json()
    with client.websocket_connect(socket_url(game, "fr")) as ws:
        # In play: refused, three times (the computer players' moves may come between);
        # another game's id: nothing to do.
        for _ in range(3):
            ws.send_json({"type": "again", "game": game["game"]})
            answer = ws.receive_json()
            while answer["type"] == "state":
                answer = ws.receive_json()
            assert (answer["type"], answer["code"]) == ("error", "game_not_over")
        ws.send_json({"type": "again", "game": "an-older-game"})
        ws.send_json({"type": "sync"})  # a state the table waits at comes, whatever was read
        view, _ = play_out(ws, random.Random(5))
        while view["phase"] == "cancelled":
            ws.send_json({"type": "next_deal"})
            view, _ = play_out(ws, random.Random(5))
        # The burst (2): the page's game, then this one; none spent by the refusals.
        ws.send_json({"type": "again", "game": view["game"]})
        assert ws.receive_json()["type"] == "game"
    assert create(client).status_code == 429


def test_too_many_messages_are_refused_then_a_flood_is_closed(
    limited: Callable[..., TestClient],
) -> None:
    client = limited(messages_per_second=2, messages_burst=2, flood_messages=40)
    game = create(client).json()
    with client.websocket_connect(socket_url(game, "pl")) as ws:
        assert ws.receive_json()["type"] == "state"
        for _ in range(60):
            ws.send_json({"type": "sync"})
        codes: list[str] = []

        def read_until_closed() -> None:
            for _ in range(500):
                message = ws.receive_json()
                if message["type"] == "error":
                    codes.append(message["code"])
                    assert message["message"] == CATALOGS.wording("pl").error("rate_limited")

        with pytest.raises(WebSocketDisconnect) as closed:
            read_until_closed()
        assert closed.value.code == 1008
    assert set(codes) == {"rate_limited"}
    assert len(codes) <= 3  # told once in a while, not once per message
    assert client.get("/healthz").text == "ok"


def test_a_client_within_the_rate_is_served(limited: Callable[..., TestClient]) -> None:
    client = limited(messages_per_second=50, messages_burst=5)
    game = create(client).json()
    with client.websocket_connect(socket_url(game)) as ws:
        assert ws.receive_json()["type"] == "state"
        for _ in range(10):
            ws.send_json({"type": "sync"})
            time.sleep(0.03)
            message = ws.receive_json()
            while message["type"] == "state" and message["view"]["to_move"] != "S":
                if message["view"]["phase"] != "bidding":
                    break
                message = ws.receive_json()
            assert message["type"] == "state"


def test_sockets_per_game_are_capped(limited: Callable[..., TestClient]) -> None:
    client = limited(sockets_per_game=2)
    game = create(client).json()
    with (
        client.websocket_connect(socket_url(game)) as first,
        client.websocket_connect(socket_url(game)) as second,
    ):
        assert first.receive_json()["type"] == "state"
        assert second.receive_json()["type"] == "state"
        with client.websocket_connect(socket_url(game, "ar")) as third:
            error = third.receive_json()
            assert error["code"] == "too_many_sockets"
            assert error["message"] == CATALOGS.wording("ar").error("too_many_sockets")
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 4429
    with client.websocket_connect(socket_url(game)) as again:  # the others closed: room again
        assert again.receive_json()["type"] == "state"


def test_a_connection_that_cannot_keep_up_is_told_and_closed(
    limited: Callable[..., TestClient],
) -> None:
    client = limited()
    game = create(client, "es").json()
    service = client.app.state.tables  # type: ignore[attr-defined]
    with client.websocket_connect(socket_url(game, "es")) as ws:
        assert ws.receive_json()["type"] == "state"
        table = service._tables[game["game"]]
        (listener,) = table.listeners
        # As when its queue is full; in the event loop's thread, where the site drops one.
        client.portal.call(listener.drop)  # type: ignore[union-attr]
        message = ws.receive_json()
        while message["type"] == "state":
            message = ws.receive_json()
        assert message["code"] == "too_slow"
        assert message["message"] == CATALOGS.wording("es").error("too_slow")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4408


class CountingPlayer:
    """A computer player that takes a while and counts how many decide at once."""

    lock = threading.Lock()
    running = 0
    most = 0

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        with CountingPlayer.lock:
            CountingPlayer.running += 1
            CountingPlayer.most = max(CountingPlayer.most, CountingPlayer.running)
        time.sleep(0.02)
        with CountingPlayer.lock:
            CountingPlayer.running -= 1
        return observation.legal_actions[0]


@pytest.fixture
def counting_level() -> Iterator[str]:
    register_player("counting", CountingPlayer)
    CountingPlayer.running = CountingPlayer.most = 0
    yield "counting"
    LEVELS.pop("counting", None)


@pytest.mark.slow  # searches waiting on one budget
def test_one_clients_computer_players_wait_for_its_own_budget(
    limited: Callable[..., TestClient], counting_level: str
) -> None:
    client = limited(ai_per_client=1)
    games = [
        client.post("/api/games", json={"rules": "cardavia", "level": counting_level}).json()
        for _ in range(4)
    ]
    sockets = [client.websocket_connect(socket_url(game)) for game in games]
    try:
        for ws in sockets:
            ws.__enter__()
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and CountingPlayer.most < 2:
            time.sleep(0.05)
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    assert CountingPlayer.most == 1


# -- abandoned games -------------------------------------------------------------------------


def test_abandoned_games_are_deleted_and_finished_ones_kept(database: str) -> None:
    store = GameStore(database)
    made = {
        name: store.create(
            rules="c", level="l", lang="en", token="t", record='{"deals":[{"actions":[]}]}'
        )
        for name in ("abandoned", "finished", "recent")
    }
    store.append(made["abandoned"].id, action_event("N pass"), revision=0)
    store.append(made["finished"].id, action_event("N pass"), revision=0, finished=True)
    now = store.load(made["recent"].id).updated_at
    # Played just now: nothing is abandoned yet.
    assert store.purge_abandoned(timedelta(days=30), now=now) == 0
    # Thirty-one days later, nobody has played them: the unfinished ones go.
    assert store.purge_abandoned(timedelta(days=30), now=now + timedelta(days=31)) == 2
    assert store.load(made["abandoned"].id) is None
    assert store.load(made["recent"].id) is None
    finished = store.load(made["finished"].id)
    assert finished is not None
    assert finished.record == '{"deals": [{"actions": ["N pass"]}]}'
    store.close()


def test_watchers_cannot_keep_a_player_out_of_their_room(
    limited: Callable[..., TestClient],
) -> None:
    """Issue 18, item 3: watchers fill their own share of a room's connections; a player's
    tabs (up to ``sockets_per_seat``) always find room."""
    client = limited(sockets_per_seat=2, watchers_per_room=3)
    body = {"name": "Ana", "rules": "maison", "level": "beginner", "lang": "en", "watchers": True}
    room = client.post("/api/rooms", json=body).json()
    code, token = room["room"], room["token"]
    with ExitStack() as stack:
        for _ in range(3):
            watcher = stack.enter_context(client.websocket_connect(f"/ws/rooms/{code}?lang=en"))
            assert watcher.receive_json()["type"] == "room"
        with client.websocket_connect(f"/ws/rooms/{code}?lang=pl") as one_too_many:
            error = one_too_many.receive_json()
            assert error["code"] == "too_many_sockets"
            assert error["message"] == CATALOGS.wording("pl").error("too_many_sockets")
        for _ in range(2):  # the player's tabs, however many watchers wait
            tab = stack.enter_context(client.websocket_connect(f"/ws/rooms/{code}?token={token}"))
            assert tab.receive_json()["type"] == "room"
        with client.websocket_connect(f"/ws/rooms/{code}?token={token}") as third_tab:
            assert third_tab.receive_json()["code"] == "too_many_sockets"
            with pytest.raises(WebSocketDisconnect) as closed:
                third_tab.receive_json()
            assert closed.value.code == 4429
