"""Quick play fair to everyone who plays (docs/players.md, "Quick play" and "Leaving"), on the
embedded site: joins that never open a waiting socket are seated with nobody; a seat whose
person never opens the table goes to a computer player once the table's short grace is over,
not after two lapses of the action clock; one client's guests never share a table; and the
abandonment penalty follows the client, a new guest from it included (leaving rated:
test_leaving.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session
from tests.quickplay.conftest import Person, read_until
from tests.quickplay.test_leaving import deal_over, player_of, soon
from tests.quickplay.test_queue import _ended_games

from cardavia.live.room_state import QUICK_GRACE, ComputerSeat, PersonSeat
from cardavia.store.db import GameStore
from cardavia.store.quickplay import QuickSeatRow

SEATS = ("N", "E", "S", "W")


def quick_seats_of(store: GameStore, player_id: str) -> list[tuple[str, str, str]]:
    with Session(store.engine) as session:
        rows = session.scalars(select(QuickSeatRow).where(QuickSeatRow.player_id == player_id))
        return [(row.room_code, row.seat, row.outcome) for row in rows]


@pytest.mark.slow  # waits the queue's rounds
def test_joins_that_never_open_a_waiting_socket_are_never_seated(
    make_app: Callable[..., FastAPI],
) -> None:
    """The audit's phantoms: three joins with no socket, then a real player with one. The
    real player sits with computer players; the phantoms are seated with nobody."""
    with TestClient(make_app(quick_wait=1.0)) as client:
        app: Any = client.app
        phantoms = [Person(client) for _ in range(3)]
        for phantom in phantoms:
            phantom.join("cardavia")
        real = Person(client)
        real.join("cardavia")
        with real.socket("cardavia") as ws:
            seated = read_until(ws, "seated")
        room = app.state.rooms.rooms[seated["room"]]
        kinds = [type(entry) for entry in room.state.seats]
        assert kinds.count(PersonSeat) == 1 and kinds.count(ComputerSeat) == 3
        ghosts = [player_of(app, phantom) for phantom in phantoms]
        assert client.portal.call(app.state.quick.queue.seated, ghosts, time.time()) == {}
        assert all(quick_seats_of(app.state.store, ghost) == [] for ghost in ghosts)
        assert app.state.quick.tables_formed == 1


@pytest.mark.slow  # waits the quick-play grace
def test_a_seat_whose_person_never_opens_the_table_goes_to_a_computer_player(
    make_app: Callable[..., FastAPI],
) -> None:
    """A person seated who never opens the room: after the table's grace (a few seconds)
    the computer player plays their seat, though the action clock is an hour long (before,
    the deal waited for the clock to run out on them twice)."""
    with TestClient(make_app(quick_wait=0.2, quick_clock=3600.0)) as client:
        app: Any = client.app
        one = Person(client)
        one.join("cardavia")
        with one.socket("cardavia") as ws:
            seated = read_until(ws, "seated")
        code, seat = seated["room"], seated["seat"]
        # The deal is played to the end: its person never came, nobody waited for them.
        assert soon(lambda: deal_over(client, code))
        room = app.state.rooms.rooms[code]
        entry = room.state.seats[SEATS.index(seat)]
        assert isinstance(entry, PersonSeat) and entry.arriving and entry.misses == 0
        assert room.state.settings.grace == QUICK_GRACE < 10


def test_one_clients_guests_never_sit_at_one_table(make_app: Callable[..., FastAPI]) -> None:
    """Four guests from one address (the audit's rating farm): each sits with computer
    players, never with another of them, so none rates another."""
    with TestClient(make_app(quick_wait=0.5)) as client:
        app: Any = client.app
        guests = [Person(client, address="203.0.113.7") for _ in range(4)]
        with ExitStack() as stack:
            sockets = []
            for guest in guests:
                guest.join("maison")
                sockets.append(stack.enter_context(guest.socket()))
            seated = [read_until(ws, "seated") for ws in sockets]
        assert len({s["room"] for s in seated}) == 4
        for s in seated:
            room = app.state.rooms.rooms[s["room"]]
            assert sum(isinstance(entry, PersonSeat) for entry in room.state.seats) == 1


@pytest.mark.slow  # waits the queue's rounds
def test_the_abandonment_penalty_follows_the_client(make_app: Callable[..., FastAPI]) -> None:
    """A player who abandons often waits longer; a new guest from the same address (their
    cookies cleared) waits as long, one from another address does not."""
    with TestClient(make_app(quick_wait=0.5)) as client:
        app: Any = client.app
        queue = app.state.quick.queue
        leaver = Person(client, address="203.0.113.9")
        leaver.join("maghreb")  # a guest made from that address, then taken out
        queue._entries.clear()
        _ended_games(app, leaver.cookie, finished=7, abandoned=3)  # 70 %: 10 s more
        again = Person(client, address="203.0.113.9")  # the same person, a new guest
        steady = Person(client, address="198.51.100.250")
        again.join("maghreb")
        steady.join("maghreb")
        entries = queue._entries["maghreb"]
        assert entries[player_of(app, again)].waiting.slower == 10.0
        assert entries[player_of(app, steady)].waiting.slower == 0.0
        with again.socket("maghreb") as slow, steady.socket("maghreb") as fast:
            seated = read_until(fast, "seated")
            room = app.state.rooms.rooms[seated["room"]]
            assert sum(isinstance(entry, PersonSeat) for entry in room.state.seats) == 1
            # The new guest still waits, alone in the queue now.
            while read_until(slow, "waiting")["waiting"] != 1:
                pass
