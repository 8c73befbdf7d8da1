"""The rules pages' words: the ``rules`` gettext domain, one catalog per language, and the
filling of sentence templates with the names of :mod:`cardavia.teach.names`.

The catalogs are ``cardavia/web/locale/<lang>/LC_MESSAGES/rules.po``; they are compiled in
memory when first needed (Babel's ``read_po`` then ``write_mo``), so that no compiled file has
to be kept in the repository. Message ids are English and use ``{name}`` placeholders
(python-brace-format). A placeholder that stands for a card, a suit, a rank or a seat may take
a suffix that asks for another grammatical form of the name (``{card_the}``, ``{suit_bare}``,
``{seat_gen}``; see :mod:`cardavia.teach.names`): each language's translation picks the form
its grammar needs.

>>> text = rules_text("pl")
>>> text.format("Hand of {seat}", seat=SeatArg("N"))
'Ręka Północy'
>>> text.format("{leader} leads {suit}.", leader=SeatArg("W"), suit=SuitArg(0))
'Zachód wychodzi w kolor pik.'
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Final

from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from cardavia.belote.cards import parse_card
from cardavia.teach.names import (
    LANGUAGES,
    card_forms,
    card_short,
    rank_forms,
    seat_forms,
    suit_forms,
    team_name,
)

LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "web" / "locale"
DOMAIN: Final = "rules"
RTL_LANGUAGES: Final = frozenset({"ar"})

_PLACEHOLDER: Final = re.compile(r"\{([a-z_0-9]+)\}")


@dataclass(frozen=True, slots=True)
class CardArg:
    """A card in a sentence, by its code (``JH``): every form of its name is offered."""

    code: str


@dataclass(frozen=True, slots=True)
class SuitArg:
    """A suit in a sentence (0–3: S H D C)."""

    suit: int


@dataclass(frozen=True, slots=True)
class RankArg:
    """A rank in a sentence (0–7 in sequence order)."""

    rank: int


@dataclass(frozen=True, slots=True)
class SeatArg:
    """A seat in a sentence, by its code (``N E S W``)."""

    code: str


@dataclass(frozen=True, slots=True)
class TeamArg:
    """A partnership in a sentence, by its code (``NS``, ``EW``)."""

    code: str


Arg = CardArg | SuitArg | RankArg | SeatArg | TeamArg | str | int


def catalog_path(lang: str) -> Path:
    """The ``rules.po`` file of a language."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> Translations:
    """The compiled ``rules`` catalog of a language (compiled once per process)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    with catalog_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


@dataclass(slots=True)
class RulesText:
    """The rules pages' words in one language and for one deck.

    ``missing`` collects the message ids asked for that the catalog lacks (the English id is
    shown instead); the tests require it to stay empty.
    """

    lang: str
    deck: str = "french"
    missing: set[str] = field(default_factory=set)

    @property
    def direction(self) -> str:
        """``rtl`` for Arabic, ``ltr`` otherwise."""
        return "rtl" if self.lang in RTL_LANGUAGES else "ltr"

    def with_deck(self, deck: str) -> RulesText:
        """The same words, naming cards of another deck (sharing ``missing``)."""
        return RulesText(self.lang, deck, self.missing)

    def gettext(self, message: str) -> str:
        """The translation of a message (the id itself if the catalog lacks it)."""
        catalog = translations(self.lang)
        if message not in catalog._catalog:
            self.missing.add(message)
            return message
        return catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The translation of a message with a count, in the right plural form."""
        catalog = translations(self.lang)
        if (singular, 0) not in catalog._catalog:
            self.missing.add(singular)
            return singular if count == 1 else plural
        return catalog.ngettext(singular, plural, count)

    def expand(self, **args: Arg) -> dict[str, str]:
        """Every form of every argument, keyed by placeholder name (``card``, ``card_the``)."""
        values: dict[str, str] = {}
        for name, arg in args.items():
            forms: dict[str, str]
            if isinstance(arg, CardArg):
                card = parse_card(arg.code)
                forms = card_forms(card, self.lang, self.deck)
                forms["_short"] = card_short(card, self.lang, self.deck)
            elif isinstance(arg, SuitArg):
                forms = suit_forms(arg.suit, self.lang, self.deck)
            elif isinstance(arg, RankArg):
                forms = rank_forms(arg.rank, self.lang, self.deck)
            elif isinstance(arg, SeatArg):
                forms = seat_forms("NESW".index(arg.code), self.lang)
            elif isinstance(arg, TeamArg):
                forms = {"": team_name(("NS", "EW").index(arg.code), self.lang)}
            else:
                forms = {"": str(arg)}
            for suffix, value in forms.items():
                values[name + suffix] = value
        return values

    def format(self, message: str, **args: Arg) -> str:
        """A translated sentence with its placeholders filled in."""
        return contract(self.lang, self.gettext(message).format_map(self.expand(**args)))

    def nformat(self, singular: str, plural: str, count: int, **args: Arg) -> str:
        """A translated sentence with a count (``{n}``) and its placeholders filled in."""
        filled = self.ngettext(singular, plural, count).format_map(self.expand(n=count, **args))
        return contract(self.lang, filled)

    def points(self, count: int) -> str:
        """ "41 points", in the language's plural form."""
        return self.nformat("{n} point", "{n} points", count)

    def join(self, items: list[str], *, alternatives: bool = False) -> str:
        """Items joined as the language writes a list: "a, b and c" (or "a, b or c" for
        ``alternatives``), with the language's own conjunction and commas (CLDR)."""
        if not items:
            return ""
        return format_list(items, style="or" if alternatives else "standard", locale=self.lang)


_SPANISH_CONTRACTIONS: Final = ((re.compile(r"\ba el\b"), "al"), (re.compile(r"\bde el\b"), "del"))


def contract(lang: str, text: str) -> str:
    """A filled sentence with the contractions its language makes where a name with its
    article follows a preposition: Spanish "supera a el ocho" is "supera al ocho".

    >>> contract("es", "Solo el nueve supera a el ocho de diamantes.")
    'Solo el nueve supera al ocho de diamantes.'
    """
    if lang == "es":
        for pattern, replacement in _SPANISH_CONTRACTIONS:
            text = pattern.sub(replacement, text)
    return text


@cache
def _shared_missing(lang: str) -> set[str]:
    return set()


def rules_text(lang: str, deck: str = "french") -> RulesText:
    """The rules pages' words of a language; every :class:`RulesText` of a language shares
    one ``missing`` set, so that a test can read it after rendering pages."""
    return RulesText(lang, deck, _shared_missing(lang))


def missing_messages(lang: str) -> set[str]:
    """The message ids asked for in ``lang`` that its catalog lacks (since the process
    started)."""
    return set(_shared_missing(lang))


def placeholders(message: str) -> set[str]:
    """The names of a message's ``{placeholders}``."""
    return set(_PLACEHOLDER.findall(message))
