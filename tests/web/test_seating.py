"""Seats are first-class: a person may sit anywhere. A whole deal played from West through the
table's socket (a solo seating at W, computer players elsewhere): every view is West's own,
turned by the server so that West is drawn at the bottom, and no other hand is ever sent."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient
from tests.web.conftest import cards_seat_may_know

from cardavia.belote import DealState, Seat
from cardavia.belote.notation import Record
from cardavia.live.seating import Computer, Person, Seating

CARD_CODE = re.compile(r"^[789TJQKA][SHDC]$")


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


def _states(deal: DealState) -> list[DealState]:
    states = [deal.initial()]
    for action in deal.history:
        states.append(states[-1].apply(action))
    return states


def test_the_solo_seating() -> None:
    seating = Seating.solo(Seat.W, "club")
    assert seating[Seat.W] == Person()
    assert seating[Seat.N] == Computer("club")
    assert seating.people == (Seat.W,)
    assert [seating.person_plays(s, now=0.0) for s in Seat] == [False, False, False, True]


def test_an_away_person_keeps_their_seat_for_the_grace_period() -> None:
    seating = Seating(
        (Person("Ana", away_since=100.0), Computer("club"), Person("Bo"), Computer("club")),
        grace=60.0,
    )
    assert seating.person_plays(Seat.N, now=150.0)
    assert not seating.person_plays(Seat.N, now=161.0)
    assert seating.person_plays(Seat.S, now=1e9)
    assert seating.names() == {"N": "Ana", "E": None, "S": "Bo", "W": None}


def test_a_whole_deal_played_from_west(client: TestClient) -> None:
    created = client.post(
        "/api/games", json={"rules": "coinche", "level": "club", "lang": "en", "seat": "W"}
    )
    assert created.status_code == 201, created.text
    game = created.json()
    assert game["seat"] == "W"
    rng = random.Random("west")
    views: list[dict[str, Any]] = []
    url = f"/ws/games/{game['game']}?token={game['token']}&lang=en"
    with client.websocket_connect(url) as ws:
        view: dict[str, Any] | None = None
        for _ in range(400):
            message = ws.receive_json()
            assert message["type"] == "state", message
            view = message["view"]
            views.append(view)
            if view["phase"] in ("over", "cancelled"):
                break
            if view["to_move"] == "W" and view["legal"]:
                ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
        assert view is not None and view["phase"] in ("over", "cancelled")
    database = client.app.state.store  # type: ignore[attr-defined]
    stored = database.load(game["game"])
    deal = Record.from_json(stored.record).replay().deal
    states = _states(deal)
    assert deal.is_over
    for view in views:
        assert view["seat"] == "W"
        assert view["screen"] == {"bottom": "W", "right": "N", "top": "E", "left": "S"}
        state = states[view["step"]]
        assert view["hand"] == state.hand(Seat.W).codes()
        if state.is_over:
            continue
        shown = {s for s in _strings(view) if CARD_CODE.match(s)}
        known = cards_seat_may_know(state, Seat.W)
        assert shown <= known, (shown - known, view)
    # The API's view is West's too.
    read = client.get(f"/api/games/{game['game']}", params={"token": game["token"]}).json()
    assert read["seat"] == "W" and read["screen"]["bottom"] == "W"


def test_a_game_is_played_from_south_unless_asked(client: TestClient) -> None:
    """The API's default seat is South (the single-player table as it always was)."""
    game = client.post("/api/games", json={"rules": "coinche", "level": "club"}).json()
    assert game["seat"] == "S"
    view = client.get(f"/api/games/{game['game']}", params={"token": game["token"]}).json()
    assert view["seat"] == "S"
    assert view["screen"] == {"bottom": "S", "right": "W", "top": "N", "left": "E"}
    assert view["names"]["S"] == {"name": None, "computer": False, "away": False}
    assert view["names"]["N"]["computer"]
