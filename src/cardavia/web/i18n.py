"""The site's choice of a language for a visitor: the URL's, else the one they chose on an
earlier visit (the ``cardavia_lang`` cookie that settings.js keeps), else the best of the
browser's ``Accept-Language`` (RFC 9110 12.5.4).

Everything else about words (the languages, the catalogs, the one wording object, the
phrasebook of the table and the site) is :mod:`cardavia.words`.

>>> negotiate_language("pl-PL,pl;q=0.9,en;q=0.5")
'pl'
>>> negotiate_language("de-DE, *;q=0.1")
'en'
"""

from __future__ import annotations

from cardavia.words import DEFAULT_LANGUAGE, LANGUAGES, is_language

__all__ = [
    "LANGUAGE_COOKIE",
    "choose_language",
    "negotiate_language",
    "parse_accept_language",
    "visitor_language",
]

LANGUAGE_COOKIE = "cardavia_lang"
"""The cookie that holds the language a visitor last read the site in (set by settings.js)."""


def parse_accept_language(header: str | None) -> list[tuple[str, float]]:
    """The language ranges of an ``Accept-Language`` header with their weights, best first
    (RFC 9110 12.5.4); malformed parts are skipped.

    >>> parse_accept_language("fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5")
    [('fr-ch', 1.0), ('fr', 0.9), ('en', 0.8), ('*', 0.5)]
    """
    ranges: list[tuple[int, str, float]] = []
    for index, part in enumerate((header or "")[:1000].split(",")):
        pieces = part.strip().split(";")
        tag = pieces[0].strip().lower()
        if not tag:
            continue
        weight = 1.0
        for parameter in pieces[1:]:
            name, _, value = parameter.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = -1.0
        if 0.0 < weight <= 1.0:
            ranges.append((index, tag, weight))
    ranges.sort(key=lambda item: (-item[2], item[0]))
    return [(tag, weight) for _, tag, weight in ranges]


def negotiate_language(accept_language: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The best of the site's languages for an ``Accept-Language`` header (``default``,
    English, when none fits): ``fr-CA`` counts as ``fr``."""
    for tag, _ in parse_accept_language(accept_language):
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return default


def choose_language(url_lang: str | None, accept_language: str | None) -> str:
    """The language to speak: the one the URL names if it is ours, else the browser's."""
    if url_lang is not None and is_language(url_lang):
        return url_lang
    return negotiate_language(accept_language)


def visitor_language(
    saved: str | None, accept_language: str | None, default: str = DEFAULT_LANGUAGE
) -> str:
    """The language for a page that names none (``/``): the visitor's own choice, saved in
    :data:`LANGUAGE_COOKIE`, when it is one of ours, else the browser's.

    >>> visitor_language("ar", "fr-FR,fr;q=0.9")
    'ar'
    >>> visitor_language("xx", "fr-FR,fr;q=0.9")
    'fr'
    """
    if saved is not None and is_language(saved.strip().lower()):
        return saved.strip().lower()
    return negotiate_language(accept_language, default)
