"""The page of a player's statistics (docs/players.md, "My statistics"): the player's own
figures in each of the six languages (Arabic right to left, its bars drawn from the right),
the periods, nobody else's deals, and an address that names no period."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.players.plays import app_fixture, browser_fixture
from tests.players.test_statistics import played_match, saved

from cardavia.live.protocol import ClientError
from cardavia.store.db import GameStore
from cardavia.web.guests import PLAYER_COOKIE
from cardavia.web.statistics import StatisticsPages

__all__ = ["app_fixture", "browser_fixture"]


def guest(client: TestClient, store: GameStore) -> str:
    """A new guest in ``client`` (their first setting makes them): their id."""
    assert client.put("/api/me", json={"settings": {"sounds": True}}).status_code == 200
    found = store.players.find(client.cookies.get(PLAYER_COOKIE))
    assert found is not None
    return found.id


def fact(page: str, label: str) -> str:
    """The value the page gives a label of its facts."""
    found = re.search(rf"<dt>{re.escape(label)}</dt><dd>([^<]*)</dd>", page)
    assert found is not None, label
    return found.group(1)


def test_the_page_says_the_players_own_figures_in_six_languages(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    store: GameStore = app.state.store
    client, other = browser(), browser()
    player = guest(client, store)
    guest(other, store)
    match = played_match("coinche", 6, random.Random(40))
    saved(store, player, match, rules="coinche", seat="N")
    results = [deal.result for deal in match.deals if deal.result is not None]
    taken = sum(r.contract.taker.name == "N" for r in results)
    made = sum(r.contract.taker.name == "N" and r.made is True for r in results)

    fr = client.get("/fr/me/statistics?period=all")
    assert fr.status_code == 200 and fr.headers["cache-control"] == "no-store"
    assert "Mes statistiques" in fr.text and 'id="statistics-coinche"' in fr.text
    assert f"{len(results)} donnes jouées sur cette période." in fr.text
    assert fact(fr.text, "Contrats pris") == str(taken)
    assert fact(fr.text, "Contrats réussis") == str(made)
    assert 'aria-current="page">Depuis le début' in fr.text

    ar = client.get("/ar/me/statistics?period=all")
    assert 'dir="rtl"' in ar.text and "إحصائياتي" in ar.text
    assert fact(ar.text, "العقود التي أخذتها") == str(taken)
    for lang, title in (
        ("en", "My statistics"),
        ("es", "Mis estadísticas"),
        ("pl", "Moje statystyki"),
        ("hi", "मेरे आँकड़े"),
    ):
        page = client.get(f"/{lang}/me/statistics?period=all")
        assert page.status_code == 200 and title in page.text
        assert 'id="statistics-coinche"' in page.text

    # The last 30 days by default: a deal of today is in them.
    assert 'id="statistics-coinche"' in client.get("/en/me/statistics").text
    # Another guest, and a person without a player, see none of it.
    for stranger in (other, browser()):
        page = stranger.get("/en/me/statistics?period=all")
        assert page.status_code == 200 and 'id="statistics-none"' in page.text
        assert 'id="statistics-coinche"' not in page.text


def test_a_period_not_offered_is_not_found(browser: Callable[[], TestClient]) -> None:
    client = browser()
    for period in ("90", "", "all'", "7;30"):
        page = client.get("/fr/me/statistics", params={"period": period})
        assert page.status_code == 404
    assert client.get("/xx/me/statistics").status_code == 404


def test_the_profile_and_my_games_link_to_it(browser: Callable[[], TestClient]) -> None:
    client = browser()
    assert 'href="/fr/me/statistics"' in client.get("/fr/me").text
    assert 'href="/fr/me/statistics"' in client.get("/fr/me/games").text


@pytest.mark.slow  # one deal analysed
def test_a_deal_analysed_gives_its_mistakes(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    store: GameStore = app.state.store
    client = browser()
    player = guest(client, store)
    match = played_match("cardavia", 1, random.Random(2))
    assert match.deal.result is not None
    game = saved(store, player, match, rules="cardavia", seat="S")
    before = client.get("/en/me/statistics?period=all").text
    assert fact(before, "Analysed deals") == "0"
    assert "Mistakes per analysed deal" not in before
    analysis = client.get(f"/api/me/games/{game}/analysis?deal=1&lang=en")
    assert analysis.status_code == 200
    mine = analysis.json()["seats"]["S"]
    after = client.get("/en/me/statistics?period=all").text
    assert fact(after, "Analysed deals") == "1"
    assert fact(after, "Mistakes per analysed deal") == f"{mine['mistakes']:.1f}"
    cost = fact(after, "Their cost per analysed deal, in points")
    assert cost == f"{round(mine['seat_view_cost'], 1):.1f}"


def test_another_players_statistics_are_not_found(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    store: GameStore = app.state.store
    one, two = guest(browser(), store), guest(browser(), store)
    pages = StatisticsPages(store, app.state.learning)
    mine = asyncio.run(pages.page(one, one, period="all", lang="fr", rtl=False))
    assert mine == {"families": []}
    with pytest.raises(ClientError) as refused:
        asyncio.run(pages.page(two, one, period="all", lang="fr", rtl=False))
    assert refused.value.code == "not_found"
    with pytest.raises(ClientError) as bad:
        asyncio.run(pages.page(one, one, period="year", lang="fr", rtl=False))
    assert bad.value.code == "bad_field"


def friends(one: TestClient, two: TestClient) -> None:
    """Make ``one`` and ``two`` friends, by the first's friend link."""
    link = one.post("/api/friends/link", json={}).json()["code"]
    assert two.post("/api/friends", json={"code": link}).status_code == 201
    key = one.get("/api/friends").json()["asking"][0]["key"]
    assert one.post(f"/api/friends/{key}/accept", json={}).status_code == 200


def test_a_friend_who_agreed_is_seen_and_no_one_else(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    store: GameStore = app.state.store
    bo, ana, stranger = browser(), browser(), browser()
    bo_id = guest(bo, store)
    guest(ana, store)
    guest(stranger, store)
    bo.put("/api/me", json={"name": "Bo"})
    match = played_match("coinche", 4, random.Random(41))
    saved(store, bo_id, match, rules="coinche", seat="N")
    friends(bo, ana)
    (entry,) = ana.get("/api/friends").json()["friends"]
    address = f"/fr/me/friends/{entry['key']}/statistics?period=all"
    # Friends, but Bo did not agree: no link, and the address is the 404 page.
    assert "statistics" not in entry
    assert ana.get(address).status_code == 404
    assert bo.put("/api/me", json={"settings": {"friendsSeeStatistics": True}}).status_code == 200
    (entry,) = ana.get("/api/friends").json()["friends"]
    assert entry["statistics"] == f"/en/me/friends/{entry['key']}/statistics"
    page = ana.get(address)
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert "Statistiques de Bo" in page.text and 'id="statistics-coinche"' in page.text
    assert "Score moyen par donne, camp de Bo" in page.text
    assert fact(page.text, "Contrats pris") == fact(
        bo.get("/fr/me/statistics?period=all").text, "Contrats pris"
    )
    assert f'href="/fr/me/friends/{entry["key"]}/statistics?period=7"' in page.text
    assert "/fr/me/games" not in page.text.split('id="statistics"')[1]
    friends_page = ana.get("/ar/me/friends").text
    assert "إحصائيات Bo" in friends_page and entry["statistics"].replace("/en/", "/ar/") in (
        friends_page
    )
    # A stranger with the same address (a key is its reader's), a key of no one, nobody.
    assert stranger.get(address).status_code == 404
    assert ana.get("/fr/me/friends/0123456789abcdef01234567/statistics").status_code == 404
    assert browser().get(address).status_code == 404
    # The friendship ended: refused again.
    assert ana.request("DELETE", f"/api/friends/{entry['key']}", json={}).status_code == 200
    assert ana.get(address).status_code == 404
