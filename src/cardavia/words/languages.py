"""The site's six languages: which they are, what each calls itself, and which way it is written.

This is the one list of languages: the site's menu, its URLs, the catalogs and every table of
names (:mod:`cardavia.words.names`) follow it.

>>> LANGUAGES
('fr', 'en', 'ar', 'pl', 'hi', 'es')
>>> text_direction("ar"), text_direction("pl")
('rtl', 'ltr')
>>> is_language("fr"), is_language("de"), is_language(None)
(True, False, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

LANGUAGES: Final = ("fr", "en", "ar", "pl", "hi", "es")
"""The six languages of the site, in the order of the language menu."""
DEFAULT_LANGUAGE: Final = "en"
"""The language of the source strings (the engine's English): the fallback everywhere."""
LANGUAGE_NAMES: Final[Mapping[str, str]] = {
    "fr": "Français",
    "en": "English",
    "ar": "العربية",
    "pl": "Polski",
    "hi": "हिन्दी",
    "es": "Español",
}
"""Each language's own name for itself (the language menu)."""
RTL_LANGUAGES: Final = frozenset({"ar"})
"""The languages written from right to left."""


def is_language(lang: object) -> bool:
    """Whether ``lang`` is one of the site's languages (as written in URLs: ``fr``, ``ar``)."""
    return isinstance(lang, str) and lang in LANGUAGES


def text_direction(lang: str) -> str:
    """``rtl`` for right-to-left languages (Arabic), else ``ltr``."""
    return "rtl" if lang in RTL_LANGUAGES else "ltr"
