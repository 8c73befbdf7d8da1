"""A tournament deal's link while the tournament is open (issue 37, item 4): My games gives
the link it will have and says from when it shows the deal; the link opens a real page —
which tournament, which deal, open until when in the reader's clock, the way back to it —
and never a card; once closed, the same link shows the deal. My games names the tournament
and the deal's number there."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.tournaments.test_play import TOURNAMENT, app_fixture, browser_fixture, close
from tests.tournaments.test_sealed import finished, my_entry

__all__ = ["app_fixture", "browser_fixture"]


@pytest.mark.slow  # a tournament played and closed
def test_a_sealed_deals_link_opens_a_page_that_says_until_when(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    person = browser()
    game, view = finished(person)
    entry = my_entry(person, game["game"])
    tournament = app.state.tournaments.get(TOURNAMENT)
    assert entry["share"] is None and entry["later"]
    assert entry["tournament"]["id"] == TOURNAMENT and entry["tournament"]["closed"] is False
    assert entry["tournament"]["closes"] == tournament.closes_at.isoformat()
    assert 1 <= entry["tournament"]["deal"] <= 3
    code = entry["later"]
    stranger = browser()
    stranger.cookies.set("cardavia_tz", "Europe/Paris")
    page = stranger.get(f"/fr/deal/{code}")
    assert page.status_code == 200
    assert 'id="deal-pending"' in page.text and "ouvert jusqu’au" in page.text
    assert '<h1 id="deal-title">Tournoi express · Donne' in page.text  # the French name
    assert f'href="/fr/tournaments/{TOURNAMENT}"' in page.text
    assert 'class="deal-card"' not in page.text and "og:image" not in page.text
    hand = view["replay"] or {}
    assert "deal-hands" not in page.text and not hand
    # Nothing else of it: no API record, no picture, no analysis.
    for url in (
        f"/api/deals/{code}",
        f"/fr/deal/{code}/picture.png",
        f"/api/deals/{code}/analysis",
    ):
        assert stranger.get(url).status_code == 404, url
    close(app)
    opened = stranger.get(f"/fr/deal/{code}")
    assert opened.status_code == 200 and 'class="deal-card"' in opened.text
    assert my_entry(person, game["game"])["share"] == code
