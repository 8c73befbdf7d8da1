"""Each language's names of cards, suits, ranks and seats, for both decks (docs/rules.md 1, 2;
the words of seeds 000–004)."""

from __future__ import annotations

import pytest

from cardavia.belote import parse_card
from cardavia.words import (
    LANGUAGES,
    card_forms,
    card_name,
    card_short,
    rank_name,
    seat_name,
    suit_name,
    team_name,
)


def name(code: str, lang: str, deck: str = "french", form: str = "name") -> str:
    return card_name(parse_card(code), lang, deck, form=form)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # Seed 000 (Arabic): the hands of the "which card may I play?" page.
        ("KS", "شايب البستوني"),
        ("7S", "7 البستوني"),
        ("JH", "ولد الكبّة"),
        ("9C", "9 السباتي"),
        ("TD", "10 الكارو"),
        ("QS", "بنت البستوني"),
        ("AS", "آس البستوني"),
    ],
)
def test_arabic_names_of_seed_000(code: str, expected: str) -> None:
    assert name(code, "ar") == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # Seed 001 (Polish).
        ("KS", "Król pik"),
        ("7S", "7 pik"),
        ("JH", "Walet kier"),
        ("9C", "9 trefl"),
        ("TD", "10 karo"),
        ("QS", "Dama pik"),
        ("AC", "As trefl"),
    ],
)
def test_polish_names_of_seed_001(code: str, expected: str) -> None:
    assert name(code, "pl") == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # Seed 003 (Hindi): का before a masculine rank, की before the feminine बेगम.
        ("KS", "हुकुम का बादशाह"),
        ("7S", "हुकुम का 7"),
        ("JH", "पान का गुलाम"),
        ("9C", "चिड़ी का 9"),
        ("TD", "ईंट का 10"),
        ("QS", "हुकुम की बेगम"),
        ("QH", "पान की बेगम"),
        ("AS", "हुकुम का इक्का"),
        ("KD", "ईंट का बादशाह"),
    ],
)
def test_hindi_names_of_seed_003(code: str, expected: str) -> None:
    assert name(code, "hi") == expected


def test_french_english_spanish_names() -> None:
    assert name("JH", "fr") == "valet de cœur"
    assert name("AS", "fr", form="the") == "l’as de pique"
    assert name("QH", "fr", form="the") == "la dame de cœur"
    assert name("8D", "fr", form="the") == "le huit de carreau"  # no elision before "huit"
    assert name("JH", "en") == "jack of hearts"
    assert name("7C", "en", form="the") == "the seven of clubs"
    assert name("JH", "es") == "jota de corazones"
    assert name("QC", "es", form="the") == "la reina de tréboles"
    assert name("KS", "es", form="the") == "el rey de picas"


def test_spanish_deck_names() -> None:
    # docs/rules.md 1: 4 5 6 7 10 11 12 1 = 7 8 9 10 J Q K A; oros, copas, espadas,
    # bastos = D H S C.
    assert name("JH", "es", "spanish") == "sota de copas"
    assert name("QD", "es", "spanish") == "caballo de oros"
    assert name("KS", "es", "spanish") == "rey de espadas"
    assert name("AC", "es", "spanish") == "as de bastos"
    assert name("7D", "es", "spanish") == "cuatro de oros"
    assert name("KD", "ar", "spanish") == "12 الدهب"  # seed 002: "12 الدهب"
    assert name("JD", "fr", "spanish") == "valet de deniers"
    assert name("JS", "fr", "spanish") == "valet d’épées"
    assert name("QH", "en", "spanish") == "knight of cups"
    assert name("KD", "pl", "spanish") == "Król monet"  # Polish names of the Spanish suits
    assert name("AD", "hi", "spanish") == "सिक्के का इक्का"  # by their meaning, not transliterated
    assert [card_short(parse_card(c), "es", "spanish") for c in ("7D", "JD", "KD", "AD")] == [
        "4 oros",
        "10 oros",
        "12 oros",
        "1 oros",
    ]
    assert card_short(parse_card("KD"), "ar", "spanish") == "12 دهب"  # seed 002: "10-11-12 دهب"


def test_suit_and_rank_names() -> None:
    assert [suit_name(s, "ar") for s in range(4)] == ["البستوني", "الكبّة", "الكارو", "السباتي"]
    assert [suit_name(s, "pl") for s in range(4)] == ["pik", "kier", "karo", "trefl"]
    assert [suit_name(s, "hi") for s in range(4)] == ["हुकुम", "पान", "ईंट", "चिड़ी"]
    assert [suit_name(s, "fr") for s in range(4)] == ["pique", "cœur", "carreau", "trèfle"]
    assert [suit_name(s, "es") for s in range(4)] == ["picas", "corazones", "diamantes", "tréboles"]
    assert [suit_name(s, "es", "spanish") for s in (2, 1, 0, 3)] == [
        "oros",
        "copas",
        "espadas",
        "bastos",
    ]
    assert suit_name(1, "ar", form="bare") == "كبّة"
    assert [rank_name(r, "ar") for r in (7, 6, 5, 4)] == ["آس", "شايب", "بنت", "ولد"]
    # Polish ranks in a sentence are lower case ("walet, dama, król i as"); a card keeps its
    # capital as a name of its own ("Walet kier", seed 001).
    assert [rank_name(r, "pl") for r in (7, 6, 5, 4)] == ["as", "król", "dama", "walet"]
    assert [rank_name(r, "hi") for r in (7, 6, 5, 4)] == ["इक्का", "बादशाह", "बेगम", "गुलाम"]
    assert [rank_name(r, "es", "spanish") for r in (4, 5, 6, 7)] == ["sota", "caballo", "rey", "as"]
    assert rank_name(4, "pl", form="plural") == "waletów"
    assert rank_name(7, "fr", form="plural_de") == "d’as"


def test_sentence_forms() -> None:
    # Seed 001: "wychodzi asem trefl", "przycina ósemką"; Hindi oblique "चिड़ी के इक्के से".
    assert name("AC", "pl", form="ins") == "asem trefl"
    assert name("8S", "pl", form="ins") == "ósemką pik"
    assert name("JS", "pl", form="acc") == "waleta pik"
    assert name("AC", "hi", form="obl") == "चिड़ी के इक्के"
    assert name("QS", "hi", form="obl") == "हुकुम की बेगम"
    assert card_forms(parse_card("JH"), "fr")["_the"] == "le valet de cœur"


def test_seats_and_teams() -> None:
    assert [seat_name(s, "pl") for s in range(4)] == ["Północ", "Wschód", "Południe", "Zachód"]
    assert seat_name(0, "pl", genitive=True) == "Północy"  # seed 001: "Ręka Północy"
    assert [seat_name(s, "ar") for s in range(4)] == ["الشمال", "الشرق", "الجنوب", "الغرب"]
    assert [seat_name(s, "hi") for s in range(4)] == ["उत्तर", "पूर्व", "दक्षिण", "पश्चिम"]
    assert team_name(1, "fr") == "Est–Ouest"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("deck", ["french", "spanish"])
def test_every_card_has_its_own_name(lang: str, deck: str) -> None:
    names = {card_name(card, lang, deck) for card in range(32)}
    shorts = {card_short(card, lang, deck) for card in range(32)}
    assert len(names) == 32
    assert len(shorts) == 32
    assert all(n.strip() == n and n for n in names)


def test_unknown_language_or_deck() -> None:
    with pytest.raises(ValueError, match="language"):
        card_name(0, "de")
    with pytest.raises(ValueError, match="deck"):
        card_name(0, "fr", "german")
