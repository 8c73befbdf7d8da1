"""The catalogs and the wording: plural forms, every message translated in all six languages
(a missing translation fails here), the engine's refusals worded with each language's card
names."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po
from jinja2.ext import babel_extract

from cardavia import live, web, words
from cardavia.belote.cards import parse_card
from cardavia.belote.game import MESSAGES, Reason
from cardavia.words import (
    LANGUAGES,
    LOCALE_DIR,
    card_name,
    catalog_path,
    load_catalogs,
    seat_name,
    suit_name,
    text_direction,
)
from cardavia.words.phrases import ERRORS, PHASE_REFUSALS, PLURALS, REASONS

WEB = Path(web.__file__).parent
LIVE = Path(live.__file__).parent
WORDS = Path(words.__file__).parent
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "NP_": (1, 2), "plural_forms": (1, 2)}
NPLURALS = {"fr": 2, "en": 2, "ar": 6, "pl": 3, "hi": 2, "es": 2}
PLACEHOLDER = re.compile(r"\{(\w*)\}|%\((\w+)\)s")


def read_catalog(lang: str) -> Catalog:
    with catalog_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang)


CATALOGS = {lang: read_catalog(lang) for lang in LANGUAGES}
Msgid = str | tuple[str, str]


def _key(msgid: str | tuple[str, ...] | list[str]) -> Msgid:
    if isinstance(msgid, str):
        return msgid
    return (msgid[0], msgid[1])


def python_msgids() -> dict[Msgid, str]:
    """Every message the backend's Python marks for translation (the site's modules, the game
    server's and the phrasebook of :mod:`cardavia.words`), with where it is."""
    found: dict[Msgid, str] = {}
    for path in sorted([*WEB.rglob("*.py"), *LIVE.rglob("*.py"), *WORDS.rglob("*.py")]):
        for lineno, message, _, _ in extract_from_file("python", str(path), keywords=KEYWORDS):
            found.setdefault(_key(message), f"{path.name}:{lineno}")
    return found


def template_msgids() -> dict[Msgid, str]:
    """Every message of the interface's templates (domain ``messages``; the rules pages'
    templates, under ``rules/``, have their own domain)."""
    found: dict[Msgid, str] = {}
    for path in sorted((WEB / "templates").glob("*.html")):
        with path.open("rb") as handle:
            for lineno, _, message, _ in babel_extract(handle, KEYWORDS, [], {}):
                if message is None or (isinstance(message, str) and not message):
                    continue
                key = _key(message if isinstance(message, str) else tuple(m or "" for m in message))
                found.setdefault(key, f"{path.name}:{lineno}")
    return found


def entries(lang: str) -> Iterator[tuple[Msgid, str | tuple[str, ...]]]:
    for message in CATALOGS[lang]:
        if message.id:
            yield _key(message.id), message.string


# -- the languages' direction ---------------------------------------------------------------


def test_direction() -> None:
    assert [text_direction(lang) for lang in LANGUAGES] == [
        "ltr",
        "ltr",
        "rtl",
        "ltr",
        "ltr",
        "ltr",
    ]
    assert load_catalogs().wording("ar").direction == "rtl"


# -- the catalogs ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_header_and_plural_forms(lang: str) -> None:
    catalog = CATALOGS[lang]
    assert catalog.num_plurals == NPLURALS[lang]
    header = dict(catalog.mime_headers)
    assert header["Language"] == lang
    assert "charset=utf-8" in header["Content-Type"].lower()


PLURAL_CASES = {
    "en": {0: 1, 1: 0, 2: 1, 11: 1},
    "fr": {0: 0, 1: 0, 2: 1, 100: 1},
    "es": {0: 1, 1: 0, 2: 1, 21: 1},
    "hi": {0: 0, 1: 0, 2: 1, 5: 1},
    "pl": {1: 0, 2: 1, 4: 1, 5: 2, 12: 2, 14: 2, 21: 2, 22: 1, 25: 2, 112: 2, 1002: 1},
    "ar": {0: 0, 1: 1, 2: 2, 3: 3, 10: 3, 11: 4, 99: 4, 100: 5, 102: 5, 103: 3, 111: 4},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_rules_pick_the_right_form(lang: str) -> None:
    translations = load_catalogs().wording(lang).translations
    singular, plural = PLURALS["too_large"]
    forms = CATALOGS[lang].get(singular).string
    for count, index in PLURAL_CASES[lang].items():
        assert translations.ngettext(singular, plural, count) == forms[index], count


def test_plural_wording_in_polish_and_arabic() -> None:
    pl = load_catalogs().wording("pl")
    assert pl.error("too_large", {"count": 1}).endswith("1 bajt.")
    assert pl.error("too_large", {"count": 3}).endswith("3 bajty.")
    assert pl.error("too_large", {"count": 4096}).endswith("4096 bajtów.")
    ar = load_catalogs().wording("ar")
    assert "نقطتان" in ar.score_line("reserve", "", points=2)
    assert "{count}" not in ar.score_line("reserve", "", points=160)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated(lang: str) -> None:
    """A msgid of any catalog is in this one, with a non-empty translation (every plural
    form), not fuzzy, and with the same placeholders as its source."""
    all_ids = {key for other in LANGUAGES for key, _ in entries(other)}
    mine = dict(entries(lang))
    assert sorted(map(str, all_ids - set(mine))) == []
    problems = []
    for message in CATALOGS[lang]:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        if len(strings) != (NPLURALS[lang] if message.pluralizable else 1):
            problems.append(f"plural forms: {message.id!r}")
        if not all(s and s.strip() for s in strings):
            problems.append(f"untranslated: {message.id!r}")
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        expected = {m for i in ids for m in _placeholders(i)}
        for string in strings:
            # A name's placeholder may ask for another of its forms ({card_the}, {card_gen}):
            # the sentence's grammar picks it (cardavia.words.filling).
            found = {_base(p, expected) for p in _placeholders(string)}
            if found - expected or (not message.pluralizable and found != expected):
                problems.append(f"placeholders {sorted(found)} in {string!r}")
    assert problems == []


def _placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


NAME_FORMS = re.compile(r"_(?:the|acc|gen|ins|obl|nom)$")
"""The suffixes of a card's other forms (cardavia.words.names.CARD_FORMS)."""


def _base(placeholder: str, expected: set[str]) -> str:
    """The source placeholder a translation's placeholder stands for: ``card`` for
    ``card_gen`` where the source has ``{card}``."""
    base = NAME_FORMS.sub("", placeholder)
    return base if placeholder not in expected and base in expected else placeholder


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_of_the_backend_is_in_the_catalog(lang: str) -> None:
    mine = dict(entries(lang))
    missing = {key: where for key, where in python_msgids().items() if key not in mine}
    assert missing == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_of_the_interface_templates_is_in_the_catalog(lang: str) -> None:
    templates = template_msgids()
    if not templates:
        pytest.skip("no interface template yet")
    mine = dict(entries(lang))
    missing = {key: where for key, where in templates.items() if key not in mine}
    assert missing == {}


def test_catalogs_are_compiled_in_memory() -> None:
    assert not list(LOCALE_DIR.rglob("*.mo"))
    for lang in LANGUAGES:
        wording = load_catalogs().wording(lang)
        text = wording.gettext("Card points")
        assert text
        assert (text == "Card points") == (lang == "en")


# -- wording the engine's reasons ------------------------------------------------------------


def test_every_refusal_of_the_engine_has_words() -> None:
    assert set(MESSAGES) - {"wrong_phase"} <= set(REASONS)
    assert set(REASONS) <= set(MESSAGES)
    assert {"bidding", "playing", "over", "cancelled", "classic bidding", "auction"} <= set(
        PHASE_REFUSALS
    )


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("deck", ["french", "spanish"])
def test_reasons_name_cards_suits_and_seats_in_the_language(lang: str, deck: str) -> None:
    wording = load_catalogs().wording(lang)
    jack = parse_card("JH")
    overtrump = wording.reason(Reason("must_overtrump", {"card": "JH"}), deck)
    # Polish names the card to beat in words, lower case ("Atut do pobicia: walet kier").
    assert card_name(jack, lang, deck, form="nom") in overtrump
    follow = wording.reason(Reason("must_follow", {"suit": "D"}), deck)
    assert suit_name(2, lang, deck) in follow
    turn = wording.reason(Reason("not_your_turn", {"seat": "S", "to_move": "W"}), deck)
    assert seat_name(3, lang) in turn
    for code, english in MESSAGES.items():
        args = {
            "card": "AS",
            "suit": "C",
            "seat": "S",
            "to_move": "N",
            "phase": "over",
            "strain": "NT",
            "value": "250",
            "action": "x",
        }
        text = wording.reason(Reason(code, args), deck)
        assert text
        assert "{" not in text, (code, text)
        assert text != english and text != Reason(code, args).message  # worded here


def test_a_refusal_in_french_and_arabic() -> None:
    fr = load_catalogs().wording("fr")
    assert (
        fr.reason(Reason("must_overtrump", {"card": "9D"}), "french")
        == "Vous devez monter à l’atout. Atout à battre\u00a0: neuf de carreau."
    )
    ar = load_catalogs().wording("ar")
    assert ar.reason(Reason("must_follow", {"suit": "H"}), "french") == (
        "عليك اتباع اللون المطلوب (الكبّة)."
    )
    assert ar.reason(Reason("must_follow", {"suit": "D"}), "spanish") == (
        "عليك اتباع اللون المطلوب (الدهب)."
    )


def test_every_error_code_has_words_in_every_language() -> None:
    for lang in LANGUAGES:
        wording = load_catalogs().wording(lang)
        for code in (*ERRORS, *PLURALS):
            if code == "reserve":
                continue
            text = wording.error(
                code,
                {
                    "count": 3,
                    "field": "f",
                    "type": "t",
                    "kind": "k",
                    "card": "c",
                    "strain": "s",
                    "value": "v",
                    "rules": "r",
                    "level": "l",
                    "lang": "x",
                    "deck": "d",
                },
            )
            assert text
            assert "{" not in text, (lang, code, text)


def test_bids_and_score_lines() -> None:
    es = load_catalogs().wording("es")
    assert es.bid("pass") == "Paso"
    assert es.bid("take", strain="H", deck="spanish") == "Tomo copas"
    assert es.bid("bid", strain="NT", value=250) == "Capot sin triunfo"
    assert es.bid("bid", strain="S", value=90) == "90 picas"
    assert es.score_line("capot", "", points=252) == "Capot: las ocho bazas (252)"
    assert es.score_line("unknown_line", "fallback") == "fallback"
    assert es.announcement("carré") == "Carré"
    assert es.level("club") == "Jugador de club"
    assert es.level("newlevel") == "Newlevel"
    assert es.preset("maison", 1000) == (
        "Reglas de la casa",
        "Una partida a 1000 puntos, con cantes.",
    )


def test_a_broken_translation_does_not_break_the_server() -> None:
    from cardavia.words import format_text

    assert format_text("{a} and {b", {"a": 1}) == "{a} and {b"
    assert format_text("{a} and {missing}", {"a": 1}) == "1 and {missing}"


FRENCH_SPACING = re.compile(r" [:;!?»]|« ")
"""French typography: a no-break space before : ; ! ? and », and after «, never a plain
space (a plain one lets the sign wrap alone to the next line)."""


def test_french_puts_a_no_break_space_before_double_signs() -> None:
    found = [
        text
        for domain in ("messages", "rules")
        for message in read_po(
            (LOCALE_DIR / "fr" / "LC_MESSAGES" / f"{domain}.po").open(encoding="utf-8")
        )
        if message.id
        for text in (message.string if isinstance(message.string, tuple) else (message.string,))
        if FRENCH_SPACING.search(text)
    ]
    assert found == []
