"""The action clock and the policy for leaving at a quick-play table (docs/players.md,
"Leaving"), through the room's WebSocket with a clock of about a second: on expiry the
computer player acts for the seat, two in a row and the seat is away (until "back"), an
action after expiry is refused and never applied twice, the clock restarts at each action,
a friends' room has none; a seat left for good once the game started is abandoned (before
the start: nothing), a disconnection never is, a game played out is finished, and the
completion rate is read from it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.web.test_rooms import Seated, create_room, join_room, room_url

from cardavia.belote import Seat
from cardavia.belote.notation import Record
from cardavia.live.room_state import Clock, PersonSeat, RoomSettings, RoomState
from cardavia.store.db import GameStore, new_token
from cardavia.store.quickplay import Completion

View = dict[str, Any]


def make_quick(app: FastAPI, code: str, *, clock: float = 1.0, grace: float = 120.0) -> None:
    """Make the room ``code`` a quick-play table (as the queue makes them), before anyone
    connects: its settings rewritten in the store, the room forgotten here so that it loads
    them."""
    store: GameStore = app.state.store
    stored = store.load_room(code)
    assert stored is not None
    data = json.loads(stored.state)
    data["settings"] |= {"quick": True, "clock": clock, "grace": grace}
    store.save_room(code, json.dumps(data), revision=stored.revision, game_id=stored.game_id)
    app.state.rooms.rooms.pop(code, None)


def quick_room(client: TestClient, app: FastAPI, *, clock: float = 1.0, **options: Any) -> Any:
    """A quick-play room: Ana (South, who creates it) and Bo (North); answers (code, Ana's
    token, Bo's token)."""
    room = create_room(client, **options)
    code = room["room"]
    bo = join_room(client, code, "Bo", "N")
    make_quick(app, code, clock=clock)
    return code, room["token"], bo["token"]


def actions_of(store: GameStore, code: str, seat: str) -> int:
    """How many actions ``seat`` made in the room's game, as saved."""
    stored_room = store.load_room(code)
    assert stored_room is not None and stored_room.game_id is not None
    stored = store.load(stored_room.game_id)
    assert stored is not None
    match = Record.from_json(stored.record).replay()
    played = 0
    for deal in match.deals:
        state = deal.initial()
        for action in deal.history:
            played += state.to_move == Seat[seat]
            state = state.apply(action)
    return played


def turn_of(seat: str) -> Callable[[dict[str, Any]], bool]:
    """A state where ``seat`` is to act and its clock runs."""

    def test(message: dict[str, Any]) -> bool:
        if message["type"] != "state":
            return False
        view = message["view"]
        clock = view.get("clock")
        return view["to_move"] == seat and clock is not None and clock["seat"] == seat

    return test


def moved_past(step: tuple[int, int]) -> Callable[[dict[str, Any]], bool]:
    def test(message: dict[str, Any]) -> bool:
        if message["type"] != "state":
            return False
        view = message["view"]
        return (view["deal_number"], view["step"]) > step or view["phase"] == "over"

    return test


def where(view: View) -> tuple[int, int]:
    return view["deal_number"], view["step"]


@pytest.mark.slow  # waits the clock out twice
def test_the_clock_hands_the_action_to_the_computer_and_twice_makes_the_seat_away(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app()
    with TestClient(app) as client:
        code, ana_token, bo_token = quick_room(client, app, target=1000)
        with (
            client.websocket_connect(room_url(code, ana_token)) as ws,
            client.websocket_connect(room_url(code, bo_token)) as bws,
        ):
            ana, bo = Seated(ws, "S"), Seated(bws, "N")
            ana.send({"type": "start"})
            assert ana.read_until(lambda m: m["type"] == "room")["room"]["clock"] == 1.0
            expiries = 0
            away = False
            clocks_of_ana: list[float] = []
            for _ in range(3000):
                message = ana.read()
                if message["type"] == "room" and message["room"]["seats"]["N"]["away"]:
                    away = True
                if away and len(clocks_of_ana) >= 3:
                    break
                if message["type"] != "state":
                    continue
                view = message["view"]
                clock = view["clock"]
                if clock is not None:
                    # The clock is the seat's whose turn it is, counted in seconds left.
                    assert clock["seat"] == view["to_move"] and 0 <= clock["ends_in"] <= 1.0
                if view["to_move"] == "S" and view["legal"] and clock is not None:
                    clocks_of_ana.append(clock["ends_in"])
                    ana.send({"type": "action", "action": view["legal"][0]})
                elif turn_of("N")(message) and not away:
                    # Bo does nothing: the clock runs out, the computer acts for him.
                    ana.read_until(moved_past(where(view)))
                    expiries += 1
                    if expiries == 1:
                        assert ana.room is not None and not ana.room["seats"]["N"]["away"]
            assert away and expiries == 2
            assert ana.room is not None and ana.room["seats"]["N"]["computer"]
            # Ana acted each time in time: her clock started afresh at each of her turns.
            assert clocks_of_ana and min(clocks_of_ana) > 0.5
            # Bo is back: his seat is his again.
            bo.send({"type": "back"})
            ana.read_until(
                lambda m: m["type"] == "room" and not m["room"]["seats"]["N"]["computer"]
            )
            assert actions_of(app.state.store, code, "N") >= 2


@pytest.mark.slow  # waits the clock out
def test_an_action_after_the_clock_ran_out_is_refused_and_made_once(
    make_app: Callable[..., FastAPI],
) -> None:
    # The computer players think 0.4 s: an action 0.1 s after the clock ran out comes
    # before the computer's, and is still refused.
    app = make_app(ai_delay=(0.4, 0.4))
    with TestClient(app) as client:
        code, ana_token, bo_token = quick_room(client, app, clock=1.0, target=1000)
        with (
            client.websocket_connect(room_url(code, ana_token)) as ws,
            client.websocket_connect(room_url(code, bo_token)) as bws,
        ):
            ana, bo = Seated(ws, "S"), Seated(bws, "N")
            ana.send({"type": "start"})
            for _ in range(40):
                message = bo.read_until(lambda m: turn_of("N")(m) or turn_of("S")(m))
                view = message["view"]
                if view["to_move"] == "N":
                    break
                ana.send({"type": "action", "action": ana.state_at(*where(view))["legal"][0]})
            else:
                raise AssertionError("North's turn never came")
            time.sleep(view["clock"]["ends_in"] + 0.1)
            before = actions_of(app.state.store, code, "N")
            bo.send({"type": "action", "action": view["legal"][0]})
            error = bo.read_until(lambda m: m["type"] == "error")
            assert error["code"] == "too_late" and error["message"]
            after = bo.read_until(moved_past(where(view)))["view"]
            assert after["deal_number"] == view["deal_number"]
            # The computer's action is the one made for North: once.
            assert actions_of(app.state.store, code, "N") == before + 1
            assert after["step"] == view["step"] + 1


@pytest.mark.slow  # waits past the clock
def test_a_friends_room_has_no_clock(client: TestClient) -> None:
    room = create_room(client, target=1000)
    with client.websocket_connect(room_url(room["room"], room["token"])) as ws:
        ana = Seated(ws, "S")
        ana.send({"type": "start"})
        message = ana.read_until(
            lambda m: m["type"] == "state" and m["view"]["to_move"] == "S" and m["view"]["legal"]
        )
        assert ana.room is not None and ana.room["clock"] == 0 and not ana.room["quick"]
        assert all(m["view"]["clock"] is None for m in ana.messages if m["type"] == "state")
        # Nobody hurries a friend: long after a second, the action is still theirs.
        time.sleep(1.3)
        view = message["view"]
        ana.send({"type": "action", "action": view["legal"][0]})
        after = ana.read_until(moved_past(where(view)))["view"]
        assert after["bids"][-1]["seat"] == "S" or after["step"] == view["step"] + 1


# -- leaving ---------------------------------------------------------------------------------


def seat_bo(app: FastAPI, code: str) -> str:
    """Bo's player, given North of the quick-play table ``code`` (as the queue does)."""
    store: GameStore = app.state.store
    player = store.players.create(new_token())
    store.quick.seat(player.id, room_code=code, seat="N", family="classic")
    return player.id


def abandoned_soon(store: GameStore, player_id: str) -> Completion:
    """The player's completion once a seat of theirs is abandoned, or after ten seconds: the
    room tells everyone, then writes the seat (its own trip to the writer's thread), on a
    busy machine after the messages a test has read."""
    written_by = time.monotonic() + 10
    while store.quick.completion(player_id).abandoned == 0 and time.monotonic() < written_by:
        time.sleep(0.02)
    return store.quick.completion(player_id)


def test_leaving_a_started_quick_game_is_abandoning_it(make_app: Callable[..., FastAPI]) -> None:
    app = make_app()
    with TestClient(app) as client:
        code, ana_token, bo_token = quick_room(client, app, clock=30.0, target=1000)
        bo_id = seat_bo(app, code)
        store: GameStore = app.state.store
        ana_id = store.players.create(new_token()).id
        store.quick.seat(ana_id, room_code=code, seat="S", family="classic")
        with (
            client.websocket_connect(room_url(code, ana_token)) as ws,
            client.websocket_connect(room_url(code, bo_token)) as bws,
        ):
            ana, bo = Seated(ws, "S"), Seated(bws, "N")
            ana.send({"type": "start"})
            bo.read_until(lambda m: m["type"] == "state")
            bo.send({"type": "leave"})
            bo.read_until(lambda m: m["type"] == "error" and m["code"] == "removed")
            ana.read_until(
                lambda m: m["type"] == "room" and m["room"]["seats"]["N"]["kind"] == "computer"
            )
        assert abandoned_soon(store, bo_id) == Completion(finished=0, abandoned=1)
        # His partner is not punished: the game's end finishes her seat, never his.
        assert store.quick.completion(ana_id) == Completion(0, 0)
        assert store.quick.end(room_code=code) == 1
        assert store.quick.completion(ana_id) == Completion(finished=1, abandoned=0)
        assert store.quick.completion(bo_id).rate == 0.0


def test_a_seat_left_is_written_though_the_leaving_socket_closes_at_once(
    make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The leaving person's socket closes as they are told they left (its task cancelled):
    the rest of the leave still happens, its announcement slow (a busy Redis) included."""
    app = make_app()
    rooms = app.state.rooms
    publish = rooms.bus.publish

    async def slow_publish(*args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0.5)
        await publish(*args, **kwargs)

    with TestClient(app) as client:
        code, ana_token, bo_token = quick_room(client, app, clock=30.0, target=1000)
        bo_id = seat_bo(app, code)
        store: GameStore = app.state.store
        with client.websocket_connect(room_url(code, ana_token)) as ws:
            ana = Seated(ws, "S")
            with client.websocket_connect(room_url(code, bo_token)) as bws:
                bo = Seated(bws, "N")
                ana.send({"type": "start"})
                bo.read_until(lambda m: m["type"] == "state")
                monkeypatch.setattr(rooms.bus, "publish", slow_publish)
                bo.send({"type": "leave"})
                bo.read_until(lambda m: m["type"] == "error" and m["code"] == "removed")
            ana.read_until(
                lambda m: m["type"] == "room" and m["room"]["seats"]["N"]["kind"] == "computer"
            )
            assert abandoned_soon(store, bo_id) == Completion(finished=0, abandoned=1)


def test_leaving_before_the_start_counts_nothing(make_app: Callable[..., FastAPI]) -> None:
    app = make_app()
    with TestClient(app) as client:
        code, _ana_token, bo_token = quick_room(client, app, clock=30.0)
        bo_id = seat_bo(app, code)
        with client.websocket_connect(room_url(code, bo_token)) as bws:
            bo = Seated(bws, "N")
            bo.read_until(lambda m: m["type"] == "room")
            bo.send({"type": "leave"})
            bo.read_until(lambda m: m["type"] == "error" and m["code"] == "removed")
        assert app.state.store.quick.completion(bo_id) == Completion(0, 0)


def test_a_disconnection_is_never_leaving_and_a_game_played_out_is_finished(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app()
    with TestClient(app) as client:
        # A single deal: once it is over, the game is.
        code, ana_token, bo_token = quick_room(client, app, clock=30.0, target=None)
        bo_id = seat_bo(app, code)
        with client.websocket_connect(room_url(code, ana_token)) as ws:
            ana = Seated(ws, "S")
            with client.websocket_connect(room_url(code, bo_token)) as bws:
                Seated(bws, "N").read_until(lambda m: m["type"] == "room")
                ana.send({"type": "start"})
                ana.read_until(lambda m: m["type"] == "state")
            # Bo's connection is gone: away, and the computer player plays for him at once
            # (no waiting out the two minutes), his seat kept.
            ana.read_until(
                lambda m: (
                    m["type"] == "room"
                    and m["room"]["seats"]["N"]["away"]
                    and m["room"]["seats"]["N"]["computer"]
                )
            )
            assert ana.room is not None and ana.room["seats"]["N"]["kind"] == "human"
            assert ana.room["seats"]["N"]["takeover"] is None
            for _ in range(2000):
                message = ana.read()
                if message["type"] != "state":
                    continue
                view = message["view"]
                if view["phase"] in ("over", "cancelled"):
                    break
                if view["to_move"] == "S" and view["legal"]:
                    ana.send({"type": "action", "action": view["legal"][0]})
            assert view["match"]["over"] or view["phase"] == "cancelled"
        store: GameStore = app.state.store
        if view["phase"] == "over":
            deadline = time.monotonic() + 5
            while store.quick.completion(bo_id).finished == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert store.quick.completion(bo_id) == Completion(finished=1, abandoned=0)
        # Bo comes back: the seat is his.
        with client.websocket_connect(room_url(code, bo_token)) as bws:
            bo = Seated(bws, "N")
            room = bo.read_until(lambda m: m["type"] == "room")["room"]
            if room["seats"]["N"]["away"]:
                # A change of the room sent to every connection as his opened, before it was
                # greeted: the greeting comes next.
                room = bo.read_until(lambda m: m["type"] == "room")["room"]
            assert room["you"] == "N" and not room["seats"]["N"]["away"]


def test_the_completion_rate() -> None:
    assert Completion(23, 2).rate == pytest.approx(0.92)
    assert Completion(0, 0).rate is None


def test_the_clock_as_state_values() -> None:
    settings = RoomSettings("maison", "club", "french", None, "en", quick=True, clock=30.0)
    state = RoomState.new(settings, Seat.S, name="Ana", token="t")
    clock = Clock(Seat.S, "g", 4, ends=100.0)
    timed = state.timed(clock)
    assert timed.seating().person_plays(Seat.S, now=50.0)
    once = timed.lapse(clock)
    assert once.lapse(clock) is once  # ran out once, whoever saw it first
    assert not once.seating().person_plays(Seat.S, now=50.0)  # the computer's action
    seat = once[Seat.S]
    assert isinstance(seat, PersonSeat) and seat.misses == 1 and not seat.idle
    twice = once.timed(Clock(Seat.S, "g", 8, ends=200.0)).lapse(Clock(Seat.S, "g", 8, 200.0))
    assert not twice.timed(None).seating().person_plays(Seat.S, now=150.0)  # away
    assert not twice.back(Seat.S).timed(None).seating().person_plays(Seat.S, now=150.0)
    assert twice.awake(Seat.S).timed(None).seating().person_plays(Seat.S, now=150.0)
    assert once.acted(Seat.S)[Seat.S] == PersonSeat("Ana", "t")
    saved = RoomState.from_json(json.loads(json.dumps(twice.to_json())))
    assert saved == twice
    # A friends' room saves no clock, as before.
    friends = RoomState.new(
        RoomSettings("maison", "club", "french", None, "en"), Seat.S, name="Ana", token="t"
    )
    assert "clock" not in friends.to_json() and "quick" not in friends.to_json()["settings"]


@pytest.mark.parametrize(
    ("lang", "shown"), [("en", "92% (23 of 25)"), ("fr", "92\u00a0% (23 sur 25)")]
)
def test_the_completion_rate_is_on_the_profile(
    make_app: Callable[..., FastAPI], lang: str, shown: str
) -> None:
    app = make_app()
    with TestClient(app) as client:
        assert client.put("/api/me", json={"name": "Zoé"}).status_code == 200
        assert 'id="profile-completion"' not in client.get(f"/{lang}/me").text  # none ended
        store: GameStore = app.state.store
        player = store.players.find(client.cookies["cardavia_player"])
        assert player is not None
        for n in range(25):
            code = f"Q{n:04d}"
            store.quick.seat(player.id, room_code=code, seat="S", family="classic")
            if n < 2:
                assert store.quick.abandon(room_code=code, seat="S") == 1
            assert store.quick.end(room_code=code) == (0 if n < 2 else 1)
        page = client.get(f"/{lang}/me").text
        assert 'id="profile-completion"' in page and shown in page
