"""The action clock of a quick-play table whose two people are connected to different web
processes (Redis and PostgreSQL): both see the same clock, it runs out once, the computer
player acts for the seat once, twice and the seat is away, and "back" through the other
process gives it back (docs/players.md, "Leaving")."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import ExitStack

from tests.multi.conftest import WebProcess
from tests.multi.test_rooms_multi import Player
from tests.saved_rooms import actions_of

from cardavia.store.db import GameStore

CLOCK = 1.5


def test_the_clock_across_two_processes(
    web_process: Callable[..., WebProcess], postgres_url: str
) -> None:
    first, second = web_process(), web_process()
    room = first.post(
        "/api/rooms", {"name": "Ana", "level": "beginner", "target": 1000, "next_delay": 3600}
    )
    code = room["room"]
    friend = second.post(f"/api/rooms/{code}/join", {"name": "Bo", "seat": "N"})
    # A quick-play table, as the queue makes them (each process reloads the room it opens).
    store = GameStore(postgres_url)
    stored = store.load_room(code)
    assert stored is not None
    data = json.loads(stored.state)
    data["settings"] |= {"quick": True, "clock": CLOCK, "grace": 120.0}
    store.save_room(code, json.dumps(data), revision=stored.revision)
    with ExitStack() as stack:
        ana = Player(stack, first, code, room["token"], "S")
        bo = Player(stack, second, code, friend["token"], "N")
        ana.read_until(lambda m: m["type"] == "room" and m["room"]["clock"] == CLOCK)
        bo.read_until(lambda m: m["type"] == "room" and m["room"]["clock"] == CLOCK)
        ana.send({"type": "start"})
        expiries = 0
        acted: set[tuple[int, int]] = set()
        for _ in range(3000):
            message = ana.read()
            if message["type"] == "room" and message["room"]["seats"]["N"]["away"]:
                break
            if message["type"] != "state":
                continue
            view = message["view"]
            clock = view["clock"]
            if view["to_move"] == "S" and view["legal"]:
                if (view["deal_number"], view["step"]) not in acted:  # each view once
                    acted.add((view["deal_number"], view["step"]))
                    ana.send({"type": "action", "action": view["legal"][0]})
            elif clock is not None and clock["seat"] == "N" and view["to_move"] == "N":
                at = (view["deal_number"], view["step"])
                before = actions_of(store, code, "N")
                # Bo's process shows the same clock (its seconds left, within a beat).
                mine = bo.read_until(
                    lambda m, at=at: (
                        m["type"] == "state"
                        and (m["view"]["deal_number"], m["view"]["step"]) == at
                        and m["view"]["clock"] is not None
                    )
                )["view"]
                assert mine["clock"]["seat"] == "N"
                assert abs(mine["clock"]["ends_in"] - clock["ends_in"]) < 0.6
                # It runs out: the computer player acts for Bo, once.
                ana.read_until(
                    lambda m, at=at: (
                        m["type"] == "state" and (m["view"]["deal_number"], m["view"]["step"]) > at
                    )
                )
                assert actions_of(store, code, "N") == before + 1
                expiries += 1
        else:
            raise AssertionError("North was never away")
        assert expiries == 2
        # Bo says he is back, through the other process, once his page there shows him away
        # (as a person's "I'm back" shows only then: that process may learn of it a moment
        # after Ana's): the seat is his again.
        bo.read_until(lambda m: m["type"] == "room" and m["room"]["seats"]["N"]["away"])
        bo.send({"type": "back"})
        ana.read_until(lambda m: m["type"] == "room" and not m["room"]["seats"]["N"]["computer"])
    store.close()
