"""Ratings (docs/players.md, "Ratings"): the model — a win raises, a loss lowers, a wider
margin moves more, a table of fewer people moves less, computer players' ratings never
change, provisional for the first deals — a deal counted once however many times (and
processes) rate it, private rooms unrated, a quick-play room's deal rated as it is played,
and the ratings in the export and gone with the player."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text
from tests.players.plays import app_fixture, browser_fixture
from tests.web.test_rooms import Seated, play_deal, room_url

from cardavia.belote import find_rules
from cardavia.live.ratings import RoomRatings
from cardavia.live.room_state import RoomState
from cardavia.live.rooms import RoomService
from cardavia.players.ratings import (
    COMPUTER_RATINGS,
    MU,
    NEWCOMER,
    PROVISIONAL_DEALS,
    RatedDeal,
    Ratings,
    Skill,
    computer_rating,
    family_of,
    nearest_level,
    rate_deal,
    skill_of,
)
from cardavia.store.db import GameStore, new_token
from cardavia.web.guests import PLAYER_COOKIE

__all__ = ["app_fixture", "browser_fixture"]

EVERYONE = (0, 1, 2, 3)
TABLE = (NEWCOMER, NEWCOMER, NEWCOMER, NEWCOMER)


def after(
    scores: tuple[int, int],
    people: tuple[int, ...] = EVERYONE,
    table: tuple[Skill, ...] = TABLE,
    family: str = "classic",
) -> tuple[Skill, Skill, Skill, Skill]:
    assert family in ("classic", "coinche")
    return rate_deal(table, family, scores=scores, people=people, level="club")


# -- the model -------------------------------------------------------------------------------


def test_the_families() -> None:
    assert family_of("coinche") == family_of(find_rules("contrée")) == "coinche"
    assert {family_of(name) for name in ("cardavia", "maison", "maghreb")} == {"classic"}


@pytest.mark.parametrize("family", ["classic", "coinche"])
def test_a_win_raises_and_a_loss_lowers(family: str) -> None:
    north, east, south, west = after((120, 42), family=family)
    assert north.mu > MU and south.mu > MU
    assert east.mu < MU and west.mu < MU
    assert north.display > NEWCOMER.display > east.display
    north, east, _, _ = after((42, 120), family=family)
    assert north.mu < MU < east.mu


def test_a_tie_between_equals_moves_nobody() -> None:
    assert [skill.mu for skill in after((81, 81))] == [MU] * 4


def test_a_bigger_margin_moves_more() -> None:
    narrow = after((90, 72))[0].mu - MU
    wide = after((162, 0))[0].mu - MU
    rout = after((252, 0))[0].mu - MU
    assert 0 < narrow < wide
    assert rout == pytest.approx(wide)  # a margin of a whole spread or more weighs the same
    assert after((0, 162))[0].mu - MU < after((72, 90))[0].mu - MU < 0


def test_a_table_with_one_person_moves_less_than_with_four() -> None:
    alone = after((162, 0), people=(0,))[0]
    two = after((162, 0), people=(0, 1))[0]
    four = after((162, 0))[0]
    assert MU < alone.mu < four.mu
    assert (two.mu - MU) > (alone.mu - MU)
    # Against computer players, the change is a quarter of what the model gives four people
    # rated as they are.
    club = computer_rating("club", "classic")
    table = (NEWCOMER, club, club, club)
    full = rate_deal(table, "classic", scores=(162, 0), people=EVERYONE, level="club")[0]
    assert alone.mu - MU == pytest.approx((full.mu - MU) / 4)


def test_computer_ratings_never_change() -> None:
    fixed = {level: dict(families) for level, families in COMPUTER_RATINGS.items()}
    club = computer_rating("club", "classic")
    rated = after((0, 162), people=(0,))
    assert rated[1:] == (club, club, club)
    assert rated[0].mu < MU
    rated = after((162, 0), people=(0, 2), family="coinche")
    assert rated[1] == rated[3] == computer_rating("club", "coinche")
    assert {level: dict(families) for level, families in COMPUTER_RATINGS.items()} == fixed


def test_the_computer_ladder_and_the_level_nearest_a_skill() -> None:
    for family in ("classic", "coinche"):
        ladder = [COMPUTER_RATINGS[level][family].mu for level in COMPUTER_RATINGS]
        assert ladder == sorted(ladder) and COMPUTER_RATINGS["club"][family].mu == MU
    assert nearest_level(MU, "classic") == "club"
    assert nearest_level(0.0, "coinche") == "beginner"
    assert computer_rating("no such level", "classic") == computer_rating("beginner", "classic")


# -- the store: once, provisional, computer seats, several processes -------------------------


def deal_of(seats: tuple[str | None, ...], number: int, scores: tuple[int, int]) -> RatedDeal:
    one, two, three, four = seats
    return RatedDeal("ABCDE", "game1", number, "classic", "club", (one, two, three, four), scores)


def test_a_deal_counts_once_even_rated_twice(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'r.db'}")
    ana = store.players.create(new_token()).id
    ratings = Ratings(store.ratings)
    deal = deal_of((ana, None, None, None), 1, (162, 0))
    assert asyncio.run(ratings.rate(deal)) is True
    first = store.ratings.current(ana, "classic")
    assert asyncio.run(ratings.rate(deal)) is False
    assert store.ratings.current(ana, "classic") == first
    assert first is not None and first.deals == 1 and first.mu > MU
    assert len(store.ratings.history(ana)) == 1


def test_a_deal_counts_once_when_two_processes_rate_it_together(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    one, two = GameStore(url), GameStore(url)
    players = [one.players.create(new_token()).id for _ in range(4)]
    deal = deal_of(tuple(players), 1, (40, 122))

    async def both() -> list[bool]:
        return list(
            await asyncio.gather(Ratings(one.ratings).rate(deal), Ratings(two.ratings).rate(deal))
        )

    assert sorted(asyncio.run(both())) == [False, True]
    for player in players:
        kept = one.ratings.current(player, "classic")
        assert kept is not None and kept.deals == 1
        assert len(two.ratings.history(player)) == 1
    with one.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM rating_changes")).scalar() == 4


def test_provisional_for_the_first_deals_and_its_skill_usable_at_once(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'r.db'}")
    ana = store.players.create(new_token()).id
    ratings = Ratings(store.ratings)
    for number in range(1, PROVISIONAL_DEALS + 1):
        asyncio.run(ratings.rate(deal_of((ana, None, None, None), number, (130, 32))))
        (rating,) = asyncio.run(ratings.of_player(ana))
        assert rating.deals == number
        assert rating.provisional is (number < PROVISIONAL_DEALS)
        assert skill_of(store.ratings.current(ana, "classic")) == rating.skill.mu > MU
    assert skill_of(None) == MU
    history = asyncio.run(ratings.history(ana, "classic"))
    assert len(history) == PROVISIONAL_DEALS
    assert [point.skill.mu for point in history] == sorted(point.skill.mu for point in history)


def test_no_player_no_rating_and_a_person_without_one_counts_as_a_person(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'r.db'}")
    ratings = Ratings(store.ratings)
    assert asyncio.run(ratings.rate(deal_of(("", None, "", None), 1, (162, 0)))) is False
    ana = store.players.create(new_token()).id
    asyncio.run(ratings.rate(deal_of((ana, "", "", ""), 1, (162, 0))))
    four = store.ratings.current(ana, "classic")
    bo = store.players.create(new_token()).id
    asyncio.run(ratings.rate(deal_of((bo, None, None, None), 1, (162, 0))))
    one = store.ratings.current(bo, "classic")
    assert four is not None and one is not None and four.mu > one.mu > MU


# -- rooms -----------------------------------------------------------------------------------


def create_room(client: TestClient, **options: Any) -> dict[str, str]:
    body = {"name": "Ana", "rules": "cardavia", "level": "club", "lang": "en", "next_delay": 3600}
    response = client.post("/api/rooms", json=body | options)
    assert response.status_code == 201, response.text
    data: dict[str, str] = response.json()
    return data


def quick(state: RoomState) -> RoomState:
    """The room as quick play forms it (a table of strangers, rated)."""
    return replace(state, settings=replace(state.settings, quick=True))


async def make_quick(rooms: RoomService, code: str) -> None:
    room = await rooms.open(code)
    await rooms.change(room, quick)


def player_id(app: FastAPI, client: TestClient) -> str:
    found = app.state.store.players.find(client.cookies[PLAYER_COOKIE])
    assert found is not None
    return str(found.id)


def play_first_deal(client: TestClient, room: dict[str, str], seed: int) -> Any:
    with client.websocket_connect(room_url(room["room"], room["token"])) as ws:
        ana = Seated(ws, "S")
        ana.send({"type": "start"})
        return play_deal({"S": ana}, ana, random.Random(seed))


def wait_for(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("nothing came")


def test_a_quick_play_rooms_deal_is_rated(app: FastAPI, browser: Callable[[], TestClient]) -> None:
    client = browser()
    room = create_room(client)
    client.portal.call(make_quick, app.state.rooms, room["room"])
    view = play_first_deal(client, room, seed=3)
    assert view["phase"] == "over"
    ana = player_id(app, client)
    rating = wait_for(lambda: app.state.store.ratings.current(ana, "classic"))
    assert rating.deals == 1 and rating.mu != MU
    (change,) = app.state.store.ratings.history(ana)
    assert (change.room_code, change.deal, change.family) == (room["room"], 1, "classic")
    scores = view["result"]["scores"]
    won = scores["NS"] > scores["EW"]
    assert (rating.mu > MU) is won
    # One person beside three club players: a quarter of a full table's change.
    assert abs(rating.mu - MU) < 1.5
    # The same deal told again (this process again, or another holding the room): no change.
    rooms: RoomService = app.state.rooms

    async def tell_again() -> None:
        opened = await rooms.open(room["room"])
        table = await rooms.table(opened)
        assert table is not None
        await RoomRatings(Ratings(app.state.store.ratings)).deal_over(opened, table)

    client.portal.call(tell_again)
    assert app.state.store.ratings.current(ana, "classic") == rating
    assert len(app.state.store.ratings.history(ana)) == 1


def test_a_private_rooms_deal_is_not_rated(app: FastAPI, browser: Callable[[], TestClient]) -> None:
    client = browser()
    room = create_room(client)
    view = play_first_deal(client, room, seed=3)
    assert view["phase"] == "over"
    rooms: RoomService = app.state.rooms

    async def listen_again() -> None:
        opened = await rooms.open(room["room"])
        table = await rooms.table(opened)
        assert table is not None and table.match.deal.is_over
        listener = RoomRatings(Ratings(app.state.store.ratings))
        assert listener.finished_deal(opened, table) is None
        await listener.deal_over(opened, table)
        quick_room = replace(opened.state, settings=replace(opened.settings, quick=True))
        opened.state = quick_room  # what the listener reads of a quick room, never saved
        assert listener.finished_deal(opened, table) is not None

    client.portal.call(listen_again)
    ana = player_id(app, client)
    assert app.state.store.ratings.current(ana, "classic") is None
    assert app.state.store.ratings.history(ana) == []


# -- the export and the deletion -------------------------------------------------------------


def test_the_export_holds_the_ratings_and_the_deletion_erases_them(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    client = browser()
    client.put("/api/me", json={"name": "Zoé"})
    ana = player_id(app, client)
    store: GameStore = app.state.store
    ratings = Ratings(store.ratings)
    for number in (1, 2):
        asyncio.run(ratings.rate(deal_of((ana, None, None, None), number, (20, 142))))
    data = client.get("/api/me/export").json()
    (kept,) = data["ratings"]
    assert kept["family"] == "classic" and kept["deals"] == 2 and kept["mu"] < MU
    assert [change["deal"] for change in data["rating_changes"]] == [1, 2]
    assert json.dumps(data["rating_changes"][-1]["mu"]) == json.dumps(kept["mu"])
    answer = client.request(
        "DELETE",
        "/api/me",
        content=json.dumps({"confirm": True}),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 200
    with store.engine.connect() as connection:
        for table in ("ratings", "rating_changes"):
            count = connection.execute(text(f"SELECT count(*) FROM {table}")).scalar()
            assert count == 0, table


# -- PostgreSQL: two processes at once, and the foreign keys' cascade --------------------------


def test_on_postgresql_a_deal_counts_once_and_the_ratings_go_with_their_player(
    empty_postgres: str,
) -> None:
    one, two = GameStore(empty_postgres), GameStore(empty_postgres)
    try:
        players = [one.players.create(new_token()).id for _ in range(4)]
        deal = deal_of(tuple(players), 1, (150, 12))

        async def both() -> list[bool]:
            return list(
                await asyncio.gather(
                    Ratings(one.ratings).rate(deal), Ratings(two.ratings).rate(deal)
                )
            )

        assert sorted(asyncio.run(both())) == [False, True]
        for player in players:
            kept = two.ratings.current(player, "classic")
            assert kept is not None and kept.deals == 1
        # The player's row erased alone: PostgreSQL's foreign keys take the ratings with it.
        one.players.erase(players[0])
        with one.engine.connect() as connection:
            for table in ("ratings", "rating_changes"):
                sql = text(f"SELECT count(*) FROM {table} WHERE player_id = :p")
                assert connection.execute(sql, {"p": players[0]}).scalar() == 0, table
                assert connection.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 3
    finally:
        one.close()
        two.close()
