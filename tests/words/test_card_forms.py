"""Cards named in the form their sentence needs, at the table: French and Spanish with their
article ("Impossible de jouer l’as de pique.", "¿Jugar el as de picas?"), Polish declined
("Nie możesz zagrać damy kier.", "Zagrać waleta kier?"). The table page carries each card's
forms and its sentences (#strings), and table.js fills a sentence's ``{card_the}``,
``{card_gen}`` … from them; the refusals the server words come from the same function
(:func:`cardavia.words.card_name`)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardavia.belote import Reason, parse_card
from cardavia.words import card_forms, card_name, load_catalogs


def page_strings(client: TestClient, lang: str) -> dict[str, Any]:
    """The words the table page gives table.js (its #strings)."""
    page = client.get(f"/{lang}/")
    assert page.status_code == 200
    found = re.search(r'<script type="application/json" id="strings">(.*?)</script>', page.text)
    assert found
    strings: dict[str, Any] = json.loads(found.group(1))
    return strings


def said(strings: dict[str, Any], key: str, code: str, deck: str = "french") -> str:
    """A sentence of the table about one card, filled as table.js fills it (cardWords, then
    every ``{name}`` replaced by its value)."""
    name = strings["names"][deck][code]
    forms = strings["forms"][deck][code]
    params = {"card": name} | {f"card_{form}": forms[form] for form in ("the", "acc", "gen", "nom")}
    text: str = strings["ui"][key]
    for placeholder, value in params.items():
        text = text.replace("{" + placeholder + "}", value)
    return text


TABLE_SENTENCES = [
    ("fr", "may_not_play", "AS", "french", "Impossible de jouer l’as de pique."),
    ("fr", "pick_confirm", "KH", "french", "Jouer le roi de cœur\u00a0?"),
    ("fr", "pick_confirm", "QH", "french", "Jouer la dame de cœur\u00a0?"),
    ("fr", "plays", "JS", "spanish", "{seat} joue le valet d’épées."),
    ("es", "may_not_play", "AS", "french", "No puedes jugar el as de picas."),
    ("es", "pick_confirm", "JH", "french", "¿Jugar la jota de corazones?"),
    ("es", "pick_confirm", "QD", "spanish", "¿Jugar el caballo de oros?"),
    ("pl", "may_not_play", "QH", "french", "Nie możesz zagrać damy kier."),
    ("pl", "may_not_play", "7S", "french", "Nie możesz zagrać siódemki pik."),
    ("pl", "may_not_play", "KS", "french", "Nie możesz zagrać króla pik."),
    ("pl", "pick_confirm", "JH", "french", "Zagrać waleta kier?"),
    ("pl", "pick_confirm", "QH", "french", "Zagrać damę kier?"),
    ("pl", "plays", "AC", "french", "{seat} zagrywa asa trefl."),
    ("pl", "pick_confirm", "QD", "spanish", "Zagrać konia monet?"),
]


@pytest.mark.parametrize(("lang", "key", "code", "deck", "expected"), TABLE_SENTENCES)
def test_the_table_names_a_card_as_its_sentence_needs(
    client: TestClient, lang: str, key: str, code: str, deck: str, expected: str
) -> None:
    assert said(page_strings(client, lang), key, code, deck) == expected


def test_the_table_has_no_capitalised_nominative_in_a_polish_sentence(client: TestClient) -> None:
    """No Polish sentence of the table puts a card's list name ("Walet kier") where the
    sentence declines it, for any card of either deck."""
    strings = page_strings(client, "pl")
    for deck in ("french", "spanish"):
        for code, name in strings["names"][deck].items():
            for key in ("may_not_play", "pick_confirm", "plays"):
                assert name not in said(strings, key, code, deck), (deck, code, key)


def test_the_page_forms_come_from_the_one_function(client: TestClient) -> None:
    for lang in ("fr", "es", "pl"):
        strings = page_strings(client, lang)
        for code in ("AS", "QH", "7D"):
            forms = card_forms(parse_card(code), lang)
            assert strings["forms"]["french"][code]["the"] == forms["_the"]
            assert strings["forms"]["french"][code]["gen"] == forms["_gen"]
            assert strings["names"]["french"][code] == card_name(parse_card(code), lang)


REFUSALS = [
    ("fr", "must_beat", "AS", "Vous devez monter. Carte à battre\u00a0: as de pique."),
    ("pl", "must_beat", "QH", "Musisz zagrać wyższą kartę. Karta do pobicia: dama kier."),
    ("pl", "must_overtrump", "9C",
     "Musisz przebić wyższym atutem. Atut do pobicia: dziewiątka trefl."),
    ("pl", "not_in_hand", "JH", "Nie masz tej karty w ręce: walet kier."),
    ("es", "must_beat", "AS", "Tienes que jugar una carta más alta. Carta a superar: as de picas."),
]  # fmt: skip


@pytest.mark.parametrize(("lang", "code", "card", "expected"), REFUSALS)
def test_the_servers_refusals_name_the_card_in_their_form(
    lang: str, code: str, card: str, expected: str
) -> None:
    assert load_catalogs().wording(lang).reason(Reason(code, {"card": card})) == expected
