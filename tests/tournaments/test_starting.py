"""Starting a tournament deal (docs/tournaments.md, "Playing"; issue 35): the deal's number
read as text and checked before the player is entered (a refused start writes nothing, and
every refusal is the site's own error or its 404 page), and a deal's row taken before its
game is dealt, so that simultaneous starts deal one game."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from tests.tournaments.test_play import (
    TOURNAMENT,
    app_fixture,
    browser_fixture,
    start,
    tournament_site,
)

from cardavia.store.db import GameRow, GameStore, new_token
from cardavia.store.tournaments import PENDING
from cardavia.tournaments.service import STALE_CLAIM
from cardavia.web.guests import PLAYER_COOKIE

__all__ = ["app_fixture", "browser_fixture"]

REFUSED_NUMBERS = ("0", "-1", "4", "10" * 15, "1" + "0" * 30, "abc", "1.5", "\u0661", "\u00b2")
"""Deal numbers of no deal of a three-deal tournament (the last ones not numbers at all)."""


def games_dealt(store: GameStore, seed: str) -> int:
    """How many games were dealt from a tournament's seed."""
    with store.engine.connect() as connection:
        count = connection.scalar(
            select(func.count()).select_from(GameRow).where(GameRow.first_seed == seed)
        )
    return int(count or 0)


@pytest.mark.parametrize("number", REFUSED_NUMBERS)
def test_a_start_of_no_deal_is_the_sites_own_refusal_and_enters_nobody(
    app: FastAPI, browser: Callable[[], TestClient], number: str
) -> None:
    person = browser()
    answer = person.post(f"/api/tournaments/{TOURNAMENT}/deals/{number}", json={"lang": "fr"})
    assert answer.status_code == 404, answer.text
    refusal = answer.json()
    assert (refusal["type"], refusal["code"]) == ("error", "not_found")
    assert refusal["message"] == "Il n’y a rien à cette adresse."
    assert app.state.store.tournaments.entries(TOURNAMENT) == 0
    # Then a real deal enters the player, once.
    start(person, 1)
    assert app.state.store.tournaments.entries(TOURNAMENT) == 1


@pytest.fixture(scope="module")
def entrant(
    tmp_path_factory: pytest.TempPathFactory, pristine_database: Path
) -> Iterator[TestClient]:
    """A player who started deal 1, on a site of the module's own: the pages' tests only read,
    so they share it (a site and a deal for each of them was most of their time)."""
    database = tmp_path_factory.mktemp("entrant") / "cardavia.db"
    shutil.copyfile(pristine_database, database)
    with TestClient(tournament_site(f"sqlite:///{database}")) as person:
        start(person, 1)
        yield person


@pytest.mark.parametrize("number", REFUSED_NUMBERS)
@pytest.mark.parametrize("page", ["deals", "play"])
def test_a_page_of_no_deal_is_the_sites_404_page(
    entrant: TestClient, page: str, number: str
) -> None:
    answer = entrant.get(f"/en/tournaments/{TOURNAMENT}/{page}/{number}", follow_redirects=False)
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert "Page not found" in answer.text


def test_three_simultaneous_starts_of_a_deal_deal_one_game(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    first = browser()
    start(first, 1)  # the player exists: three tabs of theirs start deal 2 at once
    tabs = [browser() for _ in range(3)]
    for tab in tabs:
        tab.cookies.set(PLAYER_COOKIE, first.cookies[PLAYER_COOKIE])
    together = threading.Barrier(len(tabs))

    def press(tab: TestClient) -> str:
        together.wait()
        answer = tab.post(f"/api/tournaments/{TOURNAMENT}/deals/2", json={"lang": "en"})
        assert answer.status_code == 201, answer.text
        url: str = answer.json()["url"]
        return url

    with ThreadPoolExecutor(len(tabs)) as pool:
        urls = list(pool.map(press, tabs))
    assert urls == [f"/en/tournaments/{TOURNAMENT}/play/2"] * 3
    tournament = app.state.tournaments.get(TOURNAMENT)
    assert games_dealt(app.state.store, tournament.secret[1]) == 1
    player = app.state.store.players.find(first.cookies[PLAYER_COOKIE])
    (deal,) = [
        d for d in app.state.store.tournaments.deals_of(TOURNAMENT, player.id) if d.number == 2
    ]
    assert app.state.store.load(deal.game_id) is not None
    assert start(tabs[0], 2)["game"] == deal.game_id  # each tab finds that one game


def test_a_deal_being_dealt_is_not_resumed_and_a_dead_claim_is_taken_over(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    store = app.state.store
    person = browser()
    start(person, 1)
    player = store.players.find(person.cookies[PLAYER_COOKIE])
    tournament = app.state.tournaments.get(TOURNAMENT)
    # A request took deal 3's row and died before its game was dealt, long ago.
    long_ago = tournament.opens_at - STALE_CLAIM
    assert store.tournaments.claim_deal(TOURNAMENT, 3, player.id, long_ago)
    assert not store.tournaments.claim_deal(TOURNAMENT, 3, player.id, long_ago)
    shut = person.get(f"/en/tournaments/{TOURNAMENT}/play/3", follow_redirects=False)
    assert shut.status_code == 303  # nothing to resume yet
    game = start(person, 3)
    deal = store.tournaments.deal(TOURNAMENT, 3, player.id)
    assert deal.game_id == game["game"] != PENDING
    assert games_dealt(store, tournament.secret[2]) == 1
    # A claim of another player, fresh, is theirs: this one's start does not touch it.
    other = store.players.create(new_token())
    moment = tournament.opens_at + timedelta(seconds=1)
    assert store.tournaments.claim_deal(TOURNAMENT, 3, other.id, moment)
    stale_before = moment - timedelta(seconds=1)
    assert not store.tournaments.retake_claim(
        TOURNAMENT, 3, other.id, stale_before=stale_before, moment=moment
    )
