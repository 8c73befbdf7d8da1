"""The rules pages: every page in the six languages, their worked examples (verified marks,
legal cards, card pictures with their names), right to left in Arabic, and the ``rules``
catalogs (complete, plural forms, placeholders)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardavia.live.settings import Settings
from cardavia.teach import explain
from cardavia.teach.examples import LegalResult, legal_results
from cardavia.web.pages import make_templates
from cardavia.web.routes import rules
from cardavia.words import (
    LANGUAGES,
    RULES,
    catalog_path,
    load_catalogs,
    missing_messages,
    placeholders,
)

PAGES = ("", "cardavia", "maison", "coinche", "maghreb", "legal-cards", "announcements", "scoring")
RULES_11_LEGAL = {
    1: "KS 7S",
    2: "9D",
    3: "8H QH",
    4: "8H QH KS 9D",
    5: "9S",
    6: "7S 9S",
    7: "7S 9S KH QC",
    8: "7D",
    9: "JH",
}
PLURAL_FORMS = {
    "fr": "nplurals=2; plural=(n > 1);",
    "en": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "hi": "nplurals=2; plural=(n > 1);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "ar": "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
    "n%100>=11 ? 4 : 5);",
}
# The suffixes a placeholder may take in a translation (cardavia.words.filling).
FORMS = (
    "",
    "_the",
    "_acc",
    "_ins",
    "_obl",
    "_nom",
    "_short",
    "_bare",
    "_du",
    "_of",
    "_plural",
    "_plural_de",
    "_gen",
    "_de",
)


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_every_language(reader: TestClient, lang: str) -> None:
    for page in PAGES:
        response = reader.get(f"/{lang}/rules/{page}")
        assert response.status_code == 200, (lang, page)
        body = response.text
        assert f'<html lang="{lang}" dir="{"rtl" if lang == "ar" else "ltr"}">' in body
        assert "{" not in text_of(re.sub(r"<(style|script)\b.*?</\1>", "", body, flags=re.S))
    assert missing_messages(lang) == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_legal_cards_page_shows_the_nine_verified_examples(reader: TestClient, lang: str) -> None:
    body = reader.get(f"/{lang}/rules/legal-cards").text
    legal = dict(re.findall(r'data-example="(\d)".*?data-legal="([^"]*)"', body, re.S))
    assert {int(k): v for k, v in legal.items()} == RULES_11_LEGAL
    assert body.count('data-verified="true"') == 9
    assert 'data-verified="false"' not in body
    assert body.count("<svg") >= 40  # the cards are pictures...
    assert body.count('class="rules-card rules-card-on"') >= 9  # ...the legal ones highlighted


def test_card_pictures_are_labelled_in_the_pages_language(reader: TestClient) -> None:
    assert 'aria-label="valet de cœur"' in reader.get("/fr/rules/legal-cards").text
    assert 'aria-label="Walet kier"' in reader.get("/pl/rules/legal-cards").text
    assert 'aria-label="ولد الكبّة"' in reader.get("/ar/rules/legal-cards").text
    assert 'aria-label="पान का गुलाम"' in reader.get("/hi/rules/legal-cards").text
    spanish = reader.get("/es/rules/announcements").text
    assert 'aria-label="rey de oros"' in spanish  # seed 002's carré of 12s, Spanish deck
    assert 'aria-label="sota de oros"' in spanish


def test_hindi_example_9_names_the_right_suits(reader: TestClient) -> None:
    body = reader.get("/hi/rules/legal-cards").text
    nine = re.search(r'data-example="9".*?</article>', body, re.S)
    assert nine is not None
    words = text_of(nine.group(0))
    assert "ट्रंप: पान" in words  # hearts are trump
    assert "पूर्व के पास हुकुम नहीं बचा" in words  # East has no spades (the suit led) left
    assert "पान नहीं" not in words
    assert "विजेता: पूर्व" in words and "41 अंक" in words


def test_arabic_keeps_numbers_left_to_right(reader: TestClient) -> None:
    body = reader.get("/ar/rules/legal-cards").text
    assert '<bdi dir="ltr">11 + 10 + 0 + 20 = 41</bdi> نقطة' in body
    scoring = reader.get("/ar/rules/scoring").text
    assert '<bdi dir="ltr">(160 + 90) × 2 = 500</bdi>' in scoring
    assert '<td class="num"><bdi dir="ltr">1100</bdi></td>' in scoring


def test_arabic_writes_the_spanish_order_from_the_right(reader: TestClient) -> None:
    """The Spanish deck's order reads 4 first from the right, as the French order beside it
    and as seed 002 writes it ("4، 5، 6، 7، 10، 11، 12، 1"): each number on its own, Arabic
    commas between, never one left-to-right run that reads "1، 12…" from the right."""
    body = reader.get("/ar/rules/announcements").text
    assert '<bdi dir="ltr">4 5 6 7 10 11 12 1</bdi>' not in body
    numbers = "، ".join(f'<bdi dir="ltr">{n}</bdi>' for n in (4, 5, 6, 7, 10, 11, 12, 1))
    assert f"في الورق الإسباني الترتيب هو {numbers}:" in body
    # The Maghreb page names the Maghreb seed's own words (seed 002).
    maghreb = reader.get("/ar/rules/maghreb").text
    assert all(word in maghreb for word in ("«الأتو»", "«السويفي»", "«الأكلة»"))


def test_pages_content(reader: TestClient) -> None:
    maghreb = text_of(reader.get("/fr/rules/maghreb").text)
    assert "deniers" in maghreb and "partie en 1000 points" in maghreb
    coinche = text_of(reader.get("/en/rules/coinche").text)
    assert "you may play any card" in coinche and "rounded to the nearest ten" in coinche
    cardavia = text_of(reader.get("/pl/rules/cardavia").text)
    assert "Gra się jedno rozdanie." in cardavia
    scoring = text_of(reader.get("/en/rules/scoring").text)
    for words in ("litige", "capot", "(160 + 110) × 4 + 20 = 1100", "208 → 210"):
        assert words in scoring
    announcements = text_of(reader.get("/ar/rules/announcements").text)
    assert "سويفي" in announcements or "المتتالية" in announcements
    assert "تيرس 10-11-12 دهب" in announcements  # seed 002: "سويفي 10-11-12 دهب"


def test_unknown_language_preset_and_alias(reader: TestClient) -> None:
    assert reader.get("/de/rules/").status_code == 404
    assert reader.get("/fr/rules/belote-bridge").status_code == 404
    moved = reader.get("/fr/rules/contree", follow_redirects=False)
    assert moved.status_code == 307
    assert moved.headers["location"] == "/fr/rules/coinche"


def test_an_unverified_example_is_marked(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = legal_results()[0]
    broken = LegalResult(
        first.example,
        first.legal,
        first.rule,
        first.master,
        first.master_card,
        problems=("the second check disagrees",),
    )
    monkeypatch.setattr(explain, "legal_results", lambda: (broken, *legal_results()[1:]))
    body = client.get("/en/rules/legal-cards").text
    assert body.count('data-verified="false"') == 1
    assert "Not verified" in body


def test_the_router_alone_renders_the_pages() -> None:
    app = FastAPI()
    catalogs = load_catalogs()
    rules.install(app, catalogs, make_templates(Settings().templates_dir, catalogs))
    with TestClient(app) as bare:
        response = bare.get("/pl/rules/legal-cards")
    assert response.status_code == 200
    assert "Jaką kartę wolno zagrać?" in response.text


# -- the catalogs ----------------------------------------------------------------------------


def read(lang: str) -> object:
    path: Path = catalog_path(lang, RULES)
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain="rules")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_is_complete(lang: str) -> None:
    catalog = read(lang)
    assert dict(catalog.mime_headers)["Plural-Forms"] == PLURAL_FORMS[lang]  # type: ignore[attr-defined]
    forms = int(PLURAL_FORMS[lang].split(";")[0].split("=")[1])
    english = {m.id if isinstance(m.id, str) else m.id[0] for m in read("en") if m.id}  # type: ignore[attr-defined]
    ids = set()
    for message in catalog:  # type: ignore[attr-defined]
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        if isinstance(message.id, tuple):
            ids.add(message.id[0])
            assert len(message.string) == forms, message.id
            assert all(s.strip() for s in message.string), message.id
            sources, translations = message.id, message.string
        else:
            ids.add(message.id)
            assert message.string.strip(), message.id
            sources, translations = (message.id,), (message.string,)
        allowed = {name + suffix for s in sources for name in placeholders(s) for suffix in FORMS}
        allowed |= {"n"} if isinstance(message.id, tuple) else set()
        for translation in translations:
            assert placeholders(translation) <= allowed, (message.id, translation)
    assert ids == english
