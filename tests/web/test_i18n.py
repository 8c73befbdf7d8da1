"""Choosing a visitor's language: the URL's, else the best of the browser's
``Accept-Language``."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from cardavia.web.i18n import (
    LANGUAGE_COOKIE,
    choose_language,
    negotiate_language,
    parse_accept_language,
    visitor_language,
)

# -- choosing a language ---------------------------------------------------------------------


def test_accept_language_parsing() -> None:
    assert parse_accept_language("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == [
        ("fr-ch", 1.0),
        ("fr", 0.9),
        ("en", 0.8),
        ("de", 0.7),
        ("*", 0.5),
    ]
    assert parse_accept_language("en;q=0, pl") == [("pl", 1.0)]
    assert parse_accept_language("es;q=2, hi;q=x, ar") == [("ar", 1.0)]
    assert parse_accept_language(None) == []
    assert parse_accept_language("x" * 100_000) == [("x" * 1000, 1.0)]


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ar-MA,ar;q=0.9,fr;q=0.8", "ar"),
        ("en-GB;q=0.5, es-MX", "es"),
        ("zh-CN, ja", "en"),
        ("PL", "pl"),
        ("hi_IN", "en"),
        ("fr;q=0.1, *", "fr"),
    ],
)
def test_negotiation(header: str, lang: str) -> None:
    assert negotiate_language(header) == lang


def test_the_url_comes_before_accept_language() -> None:
    assert choose_language("ar", "fr") == "ar"
    assert choose_language("de", "fr") == "fr"
    assert choose_language(None, None) == "en"


def test_the_saved_choice_comes_before_accept_language() -> None:
    assert visitor_language("ar", "fr-FR,fr;q=0.9") == "ar"
    assert visitor_language(" PL ", "fr") == "pl"
    assert visitor_language("de", "fr") == "fr"
    assert visitor_language("", None) == "en"
    assert visitor_language(None, "es") == "es"


@pytest.mark.parametrize(
    ("saved", "header", "lang"),
    [("ar", "fr", "ar"), ("hi", "en", "hi"), ("xx", "pl", "pl"), (None, "es", "es")],
)
def test_root_sends_a_returning_player_to_the_language_they_chose(
    client: TestClient, saved: str | None, header: str, lang: str
) -> None:
    client.cookies.clear()
    if saved is not None:
        client.cookies.set(LANGUAGE_COOKIE, saved)
    response = client.get("/", headers={"Accept-Language": header}, follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == f"/{lang}/"
    vary = response.headers["vary"].lower()
    assert "cookie" in vary and "accept-language" in vary
