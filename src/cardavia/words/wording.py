"""The one wording object: everything Cardavia says, in one language, from one catalog.

A :class:`Wording` is a language's catalog of one gettext domain (``messages`` for the table,
the site and the terminal; ``rules`` for the rules and learning pages) and the deck whose cards
it names. It translates a message and fills its placeholders with names in the form the
language's grammar asks for (:mod:`cardavia.words.filling`), names cards, suits, seats and
strains (:mod:`cardavia.words.names`), and says each code of the engine and of the site in
words (:mod:`cardavia.words.phrases`). Where a catalog lacks a message, the engine's English
is said instead.

>>> fr = load_catalogs().wording("fr")
>>> fr.reason(Reason("must_follow", {"suit": "H"}))
'Vous devez fournir (cœur).'
>>> from cardavia.words.filling import SeatArg, SuitArg
>>> pl = rules_text("pl")
>>> pl.format("Hand of {seat}", seat=SeatArg("N"))
'Ręka Północy'
>>> pl.format("{leader} leads {suit}.", leader=SeatArg("W"), suit=SuitArg(0))
'Zachód wychodzi w kolor pik.'
>>> rules_text("ar").direction
'rtl'
"""

from __future__ import annotations

import gettext
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from babel.lists import format_list

from cardavia.belote import Card, Reason, Suit, parse_card
from cardavia.words.catalogs import LOCALE_DIR, MESSAGES, RULES, Catalog, read_catalogs
from cardavia.words.filling import CardArg, contract, expand, format_text
from cardavia.words.languages import DEFAULT_LANGUAGE, is_language, text_direction
from cardavia.words.names import CARD_FORMS, CardForm, card_name, seat_name, suit_name
from cardavia.words.phrases import (
    ANNOUNCEMENT_NAMES,
    BELOTE_WORDS,
    BID_VALUE_WORDS,
    BID_WORDS,
    CHOICE_WORDS,
    ERRORS,
    LEVEL_NAMES,
    PAGE_TEXTS,
    PHASE_REFUSALS,
    PLURALS,
    PRESET_DESCRIPTIONS,
    PRESET_NAMES,
    REASONS,
    SCORE_LINES,
    STRAIN_NAMES,
)

log = logging.getLogger(__name__)

_SEAT_CODES = "NESW"
_SUIT_CODES = "SHDC"


def _is_card_code(code: str) -> bool:
    """Whether ``code`` is a card's code (``JH``)."""
    try:
        parse_card(code)
    except ValueError:
        return False
    return True


PLURAL_SAMPLES: Final = (0, 1, 2, 3, 5, 11, 22, 100)
"""One number of each plural category of every language, for whole numbers (CLDR: Arabic's
zero, one, two, few, many and other; Polish's one, few and many; the one and other of the
others): a page's script given a message's forms for these finds the form of any number."""


@dataclass(frozen=True, slots=True)
class Wording:
    """Everything said in one language: its catalog of one domain, naming the cards of
    ``deck`` (``french`` or ``spanish``) unless a method is given another."""

    catalog: Catalog
    deck: str = "french"

    @property
    def lang(self) -> str:
        """The language (``fr``, ``ar`` …)."""
        return self.catalog.lang

    @property
    def direction(self) -> str:
        """``rtl`` or ``ltr``."""
        return text_direction(self.lang)

    @property
    def translations(self) -> gettext.NullTranslations:
        """The compiled catalog, for a template engine's own gettext."""
        return self.catalog.translations

    @property
    def missing(self) -> set[str]:
        """The message ids asked of this language's catalog that it lacks (shared by every
        wording of the catalog, so that a test can read it after rendering pages)."""
        return self.catalog.missing

    def with_deck(self, deck: str) -> Wording:
        """The same words, naming the cards of another deck."""
        return Wording(self.catalog, deck)

    # -- messages --

    def gettext(self, message: str, **args: object) -> str:
        """The translation of ``message``, its placeholders filled from ``args`` (a name in
        every form its placeholders may ask for)."""
        text = self.catalog.gettext(message)
        return format_text(text, expand(self.lang, self.deck, **args)) if args else text

    def ngettext(self, singular: str, plural: str, count: int, **args: object) -> str:
        """The translation of a message whose form depends on ``count`` (the language's plural
        rule picks the form); ``{count}`` and ``args`` fill the placeholders."""
        text = self.catalog.ngettext(singular, plural, count)
        return format_text(text, expand(self.lang, self.deck, count=count, **args))

    def plural_forms(self, singular: str, plural: str) -> dict[str, str]:
        """A plural message's forms for a page's script to choose from: the translation for
        each of :data:`PLURAL_SAMPLES`, keyed by the number (``static/js/plurals.js`` picks
        the one of a number's plural category)."""
        return {str(n): self.catalog.ngettext(singular, plural, n) for n in PLURAL_SAMPLES}

    def format(self, message: str, **args: object) -> str:
        """A translated sentence of prose, its placeholders filled and the language's
        contractions made (Spanish "a el" is "al")."""
        filled = format_text(self.catalog.gettext(message), expand(self.lang, self.deck, **args))
        return contract(self.lang, filled)

    def nformat(self, singular: str, plural: str, count: int, **args: object) -> str:
        """A translated sentence with a count (``{n}``), as :meth:`format`."""
        text = self.catalog.ngettext(singular, plural, count)
        return contract(self.lang, format_text(text, expand(self.lang, self.deck, n=count, **args)))

    def expand(self, **args: object) -> dict[str, str]:
        """Every form of every argument, keyed by placeholder name (``card``, ``card_the``)."""
        return expand(self.lang, self.deck, **args)

    def points(self, count: int) -> str:
        """ "41 points", in the language's plural form."""
        return self.nformat("{n} point", "{n} points", count)

    def join(self, items: list[str], *, alternatives: bool = False) -> str:
        """Items joined as the language writes a list: "a, b and c" (or "a, b or c" for
        ``alternatives``), with the language's own conjunction and commas (CLDR)."""
        if not items:
            return ""
        return format_list(items, style="or" if alternatives else "standard", locale=self.lang)

    # -- names --

    def card(self, card: Card | str, deck: str | None = None, *, form: CardForm = "name") -> str:
        """A card's name, from its number or its code (an unknown code is shown as it is), in
        the form the sentence needs (:data:`~cardavia.words.names.CardForm`: "l’as de pique",
        "waleta kier").

        >>> load_catalogs().wording("fr").card("AS", form="the")
        'l’as de pique'
        """
        if isinstance(card, str):
            try:
                number = parse_card(card)
            except ValueError:
                return card
        else:
            number = card
        return card_name(number, self.lang, deck or self.deck, form=form)

    def suit(self, suit: Suit | int | str, deck: str | None = None) -> str:
        """A suit's name, from its number or its code."""
        if isinstance(suit, str):
            if len(suit) != 1 or suit not in _SUIT_CODES:
                return suit
            suit = _SUIT_CODES.index(suit)
        return suit_name(int(suit), self.lang, deck or self.deck)

    def strain(self, code: str, deck: str | None = None) -> str:
        """A contract's strain by its code: a suit, ``NT`` or ``AT``."""
        if code in STRAIN_NAMES:
            return self.gettext(STRAIN_NAMES[code])
        return self.suit(code, deck)

    def seat(self, seat: str) -> str:
        """A seat's name by its letter (``N`` → North)."""
        if len(seat) != 1 or seat not in _SEAT_CODES:
            return seat
        return seat_name(_SEAT_CODES.index(seat), self.lang)

    def bid_value(self, value: int | str) -> str:
        """A bid's value: a number, or the words for capot and générale."""
        number = int(value) if isinstance(value, int) or str(value).isdigit() else 0
        if number in BID_VALUE_WORDS:
            return self.gettext(BID_VALUE_WORDS[number])
        return str(value)

    # -- the engine's codes and the site's, in words --

    def reason(self, reason: Reason, deck: str | None = None) -> str:
        """An engine :class:`Reason` for refusing an action, said to the player who tried it;
        card, suit and seat codes in its arguments become names. A code without words here
        yet is given in the engine's English rather than not at all."""
        args = dict(reason.args)
        if reason.code == "wrong_phase":
            phase = PHASE_REFUSALS.get(args.get("phase", ""), PHASE_REFUSALS["playing"])
            return self.gettext(phase)
        template = REASONS.get(reason.code)
        if template is None:
            log.warning("no wording for the refusal %r", reason.code)
            return reason.message
        words: dict[str, object] = {
            key: self._reason_arg(key, value, deck) for key, value in args.items()
        }
        if _is_card_code(args.get("card", "")):
            words["card"] = CardArg(args["card"])  # every form: {card_the}, {card_gen} …
        elif "card" in args:
            words |= {f"card_{form}": args["card"] for form in CARD_FORMS}
        return self.with_deck(deck or self.deck).gettext(template, **words)

    def _reason_arg(self, key: str, value: str, deck: str | None) -> str:
        """One argument of a refusal in words: a card, suit, seat, strain or bid value."""
        if key == "card":
            return self.card(value, deck)
        if key == "suit":
            return self.suit(value, deck)
        if key in ("seat", "to_move"):
            return self.seat(value)
        if key == "strain":
            return self.strain(value, deck)
        if key == "value":
            return self.bid_value(value)
        return value

    def error(self, code: str, args: Mapping[str, object] | None = None) -> str:
        """One of the site's :data:`~cardavia.words.phrases.ERRORS` (or a plural one), its
        arguments filled in."""
        args = dict(args or {})
        if code in PLURALS:
            singular, plural = PLURALS[code]
            count = args.pop("count", 0)
            return self.ngettext(singular, plural, int(str(count)), **args)
        template = ERRORS.get(code, ERRORS["internal"])
        return self.gettext(template, **args)

    def bid(
        self,
        kind: str,
        *,
        strain: str | None = None,
        value: int | None = None,
        deck: str | None = None,
        choice: bool = False,
    ) -> str:
        """The words of a bid in the bidding history (``Pass``, ``Takes hearts``, ``90
        spades``), or, with ``choice``, as a choice offered (``Take: hearts``)."""
        template = (CHOICE_WORDS if choice and kind in CHOICE_WORDS else BID_WORDS).get(kind, kind)
        words: dict[str, str] = {}
        if strain is not None:
            words["strain"] = self.strain(strain, deck)
        if value is not None:
            words["value"] = self.bid_value(value)
        return self.gettext(template, **words)

    def announcement(self, name: str) -> str:
        """An announcement's name (tierce, cinquante, cent, carré) as the table says it."""
        return self.gettext(ANNOUNCEMENT_NAMES[name]) if name in ANNOUNCEMENT_NAMES else name

    def preset(self, key: str, target: int | None = None) -> tuple[str, str]:
        """A preset's name and one-line description."""
        name = self.gettext(PRESET_NAMES[key]) if key in PRESET_NAMES else key
        description = PRESET_DESCRIPTIONS.get(key)
        if isinstance(description, tuple):
            singular, plural = description
            return name, self.ngettext(singular, plural, target or 0, target=target or "")
        return name, self.gettext(description, target=target or "") if description else ""

    def level(self, key: str) -> str:
        """A computer players' level by its key (a new level without words yet: its key)."""
        return self.gettext(LEVEL_NAMES[key]) if key in LEVEL_NAMES else key.capitalize()

    def page_text(self, key: str) -> str:
        """One of the few texts of the pages the server writes itself (the 404 page)."""
        return self.gettext(PAGE_TEXTS[key])

    def belote(self, word: str) -> str:
        """``belote`` or ``rebelote`` as the table says it."""
        return self.gettext(BELOTE_WORDS[word]) if word in BELOTE_WORDS else word

    def score_line(self, code: str, fallback: str, **args: object) -> str:
        """A line of a deal's score breakdown by its code (``fallback``, the engine's English,
        for a code without words here)."""
        if code == "reserve":
            singular, plural = PLURALS["reserve"]
            return self.ngettext(singular, plural, int(str(args.pop("points", 0))))
        template = SCORE_LINES.get(code)
        if template is None:
            return fallback
        return self.gettext(template, **args)


@dataclass(frozen=True, slots=True)
class Catalogs:
    """Every language's catalog of one domain: the wording of each language comes from here."""

    domain: str
    catalogs: Mapping[str, Catalog]

    def wording(self, lang: str, deck: str = "french") -> Wording:
        """The words of one language (English for a language the site does not speak), naming
        the cards of ``deck``."""
        return Wording(self.catalogs[lang if is_language(lang) else DEFAULT_LANGUAGE], deck)


@cache
def load_catalogs(locale_dir: Path = LOCALE_DIR, *, domain: str = MESSAGES) -> Catalogs:
    """Every language's catalog of a domain, compiled once per process and directory."""
    return Catalogs(domain, read_catalogs(domain, locale_dir))


def rules_text(lang: str, deck: str = "french") -> Wording:
    """The rules pages' words of a language (the ``rules`` domain), naming the cards of
    ``deck``."""
    return load_catalogs(domain=RULES).wording(lang, deck)


def missing_messages(lang: str, domain: str = RULES) -> set[str]:
    """The message ids asked for in ``lang`` that its catalog of ``domain`` lacks (since the
    process started)."""
    return set(load_catalogs(domain=domain).wording(lang).missing)
