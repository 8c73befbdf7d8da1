"""A player's history (docs/players.md, "My games"): every deal they played, at the table and
in a room, the latest first, with who sat where, the contract, the result and the score;
each finished deal's analysis and shared link — and nothing of a deal in play, nor anything
of another player's games."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.players.plays import app_fixture, browser_fixture, new_game, played_deal

from cardavia.web.history import contract_text
from cardavia.words import load_catalogs

__all__ = ["app_fixture", "browser_fixture"]


def test_a_new_guest_has_no_games(browser: Callable[[], TestClient]) -> None:
    client = browser()
    answer = client.get("/api/me/games")
    assert answer.status_code == 200
    assert answer.json() == {"page": 1, "more": False, "games": 0, "deals": []}
    page = client.get("/fr/me/games")
    assert page.status_code == 200
    assert "Mes parties" in page.text


def test_a_contract_reads_as_the_table_says_it() -> None:
    """ "Est prend à pique", never a bid's label after the seat's ("Est : Prendre à pique")."""
    fr, en = load_catalogs().wording("fr"), load_catalogs().wording("en")
    take = {"contract": {"taker": "E", "strain": "S", "bid": None, "coinche": 0}, "deck": "french"}
    assert contract_text(take, fr) == "Est prend à pique"
    assert contract_text(take, en) == "East takes spades"
    bid = {"contract": {"taker": "W", "strain": "H", "bid": 110, "coinche": 1}, "deck": "french"}
    assert contract_text(bid, fr) == "Ouest annonce 110 cœur · coinché ×2"
    assert contract_text({"contract": None, "deck": "french"}, en) is None


@pytest.mark.slow  # whole deals
def test_a_deal_played_is_listed_with_its_result_and_links(
    browser: Callable[[], TestClient],
) -> None:
    client = browser()
    game, view = played_deal(client)
    deals = client.get("/api/me/games?lang=fr").json()["deals"]
    (entry,) = [d for d in deals if d["game"] == game["game"]]
    assert entry["deal"] == 1 and entry["over"] and entry["rules"] == "cardavia"
    assert entry["seat"] == "S" and entry["partner"]["computer"]
    assert [o["computer"] for o in entry["opponents"]] == [True, True]
    assert entry["score"] == view["result"]["scores"]
    assert entry["contract"]["taker"] == view["contract"]["taker"]
    taker = {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"}[entry["contract"]["taker"]]
    assert entry["contract_text"].startswith(f"{taker} prend à ")
    assert entry["outcome"] in ("made", "failed", "litige")
    assert entry["check"].startswith("/fr/rules/fairness?seed=")
    assert view["fair"]["seed"] in entry["check"]
    # The analysis, as the table's own.
    analysis = client.get(f"/api/me/games/{game['game']}/analysis?deal=1&lang=fr")
    assert analysis.status_code == 200
    assert analysis.json()["deal"] == 1 and analysis.json()["cards"]
    # The shared link shows every hand, to anyone.
    stranger = browser()
    shared = stranger.get(f"/api/deals/{entry['share']}")
    assert shared.status_code == 200
    assert shared.json()["replay"]["hands"] == view["replay"]["hands"]
    page = stranger.get(f"/fr/deal/{entry['share']}")
    assert page.status_code == 200 and "Nord" in page.text


@pytest.mark.slow  # whole deals
def test_the_latest_deal_comes_first(browser: Callable[[], TestClient]) -> None:
    client = browser()
    first, _ = played_deal(client, seed=1)
    second, _ = played_deal(client, seed=2)
    games = [d["game"] for d in client.get("/api/me/games").json()["deals"]]
    assert games.index(second["game"]) < games.index(first["game"])


def test_a_deal_in_play_shows_nothing_hidden(browser: Callable[[], TestClient]) -> None:
    client = browser()
    game = new_game(client)
    (entry,) = client.get("/api/me/games").json()["deals"]
    assert entry["game"] == game["game"] and not entry["over"]
    assert entry["share"] is None and entry["check"] is None and entry["score"] is None
    assert "replay" not in entry and "hands" not in str(entry)
    analysis = client.get(f"/api/me/games/{game['game']}/analysis?deal=1")
    assert analysis.status_code == 409
    assert analysis.json()["code"] == "deal_not_over"


def test_a_shared_link_of_a_deal_in_play_or_forged_is_refused(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    from cardavia.web.history import share_code

    client = browser()
    game = new_game(client)
    stored = app.state.store.load(game["game"])
    # The code the site would make once the deal is over: still refused while it is played.
    code = share_code(stored, 1)
    assert client.get(f"/api/deals/{code}").status_code == 404
    assert client.get(f"/en/deal/{code}").status_code == 404
    over, _ = played_deal(client)
    good = share_code(app.state.store.load(over["game"]), 1)
    forged = good[:-1] + ("0" if good[-1] != "0" else "1")
    for bad in (forged, f"{over['game']}.1", f"{over['game']}.2.{good.rsplit('.', 1)[1]}", "x"):
        assert client.get(f"/api/deals/{bad}").status_code == 404, bad
    assert client.get(f"/api/deals/{good}").status_code == 200


def test_another_players_history_and_deal_in_play_are_refused(
    browser: Callable[[], TestClient],
) -> None:
    alice, mallory = browser(), browser()
    finished, _ = played_deal(alice)
    playing = new_game(alice)
    new_game(mallory)
    listed = {d["game"] for d in mallory.get("/api/me/games").json()["deals"]}
    assert finished["game"] not in listed and playing["game"] not in listed
    for game in (finished, playing):
        answer = mallory.get(f"/api/me/games/{game['game']}/analysis?deal=1")
        assert answer.status_code == 404, answer.json()
    # Without a player at all, neither.
    nobody = browser()
    assert nobody.get(f"/api/me/games/{finished['game']}/analysis?deal=1").status_code == 404
    # The game's own API still wants its seat token.
    assert mallory.get(f"/api/games/{playing['game']}").status_code == 401


def test_a_room_deal_lists_the_people_by_name(browser: Callable[[], TestClient]) -> None:
    ana, bob = browser(), browser()
    made = ana.post("/api/rooms", json={"name": "Ana", "rules": "cardavia", "seat": "S"}).json()
    code = made["room"]
    bob.post(f"/api/rooms/{code}/join", json={"name": "Bob", "seat": "N"})
    with ana.websocket_connect(f"/ws/rooms/{code}?token={made['token']}") as ws:
        ws.send_json({"type": "start"})
        for _ in range(50):
            if ws.receive_json().get("type") == "state":
                break
    (entry,) = bob.get("/api/me/games").json()["deals"]
    assert entry["room"] == code and entry["seat"] == "N"
    assert entry["partner"] == {"name": "Ana", "computer": False}
    assert all(o["computer"] for o in entry["opponents"])


def test_a_bad_page_number_is_refused(browser: Callable[[], TestClient]) -> None:
    client = browser()
    for bad in ("0", "x", "²", "99999"):
        assert client.get(f"/api/me/games?page={bad}").status_code == 400
