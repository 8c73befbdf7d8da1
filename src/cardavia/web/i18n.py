"""The site's languages: choosing one for a visitor, the gettext catalogs, and the wording of
everything the server says to a player (errors, the engine's refusals, bids, score lines).

The catalogs are the ``.po`` files under ``locale/<lang>/LC_MESSAGES/messages.po``, compiled in
memory when the app starts (:func:`load_catalogs`), so there is no build step. Source strings
are English with ``{name}`` placeholders; :func:`N_` marks the ones kept in tables so that
Babel's extractor finds them (the catalog test relies on it).

>>> negotiate_language("pl-PL,pl;q=0.9,en;q=0.5")
'pl'
>>> negotiate_language("de-DE, *;q=0.1")
'en'
>>> text_direction("ar")
'rtl'
"""

from __future__ import annotations

import gettext
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from cardavia.belote import CAPOT, GENERALE, Card, Reason, Suit, parse_card
from cardavia.teach import names
from cardavia.teach.catalog import RTL_LANGUAGES
from cardavia.teach.names import LANGUAGES as LANGUAGES  # the one list, re-exported

log = logging.getLogger(__name__)

DEFAULT_LANGUAGE: Final = "en"
LANGUAGE_NAMES: Final[Mapping[str, str]] = {
    "fr": "Français",
    "en": "English",
    "ar": "العربية",
    "pl": "Polski",
    "hi": "हिन्दी",
    "es": "Español",
}
"""Each language's own name for itself (the language menu)."""
DOMAIN: Final = "messages"
LOCALE_DIR: Final = Path(__file__).parent / "locale"


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext marker
    """Mark a string for translation where it is defined; it is translated where it is used."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - as N_, with plural
    """Mark a message with a plural form for translation (Babel keyword ``NP_:1,2``)."""
    return singular, plural


# -- choosing a language ---------------------------------------------------------------------


def is_language(lang: object) -> bool:
    """Whether ``lang`` is one of the site's languages (as written in URLs: ``fr``, ``ar``)."""
    return isinstance(lang, str) and lang in LANGUAGES


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


def negotiate_language(accept_language: str | None) -> str:
    """The best of the site's languages for an ``Accept-Language`` header (English when none
    fits): ``fr-CA`` counts as ``fr``."""
    for tag, _ in parse_accept_language(accept_language):
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def choose_language(url_lang: str | None, accept_language: str | None) -> str:
    """The language to speak: the one the URL names if it is ours, else the browser's."""
    if url_lang is not None and is_language(url_lang):
        return url_lang
    return negotiate_language(accept_language)


def text_direction(lang: str) -> str:
    """``rtl`` for right-to-left languages (Arabic), else ``ltr``."""
    return "rtl" if lang in RTL_LANGUAGES else "ltr"


# -- the catalogs ----------------------------------------------------------------------------


def catalog_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """Where the ``messages`` catalog of a language lives."""
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_catalog(path: Path, lang: str) -> Translations:
    """Read a ``.po`` file and compile it in memory (no ``.mo`` on disk); fuzzy entries are
    left out, as ``msgfmt`` does."""
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


@cache
def load_catalogs(locale_dir: Path = LOCALE_DIR) -> Catalogs:
    """Every language's catalog, compiled once per directory. A missing catalog falls back to
    the English source strings (and is logged), so the site still answers."""
    translations: dict[str, gettext.NullTranslations] = {}
    for lang in LANGUAGES:
        path = catalog_path(lang, locale_dir)
        if path.exists():
            translations[lang] = compile_catalog(path, lang)
        else:
            log.warning("no catalog for %s at %s: English is used", lang, path)
            translations[lang] = gettext.NullTranslations()
    return Catalogs(translations)


@dataclass(frozen=True, slots=True)
class Catalogs:
    """The compiled catalogs of every language."""

    translations: Mapping[str, gettext.NullTranslations]

    def wording(self, lang: str) -> Wording:
        """The words of one language (English for a language the site does not speak)."""
        lang = lang if is_language(lang) else DEFAULT_LANGUAGE
        return Wording(lang, self.translations[lang])


# -- names of cards and suits (cardavia.teach.names) ----------------------------------------


def card_name(card: Card, lang: str, deck: str) -> str:
    """A card's full name in a language and deck (``valet de cœur``, ``sota de copas``), from
    :mod:`cardavia.teach.names`, which the rules pages use too: a card is called the same
    everywhere."""
    return names.card_name(card, lang, deck)


def suit_name(suit: Suit | int, lang: str, deck: str) -> str:
    """A suit's name in a language and deck (:mod:`cardavia.teach.names`)."""
    return names.suit_name(int(suit), lang, deck)


STRAIN_NAMES: Final[Mapping[str, str]] = {"NT": N_("no trump"), "AT": N_("all trump")}
PHASE_REFUSALS: Final[Mapping[str, str]] = {
    "bidding": N_("That cannot be done now: the bidding is not over."),
    "playing": N_("That cannot be done now: the cards are being played."),
    "over": N_("That cannot be done now: the deal is over."),
    "cancelled": N_("That cannot be done now: the deal was cancelled."),
    "classic bidding": N_("At this table you take or pass: there are no bids with a value."),
    "auction": N_("At this table you bid a value and a suit, or pass."),
}
"""The engine's ``wrong_phase`` refusal, worded for each ``phase`` argument it gives."""

REASONS: Final[Mapping[str, str]] = {
    "must_follow": N_("You must follow suit ({suit})."),
    "must_overtrump": N_("You must play a higher trump. The trump to beat: {card}."),
    "must_beat": N_("You must play a higher card. The card to beat: {card}."),
    "must_trump": N_("You have no card of the suit led: you must trump ({suit})."),
    "must_undertrump": N_(
        "You cannot beat the trump on the table ({card}), but you must still play a trump ({suit})."
    ),
    "overtrump_if_trumping": N_(
        "If you trump, you must play higher than the trump on the table ({card})."
    ),
    "not_your_turn": N_("It is not your turn: {to_move} is to play."),
    "not_in_hand": N_("That card is not in your hand: {card}."),
    "not_an_action": N_("That is not something a player can do."),
    "must_take_turned_suit": N_("In the first round you may only take the turned suit ({suit})."),
    "strain_not_allowed": N_("In this round you cannot choose {strain}."),
    "bid_too_low": N_("Your bid must be higher than {value}."),
    "bid_not_allowed": N_("These rules have no such bid: {value} {strain}."),
    "cannot_coinche": N_("Only an opponent of the last bidder may coinche, and only once."),
    "cannot_surcoinche": N_("Only the team that bid may surcoinche, after a coinche."),
    "contract_frozen": N_("The coinche has frozen the contract: nobody may bid higher."),
    "no_announcement": N_("You have no announcement to make."),
    "announce_too_late": N_("Announcements are made with your first card only."),
    "no_announcements_in_rules": N_("These rules have no announcements."),
    "belote_automatic": N_("At this table belote is announced automatically."),
    "belote_not_held": N_(
        "You say belote with the first of the trump king and queen, holding both."
    ),
}
"""How each refusal code of the engine (``game.MESSAGES``) is said to the player, who is the
seat that tried: the sentences speak to them directly."""

ERRORS: Final[Mapping[str, str]] = {
    "bad_json": N_("The message could not be read: it is not valid JSON."),
    "not_an_object": N_("The message must be a JSON object."),
    "unknown_type": N_("Unknown message type: {type}."),
    "unknown_kind": N_("Unknown action: {kind}."),
    "missing_field": N_("Something is missing from the message: {field}."),
    "unknown_field": N_("The message has a field it should not have: {field}."),
    "bad_field": N_("This field has a wrong value: {field}."),
    "unknown_card": N_("There is no such card: {card}."),
    "unknown_strain": N_("There is no such trump choice: {strain}."),
    "bad_bid_value": N_("That is not a bid value: {value}."),
    "deal_not_over": N_("The deal is not over yet."),
    "match_over": N_("The match is over: start a new game."),
    "game_not_found": N_("This game does not exist (or no longer exists)."),
    "missing_token": N_("This game can only be played with its access key."),
    "bad_token": N_("This access key does not open this game."),
    "unknown_rules": N_("Unknown rules: {rules}."),
    "unknown_level": N_("Unknown level: {level}."),
    "unknown_language": N_("Unknown language: {lang}."),
    "unknown_deck": N_("Unknown card deck: {deck}."),
    "not_found": N_("There is nothing at this address."),
    "internal": N_("Something went wrong on the server. Your game is saved: try again."),
    "stale": N_("The game changed elsewhere meanwhile: here it is as it stands."),
    "unavailable": N_(
        "The server cannot save right now. Your game is saved as it stands: try again in a moment."
    ),
    "bad_origin": N_("This request comes from another site: it is refused."),
    "not_json": N_("The request must be sent as JSON (application/json)."),
    "method_not_allowed": N_("This method is not allowed at this address."),
    "body_timeout": N_("The request took too long to arrive: send it again."),
    "rate_limited": N_("Too many requests: wait a moment, then try again."),
    "too_many_games": N_(
        "Too many games created from this address: wait a minute, then try again."
    ),
    "too_many_sockets": N_("Too many connections to this game: close one, then try again."),
    "too_slow": N_(
        "This connection could not keep up with the game: reconnect to see it as it stands."
    ),
    # Rooms (cardavia.web.rooms).
    "room_not_found": N_("There is no room with this code (or it has closed)."),
    "bad_name": N_("Choose a display name of 1 to {count} letters."),
    "seat_taken": N_("This seat is taken: choose another one."),
    "room_full": N_("Every seat of this room is taken."),
    "not_creator": N_("Only the player who created the room can do that."),
    "already_started": N_("The game has started: the seats can no longer change this way."),
    "not_started": N_("The game has not started yet."),
    "too_many_rooms": N_("Too many rooms created from this address: wait a while, or close one."),
    "too_many_attempts": N_("Too many wrong codes: wait a minute, then try again."),
    "unknown_phrase": N_("There is no such quick phrase: {value}."),
    "watching": N_("You are watching this table: watchers do not play."),
    "removed": N_("You no longer have a seat in this room."),
}
"""The errors of the site itself (a malformed message, a wrong key, …) by code."""

PLURALS: Final[Mapping[str, tuple[str, str]]] = {
    "too_large": NP_(
        "The message is too long: at most {count} byte is accepted.",
        "The message is too long: at most {count} bytes are accepted.",
    ),
    "reserve": NP_(
        "Litige: {count} point waits for the winner of the next deal.",
        "Litige: {count} points wait for the winner of the next deal.",
    ),
}
"""Messages whose wording depends on a number, ``(singular, plural)``: the error
``too_large`` (the number is ``args["count"]``) and the score line ``reserve``."""


BID_WORDS: Final[Mapping[str, str]] = {
    "pass": N_("Pass"),
    "take": N_("Take: {strain}"),
    "bid": N_("{value} {strain}"),
    "coinche": N_("Coinche"),
    "surcoinche": N_("Surcoinche"),
}
BID_VALUE_WORDS: Final[Mapping[int, str]] = {CAPOT: N_("Capot"), GENERALE: N_("Générale")}
ANNOUNCEMENT_NAMES: Final[Mapping[str, str]] = {
    "tierce": N_("Tierce"),
    "cinquante": N_("Fifty"),
    "cent": N_("Hundred"),
    "carré": N_("Carré"),
}
"""The engine's names of announcements (:attr:`Announcement.name`), as the table says them."""
BELOTE_WORDS: Final[Mapping[str, str]] = {"belote": N_("Belote!"), "rebelote": N_("Rebelote!")}
SCORE_LINES: Final[Mapping[str, str]] = {
    "cards": N_("Card points"),
    "last_trick": N_("Last trick (dix de der)"),
    "capot": N_("Capot: all eight tricks ({points})"),
    "announcement": N_("{name} ({seat})"),
    "belote": N_("Belote–rebelote"),
    "contract_made": N_("Contract made"),
    "contract_failed": N_("Contract failed"),
    "contract_litige": N_("Litige: a tie"),
    "multiplier": N_("Multiplied by {multiplier}"),
    "rounding": N_("Rounded to the nearest ten"),
    "total": N_("Score of the deal"),
}
"""The lines of a deal's score breakdown (:class:`ScoreLine.code`); ``reserve`` is plural."""


PRESET_NAMES: Final[Mapping[str, str]] = {
    "cardavia": N_("Cardavia table"),
    "maison": N_("House rules"),
    "coinche": N_("Coinche (official rules)"),
    "maghreb": N_("Maghreb (Spanish deck)"),
}
PRESET_DESCRIPTIONS: Final[Mapping[str, str]] = {
    "cardavia": N_("A single deal: you and your partner against two opponents."),
    "maison": N_("A match to {target} points, with announcements."),
    "coinche": N_("A match to {target} points: an auction, coinche and surcoinche."),
    "maghreb": N_("A match to {target} points with the Spanish deck and announcements."),
}
LEVEL_NAMES: Final[Mapping[str, str]] = {
    "beginner": N_("Beginner"),
    "club": N_("Club player"),
    "strong": N_("Strong"),
    "expert": N_("Expert"),
}
"""The computer players' levels as the new-game form names them (later levels included)."""
PAGE_TEXTS: Final[Mapping[str, str]] = {
    "not_found_title": N_("Page not found"),
    "not_found": N_("There is no page at this address."),
    "choose_language": N_("Choose your language:"),
}
"""The few words of the pages the server writes itself (the 404 page)."""


class _Default(dict[str, str]):
    """Format arguments that leave an unknown placeholder as it is instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def format_text(template: str, args: Mapping[str, object]) -> str:
    """``template`` with its ``{name}`` placeholders filled; a translation that names an
    unknown placeholder, or has a stray brace, is shown as it is rather than failing."""
    try:
        return template.format_map(_Default({k: str(v) for k, v in args.items()}))
    except (ValueError, IndexError):
        return template


@dataclass(frozen=True, slots=True)
class Wording:
    """Everything the server says, in one language."""

    lang: str
    translations: gettext.NullTranslations

    @property
    def direction(self) -> str:
        """``rtl`` or ``ltr``."""
        return text_direction(self.lang)

    def gettext(self, message: str, **args: object) -> str:
        """The translation of ``message``, its placeholders filled from ``args``."""
        text = self.translations.gettext(message)
        return format_text(text, args) if args else text

    def ngettext(self, singular: str, plural: str, count: int, **args: object) -> str:
        """The translation of a message whose form depends on ``count`` (the language's plural
        rule picks the form); ``{count}`` and ``args`` fill the placeholders."""
        text = self.translations.ngettext(singular, plural, count)
        return format_text(text, {"count": count, **args})

    # -- names --

    def card(self, card: Card | str, deck: str) -> str:
        """A card's name, from its number or its code (an unknown code is shown as it is)."""
        if isinstance(card, str):
            try:
                number = parse_card(card)
            except ValueError:
                return card
            return card_name(number, self.lang, deck)
        return card_name(card, self.lang, deck)

    def suit(self, suit: Suit | int | str, deck: str) -> str:
        """A suit's name, from its number or its code."""
        if isinstance(suit, str):
            if suit not in "SHDC" or len(suit) != 1:
                return suit
            suit = "SHDC".index(suit)
        return suit_name(suit, self.lang, deck)

    def strain(self, code: str, deck: str) -> str:
        """A contract's strain by its code: a suit, ``NT`` or ``AT``."""
        if code in STRAIN_NAMES:
            return self.gettext(STRAIN_NAMES[code])
        return self.suit(code, deck)

    def seat(self, seat: str) -> str:
        """A seat's name by its letter (``N`` → North), from :mod:`cardavia.teach.names`."""
        if len(seat) != 1 or seat not in "NESW":
            return seat
        return names.seat_name("NESW".index(seat), self.lang)

    def bid_value(self, value: int | str) -> str:
        """A bid's value: a number, or the words for capot and générale."""
        number = int(value) if isinstance(value, int) or str(value).isdigit() else 0
        if number in BID_VALUE_WORDS:
            return self.gettext(BID_VALUE_WORDS[number])
        return str(value)

    # -- sentences --

    def reason(self, reason: Reason, deck: str) -> str:
        """An engine :class:`Reason` for refusing an action, said to the player who tried it;
        card, suit and seat codes in its arguments become names. A code this module does not
        know yet is given in the engine's English rather than not at all."""
        args = dict(reason.args)
        if reason.code == "wrong_phase":
            phase = PHASE_REFUSALS.get(args.get("phase", ""), PHASE_REFUSALS["playing"])
            return self.gettext(phase)
        template = REASONS.get(reason.code)
        if template is None:
            log.warning("no wording for the refusal %r", reason.code)
            return reason.message
        words: dict[str, object] = {}
        for key, value in args.items():
            if key == "card":
                words[key] = self.card(value, deck)
            elif key == "suit":
                words[key] = self.suit(value, deck)
            elif key in ("seat", "to_move"):
                words[key] = self.seat(value)
            elif key == "strain":
                words[key] = self.strain(value, deck)
            elif key == "value":
                words[key] = self.bid_value(value)
            else:
                words[key] = value
        return self.gettext(template, **words)

    def error(self, code: str, args: Mapping[str, object] | None = None) -> str:
        """One of the site's :data:`ERRORS` (or a plural one), its arguments filled in."""
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
        deck: str = "french",
    ) -> str:
        """The words of a bid in the bidding history (``Pass``, ``Take: hearts``, ``90
        spades``)."""
        template = BID_WORDS.get(kind, kind)
        words: dict[str, object] = {}
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
        text = self.gettext(description, target=target or "") if description else ""
        return name, text

    def level(self, key: str) -> str:
        """A computer players' level by its key (a new level without words yet: its key)."""
        return self.gettext(LEVEL_NAMES[key]) if key in LEVEL_NAMES else key.capitalize()

    def page_text(self, key: str) -> str:
        """One of :data:`PAGE_TEXTS`."""
        return self.gettext(PAGE_TEXTS[key])

    def belote(self, word: str) -> str:
        """``belote`` or ``rebelote`` as the table says it."""
        return self.gettext(BELOTE_WORDS[word]) if word in BELOTE_WORDS else word

    def score_line(self, code: str, fallback: str, **args: object) -> str:
        """A line of a deal's score breakdown by its code (the engine's English text for a
        code this module does not know)."""
        if code == "reserve":
            singular, plural = PLURALS["reserve"]
            return self.ngettext(singular, plural, int(str(args.pop("points", 0))))
        template = SCORE_LINES.get(code)
        if template is None:
            return fallback
        return self.gettext(template, **args)
