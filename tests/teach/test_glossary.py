"""One vocabulary per language: no catalog string (the table's ``messages``, the rules pages'
``rules``) and no generated page uses another word for a term of the glossary; Arabic and
Hindi prose has no Latin rank letters outside the cards' faces and codes."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from cardavia.belote.rules import PRESETS
from cardavia.teach import explain, pages
from cardavia.words import LANGUAGES, LOCALE_DIR, glossary, rules_text


def catalog_strings(lang: str) -> Iterator[tuple[str, str, str]]:
    """Every translation of both catalogs of a language, as (domain, English, translation)."""
    for domain in ("messages", "rules"):
        path: Path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=domain)
        for message in catalog:
            if not message.id:
                continue
            source = message.id if isinstance(message.id, str) else " ".join(message.id)
            strings = [message.string] if isinstance(message.string, str) else message.string
            for string in strings:
                yield domain, source, string


def _strings(value: object) -> Iterator[str]:
    """Every string a page's content holds (dicts, lists, the views' dataclasses)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("key", "preset"):  # a page's address, not its words
                yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            if item.name in ("svg", "cards", "code"):
                continue  # the cards' faces and codes
            yield from _strings(getattr(value, item.name))


def page_prose(lang: str) -> list[str]:
    """Every sentence and label of every rules page in a language, as generated."""
    text = rules_text(lang)
    content: list[object] = [
        pages.index_page(text),
        pages.legal_cards_page(text),
        pages.announcements_page(text),
        pages.scoring_page(text),
    ]
    content += [pages.preset_page(name, text) for name in PRESETS]
    return [s for item in content for s in _strings(item)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogs_use_the_glossary(lang: str) -> None:
    wrong = [
        (domain, term, found, string[:80])
        for domain, source, string in catalog_strings(lang)
        for term, found in glossary.misuses(lang, string, source=source)
    ]
    assert not wrong


@pytest.mark.parametrize("lang", LANGUAGES)
def test_generated_pages_use_the_glossary(lang: str) -> None:
    wrong = [
        (term, found, line[:80])
        for line in page_prose(lang)
        for term, found in glossary.misuses(lang, line)
    ]
    assert not wrong


def test_the_glossary_catches_another_word() -> None:
    assert glossary.misuses("es", "Un póquer de ases") == [("carre", "póquer")]
    assert glossary.misuses("ar", "الأكلة الأخيرة") == [("trick", "أكلة")]
    # Hindi दौर is a bidding round: wrong only where the English says "trick".
    assert glossary.misuses("hi", "पहला दौर", source="First round") == []
    assert glossary.misuses("hi", "पहला दौर", source="The first trick") == [("trick", "दौर")]
    assert glossary.word("pl", "announcement") == "meldunek"
    assert all(glossary.terms(lang) for lang in LANGUAGES)


TABLE_KINDS = {"Tierce": "tierce", "Fifty": "cinquante", "Hundred": "cent", "Carré": "carre"}


def test_announcements_are_named_from_the_glossary() -> None:
    """The rules pages take the kinds' names from the glossary, and the table's catalog
    says the same words (with a capital, as a label)."""
    for lang in LANGUAGES:
        text = rules_text(lang)
        values = {source: string for domain, source, string in catalog_strings(lang)
                 if domain == "messages"}  # fmt: skip
        for label, kind in TABLE_KINDS.items():
            word = glossary.word(lang, kind)
            assert explain.kind_name(kind, text) == word
            assert values[label] == word[0].upper() + word[1:], (lang, label)


# Latin rank letters standing alone or in a row ("J", "9-10-J-Q", "J 9 A 10 K Q 8 7").
LATIN_RANK = re.compile(r"(?<![A-Za-z])[JQKAVRDW](?![A-Za-z])")


@pytest.mark.parametrize("lang", ["ar", "hi"])
def test_arabic_and_hindi_prose_has_no_latin_rank_letters(lang: str) -> None:
    found = [line for line in page_prose(lang) if LATIN_RANK.search(line)]
    assert not found
    for _, _, string in catalog_strings(lang):
        if len(string) <= 2:
            continue  # a card's corner index (its face)
        assert not LATIN_RANK.search(re.sub(r"\{[a-z_0-9]+\}", "", string)), string
