"""The site's HTTP routes (docs/web.md): the language redirect, the 404 page, creating a game,
reading a seat's view, and every bad request answered in the player's language with nothing
changed."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.belote.game import Reason
from cardavia.belote.notation import Record
from cardavia.live.settings import WEB_DIR
from cardavia.store.db import GameStore, hash_token
from cardavia.words import LANGUAGE_NAMES, LANGUAGES, load_catalogs

NewGame = Callable[..., dict[str, str]]
FR = load_catalogs().wording("fr")
EN = load_catalogs().wording("en")
ES = load_catalogs().wording("es")


def test_healthz(reader: TestClient) -> None:
    response = reader.get("/healthz")
    assert response.status_code == 200
    assert response.text == "ok"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("fr-CA,fr;q=0.9,en;q=0.8", "fr"),
        ("de-DE,pl;q=0.8,fr;q=0.5", "pl"),
        ("ar", "ar"),
        ("hi-IN", "hi"),
        ("es-419,es;q=0.9", "es"),
        ("de, it;q=0.5", "en"),
        ("fr;q=0, es;q=0.2", "es"),
        ("", "en"),
        ("garbage;;q=abc, ,", "en"),
    ],
)
def test_root_sends_the_visitor_to_their_language(
    reader: TestClient, header: str, lang: str
) -> None:
    response = reader.get("/", headers={"Accept-Language": header}, follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == f"/{lang}/"
    assert "accept-language" in response.headers["vary"].lower()


def test_root_without_header_is_english(reader: TestClient) -> None:
    response = reader.get("/", follow_redirects=False)
    assert response.headers["location"] == "/en/"


@pytest.mark.parametrize("path", ["/de/", "/xx/", "/EN/", "/english/"])
def test_unknown_language_is_an_english_404_with_links(reader: TestClient, path: str) -> None:
    response = reader.get(path, headers={"Accept-Language": "fr"})
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert '<html lang="en" dir="ltr">' in page
    assert "Page not found" in page
    for lang in LANGUAGES:
        assert f'href="/{lang}/"' in page
        assert LANGUAGE_NAMES[lang] in page


def test_unknown_page_of_a_language_is_a_404_in_that_language(reader: TestClient) -> None:
    response = reader.get("/ar/nothing-here")
    assert response.status_code == 404
    assert 'dir="rtl"' in response.text
    assert load_catalogs().wording("ar").page_text("not_found_title") in response.text


def test_unknown_api_route_is_a_json_404(reader: TestClient) -> None:
    response = reader.get("/api/nothing", headers={"Accept-Language": "es"})
    assert response.status_code == 404
    error = response.json()
    assert error["type"] == "error"
    assert error["code"] == "not_found"
    assert error["message"] == load_catalogs().wording("es").error("not_found")


def test_security_headers(reader: TestClient) -> None:
    response = reader.get("/healthz")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"


# -- creating a game -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["cardavia", "maison", "coinche", "maghreb"])
def test_create_a_game_of_each_preset(client: TestClient, rules: str) -> None:
    response = client.post("/api/games", json={"rules": rules, "level": "club", "lang": "fr"})
    assert response.status_code == 201
    assert response.headers["cache-control"] == "no-store"
    data = response.json()
    assert set(data) == {"game", "token", "seat"}
    assert data["seat"] == "S"
    assert len(data["token"]) >= 40
    view = client.get(f"/api/games/{data['game']}", params={"token": data["token"]}).json()
    assert view["rules"] == rules
    assert view["seat"] == "S"
    assert view["lang"] == "fr"
    assert view["deck"] == ("spanish" if rules == "maghreb" else "french")
    assert view["phase"] == "bidding"
    assert view["step"] == 0
    expected = 8 if rules == "coinche" else 5
    assert len(view["hand"]) == expected
    assert view["hand_sizes"] == {"N": expected, "E": expected, "S": expected, "W": expected}
    assert (view["turned"] is None) == (rules == "coinche")
    assert (
        view["match"]["target"]
        == {"cardavia": None, "maison": 1000, "coinche": 2000, "maghreb": 1000}[rules]
    )
    assert view["replay"] is None


def test_create_with_defaults_takes_the_accept_language(client: TestClient) -> None:
    response = client.post("/api/games", json={}, headers={"Accept-Language": "pl"})
    assert response.status_code == 201
    data = response.json()
    view = client.get(f"/api/games/{data['game']}", params={"token": data["token"]}).json()
    assert (view["rules"], view["level"], view["lang"]) == ("cardavia", "club", "pl")


@pytest.mark.parametrize(
    ("rules", "deck"), [("maison", "spanish"), ("maghreb", "french"), ("maghreb", "spanish")]
)
def test_the_deck_chosen_is_kept_with_the_game(
    client: TestClient, make_app: Callable[..., FastAPI], database: str, rules: str, deck: str
) -> None:
    body = {"rules": rules, "level": "club", "lang": "es", "deck": deck}
    game = client.post("/api/games", json=body).json()
    params = {"token": game["token"]}
    view = client.get(f"/api/games/{game['game']}", params=params).json()
    assert (view["rules"], view["deck"]) == (rules, deck)
    # In the record's rules (a presentation knob), the preset's name in the store: it stays
    # after a restart.
    stored = GameStore(database).load(game["game"])
    assert stored is not None and stored.rules == rules
    assert Record.from_json(stored.record).rules.deck == deck
    with TestClient(make_app()) as restarted:
        again = restarted.get(f"/api/games/{game['game']}", params=params).json()
    assert (again["rules"], again["deck"]) == (rules, deck)


def test_a_game_with_the_spanish_deck_is_worded_in_it(
    client: TestClient, settle: Callable[..., tuple[dict[str, Any], list[dict[str, Any]]]]
) -> None:
    """House rules with the Spanish-suited deck: the bids, the contract and the reasons a card
    is refused name the suits and cards of that deck (copas, not corazones)."""
    body = {"rules": "maison", "level": "club", "lang": "es", "deck": "spanish"}
    game = client.post("/api/games", json=body).json()
    seen = {"bid": 0, "contract": 0, "refusal": 0}
    url = f"/ws/games/{game['game']}?token={game['token']}&lang=es"
    with client.websocket_connect(url) as ws:
        for _ in range(20):
            view, _messages = settle(ws)
            assert view["deck"] == "spanish"
            for bid in view["bids"]:
                if "strain" in bid:
                    seen["bid"] += 1
                    value = bid.get("value")
                    words = ES.bid(bid["kind"], strain=bid["strain"], value=value, deck="spanish")
                    assert bid["text"] == words
                    if bid["strain"] in "SHDC":
                        french = ES.bid(bid["kind"], strain=bid["strain"], value=value)
                        assert bid["text"] != french
            contract = view["contract"]
            if contract is not None:
                seen["contract"] += 1
                assert contract["strain_name"] == ES.strain(contract["strain"], "spanish")
                assert contract["strain_name"] != ES.strain(contract["strain"], "french")
            for refusal in view["refusals"].values():
                seen["refusal"] += 1
                reason = Reason(refusal["code"], refusal["args"])
                assert refusal["message"] == ES.reason(reason, "spanish")
                assert refusal["message"] != ES.reason(reason, "french")
            if view["phase"] in ("over", "cancelled"):
                break
            takes = [a for a in view["legal"] if a["kind"] == "take"]
            ws.send_json({"type": "action", "action": (takes or view["legal"])[0]})
    assert all(seen.values()), seen


def test_the_token_is_stored_hashed(client: TestClient, new_game: NewGame, database: str) -> None:
    game = new_game()
    stored = GameStore(database).load(game["game"])
    assert stored is not None
    assert stored.token_hash == hash_token(game["token"])
    assert game["token"] not in stored.record
    assert stored.token_hash != game["token"]


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        (b"{not json", "bad_json", 400),
        (b"", "bad_json", 400),
        (b"\xff\xfe", "bad_json", 400),
        (b"[1, 2]", "not_an_object", 400),
        (b'"cardavia"', "not_an_object", 400),
        (b"null", "not_an_object", 400),
        (b'{"rules": "belote"}', "unknown_rules", 400),
        (b'{"rules": 5}', "unknown_rules", 400),
        (b'{"level": "grandmaster"}', "unknown_level", 400),
        (b'{"lang": "de"}', "unknown_language", 400),
        (b'{"deck": "tarot"}', "unknown_deck", 400),
        (b'{"rules": "maghreb", "deck": 1}', "unknown_deck", 400),
        # A game's seat may be chosen ("seat"); any other field is still refused.
        (b'{"rules": "cardavia", "chair": "N"}', "unknown_field", 400),
        (b'{"rules": "cardavia", "seat": "X"}', "bad_field", 400),
        (b'{"rules": "cardavia", "seat": 2}', "bad_field", 400),
        (b'{"rules": "' + b"x" * 5000 + b'"}', "too_large", 413),
    ],
)
def test_bad_creation_requests(
    client: TestClient, database: str, body: bytes, code: str, status: int
) -> None:
    before = _count_games(database)
    response = client.post(
        "/api/games",
        content=body,
        headers={"Content-Type": "application/json", "Accept-Language": "fr"},
    )
    assert response.status_code == status, response.text
    error = response.json()
    assert error["type"] == "error"
    assert error["code"] == code
    assert error["message"] == FR.error(code, error["args"])
    assert error["message"] != EN.error(code, error["args"])
    assert _count_games(database) == before


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("pl", "Nieznana talia: tarot."),
        ("ar", "ورق لعب غير معروف: tarot."),
        ("es", "Baraja desconocida: tarot."),
    ],
)
def test_an_unknown_deck_is_refused_in_the_players_language(
    client: TestClient, database: str, lang: str, message: str
) -> None:
    response = client.post("/api/games", json={"rules": "maison", "deck": "tarot", "lang": lang})
    assert response.status_code == 400
    assert response.json() == {
        "type": "error",
        "code": "unknown_deck",
        "message": message,
        "args": {"deck": "tarot"},
    }
    assert _count_games(database) == 0


def test_too_large_is_worded_with_the_limit(client: TestClient) -> None:
    response = client.post(
        "/api/games", content=b"{" + b" " * 5000 + b"}", headers={"Accept-Language": "pl"}
    )
    assert response.status_code == 413
    assert response.json()["message"] == "Wiadomość jest za długa: limit to 4096 bajtów."


def _count_games(database: str) -> int:
    from sqlalchemy import func, select

    from cardavia.store.db import GameRow

    store = GameStore(database)
    with store.engine.connect() as connection:
        count = connection.execute(select(func.count()).select_from(GameRow)).scalar_one()
    store.close()
    return int(count)


# -- reading a view --------------------------------------------------------------------------


def test_view_by_query_token_and_by_bearer_header(client: TestClient, new_game: NewGame) -> None:
    game = new_game("maison")
    by_query = client.get(f"/api/games/{game['game']}", params={"token": game["token"]})
    by_header = client.get(
        f"/api/games/{game['game']}", headers={"Authorization": f"Bearer {game['token']}"}
    )
    assert by_query.status_code == by_header.status_code == 200
    assert by_query.json() == by_header.json()
    assert by_query.headers["cache-control"] == "no-store"


def test_view_holds_only_souths_cards(client: TestClient, new_game: NewGame, database: str) -> None:
    game = new_game("maison")
    view = client.get(f"/api/games/{game['game']}", params={"token": game["token"]}).json()
    stored = GameStore(database).load(game["game"])
    assert stored is not None
    deal = Record.from_json(stored.record).replay().deal
    others = {code for seat in (0, 1, 3) for code in deal.hand(seat).codes()}
    text = repr(view)
    assert not any(f"'{code}'" in text for code in others)
    assert view["hand"] == deal.hand(2).codes()


def test_view_in_another_language(client: TestClient, new_game: NewGame) -> None:
    game = new_game("cardavia", lang="en")
    view = client.get(
        f"/api/games/{game['game']}", params={"token": game["token"], "lang": "ar"}
    ).json()
    assert view["lang"] == "ar"
    fallback = client.get(
        f"/api/games/{game['game']}", params={"token": game["token"], "lang": "xx"}
    ).json()
    assert fallback["lang"] == "en"


@pytest.mark.parametrize("lang", ["fr", "ar", "hi"])
def test_view_errors(client: TestClient, new_game: NewGame, lang: str) -> None:
    game, other = new_game(), new_game()
    wording = load_catalogs().wording(lang)
    headers = {"Accept-Language": lang}
    cases = [
        (f"/api/games/{game['game']}", {}, "missing_token", 401),
        (f"/api/games/{game['game']}", {"token": "guess"}, "bad_token", 403),
        (f"/api/games/{game['game']}", {"token": other["token"]}, "bad_token", 403),
        ("/api/games/nosuchgame", {"token": game["token"]}, "game_not_found", 404),
        ("/api/games/" + "x" * 200, {"token": game["token"]}, "game_not_found", 404),
    ]
    for path, params, code, status in cases:
        response = client.get(path, params=params, headers=headers)
        assert response.status_code == status
        error = response.json()
        assert (error["type"], error["code"]) == ("error", code)
        assert error["message"] == wording.error(code)


# -- the pages -------------------------------------------------------------------------------


@pytest.mark.skipif(
    not (WEB_DIR / "templates" / "table.html").exists(),
    reason="the table page's template (front-end) is not installed yet",
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_page_renders_in_each_language(reader: TestClient, lang: str) -> None:
    response = reader.get(f"/{lang}/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert f'lang="{lang}"' in page
    assert f'dir="{"rtl" if lang == "ar" else "ltr"}"' in page


def test_language_without_slash_redirects(reader: TestClient) -> None:
    response = reader.get("/fr", follow_redirects=False)
    assert response.status_code in (301, 307, 308)
    assert response.headers["location"].endswith("/fr/")


@pytest.mark.skipif(
    importlib.util.find_spec("cardavia.web.routes.rules") is None,
    reason="the rules pages (cardavia.web.routes.rules) are not installed yet",
)
def test_rules_pages_are_included(reader: TestClient) -> None:
    response = reader.get("/en/rules/")
    assert response.status_code == 200


def test_tokens_are_hidden_in_the_server_logs() -> None:
    import logging

    from cardavia.live.logs import RedactTokens

    record = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5000", "/ws/games/abc?token=s3cr3t-_x&lang=fr"),
        None,
    )
    assert RedactTokens().filter(record)
    line = record.getMessage()
    assert "s3cr3t" not in line
    assert line.endswith('"WebSocket /ws/games/abc?token=…&lang=fr" [accepted]')
