"""Friends (docs/players.md, "Friends"): asked from a room's seat or by a friend link — never
by a name —, accepted, refused, taken back, ended; a block ends a friendship and keeps the
two from asking again; a deleted player leaves every friend list; each list names the others
by a key of its reader's, never by a player's id; bad requests are refused clearly and
change nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text
from tests.players.plays import browser_fixture

from cardavia.live.limits import Limits
from cardavia.live.settings import LOOPBACK_HOSTS, Settings
from cardavia.web.app import create_app

__all__ = ["browser_fixture"]


@pytest.fixture(name="app")
def app_fixture(database: str) -> FastAPI:
    """The site on a database of the test's own, three askings an hour each."""
    return create_app(
        Settings(
            database_url=database,
            ai_delay=(0.0, 0.0),
            seed=7,
            limits=Limits(games_per_minute=0, messages_per_second=0, friends_per_hour=3),
            allowed_hosts=(*LOOPBACK_HOSTS, "testserver"),
        )
    )


def ids(app: FastAPI) -> set[str]:
    with app.state.store.engine.connect() as connection:
        return {row[0] for row in connection.execute(text("SELECT id FROM players"))}


def met(browser: Callable[[], TestClient]) -> tuple[TestClient, TestClient, str]:
    """Ana (South, the room's creator) and Bo (North) seated in one room: its code."""
    ana, bo = browser(), browser()
    body = {"name": "Ana", "rules": "maison", "level": "beginner", "lang": "en"}
    code = ana.post("/api/rooms", json=body).json()["room"]
    joined = bo.post(f"/api/rooms/{code}/join", json={"name": "Bo", "seat": "N"})
    assert joined.status_code == 201, joined.text
    return ana, bo, code


def lists(client: TestClient) -> dict[str, list[dict[str, Any]]]:
    answer = client.get("/api/friends")
    assert answer.status_code == 200
    found: dict[str, list[dict[str, Any]]] = answer.json()
    return found


def names(found: list[dict[str, Any]]) -> list[str]:
    return [f["name"] for f in found]


def test_two_players_who_met_in_a_room_become_friends(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    ana, bo, code = met(browser)
    answer = ana.post("/api/friends", json={"room": code, "seat": "N", "lang": "en"})
    assert answer.status_code == 201 and answer.json() == {"state": "asked"}
    assert names(lists(ana)["asked"]) == ["Bo"] and lists(ana)["friends"] == []
    asking = lists(bo)["asking"]
    assert names(asking) == ["Ana"]
    # Nobody's id is shown: each reader has keys of their own.
    for client in (ana, bo):
        text_of = json.dumps(lists(client))
        assert not any(player in text_of for player in ids(app))
    assert lists(ana)["asked"][0]["key"] != asking[0]["key"]
    accepted = bo.post(f"/api/friends/{asking[0]['key']}/accept", json={"lang": "en"})
    assert accepted.status_code == 200 and accepted.json() == {"accepted": True}
    assert names(lists(ana)["friends"]) == ["Bo"] and names(lists(bo)["friends"]) == ["Ana"]
    assert lists(ana)["asked"] == [] and lists(bo)["asking"] == []
    # Asking again changes nothing: friends already.
    again = bo.post("/api/friends", json={"room": code, "seat": "S"})
    assert again.json() == {"state": "friends"}
    # Either may end it.
    key = lists(ana)["friends"][0]["key"]
    assert ana.request("DELETE", f"/api/friends/{key}", json={}).status_code == 200
    assert lists(ana)["friends"] == [] and lists(bo)["friends"] == []


def test_asking_back_makes_friends_at_once_and_a_refusal_or_a_take_back_ends_it(
    browser: Callable[[], TestClient],
) -> None:
    ana, bo, code = met(browser)
    assert ana.post("/api/friends", json={"room": code, "seat": "N"}).json()["state"] == "asked"
    assert bo.post("/api/friends", json={"room": code, "seat": "S"}).json()["state"] == "friends"
    key = lists(bo)["friends"][0]["key"]
    bo.request("DELETE", f"/api/friends/{key}", json={})
    # Refused: nothing left on either side.
    ana.post("/api/friends", json={"room": code, "seat": "N"})
    refused = lists(bo)["asking"][0]["key"]
    assert bo.request("DELETE", f"/api/friends/{refused}", json={}).status_code == 200
    assert lists(ana)["asked"] == [] and lists(bo)["asking"] == []
    # Taken back by the asker.
    bo.post("/api/friends", json={"room": code, "seat": "S"})
    taken = lists(bo)["asked"][0]["key"]
    assert bo.request("DELETE", f"/api/friends/{taken}", json={}).status_code == 200
    assert lists(ana)["asking"] == []


def test_a_friend_link_asks_its_owner_and_makes_a_visitor_a_guest(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    ana, bo, _code = met(browser)
    made = bo.post("/api/friends/link", json={"lang": "en"})
    assert made.status_code == 200
    link = made.json()["code"]
    assert bo.post("/api/friends/link", json={}).json()["code"] == link  # one link each
    page = browser().get(f"/fr/friend/{link}")
    assert page.status_code == 200 and "Bo aimerait être votre ami" in page.text
    assert page.headers["x-robots-tag"] == "noindex"
    own = bo.get(f"/en/friend/{link}")
    assert "This friend link is yours." in own.text and 'id="friend-ask"' not in own.text
    refused = bo.post("/api/friends", json={"code": link, "lang": "fr"})
    assert refused.status_code == 403 and refused.json()["code"] == "cannot_befriend"
    assert "ami" in refused.json()["message"]
    # A visitor with no player yet: made a guest by asking.
    before = len(ids(app))
    cy = browser()
    asked = cy.post("/api/friends", json={"code": link})
    assert asked.status_code == 201 and asked.json() == {"state": "asked"}
    assert len(ids(app)) == before + 1 and cy.cookies.get("cardavia_player")
    assert lists(bo)["asking"][0]["name"] == "a player"  # Cy has no name yet
    # An unknown link: the 404 page, and a refusal that changes nothing.
    assert browser().get("/en/friend/nope-nope").status_code == 404
    missing = ana.post("/api/friends", json={"code": "nope-nope"})
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert lists(ana)["asked"] == []


def test_a_block_ends_a_friendship_and_keeps_them_from_asking(
    browser: Callable[[], TestClient],
) -> None:
    ana, bo, code = met(browser)
    ana.post("/api/friends", json={"room": code, "seat": "N"})
    bo.post("/api/friends", json={"room": code, "seat": "S"})
    assert names(lists(ana)["friends"]) == ["Bo"]
    assert bo.post("/api/blocks", json={"room": code, "seat": "S"}).status_code == 201
    assert lists(ana)["friends"] == [] and lists(bo)["friends"] == []
    for client, seat in ((ana, "N"), (bo, "S")):
        answer = client.post("/api/friends", json={"room": code, "seat": seat})
        assert (answer.status_code, answer.json()["code"]) == (403, "cannot_befriend")
    assert lists(ana)["asked"] == [] and lists(bo)["asking"] == []


def test_a_deleted_player_leaves_every_friend_list(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    ana, bo, code = met(browser)
    ana.post("/api/friends", json={"room": code, "seat": "N"})
    bo.post("/api/friends", json={"room": code, "seat": "S"})
    link = bo.post("/api/friends/link", json={}).json()["code"]
    export = bo.get("/api/me/export").json()
    assert [f["name"] for f in export["friends"]] == ["Ana"]
    assert export["friend_link"] == [{"code": link}]
    assert export["friend_requests"] == export["friend_requests_sent"] == []
    gone = bo.request("DELETE", "/api/me", json={"confirm": True})
    assert gone.status_code == 200
    assert lists(ana) == {"friends": [], "asking": [], "asked": []}
    with app.state.store.engine.connect() as connection:
        for table in ("friendships", "friend_links"):
            assert list(connection.execute(text(f"SELECT * FROM {table}"))) == []


def test_what_names_no_one_they_may_is_refused_clearly_and_changes_nothing(
    browser: Callable[[], TestClient],
) -> None:
    ana, bo, code = met(browser)
    stranger = browser()
    cases: list[tuple[TestClient, str, str, Any, int, str]] = [
        (ana, "POST", "/api/friends", {"room": code, "seat": "S"}, 400, "yourself"),
        (ana, "POST", "/api/friends", {"room": code, "seat": "W"}, 400, "not_a_person"),
        (ana, "POST", "/api/friends", {"room": code, "seat": "N", "x": 1}, 400, "unknown_field"),
        (ana, "POST", "/api/friends", {"code": 7}, 404, "not_found"),
        (stranger, "POST", "/api/friends", {"room": code, "seat": "N"}, 403, "not_in_room"),
        (ana, "POST", "/api/friends/nokey/accept", {}, 404, "not_found"),
        (ana, "DELETE", "/api/friends/nokey", {}, 404, "not_found"),
        (browser(), "POST", "/api/friends/nokey/accept", {}, 403, "bad_token"),
    ]
    for client, method, url, body, status, error in cases:
        answer = client.request(method, url, json=body)
        assert (answer.status_code, answer.json().get("code")) == (status, error), (url, body)
    wrong_origin = ana.post(
        "/api/friends",
        json={"room": code, "seat": "N"},
        headers={"Origin": "https://elsewhere.example"},
    )
    assert wrong_origin.status_code == 403 and wrong_origin.json()["code"] == "bad_origin"
    not_json = ana.post("/api/friends", content=b"room=1", headers={"Content-Type": "text/plain"})
    assert not_json.status_code == 415
    assert lists(ana) == {"friends": [], "asking": [], "asked": []}
    assert lists(bo) == {"friends": [], "asking": [], "asked": []}
    # Three askings an hour each: the fourth is refused.
    for _ in range(3):
        assert ana.post("/api/friends", json={"room": code, "seat": "N"}).status_code == 201
    limited = ana.post("/api/friends", json={"room": code, "seat": "N"})
    assert (limited.status_code, limited.json()["code"]) == (429, "rate_limited")


def test_friends_see_where_the_other_is_and_invite_each_other_to_a_room(
    browser: Callable[[], TestClient],
) -> None:
    ana, bo, code = met(browser)
    # A page of a player without friends hears nothing more after its first word.
    assert ana.post("/api/friends/news", json={"where": "online"}).json() == {
        "invites": [],
        "closing": [],
        "poll": 0,
    }
    # A visitor without a player: the same answer, never a refusal.
    assert browser().post("/api/friends/news", json={"where": "table"}).json()["poll"] == 0
    ana.post("/api/friends", json={"room": code, "seat": "N"})
    # An asking shows nothing of where the other is.
    assert "where" not in lists(bo)["asking"][0]
    bo.post("/api/friends", json={"room": code, "seat": "S"})
    assert [f["where"] for f in lists(ana)["friends"]] == [None]  # Bo said nothing yet
    heard = bo.post("/api/friends/news", json={"where": "table", "lang": "en"}).json()
    assert heard == {"invites": [], "closing": [], "poll": 15.0}
    assert [f["where"] for f in lists(ana)["friends"]] == ["table"]
    bo.post("/api/friends/news", json={"where": "anything else"})
    assert [f["where"] for f in lists(ana)["friends"]] == ["online"]
    # Ana invites Bo to a room she sits in: Bo's next word hears it, with her name.
    room = ana.post(
        "/api/rooms", json={"name": "Ana", "rules": "coinche", "level": "club", "lang": "en"}
    ).json()["room"]
    key = lists(ana)["friends"][0]["key"]
    assert ana.post(f"/api/friends/{key}/invite", json={"room": room}).json() == {"invited": True}
    (invite,) = bo.post("/api/friends/news", json={"where": "online"}).json()["invites"]
    assert (invite["name"], invite["room"]) == ("Ana", room)
    # Answered: gone.
    answered = bo.request("DELETE", f"/api/friends/invites/{invite['id']}", json={})
    assert answered.status_code == 200
    assert bo.post("/api/friends/news", json={}).json()["invites"] == []
    again = bo.request("DELETE", f"/api/friends/invites/{invite['id']}", json={})
    assert (again.status_code, again.json()["code"]) == (404, "not_found")


def test_only_a_friend_is_invited_and_only_to_a_room_one_sits_in(
    browser: Callable[[], TestClient],
) -> None:
    ana, bo, code = met(browser)
    ana.post("/api/friends", json={"room": code, "seat": "N"})
    asked_key = lists(ana)["asked"][0]["key"]
    # Asked, not yet friends: no invitation.
    refused = ana.post(f"/api/friends/{asked_key}/invite", json={"room": code})
    assert (refused.status_code, refused.json()["code"]) == (404, "not_found")
    bo.post("/api/friends", json={"room": code, "seat": "S"})
    key = lists(ana)["friends"][0]["key"]
    other = (
        browser()
        .post("/api/rooms", json={"name": "Cy", "rules": "maison", "level": "club", "lang": "en"})
        .json()["room"]
    )
    cases = [
        ({"room": other}, 403, "not_in_room"),
        ({"room": "no room"}, 403, "not_in_room"),
        ({}, 400, "missing_field"),
        ({"room": code, "seat": "N"}, 400, "unknown_field"),
    ]
    for body, status, error in cases:
        answer = ana.post(f"/api/friends/{key}/invite", json=body)
        assert (answer.status_code, answer.json()["code"]) == (status, error), body
    assert bo.post("/api/friends/news", json={}).json()["invites"] == []
    news = ana.post("/api/friends/news", json={"where": "table", "x": 1})
    assert (news.status_code, news.json()["code"]) == (400, "unknown_field")


def test_a_friend_at_the_table_of_a_room_that_lets_watchers_in_may_be_watched(
    browser: Callable[[], TestClient],
) -> None:
    ana, bo, code = met(browser)
    ana.post("/api/friends", json={"room": code, "seat": "N"})
    bo.post("/api/friends", json={"room": code, "seat": "S"})
    # Another room, whose host lets watchers in, where Bo sits too (Ana does not).
    body = {"name": "Bo", "rules": "coinche", "level": "beginner", "watchers": True}
    watched = bo.post("/api/rooms", json=body).json()["room"]
    bo.post("/api/friends/news", json={"where": "table", "room": watched})
    (friend,) = lists(ana)["friends"]
    assert friend["where"] == "table" and friend["watch"] == f"/en/room/{watched}?watch"
    page = ana.get("/fr/me/friends").text
    assert f'href="/en/room/{watched}?watch"' not in page  # the page's own language
    assert f'href="/fr/room/{watched}?watch"' in page and "Regarder la table de Bo" in page
    # The first room does not let watchers in: where Bo is, but nothing to watch.
    bo.post("/api/friends/news", json={"where": "table", "room": code})
    (friend,) = lists(ana)["friends"]
    assert friend["where"] == "table" and "watch" not in friend
    # A page cannot claim a room its player does not sit in.
    elsewhere = ana.post("/api/rooms", json=body | {"name": "Ana"}).json()["room"]
    bo.post("/api/friends/news", json={"where": "table", "room": elsewhere})
    assert "watch" not in lists(ana)["friends"][0]
    # Nor does a friend see a room from a page that is not at its table.
    bo.post("/api/friends/news", json={"where": "tournament", "room": watched})
    assert "watch" not in lists(ana)["friends"][0]
    bad = bo.post("/api/friends/news", json={"where": "table", "room": ["AAAAA"]})
    assert bad.status_code == 200 and "watch" not in lists(ana)["friends"][0]
