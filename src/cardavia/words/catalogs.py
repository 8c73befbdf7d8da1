"""The gettext catalogs: one loader for every domain, compiled in memory from the ``.po`` files.

The catalogs are ``locale/<lang>/LC_MESSAGES/<domain>.po`` beside this module: the domain
``messages`` holds what the site and the terminal say at the table, ``rules`` the rules pages
and the learning pages. They are read with Babel and compiled in memory
(:func:`read_catalogs`; :func:`cardavia.words.load_catalogs` does it once per process), so
no compiled ``.mo`` file is kept anywhere. Message ids are the engine's English: a catalog
that is missing, or lacks a message, gives the English id, and the message asked for is noted
in :attr:`Catalog.missing` (the tests require it to stay empty).

>>> catalogs = read_catalogs(RULES)
>>> sorted(catalogs) == sorted(LANGUAGES)
True
>>> catalogs["pl"].gettext("Hand of {seat}")
'Ręka {seat_gen}'
"""

from __future__ import annotations

import gettext
import logging
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from cardavia.words.languages import LANGUAGES

log = logging.getLogger(__name__)

LOCALE_DIR: Final = Path(__file__).parent / "locale"
"""Where the catalogs are: ``<lang>/LC_MESSAGES/<domain>.po``."""
MESSAGES: Final = "messages"
"""The domain of the table's words: the site's interface, its errors, the terminal's names."""
RULES: Final = "rules"
"""The domain of the rules pages and the learning pages."""


@dataclass(frozen=True, slots=True)
class Catalog:
    """One language's compiled catalog of one domain.

    ``missing`` collects the message ids asked for that the catalog lacks (the English id is
    given instead); it is the one mutable part, shared by every wording made from this catalog.
    """

    lang: str
    domain: str
    translations: gettext.NullTranslations
    ids: frozenset[str]
    """The ids the catalog translates (a plural message by its singular)."""
    missing: set[str] = field(default_factory=set, compare=False)

    def gettext(self, message: str) -> str:
        """The translation of ``message`` (the id itself where the catalog lacks it)."""
        if message not in self.ids:
            self.missing.add(message)
            return message
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The translation of a message with a count, in the form the language's plural rule
        picks for ``count`` (English's where the catalog lacks it)."""
        if singular not in self.ids:
            self.missing.add(singular)
            return singular if count == 1 else plural
        return self.translations.ngettext(singular, plural, count)


def catalog_path(lang: str, domain: str = MESSAGES, locale_dir: Path = LOCALE_DIR) -> Path:
    """Where the catalog of a language and a domain lives."""
    return locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"


def compile_catalog(path: Path, lang: str, domain: str = MESSAGES) -> Catalog:
    """Read a ``.po`` file and compile it in memory (no ``.mo`` on disk); fuzzy and empty
    entries are left out, as ``msgfmt`` does."""
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=domain)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    ids = frozenset(
        message.id if isinstance(message.id, str) else message.id[0]
        for message in catalog
        if message.id and message.string and not message.fuzzy
    )
    return Catalog(lang, domain, Translations(buffer, domain=domain), ids)


def english_catalog(lang: str, domain: str = MESSAGES) -> Catalog:
    """A catalog that translates nothing: the engine's English source strings."""
    return Catalog(lang, domain, gettext.NullTranslations(), frozenset())


def read_catalogs(domain: str = MESSAGES, locale_dir: Path = LOCALE_DIR) -> dict[str, Catalog]:
    """Every language's catalog of a domain. A missing catalog falls back to the English source
    strings (and is logged), so the site still answers."""
    catalogs: dict[str, Catalog] = {}
    for lang in LANGUAGES:
        path = catalog_path(lang, domain, locale_dir)
        if path.exists():
            catalogs[lang] = compile_catalog(path, lang, domain)
        else:
            log.warning("no %s catalog for %s at %s: English is used", domain, lang, path)
            catalogs[lang] = english_catalog(lang, domain)
    return catalogs
