"""Rooms (docs/web.md, "Rooms"): tables of several people through the WebSocket — two
people and two computer players, four people, whole deals and the next deal of a match,
presence (away, a computer player taking the seat over and giving it back), the creator's
controls, quick phrases, watchers, a restart, every kind of bad input; and no message to any
seat or watcher carrying a card it may not see."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.web.conftest import cards_seat_may_know

from cardavia.belote import Seat
from cardavia.belote.notation import Record
from cardavia.live.room_state import (
    CODE_ALPHABET,
    ComputerSeat,
    OpenSeat,
    PersonSeat,
    RoomState,
    clean_name,
    new_code,
    normal_code,
)
from cardavia.store.db import Append, GameStore
from cardavia.store.events import ActionEvent, read_event
from cardavia.words import load_catalogs

View = dict[str, Any]
CATALOGS = load_catalogs()
CARD_CODE = re.compile(r"^[789TJQKA][SHDC]$")


# -- helpers ---------------------------------------------------------------------------------


def create_room(client: TestClient, name: str = "Ana", **options: Any) -> dict[str, str]:
    body = {"name": name, "rules": "maison", "level": "beginner", "lang": "en"}
    body.setdefault("next_delay", 3600)
    body.update(options)
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, str] = response.json()
    return data


def join_room(client: TestClient, code: str, name: str, seat: str | None = None) -> dict[str, str]:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    response = client.post(f"/api/rooms/{code}/join", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, str] = response.json()
    return data


def room_url(code: str, token: str | None = None, lang: str = "en") -> str:
    url = f"/ws/rooms/{code}?lang={lang}"
    return url + (f"&token={token}" if token else "")


class Seated:
    """One connection to a room, and every message it was sent."""

    def __init__(self, ws: Any, seat: str | None) -> None:
        self.ws = ws
        self.seat = seat
        self.messages: list[dict[str, Any]] = []
        self.view: View | None = None
        self.room: dict[str, Any] | None = None

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.messages.append(message)
        if message["type"] == "state":
            self.view = message["view"]
        elif message["type"] == "room":
            self.room = message["room"]
        return message

    def read_until(self, test: Callable[[dict[str, Any]], bool], limit: int = 400) -> dict:
        for _ in range(limit):
            message = self.read()
            if test(message):
                return message
        raise AssertionError(f"{self.seat}: nothing came in {limit} messages")

    def state_at(self, deal: int, step: int) -> View:
        if self.view is not None and (self.view["deal_number"], self.view["step"]) == (deal, step):
            return self.view
        message = self.read_until(
            lambda m: (
                m["type"] == "state"
                and (m["view"]["deal_number"], m["view"]["step"]) == (deal, step)
            )
        )
        view: View = message["view"]
        return view

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)


def human_turn(humans: set[str], deal: int = 1) -> Callable[[dict[str, Any]], bool]:
    def test(message: dict[str, Any]) -> bool:
        if message["type"] != "state" or message["view"]["deal_number"] < deal:
            return False
        view = message["view"]
        return view["phase"] in ("over", "cancelled") or view["to_move"] in humans

    return test


def play_deal(players: dict[str, Seated], lead: Seated, rng: random.Random, deal: int = 1) -> View:
    """Play a deal to its end, each person with random legal actions from their own
    socket; ``lead`` is read throughout (it sees every change). Answers its last view."""
    humans = set(players)
    settled = human_turn(humans, deal)
    handled: tuple[int, int] | None = None
    while True:
        view = lead.view
        if (
            view is None
            or (view["deal_number"], view["step"]) == handled
            or not settled({"type": "state", "view": view})
        ):
            view = lead.read_until(settled)["view"]
        if view["phase"] in ("over", "cancelled"):
            return view
        mover = players[view["to_move"]]
        mine = mover.state_at(view["deal_number"], view["step"])
        assert mine["seat"] == mover.seat and mine["legal"]
        mover.send({"type": "action", "action": rng.choice(mine["legal"])})
        handled = (view["deal_number"], view["step"])


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def check_no_leak(database: str, room_code: str, seated: list[Seated]) -> int:
    """Every state any connection was sent shows only the cards its seat may know."""
    store = GameStore(database)
    stored_room = store.load_room(room_code)
    assert stored_room is not None and stored_room.game_id is not None
    stored = store.load(stored_room.game_id)
    store.close()
    assert stored is not None
    match = Record.from_json(stored.record).replay()
    states = []
    for deal in match.deals:
        line = [deal.initial()]
        for action in deal.history:
            line.append(line[-1].apply(action))
        states.append(line)
    checked = 0
    for one in seated:
        seat = Seat[one.seat] if one.seat else None
        for message in one.messages:
            for text in _strings(message) if message["type"] != "state" else ():
                assert not CARD_CODE.match(text), (one.seat, message)
            if message["type"] != "state":
                continue
            view = message["view"]
            state = states[view["deal_number"] - 1][view["step"]]
            if seat is not None:
                assert view["hand"] == state.hand(seat).codes()
            else:
                assert view["hand"] == [] and view["legal"] == []
            if state.is_over:
                continue
            shown = {s for s in _strings(view) if CARD_CODE.match(s)}
            known = cards_seat_may_know(state, seat)
            assert shown <= known, (one.seat, shown - known)
            checked += 1
    return checked


# -- codes and names -------------------------------------------------------------------------


def test_codes_are_five_unambiguous_letters() -> None:
    codes = {new_code() for _ in range(2000)}
    assert len(codes) > 1990
    assert all(len(c) == 5 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set("ILO01") & set(CODE_ALPHABET)
    assert normal_code(" abcde ") == "ABCDE"
    assert normal_code("ab-cde") == "ABCDE"
    assert normal_code("ABCDI") is None and normal_code(42) is None


def test_display_names_are_cleaned_and_limited() -> None:
    assert clean_name("  Léa\u200b  B. ") == "Léa B."
    assert clean_name("<b>Ali</b>") == "<b>Ali</b>"  # text, never markup: shown as typed
    for bad in ("", "   ", "x" * 25, 42, None, "\u0000\u0007"):
        with pytest.raises(Exception, match="bad_name"):
            clean_name(bad)


# -- the room's state -----------------------------------------------------------------------

SAVED_STATE: dict[str, Any] = {
    "settings": {
        "rules": "maison",
        "level": "club",
        "deck": "french",
        "target": 500,
        "lang": "en",
        "grace": 60.0,
        "next_delay": 30.0,
        "watchers": False,
    },
    "creator": "hash-ana",
    "seats": {
        "N": {"kind": "human", "name": "Bo", "token": "hash-bo", "away": 1700000000.5},
        "E": {"kind": "computer", "name": "Cy", "token": None, "away": None},
        "S": {"kind": "human", "name": "Ana", "token": "hash-ana", "away": None},
        "W": {"kind": "computer", "name": None, "token": None, "away": None},
    },
    "started": True,
    "ready": ["S"],
    "phrases": [{"n": 3, "seat": "S", "code": "hello"}],
    "phrase_n": 3,
}
"""A room's state as rooms were saved before it was typed: it must still load."""


def test_a_saved_room_state_loads_and_is_saved_the_same() -> None:
    state = RoomState.from_json(SAVED_STATE)
    assert state[Seat.N] == PersonSeat("Bo", "hash-bo", 1700000000.5)
    assert state[Seat.E] == ComputerSeat("Cy") and state[Seat.W] == ComputerSeat()
    assert state.seat_of("hash-ana") == Seat.S and state.is_creator("hash-ana")
    assert state.people_here() == {Seat.S} and state.ready == {Seat.S}
    assert state.to_json() == SAVED_STATE
    assert json.loads(json.dumps(state.to_json())) == SAVED_STATE
    # Older rows lack the ready seats and the phrases.
    older = {k: v for k, v in SAVED_STATE.items() if k not in ("ready", "phrases", "phrase_n")}
    assert RoomState.from_json(older).phrases == ()


def test_room_state_changes_are_new_values() -> None:
    state = RoomState.from_json(SAVED_STATE | {"started": False})
    before = state.to_json()
    swapped = state.swap(Seat.N, Seat.S)
    assert swapped.seat_of("hash-ana") == Seat.N and swapped.seat_of("hash-bo") == Seat.S
    assert state.to_json() == before  # unchanged: every change answers a new state
    left = state.leave(Seat.S)
    assert left[Seat.S] == OpenSeat() and left.creator == "hash-bo" and left.ready == set()
    taken, seat = left.take(None, name="Di", token="hash-di")
    assert seat == Seat.S and taken[Seat.S] == PersonSeat("Di", "hash-di")
    started = state.start()
    assert started.started and started.seating().person_plays(Seat.S, now=0.0)
    assert not started.seating().person_plays(Seat.E, now=0.0)
    with pytest.raises(Exception, match="already_started"):
        started.start()
    with pytest.raises(Exception, match="bad_field"):
        state.free(Seat.S)  # never the creator's own seat
    assert started.free(Seat.N)[Seat.N] == ComputerSeat("Bo")
    said = state.say(Seat.S, "oops")
    assert said.phrase_n == 4 and said.phrases[-1].code == "oops"
    assert state.back(Seat.N)[Seat.N] == PersonSeat("Bo", "hash-bo")
    assert state.away(Seat.N, 5.0) is state


# -- playing ---------------------------------------------------------------------------------


@pytest.mark.slow  # a whole match
def test_two_people_and_two_computer_players_play_a_match(
    client: TestClient, database: str
) -> None:
    room = create_room(client, "Ana", target=500)
    code = room["room"]
    assert room["seat"] == "S" and room["link"] == f"/en/room/{code}"
    friend = join_room(client, code.lower(), "Bartek", seat="E")
    assert friend["seat"] == "E"
    with (
        client.websocket_connect(room_url(code, room["token"])) as ws_s,
        client.websocket_connect(room_url(code, friend["token"], "pl")) as ws_e,
    ):
        ana, bartek = Seated(ws_s, "S"), Seated(ws_e, "E")
        first = ana.read()
        assert first["type"] == "room"
        assert first["room"]["you"] == "S" and first["room"]["creator"] is True
        assert first["room"]["seats"]["E"]["name"] == "Bartek"
        assert first["room"]["seats"]["N"]["kind"] == "open"
        bartek.read_until(lambda m: m["type"] == "room")
        assert bartek.room is not None and bartek.room["creator"] is False
        ana.send({"type": "start"})
        view = ana.read_until(lambda m: m["type"] == "state")["view"]
        assert view["seat"] == "S" and view["screen"]["bottom"] == "S"
        assert view["names"]["E"]["name"] == "Bartek"
        assert view["names"]["N"]["kind"] == "computer"
        other = bartek.read_until(lambda m: m["type"] == "state")["view"]
        assert other["seat"] == "E" and other["screen"] == {
            "bottom": "E",
            "right": "S",
            "top": "W",
            "left": "N",
        }
        assert other["lang"] == "pl"
        rng = random.Random(1)
        players = {"S": ana, "E": bartek}
        for deal in (1, 2):
            view = play_deal(players, ana, rng, deal)
            assert view["deal_number"] == deal
            assert view["replay"] is not None
            if deal == 2:
                break
            assert view["next_deal"] is True
            ana.send({"type": "ready"})
            ana.read_until(lambda m: m["type"] == "room" and m["room"]["seats"]["S"]["ready"])
            bartek.state_at(1, view["step"])
            bartek.send({"type": "next_deal"})  # the same as ready
            ana.read_until(lambda m: m["type"] == "state" and m["view"]["deal_number"] == 2)
        assert len(view["match"]["deals"]) == 2
        assert check_no_leak(database, code, [ana, bartek]) > 20


def test_people_at_north_and_east_each_see_their_own_seat_at_the_bottom(
    client: TestClient, database: str
) -> None:
    """Two people sit at North and East (the other seats computer players) and play a whole
    deal through the room's socket: every view each is sent is turned for them by the server
    alone — their own real seat at the bottom of the screen, the others in turn order round
    it — and holds no hand but their own."""
    room = create_room(client, "Ana", seat="N", target=None)
    code = room["room"]
    assert room["seat"] == "N"
    friend = join_room(client, code, "Bartek", seat="E")
    with (
        client.websocket_connect(room_url(code, room["token"])) as ws_n,
        client.websocket_connect(room_url(code, friend["token"], "fr")) as ws_e,
    ):
        ana, bartek = Seated(ws_n, "N"), Seated(ws_e, "E")
        ana.read_until(lambda m: m["type"] == "room")
        ana.send({"type": "start"})
        view = play_deal({"N": ana, "E": bartek}, ana, random.Random(11))
        assert view["phase"] in ("over", "cancelled")
        bartek.state_at(1, view["step"])
        screens = {
            "N": {"bottom": "N", "right": "E", "top": "S", "left": "W"},
            "E": {"bottom": "E", "right": "S", "top": "W", "left": "N"},
        }
        for one in (ana, bartek):
            states = [m["view"] for m in one.messages if m["type"] == "state"]
            assert len(states) > 10
            for seen in states:
                assert seen["seat"] == one.seat and seen["screen"] == screens[one.seat]
                assert seen["names"]["S"]["kind"] == seen["names"]["W"]["kind"] == "computer"
        assert check_no_leak(database, code, [ana, bartek]) > 10


def test_the_computer_players_stop_is_told_to_the_room(client: TestClient) -> None:
    """Should the room's computer players stop on an error (here their moves cannot be
    saved), the room's connections are told, in their language, as a table's are."""
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    real_append_all = store.append_all

    def append_all(appends: list[Append]) -> list[int | None]:
        for append in appends:
            event = read_event(append.event)
            if isinstance(event, ActionEvent) and not event.action.startswith("N "):
                raise OSError("disk full")
        return list(real_append_all(appends))

    store.append_all = append_all
    try:
        room = create_room(client, "Ana", seat="N", target=None)
        with client.websocket_connect(room_url(room["room"], room["token"], "fr")) as ws:
            ana = Seated(ws, "N")
            ana.read_until(lambda m: m["type"] == "room")
            ana.send({"type": "start"})
            view = ana.read_until(lambda m: m["type"] == "state")["view"]
            if view["to_move"] == "N":
                ana.send({"type": "action", "action": {"kind": "pass"}})
            error = ana.read_until(lambda m: m["type"] == "error")
            assert error["code"] == "internal"
            assert error["message"] == CATALOGS.wording("fr").error("internal")
    finally:
        store.append_all = real_append_all


@pytest.mark.slow  # two whole deals
def test_four_people_play_two_deals(client: TestClient, database: str) -> None:
    room = create_room(client, "Ana", rules="coinche", target=2000)
    code = room["room"]
    tokens = {"S": room["token"]}
    for name, seat in (("Émile", "W"), ("Zhu", None), ("Omar", None)):
        joined = join_room(client, code, name, seat)
        tokens[joined["seat"]] = joined["token"]
    assert set(tokens) == {"N", "E", "S", "W"}
    response = client.post(f"/api/rooms/{code}/join", json={"name": "Late"})
    assert response.status_code == 409 and response.json()["code"] == "room_full"
    langs = {"S": "fr", "W": "ar", "N": "hi", "E": "es"}
    with (
        client.websocket_connect(room_url(code, tokens["S"], "fr")) as s,
        client.websocket_connect(room_url(code, tokens["W"], "ar")) as w,
        client.websocket_connect(room_url(code, tokens["N"], "hi")) as n,
        client.websocket_connect(room_url(code, tokens["E"], "es")) as e,
    ):
        players = {
            "S": Seated(s, "S"),
            "W": Seated(w, "W"),
            "N": Seated(n, "N"),
            "E": Seated(e, "E"),
        }
        players["S"].send({"type": "start"})
        for seat, one in players.items():
            view = one.read_until(lambda m: m["type"] == "state")["view"]
            assert view["seat"] == seat and view["lang"] == langs[seat]
            assert view["screen"]["bottom"] == seat
            assert all(view["names"][x]["kind"] == "human" for x in "NESW")
        rng = random.Random(4)
        view = play_deal(players, players["S"], rng)
        for one in players.values():
            one.state_at(1, view["step"])
            one.send({"type": "ready"})
        view = play_deal(players, players["S"], rng, 2)
        assert view["deal_number"] == 2
        assert check_no_leak(database, code, list(players.values())) > 20


def test_quick_phrases_and_watchers(client: TestClient, database: str) -> None:
    room = create_room(client, "Ana", watchers=True)
    code = room["room"]
    with (
        client.websocket_connect(room_url(code, room["token"], "fr")) as ws,
        client.websocket_connect(room_url(code, None, "es")) as watch_ws,
    ):
        ana, watcher = Seated(ws, "S"), Seated(watch_ws, None)
        ana.read_until(lambda m: m["type"] == "room")
        watcher.read_until(lambda m: m["type"] == "room")
        assert watcher.room is not None and watcher.room["you"] is None
        ana.send({"type": "phrase", "code": "well_played"})
        said = watcher.read_until(lambda m: m["type"] == "phrase")
        assert said == {
            "type": "phrase",
            "seat": "S",
            "name": "Ana",
            "code": "well_played",
            "text": "¡Bien jugado!",
        }
        assert ana.read_until(lambda m: m["type"] == "phrase")["text"] == "Bien joué\u00a0!"
        for bad in ({"type": "phrase", "code": "you are bad"}, {"type": "phrase", "text": "x"}):
            ana.send(bad)
            error = ana.read_until(lambda m: m["type"] == "error")
            assert error["code"] in ("unknown_phrase", "unknown_field")
        # A flood of phrases is refused past three at once.
        codes = []
        for _ in range(5):
            ana.send({"type": "phrase", "code": "oops"})
            codes.append(ana.read_until(lambda m: m["type"] in ("phrase", "error")))
        assert any(m["type"] == "error" and m["code"] == "rate_limited" for m in codes)
        # A watcher cannot act.
        watcher.send({"type": "start"})
        assert watcher.read_until(lambda m: m["type"] == "error")["code"] == "watching"
        ana.send({"type": "start"})
        view = watcher.read_until(lambda m: m["type"] == "state")["view"]
        assert view["seat"] is None and view["hand"] == [] and view["legal"] == []
        watcher.send({"type": "action", "action": {"kind": "pass"}})
        assert watcher.read_until(lambda m: m["type"] == "error")["code"] == "watching"
        view = play_deal({"S": ana}, ana, random.Random(3))
        watcher.read_until(lambda m: m["type"] == "state" and m["view"]["step"] == view["step"])
        assert check_no_leak(database, code, [ana, watcher]) > 5


def test_no_watchers_unless_the_room_allows_them(client: TestClient) -> None:
    room = create_room(client)
    with client.websocket_connect(room_url(room["room"])) as ws:
        message = ws.receive_json()
        assert message["code"] == "missing_token"
    response = client.get(f"/api/rooms/{room['room']}")
    assert response.status_code == 200
    assert response.json()["view"] is None
    assert "token" not in json.dumps(response.json()["room"]["seats"])


# -- the creator's controls ------------------------------------------------------------------


def test_the_creator_swaps_frees_and_removes(client: TestClient) -> None:
    room = create_room(client)
    code = room["room"]
    friend = join_room(client, code, "Bo", "N")
    with (
        client.websocket_connect(room_url(code, room["token"])) as ws,
        client.websocket_connect(room_url(code, friend["token"])) as fws,
    ):
        ana, bo = Seated(ws, "S"), Seated(fws, "N")
        ana.read_until(lambda m: m["type"] == "room")
        bo.read_until(lambda m: m["type"] == "room")
        bo.send({"type": "start"})
        assert bo.read_until(lambda m: m["type"] == "error")["code"] == "not_creator"
        bo.send({"type": "sit", "seat": "S"})
        assert bo.read_until(lambda m: m["type"] == "error")["code"] == "seat_taken"
        bo.send({"type": "sit", "seat": "E"})
        bo.read_until(lambda m: m["type"] == "room" and m["room"]["you"] == "E")
        ana.send({"type": "swap", "seats": ["S", "W"]})
        ana.read_until(lambda m: m["type"] == "room" and m["room"]["you"] == "W")
        assert ana.room is not None and ana.room["seats"]["W"]["name"] == "Ana"
        ana.send({"type": "free", "seat": "W"})
        assert ana.read_until(lambda m: m["type"] == "error")["args"] == {"field": "seat"}
        ana.send({"type": "remove", "seat": "E"})
        error = bo.read_until(lambda m: m["type"] == "error")
        assert error["code"] == "removed"
        ana.read_until(lambda m: m["type"] == "room" and m["room"]["seats"]["E"]["kind"] == "open")
    # The removed player's token opens nothing any more.
    with client.websocket_connect(room_url(code, friend["token"])) as ws:
        assert ws.receive_json()["code"] == "bad_token"


def test_leaving_for_good_hands_the_seat_to_a_computer_player(client: TestClient) -> None:
    room = create_room(client, target=500)
    code = room["room"]
    friend = join_room(client, code, "Bo", "N")
    with (
        client.websocket_connect(room_url(code, room["token"])) as ws,
        client.websocket_connect(room_url(code, friend["token"])) as fws,
    ):
        ana, bo = Seated(ws, "S"), Seated(fws, "N")
        ana.send({"type": "start"})
        bo.read_until(lambda m: m["type"] == "state")
        bo.send({"type": "leave"})
        bo.read_until(lambda m: m["type"] == "error" and m["code"] == "removed")
        ana.read_until(
            lambda m: m["type"] == "room" and m["room"]["seats"]["N"]["kind"] == "computer"
        )
        view = play_deal({"S": ana}, ana, random.Random(5))
        assert view["names"]["N"] == {
            "kind": "computer",
            "name": "Bo",
            "away": False,
            "computer": True,
            "takeover": None,
            "ready": False,
            "left": True,
        }


# -- presence --------------------------------------------------------------------------------


@pytest.mark.slow  # waits the grace
def test_an_away_player_is_replaced_after_the_grace_and_gets_the_seat_back(
    client: TestClient,
) -> None:
    room = create_room(client, grace=0.3, target=500)
    code = room["room"]
    friend = join_room(client, code, "Bo", "N")
    with client.websocket_connect(room_url(code, room["token"])) as ws:
        ana = Seated(ws, "S")
        with client.websocket_connect(room_url(code, friend["token"])) as fws:
            bo = Seated(fws, "N")
            ana.send({"type": "start"})
            bo.read_until(lambda m: m["type"] == "state")
        # Bo's socket closed: away, then played by a computer player after 0.3 s.
        ana.read_until(lambda m: m["type"] == "room" and m["room"]["seats"]["N"]["away"])
        ana.read_until(
            lambda m: m["type"] == "room" and m["room"]["seats"]["N"]["computer"], limit=50
        )
        rng = random.Random(9)
        played_for_bo = False
        for _ in range(400):
            message = ana.read()
            if message["type"] != "state":
                continue
            view = message["view"]
            if any(b["seat"] == "N" for b in view["bids"]) or any(
                p["seat"] == "N" for p in view["trick"]
            ):
                played_for_bo = True
            if view["phase"] in ("over", "cancelled"):
                break
            if view["to_move"] == "S" and view["legal"]:
                if played_for_bo:
                    break
                ana.send({"type": "action", "action": rng.choice(view["legal"])})
        assert played_for_bo
        # Bo comes back with the token: the seat is his again.
        with client.websocket_connect(room_url(code, friend["token"])) as fws:
            bo = Seated(fws, "N")
            bo.read_until(lambda m: m["type"] == "room" and not m["room"]["seats"]["N"]["away"])
            assert bo.room is not None and bo.room["seats"]["N"]["computer"] is False
            view = bo.read_until(lambda m: m["type"] == "state")["view"]
            assert view["seat"] == "N" and len(view["hand"]) > 0
            finished = play_deal({"S": ana, "N": bo}, ana, rng)
            assert finished["phase"] in ("over", "cancelled")


def test_the_next_deal_comes_after_the_delay(client: TestClient) -> None:
    room = create_room(client, next_delay=0.2, target=500)
    with client.websocket_connect(room_url(room["room"], room["token"])) as ws:
        ana = Seated(ws, "S")
        ana.send({"type": "start"})
        play_deal({"S": ana}, ana, random.Random(2))
        ana.read_until(lambda m: m["type"] == "state" and m["view"]["deal_number"] == 2)


# -- restart ---------------------------------------------------------------------------------


@pytest.mark.slow  # a restart
def test_a_room_survives_a_restart(make_app: Callable[..., FastAPI], database: str) -> None:
    with TestClient(make_app()) as client:
        room = create_room(client, target=500)
        code = room["room"]
        friend = join_room(client, code, "Bo", "N")
        with (
            client.websocket_connect(room_url(code, room["token"])) as ws,
            client.websocket_connect(room_url(code, friend["token"])) as fws,
        ):
            ana, bo = Seated(ws, "S"), Seated(fws, "N")
            ana.send({"type": "start"})
            ana.send({"type": "phrase", "code": "hello"})
            view = ana.read_until(human_turn({"S", "N"}))["view"]
            step = view["step"]
            hand = bo.state_at(1, step)["hand"]
    with (
        TestClient(make_app()) as client,
        client.websocket_connect(room_url(code, room["token"])) as ws,
        client.websocket_connect(room_url(code, friend["token"])) as fws,
    ):
        ana, bo = Seated(ws, "S"), Seated(fws, "N")
        assert ana.read_until(lambda m: m["type"] == "room")["room"]["started"] is True
        view = bo.read_until(lambda m: m["type"] == "state")["view"]
        assert view["step"] == step and view["hand"] == hand
        assert view["names"]["S"]["name"] == "Ana"
        finished = play_deal({"S": ana, "N": bo}, ana, random.Random(8))
        assert finished["phase"] in ("over", "cancelled")


# -- bad input -------------------------------------------------------------------------------


def test_bad_room_requests_are_answered_in_the_language(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"name": ""}, 400, "bad_name"),
        ({"name": "x" * 40}, 400, "bad_name"),
        ({"name": 7}, 400, "bad_name"),
        ({"name": "A", "rules": "poker"}, 400, "unknown_rules"),
        ({"name": "A", "level": "god"}, 400, "unknown_level"),
        ({"name": "A", "deck": "tarot"}, 400, "unknown_deck"),
        ({"name": "A", "target": 7}, 400, "bad_field"),
        ({"name": "A", "target": True}, 400, "bad_field"),
        ({"name": "A", "grace": -1}, 400, "bad_field"),
        ({"name": "A", "watchers": "yes"}, 400, "bad_field"),
        ({"name": "A", "seat": "X"}, 400, "bad_field"),
        ({"name": "A", "owner": 1}, 400, "unknown_field"),
    ]
    for body, status, code in cases:
        response = client.post("/api/rooms?lang=fr", json=body)
        assert response.status_code == status, (body, response.text)
        data = response.json()
        assert data["code"] == code and data["message"], body
    response = client.post("/api/rooms?lang=fr", json={"name": ""})
    assert "nom affiché" in response.json()["message"]
    response = client.post("/api/rooms", content=b"{}", headers={"content-type": "text/plain"})
    assert response.status_code == 415
    response = client.post("/api/rooms", json={"name": "A"}, headers={"origin": "https://evil"})
    assert response.status_code == 403 and response.json()["code"] == "bad_origin"
    for code in ("ZZZZZ", "bad", "12345"):
        response = client.post(f"/api/rooms/{code}/join?lang=ar", json={"name": "B"})
        assert response.status_code == 404 and response.json()["code"] == "room_not_found"
        assert response.json()["message"] == "لا توجد غرفة بهذا الرمز (أو أُغلقت)."
    room = create_room(client)
    response = client.post(f"/api/rooms/{room['room']}/join", json={"name": "B", "seat": "S"})
    assert response.status_code == 409 and response.json()["code"] == "seat_taken"
    response = client.get(f"/api/rooms/{room['room']}?token=nope")
    assert response.status_code == 403 and response.json()["code"] == "bad_token"


def test_bad_socket_messages(client: TestClient) -> None:
    room = create_room(client)
    with client.websocket_connect(room_url(room["room"], room["token"], "pl")) as ws:
        ana = Seated(ws, "S")
        ana.read_until(lambda m: m["type"] == "room")
        cases: list[tuple[Any, str]] = [
            ("not json", "bad_json"),
            ([1], "not_an_object"),
            ({}, "missing_field"),
            ({"type": "dance"}, "unknown_type"),
            ({"type": "start", "seat": "N"}, "unknown_field"),
            ({"type": "swap"}, "missing_field"),
            ({"type": "swap", "seats": ["S"]}, "bad_field"),
            ({"type": "swap", "seats": ["S", "Q"]}, "bad_field"),
            ({"type": "free", "seat": 3}, "bad_field"),
            ({"type": "action", "action": {"kind": "pass"}}, "not_started"),
            ({"type": "ready"}, "not_started"),
            ({"type": "phrase"}, "missing_field"),
        ]
        for message, code in cases:
            ws.send_text(message if isinstance(message, str) else json.dumps(message))
            error = ana.read_until(lambda m: m["type"] == "error")
            assert error["code"] == code, (message, error)
            assert error["message"]
        ana.send({"type": "start"})
        ana.read_until(lambda m: m["type"] == "state")
        ana.send({"type": "start"})
        assert ana.read_until(lambda m: m["type"] == "error")["code"] == "already_started"
        ana.send({"type": "ready"})
        assert ana.read_until(lambda m: m["type"] == "error")["code"] == "deal_not_over"
    response = client.post(f"/api/rooms/{room['room']}/join", json={"name": "Late"})
    assert response.status_code == 409 and response.json()["code"] == "already_started"


def test_limits_on_rooms_per_client_and_code_guessing(
    make_app: Callable[..., FastAPI],
) -> None:
    from cardavia.live.limits import Limits

    limits = Limits(
        games_per_minute=0, messages_per_second=0, rooms_per_client=2, room_lookups_per_minute=3
    )
    with TestClient(make_app(limits=limits)) as client:
        create_room(client)
        create_room(client)
        response = client.post("/api/rooms", json={"name": "C"})
        assert response.status_code == 429 and response.json()["code"] == "too_many_rooms"
        codes = [
            client.post(f"/api/rooms/{c}/join", json={"name": "G"}).json()["code"]
            for c in ("AAAAA", "BBBBB", "CCCCC", "DDDDD", "EEEEE")
        ]
        assert codes[:3] == ["room_not_found"] * 3
        assert codes[-1] == "too_many_attempts"


def test_a_room_with_nobody_for_a_day_closes(client: TestClient, database: str) -> None:
    from datetime import timedelta

    room = create_room(client)
    store = GameStore(database)
    assert store.purge_rooms(timedelta(days=1)) == 0
    assert store.purge_rooms(timedelta(seconds=-1)) == 1
    store.close()
    response = client.post(f"/api/rooms/{room['room']}/join", json={"name": "B"})
    assert response.status_code == 404 and response.json()["code"] == "room_not_found"


def test_old_databases_load(tmp_path: Any) -> None:
    """A database made before rooms existed gains the rooms table and keeps its games."""
    import sqlite3

    path = tmp_path / "old.db"
    store = GameStore(f"sqlite:///{path}")
    game = store.create(rules="maison", level="club", lang="en", token="t", record="{}")
    store.close()
    with sqlite3.connect(path) as connection:
        # As a version before rooms left it: before migrations and players too.
        for table in ("player_rooms", "player_games", "players", "alembic_version", "rooms"):
            connection.execute(f"DROP TABLE {table}")
    store = GameStore(f"sqlite:///{path}")
    assert store.load(game.id) is not None
    assert store.load_room("ABCDE") is None
    store.close()


# -- the pages -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["fr", "en", "ar", "pl", "hi", "es"])
def test_the_room_pages(client: TestClient, lang: str) -> None:
    page = client.get(f"/{lang}/room/")
    assert page.status_code == 200
    assert 'id="room-create"' in page.text and 'data-code=""' in page.text
    assert "/static/js/table.js" in page.text
    # CSP-safe: no inline script other than JSON data, no inline style attribute.
    scripts = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", page.text)
    assert all('type="application/json"' in attributes for attributes in scripts)
    assert (
        "style="
        not in page.text.split("<body", 1)[1].split('id="room"', 1)[1].split("</section>")[0]
    )
    page = client.get(f"/{lang}/room/abcde")
    assert page.status_code == 200 and 'data-code="ABCDE"' in page.text
    assert client.get("/xx/room/").status_code == 404


def test_a_hint_in_a_room_is_for_the_askers_own_seat(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player of a room who asks a hint gets the one of their own seat, worked out from
    that seat's observation only; a watcher gets none."""
    from cardavia.live import learn

    given: list[Seat] = []
    real = learn.hint

    def spy(observation: Any, seed: int = 0) -> Any:
        given.append(observation.seat)
        return real(observation, seed)

    monkeypatch.setattr(learn, "hint", spy)
    room = create_room(client, "Ana", watchers=True)
    code = room["room"]
    friend = join_room(client, code, "Bartek", seat="W")
    with (
        client.websocket_connect(room_url(code, room["token"])) as ws_s,
        client.websocket_connect(room_url(code, friend["token"])) as ws_w,
        client.websocket_connect(room_url(code)) as ws_watch,
    ):
        ana, bartek, watcher = Seated(ws_s, "S"), Seated(ws_w, "W"), Seated(ws_watch, None)
        ana.read_until(lambda m: m["type"] == "room")
        ana.send({"type": "start"})
        rng = random.Random(4)
        players = {"S": ana, "W": bartek}
        settled = human_turn(set(players))
        view = ana.read_until(settled)["view"]
        while view["phase"] not in ("over", "cancelled") and view["to_move"] != "W":
            mine = ana.state_at(view["deal_number"], view["step"])
            ana.send({"type": "action", "action": rng.choice(mine["legal"])})
            view = ana.read_until(settled)["view"]
        if view["phase"] in ("over", "cancelled"):
            pytest.skip("the deal ended before West's turn")
        mine = bartek.state_at(view["deal_number"], view["step"])
        bartek.send({"type": "hint"})
        answer = bartek.read_until(lambda m: m["type"] == "hint")
        assert answer["hint"]["action"] in mine["legal"]
        assert given == [Seat.W]
        watcher.read_until(lambda m: m["type"] == "state")
        watcher.send({"type": "hint"})
        refused = watcher.read_until(lambda m: m["type"] == "error")
        assert refused["code"] == "unknown_type"
        assert given == [Seat.W]


# -- playing again, an away player's countdown ---------------------------------------------


def finish_single_deal(players: dict[str, Seated], lead: Seated, rng: random.Random) -> View:
    """Play the room's single deal to its score (everybody passed: dealt again, as the
    table's "Deal again" asks)."""
    view = play_deal(players, lead, rng)
    while view["phase"] == "cancelled":
        lead.send({"type": "next_deal"})
        for seated in players.values():
            if seated is not lead:
                seated.state_at(view["deal_number"], view["step"])
                seated.send({"type": "next_deal"})
        lead.read_until(
            lambda m, n=view["deal_number"]: m["type"] == "state" and m["view"]["deal_number"] > n
        )
        view = play_deal(players, lead, rng, view["deal_number"] + 1)
    assert view["phase"] == "over" and view["next_deal"] is False
    return view


@pytest.mark.slow  # two whole deals
def test_playing_again_after_a_single_deal_keeps_the_same_people_in_the_same_seats(
    client: TestClient, database: str
) -> None:
    """Once a single-deal room's deal is scored, "Play again" offers a new game to the others
    (a rematch), dealt to the same people in the same seats once each accepted: nobody is
    thrown out, every seat token still opens its seat, a late "again" of the old game changes
    nothing; a match may be offered instead."""
    room = create_room(client, "Ana", target=None)
    code = room["room"]
    friend = join_room(client, code, "Bo", seat="N")
    with (
        client.websocket_connect(room_url(code, room["token"])) as ws_s,
        client.websocket_connect(room_url(code, friend["token"], "fr")) as ws_n,
    ):
        ana, bo = Seated(ws_s, "S"), Seated(ws_n, "N")
        ana.read_until(lambda m: m["type"] == "room")
        ana.send({"type": "start"})
        first = ana.read_until(lambda m: m["type"] == "state")["view"]
        # Not before the deal is over.
        ana.send({"type": "again", "game": first["game"]})
        refused = ana.read_until(lambda m: m["type"] == "error")
        assert refused["code"] == "deal_not_over"
        view = finish_single_deal({"S": ana, "N": bo}, ana, random.Random(5))
        old = view["game"]
        # The room said its game is over (before the last view): they may play again.
        assert ana.room is not None and ana.room["over"] is True
        bo.state_at(view["deal_number"], view["step"])
        bo.send({"type": "again", "game": old})
        # An offer: Ana is told of it, and nothing is dealt before she accepts.
        ana.read_until(lambda m: m["type"] == "room" and m["room"]["offers"] == ["N"])
        ana.send({"type": "again", "game": old})
        new = ana.read_until(lambda m: m["type"] == "state" and m["view"]["game"] != old)
        assert new["view"]["phase"] == "bidding" and new["view"]["deal_number"] == 1
        assert new["view"]["seat"] == "S" and new["view"]["match"]["target"] is None
        assert ana.room is not None and ana.room["over"] is False
        # Ana asked again, a moment later: the new game is not dealt twice, nothing refused.
        ana.send({"type": "again", "game": old})
        ana.send({"type": "sync"})
        synced = ana.read_until(lambda m: m["type"] in ("state", "error"))
        assert synced["type"] == "state" and synced["view"]["game"] == new["view"]["game"]
        mine = bo.read_until(lambda m: m["type"] == "state" and m["view"]["game"] != old)
        assert mine["view"]["seat"] == "N" and mine["view"]["screen"]["bottom"] == "N"
        assert ana.room is not None and ana.room["seats"]["N"]["name"] == "Bo"
        assert [ana.room["seats"][s]["kind"] for s in "NESW"] == [
            "human",
            "computer",
            "human",
            "computer",
        ]
    # The tokens still open their seats, on the socket and over HTTP.
    for token, seat in ((room["token"], "S"), (friend["token"], "N")):
        read = client.get(f"/api/rooms/{code}", params={"token": token})
        assert read.status_code == 200, read.text
        assert read.json()["room"]["you"] == seat
        assert read.json()["view"]["game"] == new["view"]["game"]
    with (
        client.websocket_connect(room_url(code, room["token"])) as ws_s,
        client.websocket_connect(room_url(code, friend["token"])) as ws_n,
    ):
        ana, bo = Seated(ws_s, "S"), Seated(ws_n, "N")
        ana.read_until(lambda m: m["type"] == "state")
        view = finish_single_deal({"S": ana, "N": bo}, ana, random.Random(6))
        # Now a match, to the rules' target.
        ana.send({"type": "again", "game": view["game"], "match": True})
        bo.read_until(lambda m: m["type"] == "room" and m["room"]["offers"] == ["S"])
        bo.send({"type": "again", "game": view["game"]})  # accepted: the match offered
        match = ana.read_until(lambda m: m["type"] == "state" and m["view"]["game"] != view["game"])
        assert match["view"]["match"]["target"] == 1000
        ana.send({"type": "again", "game": match["view"]["game"], "match": "yes"})
        assert ana.read_until(lambda m: m["type"] == "error")["code"] == "bad_field"
        bo.read_until(lambda m: m["type"] == "state" and m["view"]["game"] != view["game"])
    # What each was sent of the room's game now (the match): only what its seat may see.
    for one in (ana, bo):
        one.messages = [
            m
            for m in one.messages
            if m["type"] != "state" or m["view"]["game"] == match["view"]["game"]
        ]
    assert check_no_leak(database, code, [ana, bo]) > 1
    # Each game the room dealt is in its players' games (here one browser took both seats),
    # not only the room's latest.
    listed = {entry["game"] for entry in client.get("/api/me/games").json()["deals"]}
    assert {old, new["view"]["game"], view["game"], match["view"]["game"]} <= listed


@pytest.mark.slow  # waits the grace
def test_an_away_players_seat_counts_down_to_the_computer_player(client: TestClient) -> None:
    """A player whose connection closed is away: every view and the room say how many
    seconds are left before a computer player takes over their seat, then that one does."""
    room = create_room(client, grace=2.0, target=500)
    code = room["room"]
    friend = join_room(client, code, "Bo", "N")
    with client.websocket_connect(room_url(code, room["token"])) as ws:
        ana = Seated(ws, "S")
        with client.websocket_connect(room_url(code, friend["token"])) as fws:
            bo = Seated(fws, "N")
            ana.send({"type": "start"})
            view = bo.read_until(lambda m: m["type"] == "state")["view"]
            assert view["names"]["N"]["away"] is False and view["names"]["N"]["takeover"] is None
        away = ana.read_until(lambda m: m["type"] == "room" and m["room"]["seats"]["N"]["away"])
        left = away["room"]["seats"]["N"]["takeover"]
        assert 0 < left <= 2.0
        seen = ana.read_until(lambda m: m["type"] == "state" and m["view"]["names"]["N"]["away"])[
            "view"
        ]["names"]["N"]
        assert seen["computer"] is False and 0 < seen["takeover"] <= 2.0
        assert seen["kind"] == "human" and seen["name"] == "Bo"
        # The grace runs out: a computer player plays the seat, no countdown any more.
        over = ana.read_until(
            lambda m: m["type"] == "room" and m["room"]["seats"]["N"]["computer"], limit=100
        )
        assert over["room"]["seats"]["N"]["takeover"] is None
        assert over["room"]["seats"]["N"]["away"] is True


# -- a shared link opens in the joiner's language ------------------------------------------


@pytest.mark.parametrize(
    ("headers", "lang"),
    [
        ({"Cookie": "cardavia_lang=ar"}, "ar"),  # their saved choice
        ({"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"}, "pl"),  # their browser's
        ({"Cookie": "cardavia_lang=hi", "Accept-Language": "es"}, "hi"),  # the saved first
        ({"Cookie": "cardavia_lang=xx", "Accept-Language": "de, es;q=0.5"}, "es"),
        ({"Accept-Language": "de-DE, *;q=0.1"}, "fr"),  # none of ours: the link's own
        ({"Cookie": "cardavia_lang=fr", "Accept-Language": "ar"}, "fr"),
        # From a page of the site (its language menu, the room just made): as asked.
        ({"Cookie": "cardavia_lang=ar", "Referer": "http://testserver/ar/room/KQRST"}, "fr"),
        ({}, "fr"),
    ],
)
def test_a_shared_link_opens_in_the_joiners_language(
    client: TestClient, headers: dict[str, str], lang: str
) -> None:
    """The link's creator wrote it in French; whoever opens it from elsewhere (a message)
    reads the room in their own language: the one they chose on the site before, else their
    browser's; the code (and so the seat kept in the browser) is the same."""
    page = client.get("/fr/room/kqrst", headers=headers, follow_redirects=False)
    if lang == "fr":
        assert page.status_code == 200 and 'data-code="KQRST"' in page.text
        assert '<html lang="fr"' in page.text
        return
    assert page.status_code == 307
    assert page.headers["location"] == f"/{lang}/room/KQRST"
    assert page.headers["cache-control"] == "no-store"
    landed = client.get(page.headers["location"], headers=headers)
    assert landed.status_code == 200 and f'<html lang="{lang}"' in landed.text


def test_a_change_meeting_another_processs_change_is_made_again_on_it(
    client: TestClient,
) -> None:
    """Another process changed the room after this one last read it: a change asked here
    (a seat swapped, "I'm back") is not refused as ``stale`` but made on the room as it now
    stands, the other's change kept."""
    app: Any = client.app
    created = create_room(client, seat="S")
    code = created["room"]
    rooms = app.state.rooms
    room = client.portal.call(rooms.open, code)
    # Another process lets watchers in: the store's revision moves on behind this one's back.
    stored = app.state.store.load_room(code)
    data = json.loads(stored.state)
    watchers = not data["settings"].get("watchers", False)
    data["settings"]["watchers"] = watchers
    app.state.store.save_room(code, json.dumps(data), revision=stored.revision)
    client.portal.call(rooms.change, room, lambda state: state.swap(Seat.S, Seat.E))
    now = json.loads(app.state.store.load_room(code).state)
    assert now["settings"]["watchers"] is watchers
    seats = dict(room.state.items())
    assert isinstance(seats[Seat.E], PersonSeat) and seats[Seat.E].name == "Ana"
    assert not isinstance(seats[Seat.S], PersonSeat)
