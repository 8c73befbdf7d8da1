"""The reminder of a tournament about to close (docs/players.md, "Friends": "A tournament
about to close"): each page of a player who entered a tournament and has deals left hears of
it in the hour before it closes (``POST /api/friends/news``'s ``closing``), worded in the
page's language; a player who finished their deals, or a tournament further off, says
nothing; and the page keeps asking while the player has a tournament under way, friends or
not."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.tournaments.test_play import TOURNAMENT, app_fixture, browser_fixture, play, start

from cardavia.live.friends import CLOSING_SOON
from cardavia.store.tournaments import TournamentRow

__all__ = ["app_fixture", "browser_fixture"]


def news(client: TestClient, lang: str = "en") -> dict[str, object]:
    answer = client.post("/api/friends/news", json={"where": "online", "lang": lang})
    assert answer.status_code == 200, answer.text
    found: dict[str, object] = answer.json()
    return found


@pytest.mark.slow  # a tournament's three deals played
def test_a_tournament_about_to_close_is_told_to_whoever_has_deals_left(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    person, idle = browser(), browser()
    idle.put("/api/me", json={"settings": {"sounds": True}})  # a player, never entered
    assert news(idle) == {"invites": [], "closing": [], "poll": 0}
    start(person, 1)
    # The tournament closes within the hour: told, in the page's language.
    told = news(person, "fr")
    assert told["poll"] == 15
    (closing,) = told["closing"]  # type: ignore[misc]
    assert closing["id"] == TOURNAMENT and closing["url"] == f"/fr/tournaments/{TOURNAMENT}"
    assert closing["name"] == "Tournoi express · Table Cardavia"
    assert 1 <= closing["minutes"] <= 60
    assert news(idle)["closing"] == []
    # Further off than the hour: nothing yet, though the page keeps asking.
    store = app.state.store
    tournament = store.tournaments.load(TOURNAMENT)
    later = tournament.closes_at + CLOSING_SOON
    with store.engine.begin() as connection:
        connection.execute(
            TournamentRow.__table__.update()
            .where(TournamentRow.id == TOURNAMENT)
            .values(closes_at=later)
        )
    assert news(person) == {"invites": [], "closing": [], "poll": 15}
    with store.engine.begin() as connection:
        connection.execute(
            TournamentRow.__table__.update()
            .where(TournamentRow.id == TOURNAMENT)
            .values(closes_at=tournament.closes_at)
        )
    # Every deal played: nothing left to remind, and nothing more to ask.
    for number in (1, 2, 3):
        play(person, start(person, number), random.Random(number))
    person.get(f"/en/tournaments/{TOURNAMENT}")  # the results written as the page reads them
    assert news(person) == {"invites": [], "closing": [], "poll": 0}
