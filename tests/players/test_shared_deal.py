"""A shared deal worth sharing (issue 37, item 4; docs/players.md, "A shared deal"): its page
is a diagram from the sharer's seat with who sat where, every trick with its winner and the
analysis; a pasted link previews (Open Graph and Twitter card tags, a PNG of the hands made
by the server, HEAD answered); My games says each outcome from the player's side; and a deal
in play, a forged code or a seat changed in a code shows nothing."""

from __future__ import annotations

import random
import re
import struct
from collections.abc import Callable
from html import unescape

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.players.plays import app_fixture, browser_fixture, new_game, play_deal, played_deal

from cardavia.belote import Seat
from cardavia.web.history import share_code, side_outcome

__all__ = ["app_fixture", "browser_fixture"]

JSON_TYPE = {"Content-Type": "application/json"}
SEATS_FR = {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"}


def meta(page: str, key: str) -> str:
    """The content of a page's ``<meta>`` named (or with the property) ``key``."""
    found = re.search(rf'<meta (?:name|property)="{re.escape(key)}" content="([^"]*)">', page)
    assert found, key
    return unescape(found.group(1))


def test_an_outcome_is_said_from_the_players_side() -> None:
    assert side_outcome("made", "NS", "NS") == "made_by_us"
    assert side_outcome("made", "NS", "EW") == "made_by_them"
    assert side_outcome("failed", "EW", "NS") == "failed_by_them"
    assert side_outcome("failed", "EW", "EW") == "failed_by_us"
    assert side_outcome(None, None, "NS") is None


@pytest.mark.slow  # a whole deal
def test_a_shared_deal_previews_replays_and_opens_its_analysis(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    player = browser()
    assert player.put("/api/me", json={"name": "Zoé"}).status_code == 200
    game, view = played_deal(player)
    deals = player.get("/api/me/games?lang=fr").json()["deals"]
    (entry,) = [d for d in deals if d["game"] == game["game"]]
    taker_team = "NS" if view["contract"]["taker"] in "NS" else "EW"
    assert entry["mine"] == side_outcome(entry["outcome"], taker_team, "NS")
    assert entry["tournament"] is None and entry["later"] is None
    code = entry["share"]
    assert code.split(".")[1] == "1S"  # the sharer's seat, under the code's mac
    stranger = browser()
    page = stranger.get(f"/fr/deal/{code}")
    assert page.status_code == 200
    text = page.text
    # The preview a chat app reads.
    assert meta(text, "og:title").endswith("Donne 1")
    assert "Partagée par Zoé (Sud)" in meta(text, "og:description")
    assert meta(text, "twitter:card") == "summary_large_image"
    picture = meta(text, "og:image")
    assert picture == meta(text, "twitter:image") == f"http://testserver/fr/deal/{code}/picture.png"
    assert meta(text, "og:url") == f"http://testserver/fr/deal/{code}"
    image = stranger.get(picture)
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert image.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", image.content[16:24]) == (1200, 630)
    assert "content-encoding" not in image.headers
    for url in (picture, f"/fr/deal/{code}"):
        head = stranger.head(url)
        assert head.status_code == 200 and head.content == b"", url
    # The diagram: the sharer at the bottom, each seat named, every trick with its winner.
    assert re.search(r'data-place="bottom" data-seat="S" data-sharer="true"', text)
    assert 'data-place="top" data-seat="N"' in text and 'data-place="right" data-seat="W"' in text
    assert text.count('class="deal-card"') == 32
    bottom = text.split('data-place="bottom"', 1)[1]
    assert re.search(r'<span class="deal-who">Zoé</span>', bottom.split("</h2>", 1)[0] + "</h2>")
    replay = view["replay"]
    winners = re.findall(r'<li data-winner="([NESW])">', text)
    assert winners == [trick["winner"] for trick in replay["tricks"]]
    for trick in replay["tricks"]:
        assert f"{SEATS_FR[trick['winner']]} remporte le pli." in text
    # Its analysis, for anyone who holds the link.
    analysis = stranger.get(f"/api/deals/{code}/analysis?lang=fr")
    assert analysis.status_code == 200 and analysis.json()
    # In Arabic too, the same deal.
    arabic = stranger.get(f"/ar/deal/{code}")
    assert arabic.status_code == 200 and 'dir="rtl"' in arabic.text
    assert "شاركها Zoé" in meta(arabic.text, "og:description")


@pytest.mark.slow  # a whole deal
def test_a_code_with_another_seat_a_deal_in_play_or_a_forged_code_shows_nothing(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    client = browser()
    playing = new_game(client)
    stored = app.state.store.load(playing["game"])
    # A deal in play: its future code opens nothing, not its picture nor its analysis.
    for code in (share_code(stored, 1), share_code(stored, 1, Seat.S)):
        for url in (f"/fr/deal/{code}", f"/fr/deal/{code}/picture.png"):
            assert client.get(url).status_code == 404, url
            assert client.head(url).status_code == 404, url
        assert client.get(f"/api/deals/{code}/analysis").status_code == 404
    over, _ = played_deal(client)
    good = share_code(app.state.store.load(over["game"]), 1, Seat.S)
    game_id, _number, mac = good.split(".")
    # The seat is under the mac: another seat with the same mac is no code of the site's.
    for bad in (f"{game_id}.1N.{mac}", f"{game_id}.1.{mac}", f"{game_id}.1Z.{mac}", "x.1S.y"):
        assert client.get(f"/fr/deal/{bad}").status_code == 404, bad
        assert client.get(f"/fr/deal/{bad}/picture.png").status_code == 404, bad
        assert client.get(f"/api/deals/{bad}/analysis").status_code == 404, bad
    # A link shared before codes named a seat still opens, from the game's own seat.
    old = share_code(app.state.store.load(over["game"]), 1)
    page = client.get(f"/fr/deal/{old}")
    assert page.status_code == 200 and 'data-place="bottom" data-seat="S"' in page.text
    assert client.get(f"/fr/deal/{good}/picture.png").status_code == 200


@pytest.mark.slow  # two whole deals
def test_play_this_deal_deals_the_same_cards_from_the_same_seat_with_the_same_players(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    sharer = browser()
    shared = new_game(sharer, seat="W", level="beginner")
    first = play_deal(sharer, shared, random.Random(5))
    entry = sharer.get("/api/me/games").json()["deals"][0]
    code = entry["share"]
    assert code.split(".")[1] == "1W"
    visitor = browser()
    answer = visitor.post(f"/api/deals/{code}/play", json={"lang": "ar"})
    assert answer.status_code == 201, answer.text
    game = answer.json()
    assert game["seat"] == "W" and game["level"] == "beginner" and game["deck"] == first["deck"]
    original = app.state.store.load(shared["game"])
    again = app.state.store.load(game["game"])
    assert (again.rules, again.level, again.version) == (
        original.rules,
        original.level,
        original.version,
    )
    assert again.first_seed == original.first_seed
    assert again.id != original.id and not again.token_matches(shared["token"])
    # The visitor's own game, with their seat's token: the same hand at the same seat.
    view = visitor.get(f"/api/games/{game['game']}?token={game['token']}").json()
    assert view["seat"] == "W" and view["dealer"] == first["dealer"]
    assert view["fair"]["hash"] == first["fair"]["hash"]  # the same shuffle, committed
    assert set(view["hand"]) <= set(first["replay"]["hands"]["W"]) and view["hand"]
    assert view["turned"] == first["turned"]
    assert view["match"]["target"] is None  # one deal, as shared
    # Played to its end, it is the visitor's in their My games; the sharer's stays theirs.
    last = play_deal(visitor, game, random.Random(6))
    assert last["phase"] in ("over", "cancelled")
    mine = visitor.get("/api/me/games").json()["deals"]
    assert [d["game"] for d in mine] == [game["game"]]
    assert [d["game"] for d in sharer.get("/api/me/games").json()["deals"]] == [shared["game"]]
    # Its table page, in Arabic, hands no token to the page.
    page = visitor.get(f"/ar/deal/{code}/play")
    assert page.status_code == 200 and game["token"] not in page.text
    assert 'data-code="' + code + '"' in page.text and 'href="/ar/deal/' + code + '"' in page.text


@pytest.mark.slow  # a whole deal
def test_play_this_deal_refuses_bad_input_and_a_deal_not_shareable(
    app: FastAPI, browser: Callable[[], TestClient]
) -> None:
    client = browser()
    playing = new_game(client)
    in_play = share_code(app.state.store.load(playing["game"]), 1, Seat.S)
    assert client.post(f"/api/deals/{in_play}/play", json={}).status_code == 404
    assert client.get(f"/fr/deal/{in_play}/play").status_code == 404
    over, _ = played_deal(client)
    code = share_code(app.state.store.load(over["game"]), 1, Seat.S)
    games = len(client.get("/api/me/games").json()["deals"])
    refused = [
        client.post(f"/api/deals/{code}/play", content=b"not json", headers=JSON_TYPE),
        client.post(f"/api/deals/{code}/play", json={"lang": "fr", "seat": "N"}),
        client.post(f"/api/deals/{code}/play", json=[1]),
        client.post(f"/api/deals/{code}/play", json={}, headers={"Origin": "http://evil.example"}),
        client.post("/api/deals/x.1S.y/play", json={}),
    ]
    assert [r.status_code for r in refused] == [400, 400, 400, 403, 404]
    assert all(r.json()["type"] == "error" and r.json()["message"] for r in refused)
    codes = [r.json()["code"] for r in refused]
    assert codes == ["bad_json", "unknown_field", "not_an_object", "bad_origin", "not_found"]
    assert len(client.get("/api/me/games").json()["deals"]) == games  # nothing made
