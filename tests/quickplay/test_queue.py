"""Quick play's queue over HTTP and its WebSocket, in one process: four people seated at one
room (four seats, four tokens, the room quick, dealt, linked to each player and noted in
their quick-play seats), the wait and the computer players, a second tab, cancel, a closed
tab, and each bad input refused in the person's language."""

from __future__ import annotations

import re
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

from cardavia.live.quick_queue import GONE_AFTER
from cardavia.live.room_state import ComputerSeat, PersonSeat
from cardavia.store.quickplay import QuickSeatRow


def test_four_people_are_seated_at_one_quick_room(client: TestClient) -> None:
    people = [Person(client) for _ in range(4)]
    langs = ["fr", "fr", "ar", "fr"]
    seated: list[dict[str, Any]] = []
    with ExitStack() as stack:
        sockets = []
        for who, lang in zip(people, langs, strict=True):
            answer = who.join("coinche", lang)
            assert answer["preset"] == "coinche" and answer["waiting"] >= 1
            ws = stack.enter_context(who.socket("coinche", lang))
            sockets.append(ws)
            if len(sockets) < 4:
                assert read_until(ws, "waiting")["preset"] == "coinche"
        for ws in sockets:
            seated.append(read_until(ws, "seated"))
    assert len({s["room"] for s in seated}) == 1
    assert sorted(s["seat"] for s in seated) == ["E", "N", "S", "W"]
    assert len({s["token"] for s in seated}) == 4
    assert seated[0]["link"] == f"/fr/room/{seated[0]['room']}"
    code = seated[0]["room"]
    app: Any = client.app
    room = app.state.rooms.rooms[code]
    settings = room.state.settings
    assert settings.quick and settings.clock == 30.0 and settings.grace == 5.0
    assert settings.watchers and settings.rules == "coinche" and settings.target == 2000
    assert settings.lang == "fr" and settings.level == "club"
    assert room.state.started and room.game_id is not None and room.state.creator is None
    assert all(isinstance(entry, PersonSeat) for entry in room.state.seats)
    # Nobody has opened the room yet: each seat waits for its person to arrive.
    assert all(entry.arriving and entry.away is not None for entry in room.state.seats)
    # Each token opens its own seat of the room, and sees its own hand only.
    for s in seated:
        view = client.get(f"/api/rooms/{code}?token={s['token']}").json()
        assert view["room"]["you"] == s["seat"] and view["view"]["seat"] == s["seat"]
        assert len(view["view"]["hand"]) in (5, 8)
    # Linked to each player (My games' rooms) and noted as a quick-play seat.
    store = app.state.store
    by_seat = {s["seat"]: s for s in seated}
    for who, s in zip(people, seated, strict=True):
        player = store.players.find(who.cookie)
        assert player is not None and player.name is None
        assert store.players.rooms_of(player.id) == [(code, s["seat"])]
        with Session(store.engine) as session:
            rows = session.scalars(select(QuickSeatRow).where(QuickSeatRow.player_id == player.id))
            assert [(r.room_code, r.seat, r.family, r.outcome) for r in rows] == [
                (code, s["seat"], "coinche", "playing")
            ]
    # Nameless people sit under a generated name each, none twice at the table, kept as its
    # English words and read in each reader's language, whatever the language they joined in
    # ("Joueur 4821" to a French reader, "لاعب 4821" to an Arabic one; never the word alone).
    names = {
        seat.name: entry.name for seat, entry in room.state.items() if isinstance(entry, PersonSeat)
    }
    assert len(set(names.values())) == 4
    assert all(re.fullmatch(r"Player \d{4}", name) for name in names.values())
    for lang, word in (("fr", "Joueur"), ("ar", "لاعب")):
        token = by_seat["N"]["token"]
        read = client.get(f"/api/rooms/{code}?token={token}&lang={lang}").json()["room"]
        shown = {seat: read["seats"][seat]["name"] for seat in names}
        assert shown == {seat: name.replace("Player", word) for seat, name in names.items()}


def test_after_the_wait_computer_players_take_the_empty_seats(
    make_app: Callable[..., FastAPI],
) -> None:
    with TestClient(make_app(quick_wait=0.5)) as client:
        one, two = Person(client), Person(client)
        one.join("maison", "en")
        two.join("maison", "en")
        with one.socket() as a, two.socket() as b:
            first, second = read_until(a, "seated"), read_until(b, "seated")
        assert first["room"] == second["room"] and first["seat"] != second["seat"]
        app: Any = client.app
        room = app.state.rooms.rooms[first["room"]]
        kinds = [type(entry) for entry in room.state.seats]
        assert kinds.count(PersonSeat) == 2 and kinds.count(ComputerSeat) == 2
        assert room.state.settings.level == "club"
        # The two people are partners (the computer players' skill is the people's).
        assert {first["seat"], second["seat"]} in ({"N", "S"}, {"E", "W"})


@pytest.mark.slow  # waits the queue's rounds
def test_two_tabs_of_one_player_are_one_entry_and_get_the_same_seat(
    make_app: Callable[..., FastAPI],
) -> None:
    with TestClient(make_app(quick_wait=1.0)) as client:
        one = Person(client)
        first = one.join()
        again = one.join()
        assert again["since"] == first["since"] and again["waiting"] == 1
        with one.socket() as tab1, one.socket() as tab2:
            seat1, seat2 = read_until(tab1, "seated"), read_until(tab2, "seated")
        assert seat1 == seat2
        app: Any = client.app
        room = app.state.rooms.rooms[seat1["room"]]
        assert sum(isinstance(entry, PersonSeat) for entry in room.state.seats) == 1


def test_cancel_takes_the_person_out_of_the_queue(client: TestClient) -> None:
    one, other = Person(client), Person(client)
    one.join()
    with one.socket() as ws:
        assert read_until(ws, "waiting")["waiting"] == 1
        ws.send_json({"type": "cancel"})
        assert read_until(ws, "cancelled") == {"type": "cancelled"}
    assert other.join()["waiting"] == 1


@pytest.mark.slow  # waits the queue's seconds
def test_a_closed_tab_leaves_the_queue_after_a_few_seconds(client: TestClient) -> None:
    one, other = Person(client), Person(client)
    since = one.join()["since"]
    with one.socket() as ws:
        read_until(ws, "waiting")
    # Back within a few seconds (a reload): the same entry, the same wait.
    time.sleep(1.0)
    assert one.join()["since"] == since
    with one.socket() as ws:
        read_until(ws, "waiting")
    assert other.join()["waiting"] == 2
    # Gone for longer: out of the queue (the other, with no socket open either, too).
    time.sleep(GONE_AFTER + 0.6)
    with other.socket() as ws:
        assert read_until(ws, "error")["code"] == "not_waiting"
    assert other.join()["waiting"] == 1


def test_bad_input_is_refused_in_the_persons_language(client: TestClient) -> None:
    one = Person(client)
    refused = one.join("poker", "fr", status=400)
    assert refused["code"] == "unknown_rules" and "poker" in refused["message"]
    assert refused["message"].startswith("Règles inconnues")
    response = client.post("/api/quick/maison", content=b"{}")
    assert response.status_code == 415 and response.json()["code"] == "not_json"
    response = client.post(
        "/api/quick/maison", json={"lang": "fr"}, headers={"Origin": "https://evil.example"}
    )
    assert response.status_code == 403 and response.json()["code"] == "bad_origin"
    response = client.post("/api/quick/maison", json={"seat": "N"})
    assert response.json()["code"] == "unknown_field"
    # A socket with no player, and one for an unknown preset.
    with Person(client).socket("maison", "fr") as ws:
        message = read_until(ws, "error")
        assert message["code"] == "not_waiting" and "Jouer maintenant" in message["message"]
    with client.websocket_connect("/ws/quick/poker?lang=ar") as ws:
        assert read_until(ws, "error")["code"] == "unknown_rules"
    assert client.get("/fr/quick/poker").status_code == 404
    assert client.get("/xx/quick/maison").status_code == 404


def test_joining_is_rate_limited_per_client(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(quick_joins_per_minute=6.0)) as client:
        one = Person(client)
        assert one.join()["waiting"] == 1
        response = client.post("/api/quick/maison", json={"lang": "pl"})
        while response.status_code == 201:
            response = client.post("/api/quick/maison", json={"lang": "pl"})
        assert response.status_code == 429 and response.json()["code"] == "rate_limited"


def test_the_waiting_page_and_the_play_now_buttons(client: TestClient) -> None:
    page = client.get("/fr/quick/coinche")
    assert page.status_code == 200 and 'data-preset="coinche"' in page.text
    assert "/static/js/quickplay.js" in page.text
    home = client.get("/ar/").text
    for preset in ("cardavia", "maison", "coinche", "maghreb"):
        assert f'href="/ar/quick/{preset}"' in home


def _ended_games(app: Any, cookie: str | None, finished: int, abandoned: int) -> str:
    """Give a player quick-play games ended so (as the seats' endings are written)."""
    store = app.state.store
    player = store.players.find(cookie)
    assert player is not None
    for n in range(finished + abandoned):
        store.quick.seat(player.id, room_code=f"OLD{n:02d}", seat="S", family="classic")
    with Session(store.engine) as session, session.begin():
        rows = session.scalars(select(QuickSeatRow).where(QuickSeatRow.player_id == player.id))
        for n, row in enumerate(rows):
            row.outcome = "finished" if n < finished else "abandoned"
    assert store.quick.completion(player.id).finished == finished
    return str(player.id)


@pytest.mark.slow  # waits the queue's rounds
def test_a_player_who_abandons_often_waits_longer(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(quick_wait=0.5)) as client:
        app: Any = client.app
        leaver, steady = Person(client), Person(client)
        leaver.join("maghreb")  # a guest made, then taken out: their record given
        app.state.quick.queue._entries.clear()
        _ended_games(app, leaver.cookie, finished=7, abandoned=3)  # 70 %: 10 s more
        started = time.monotonic()
        leaver.join("maghreb")
        steady.join("maghreb")
        with leaver.socket("maghreb") as slow, steady.socket("maghreb") as fast:
            seated = read_until(fast, "seated")
            assert time.monotonic() - started < 5
            room = app.state.rooms.rooms[seated["room"]]
            assert sum(isinstance(entry, PersonSeat) for entry in room.state.seats) == 1
            # The leaver still waits, alone in the queue now.
            while read_until(slow, "waiting")["waiting"] != 1:
                pass
            assert time.monotonic() - started < 10


def test_people_kept_apart_are_never_seated_together(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(quick_wait=0.5)) as client:
        app: Any = client.app
        one, two = Person(client), Person(client)
        one.join("maison")
        two.join("maison")
        app.state.quick.queue._entries.clear()
        first = app.state.store.players.find(one.cookie)
        second = app.state.store.players.find(two.cookie)
        app.state.store.safety.block(second.id, first.id)
        one.join("maison")
        two.join("maison")
        with one.socket() as a, two.socket() as b:
            rooms = {read_until(a, "seated")["room"], read_until(b, "seated")["room"]}
        assert len(rooms) == 2


def test_a_reported_name_sits_hidden_from_the_first_moment(
    make_app: Callable[..., FastAPI],
) -> None:
    """A person whose name was reported is seated under it hidden ("a player" to the
    others) as the table forms, not only once their own page opens the seat."""
    with TestClient(make_app(quick_wait=0.2)) as client:
        app: Any = client.app
        one, two = Person(client), Person(client)
        one.join("maison")
        two.join("maison")
        app.state.quick.queue._entries.clear()
        store = app.state.store
        reported = store.players.find(one.cookie)
        other = store.players.find(two.cookie)
        store.players.update(reported.id, {"name": "Rude"})
        store.safety.report(other.id, reported.id, "Rude")
        one.join("maison")
        with one.socket() as ws:
            seated = read_until(ws, "seated")
        room = app.state.rooms.rooms[seated["room"]]
        entry = room.state.seats[["N", "E", "S", "W"].index(seated["seat"])]
        assert isinstance(entry, PersonSeat) and entry.name == "Rude" and entry.hidden
