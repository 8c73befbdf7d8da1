"""Cardavia's words: one vocabulary for the site, the rules pages and the terminal.

- :mod:`~cardavia.words.languages`: the six languages, their own names, their direction.
- :mod:`~cardavia.words.names`: seats, suits, ranks and cards named in each language and
  deck, in every grammatical form a sentence needs.
- :mod:`~cardavia.words.catalogs`: the gettext catalogs (``.po`` files beside this package,
  compiled in memory), one loader whatever the domain: ``messages`` for the table, the site
  and the terminal, ``rules`` for the rules and learning pages.
- :mod:`~cardavia.words.filling`: placeholders and the names put in them; the ``N_`` markers.
- :mod:`~cardavia.words.phrases`: each code of the engine and of the site, as an English
  message id.
- :mod:`~cardavia.words.wording`: :class:`Wording`, everything said in one language.
- :mod:`~cardavia.words.glossary`: the word each language uses for each term of the game,
  and the words it must not use, checked against every catalog and generated page.

The engine's English is the fallback everywhere: a missing catalog or message is said as the
English source.

>>> load_catalogs().wording("es").bid("bid", strain="S", value=90)
'90 picas'
>>> rules_text("fr").points(41)
'41 points'
>>> from cardavia.belote import parse_card
>>> card_name(parse_card("JH"), "hi")
'पान का गुलाम'
"""

from cardavia.words.catalogs import LOCALE_DIR, MESSAGES, RULES, Catalog, catalog_path
from cardavia.words.filling import (
    N_,
    NP_,
    Arg,
    CardArg,
    RankArg,
    SeatArg,
    SuitArg,
    TeamArg,
    contract,
    format_text,
    placeholders,
)
from cardavia.words.languages import (
    DEFAULT_LANGUAGE,
    LANGUAGE_NAMES,
    LANGUAGES,
    RTL_LANGUAGES,
    is_language,
    text_direction,
)
from cardavia.words.names import (
    card_forms,
    card_name,
    card_short,
    rank_forms,
    rank_name,
    rank_prose,
    rank_words,
    seat_name,
    suit_name,
    team_name,
)
from cardavia.words.wording import (
    Catalogs,
    Wording,
    load_catalogs,
    missing_messages,
    rules_text,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "MESSAGES",
    "NP_",
    "N_",
    "RTL_LANGUAGES",
    "RULES",
    "Arg",
    "CardArg",
    "Catalog",
    "Catalogs",
    "RankArg",
    "SeatArg",
    "SuitArg",
    "TeamArg",
    "Wording",
    "card_forms",
    "card_name",
    "card_short",
    "catalog_path",
    "contract",
    "format_text",
    "is_language",
    "load_catalogs",
    "missing_messages",
    "placeholders",
    "rank_forms",
    "rank_name",
    "rank_prose",
    "rank_words",
    "rules_text",
    "seat_name",
    "suit_name",
    "team_name",
    "text_direction",
]
