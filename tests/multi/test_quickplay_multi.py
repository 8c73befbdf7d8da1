"""Quick play across two web processes (Redis and PostgreSQL): people queued on different
processes are seated together at one table, each told their own seat by the process holding
their connection, whichever process formed the table; nobody is seated twice. Fair to
everyone: joins that never open a waiting socket are never seated, one client's guests never
share a table, the abandonment penalty follows the client, and leaving a deal for good rates
it for the leaver, whichever process each step reaches.

Each person comes from an address of their own (the processes trust the loopback as a proxy
and read ``X-Forwarded-For``), new to the session's Redis, unless a test says otherwise."""

from __future__ import annotations

import itertools
import json
import secrets
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

from tests.multi.conftest import WebProcess
from websockets.sync.client import ClientConnection, connect

from cardavia.players.ratings import MU
from cardavia.store.db import GameStore
from cardavia.store.quickplay import Completion

READ_SECONDS = 20
TRUSTING = {"CARDAVIA_TRUSTED_PROXIES": "127.0.0.1", "CARDAVIA_QUICK_JOINS": "0"}
"""The processes' settings: the loopback a trusted proxy, joins not limited."""


def addresses() -> Iterator[str]:
    """Addresses of a /16 drawn for the test (the session's Redis remembers clients)."""
    base = f"10.{secrets.randbelow(250) + 1}"
    return (f"{base}.{n // 250}.{n % 250 + 1}" for n in itertools.count())


ADDRESSES = addresses()


def join(web: WebProcess, preset: str, lang: str, address: str | None = None) -> str:
    """Press "Play now" on ``web`` from ``address`` (a new one unless told): answers the new
    guest's player cookie."""
    request = urllib.request.Request(
        f"{web.http}/api/quick/{preset}",
        data=json.dumps({"lang": lang}).encode(),
        headers={
            "Content-Type": "application/json",
            "X-Forwarded-For": address or next(ADDRESSES),
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
        cookie = response.headers["set-cookie"].split(";")[0]
        assert cookie.startswith("cardavia_player=")
        return str(cookie)


def wait_socket(stack: ExitStack, web: WebProcess, preset: str, cookie: str) -> ClientConnection:
    url = f"{web.ws}/ws/quick/{preset}?lang=en"
    return stack.enter_context(connect(url, open_timeout=10, additional_headers={"Cookie": cookie}))


def read_until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    for _ in range(200):
        message: dict[str, Any] = json.loads(ws.recv(timeout=READ_SECONDS))
        if message["type"] == kind:
            return message
        assert message["type"] == "waiting", message
    raise AssertionError(f"no {kind}")


def test_people_queued_on_two_processes_are_seated_together(
    web_process: Callable[..., WebProcess],
) -> None:
    settings = {"CARDAVIA_QUICK_WAIT": "3600", **TRUSTING}
    first, second = web_process(**settings), web_process(**settings)
    places = [first, second, first, second]
    with ExitStack() as stack:
        sockets = []
        for web in places:
            cookie = join(web, "maghreb", "en")
            sockets.append(wait_socket(stack, web, "maghreb", cookie))
        seated = [read_until(ws, "seated") for ws in sockets]
    assert len({s["room"] for s in seated}) == 1
    assert sorted(s["seat"] for s in seated) == ["E", "N", "S", "W"]
    code = seated[0]["room"]
    # Each token opens its seat of the room from either process; the room is a quick one.
    for web, s in zip(places[::-1], seated, strict=True):
        with urllib.request.urlopen(f"{web.http}/api/rooms/{code}?token={s['token']}") as answer:
            room = json.loads(answer.read())
        assert room["room"]["you"] == s["seat"] and room["view"]["seat"] == s["seat"]
        assert room["room"]["started"] and room["room"]["rules"] == "maghreb"


def test_many_people_on_two_processes_are_each_seated_once(
    web_process: Callable[..., WebProcess],
) -> None:
    settings = {"CARDAVIA_QUICK_WAIT": "3600", **TRUSTING}
    first, second = web_process(**settings), web_process(**settings)
    places = [first, second] * 8
    with ExitStack() as stack:
        sockets = [
            wait_socket(stack, web, "cardavia", join(web, "cardavia", "fr")) for web in places
        ]
        seated = [read_until(ws, "seated") for ws in sockets]
    rooms: dict[str, list[str]] = {}
    for s in seated:
        rooms.setdefault(s["room"], []).append(s["seat"])
    assert len(rooms) == 4
    assert all(sorted(seats) == ["E", "N", "S", "W"] for seats in rooms.values())


def room_of(web: WebProcess, seated: dict[str, Any]) -> dict[str, Any]:
    """The room a person was seated in, as their seat token opens it on ``web``."""
    url = f"{web.http}/api/rooms/{seated['room']}?token={seated['token']}"
    with urllib.request.urlopen(url, timeout=10) as answer:
        room: dict[str, Any] = json.loads(answer.read())["room"]
    return room


def people_at(room: dict[str, Any]) -> int:
    return sum(seat["kind"] == "human" for seat in room["seats"].values())


def player_of(store: GameStore, cookie: str) -> str:
    player = store.players.find(cookie.removeprefix("cardavia_player="))
    assert player is not None
    return str(player.id)


def soon(test: Callable[[], bool], seconds: float = 30.0) -> bool:
    """Whether ``test`` holds within ``seconds`` (polled)."""
    until = time.monotonic() + seconds
    while not test() and time.monotonic() < until:
        time.sleep(0.1)
    return test()


def test_joins_that_never_open_a_waiting_socket_are_never_seated(
    web_process: Callable[..., WebProcess],
) -> None:
    """Three phantom joins on one process, a real player with a socket on the other: the
    real player sits with computer players only."""
    settings = {"CARDAVIA_QUICK_WAIT": "1", **TRUSTING}
    first, second = web_process(**settings), web_process(**settings)
    for _ in range(3):
        join(first, "coinche", "en")
    with ExitStack() as stack:
        ws = wait_socket(stack, second, "coinche", join(second, "coinche", "en"))
        seated = read_until(ws, "seated")
    assert people_at(room_of(first, seated)) == 1


def test_one_clients_guests_on_two_processes_never_share_a_table(
    web_process: Callable[..., WebProcess],
) -> None:
    settings = {"CARDAVIA_QUICK_WAIT": "1", **TRUSTING}
    first, second = web_process(**settings), web_process(**settings)
    address = next(ADDRESSES)
    places = [first, second, first, second]
    with ExitStack() as stack:
        sockets = [
            wait_socket(stack, web, "maison", join(web, "maison", "en", address)) for web in places
        ]
        seated = [read_until(ws, "seated") for ws in sockets]
    assert len({s["room"] for s in seated}) == 4
    assert all(people_at(room_of(web, s)) == 1 for web, s in zip(places, seated, strict=True))


def test_the_abandonment_penalty_follows_the_client_across_processes(
    web_process: Callable[..., WebProcess], postgres_url: str
) -> None:
    """A player who abandons often joins on one process; a new guest from their address joins
    on the other, with a steady player: the steady player sits alone with computer players
    (without the penalty the two would have been seated together)."""
    settings = {"CARDAVIA_QUICK_WAIT": "1", **TRUSTING}
    first, second = web_process(**settings), web_process(**settings)
    store = GameStore(postgres_url)
    address = next(ADDRESSES)
    cookie = join(first, "maghreb", "en", address)
    with ExitStack() as stack:  # joined from that address, then cancelled
        wait_socket(stack, first, "maghreb", cookie).send(json.dumps({"type": "cancel"}))
    leaver = player_of(store, cookie)
    for n in range(10):  # 7 finished, 3 abandoned: 70 %, 10 s more
        code = f"Q{secrets.token_hex(3).upper()}"
        store.quick.seat(leaver, room_code=code, seat="S", family="classic")
        if n < 3:
            store.quick.abandon(room_code=code, seat="S")
        else:
            store.quick.end(room_code=code)
    assert store.quick.completion(leaver) == Completion(finished=7, abandoned=3)
    with ExitStack() as stack:
        again = wait_socket(stack, second, "maghreb", join(second, "maghreb", "en", address))
        steady = wait_socket(stack, second, "maghreb", join(second, "maghreb", "en"))
        seated = read_until(steady, "seated")
        assert people_at(room_of(second, seated)) == 1
        assert read_until(again, "waiting")["waiting"] >= 1


def test_leaving_a_deal_for_good_rates_it_for_the_leaver_across_processes(
    web_process: Callable[..., WebProcess], postgres_url: str
) -> None:
    """Seated by one process, the guest opens the table on the other and leaves mid-deal:
    one rating change for them, a loss."""
    settings = {"CARDAVIA_QUICK_WAIT": "0.2", **TRUSTING}
    first, second = web_process(**settings), web_process(**settings)
    store = GameStore(postgres_url)
    with ExitStack() as stack:
        cookie = join(first, "cardavia", "en")
        seated = read_until(wait_socket(stack, first, "cardavia", cookie), "seated")
    leaver = player_of(store, cookie)
    url = f"{second.ws}/ws/rooms/{seated['room']}?lang=en&token={seated['token']}"
    with connect(url, open_timeout=10) as room:
        while True:
            message = json.loads(room.recv(timeout=READ_SECONDS))
            if message["type"] == "state":
                assert message["view"]["phase"] != "over"
                break
        room.send(json.dumps({"type": "leave"}))
        while True:
            message = json.loads(room.recv(timeout=READ_SECONDS))
            if message["type"] == "error":
                assert message["code"] == "removed"
                break
    assert soon(lambda: store.quick.completion(leaver) == Completion(0, 1))
    assert soon(lambda: len(store.ratings.history(leaver)) == 1)
    (change,) = store.ratings.history(leaver)
    assert change.room_code == seated["room"] and change.deal == 1 and change.mu < MU
